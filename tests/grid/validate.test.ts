/**
 * `viscid validate` on the grid engine: every grid case passes its tolerances, tiny and full size
 * (src/compare/validate/*.ts; what each measures is in its source and the README's table).
 *
 * Full sizes kept out of the default run:
 *  - rope-coiling (minutes): its full case runs in tests/grid/rope-coiling.test.ts with VISCID_LONG=1;
 *    its tiny case (14 s of CPU, the default run's largest test until stop 64) here with VISCID_LONG=1:
 *    rope-coiling.test.ts holds its check, the buckle within 0.6 s, on the same run stopped at the
 *    frame it passes;
 *  - cavity (Re = 100 on 32², 15 s of flow, RMS ≤ 0.05 against Ghia et al.): the same solver on the
 *    same flow is held to an RMS of 0.02, settled on 32², by tests/grid/cavity-re100.test.ts in the default
 *    run, and the tiny cavity here runs the validation case's own code; it runs with VISCID_LONG=1;
 *  - hydrostatic, free-fall, dam-break and spreading (6–9 s each at a load of 10; 18 s of CPU
 *    together): their tiny cases meet the full size's tolerances (hydrostatic's speed, volume and
 *    drift 1e-11 against 0.05, 0.02 and 0.05; the drop 1.1e-3 against 0.02 and the volume 1.9e-2
 *    against 0.03; the dam-break front's RMS error 0.055 against 0.15 (the full size's 0.054);
 *    spreading's ν −7 % against 35 % (the full size's −15 %)), and the default run holds them to
 *    those (runCase's `tolerances`); the full sizes run with VISCID_LONG=1.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import '../../src/index.ts';
import { formatResults, runCase, VALIDATION_CASES, type CaseSize } from '../../src/compare/validate.ts';

const gridCases = VALIDATION_CASES.filter((c) => c.engines.includes('grid'));
/** Full-size cases that take minutes: rope-coiling runs in its own file with VISCID_LONG=1. */
const LONG_FULL = new Set(['rope-coiling']);
/** Full-size cases whose property a default-run test holds already (see above): VISCID_LONG=1 only. */
const COVERED_FULL = new Set(['cavity', 'hydrostatic', 'free-fall', 'dam-break', 'spreading']);
/** Tiny cases whose check a quicker default-run test holds (see above): VISCID_LONG=1 only. */
const LONG_TINY = new Set(['rope-coiling']);
/** Tiny cases held to the full size's tolerances in the default run (see above). */
const TINY_AT_FULL = new Set(['hydrostatic', 'free-fall', 'dam-break', 'spreading']);

/**
 * One run of each case at each size and tolerances, shared by the tests that read it: free-fall's tiny
 * run at the full tolerances serves the check of the tolerances below and free-fall's own test (the same
 * run made twice until stop 64, the seventeenth pass).
 */
const runs = new Map<string, ReturnType<typeof runCase>>();
function run(name: string, size: CaseSize, tolerances: CaseSize = size): ReturnType<typeof runCase> {
  const key = `${name} ${size} ${tolerances}`;
  let r = runs.get(key);
  if (!r) runs.set(key, (r = runCase(gridCases.find((c) => c.name === name)!, 'grid', size, undefined, tolerances)));
  return r;
}

function passes(name: string, size: CaseSize, tolerances: CaseSize = size): void {
  const r = run(name, size, tolerances);
  expect(r.error, r.error).toBeUndefined();
  expect(r.checks.length).toBeGreaterThan(0);
  expect(r.tolerances ?? r.size).toBe(tolerances);
  expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
}

describe('viscid validate, grid engine', () => {
  it('holds the tiny cases of hydrostatic, free-fall, dam-break and spreading to their full size\'s tolerances', () => {
    expect(gridCases.map((c) => c.name).filter((n) => TINY_AT_FULL.has(n))).toEqual([...TINY_AT_FULL]);
    // The full tolerances are the tighter ones: the same case held to them fails where the tiny ones pass.
    const tiny = run('free-fall', 'tiny');
    const full = run('free-fall', 'tiny', 'full');
    expect(full.tolerances).toBe('full');
    expect(full.checks.map((k) => k.tolerance)).toEqual([0.02, 0.03]);
    for (let i = 0; i < full.checks.length; i++) expect(full.checks[i].tolerance).toBeLessThan(tiny.checks[i].tolerance);
  });
  const tiny = gridCases.map((c) => c.name).filter((n) => !LONG_TINY.has(n));
  it.each(tiny.filter((n) => !TINY_AT_FULL.has(n)))('%s passes (tiny)', (name) => passes(name, 'tiny'));
  it.each(tiny.filter((n) => TINY_AT_FULL.has(n)))('%s passes (tiny, at the full size\'s tolerances)', (name) => passes(name, 'tiny', 'full'));
  const full = gridCases.map((c) => c.name).filter((n) => !(LONG_FULL.has(n) || COVERED_FULL.has(n)));
  it.each(full)('%s passes (full)', (name) => passes(name, 'full'));
});

describeLong(import.meta, 'viscid validate, grid engine, full size and the long tiny cases (VISCID_LONG=1)', () => {
  it.each([...LONG_TINY])('%s passes (tiny)', (name) => passes(name, 'tiny'));
  it.each([...COVERED_FULL])('%s passes (full)', (name) => passes(name, 'full'));
});
