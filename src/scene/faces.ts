/**
 * The six faces of the domain box, in the order every per-face table uses. Apart from schema.ts
 * (which re-exports them) so that the engines' modules, which need the names and not the scene's
 * zod schema, do not load zod and build the schema where they start: a team thread's start on
 * dist/ (src/cli/thread-entry.ts) spent about 0.2 s of CPU on it.
 */
export const FACES = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'] as const;
export type Face = (typeof FACES)[number];
