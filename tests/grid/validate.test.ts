/**
 * `viscid validate` on the grid engine: every grid case passes its tolerances, tiny and full size
 * (src/compare/validate/*.ts; what each measures is in its source and the README's table).
 */
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { formatResults, runCase, VALIDATION_CASES } from '../../src/compare/validate.ts';

const gridCases = VALIDATION_CASES.filter((c) => c.engines.includes('grid'));
/** Full-size cases that take minutes: they run in their own files with VISCID_LONG=1. */
const LONG_FULL = new Set(['rope-coiling']);

describe('viscid validate, grid engine', () => {
  for (const size of ['tiny', 'full'] as const) {
    it.each(gridCases.filter((c) => size === 'tiny' || !LONG_FULL.has(c.name)).map((c) => c.name))(`%s passes (${size})`, (name) => {
      const r = runCase(gridCases.find((c) => c.name === name)!, 'grid', size);
      expect(r.error, r.error).toBeUndefined();
      expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
    }, 300_000);
  }
});
