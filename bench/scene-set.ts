/**
 * `--set path=value` for the bench scripts: the JSON `value` put at a dotted `path` of a scene
 * (its JSON, or the parsed scene), making the objects on the way where they are missing. The
 * user-facing form is `viscid sweep --set` (src/cli/sweep-plan.ts: array elements, lists of values
 * and errors that name the path).
 */
export function setScenePath(scene: object, assignment: string): void {
  const eq = assignment.indexOf('=');
  if (eq < 0) throw new Error(`--set ${assignment}: write path=value, e.g. grid.cellSize=0.004`);
  const keys = assignment.slice(0, eq).split('.');
  let o = scene as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[keys[keys.length - 1]] = JSON.parse(assignment.slice(eq + 1));
}

/** A bench's arguments split into its `--set path=value` assignments and the rest, in order. */
export function splitSetArgs(args: readonly string[]): { sets: string[]; plain: string[] } {
  const sets: string[] = [], plain: string[] = [];
  for (let a = 0; a < args.length; a++) {
    if (args[a] === '--set') sets.push(args[++a]);
    else plain.push(args[a]);
  }
  return { sets, plain };
}
