/**
 * The suite's own order (tests/sequencer.ts): every file LONG_FIRST starts first exists, once, so
 * that a file renamed or removed does not leave the list pointing at nothing while the long file
 * it became starts last.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { LONG_FIRST } from './sequencer.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

it('names test files that exist, each once', () => {
  expect(LONG_FIRST.filter((p) => !p.endsWith('.test.ts') || !existsSync(join(ROOT, p)))).toEqual([]);
  expect(new Set(LONG_FIRST).size).toBe(LONG_FIRST.length);
});
