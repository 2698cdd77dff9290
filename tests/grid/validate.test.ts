/**
 * `viscid validate` on the grid engine: every grid case passes its tolerances, tiny and full size
 * (src/compare/validate/*.ts; what each measures is in its source and the README's table).
 *
 * Full sizes kept out of the default run:
 *  - rope-coiling (minutes): its full case runs in tests/grid/rope-coiling.test.ts with VISCID_LONG=1;
 *  - cavity (Re = 100 on 32², 15 s of flow, RMS ≤ 0.05 against Ghia et al.): the same solver on the
 *    same flow is held to an RMS of 0.02, settled on 32², by tests/grid/cavity-re100.test.ts in the default
 *    run, and the tiny cavity here runs the validation case's own code; it runs with VISCID_LONG=1.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import '../../src/index.ts';
import { formatResults, runCase, VALIDATION_CASES } from '../../src/compare/validate.ts';

const gridCases = VALIDATION_CASES.filter((c) => c.engines.includes('grid'));
/** Full-size cases that take minutes: rope-coiling runs in its own file with VISCID_LONG=1. */
const LONG_FULL = new Set(['rope-coiling']);
/** Full-size cases whose property a default-run test holds already (see above): VISCID_LONG=1 only. */
const COVERED_FULL = new Set(['cavity']);

function passes(name: string, size: 'tiny' | 'full'): void {
  const r = runCase(gridCases.find((c) => c.name === name)!, 'grid', size);
  expect(r.error, r.error).toBeUndefined();
  expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
}

describe('viscid validate, grid engine', () => {
  for (const size of ['tiny', 'full'] as const) {
    const names = gridCases.map((c) => c.name).filter((n) => size === 'tiny' || !(LONG_FULL.has(n) || COVERED_FULL.has(n)));
    it.each(names)(`%s passes (${size})`, (name) => passes(name, size));
  }
});

describeLong(import.meta, 'viscid validate, grid engine, full size (VISCID_LONG=1)', () => {
  it.each([...COVERED_FULL])('%s passes (full)', (name) => passes(name, 'full'));
});
