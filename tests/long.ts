/**
 * Long physical cases (minutes each on two cores) run with `VISCID_LONG=1`. Without it their
 * block is skipped under a title that names itself and how to run it, e.g.
 * "honey drop on the grid (VISCID_LONG=1) — skipped: a long case; to run it: VISCID_LONG=1 npx
 * vitest run tests/grid/honey-drop.test.ts", and tests/global-setup.ts lists the files holding
 * such blocks at the start and end of `npm test` (tests/skips.ts finds them by the name
 * VISCID_LONG in the file).
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'vitest';
import { LONG } from './skips.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The title a skipped long block carries: what it is, and the command that runs it. */
export function longSkipTitle(title: string, file: string): string {
  return `${title} — skipped: a long case; to run it: VISCID_LONG=1 npx vitest run ${file}`;
}

/**
 * `describe(title, fn)` with VISCID_LONG=1; else the block skipped, its title saying how to run
 * it. `meta` is the calling file's `import.meta` (for the file's path in the title).
 */
export function describeLong(meta: ImportMeta, title: string, fn: () => void): void {
  if (LONG) {
    describe(title, fn);
    return;
  }
  const file = relative(ROOT, fileURLToPath(meta.url)).replaceAll('\\', '/');
  describe.skip(longSkipTitle(title, file), fn);
}
