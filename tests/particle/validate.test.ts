/**
 * `viscid validate` and `viscid validate --tiny` for the particle engine: every case that names
 * the particle engine passes every check, at both sizes (issue 15). The full sizes take about a
 * minute on one core (measured: hydrostatic 10 s, dam break 6 s, spreading 36 s; 3–4× that on a
 * loaded machine), the tiny ones seconds;
 * tests/compare/validate.test.ts runs the tiny variants of every engine.
 *
 * Full-size spreading (a 6 cm blob of 2 mm particles for 0.8 s, ν_effective within 35 % of ν) runs
 * with VISCID_LONG=1: it is more than half of this file's time. The default run keeps its property
 * with the tiny blob, as fine (1.5 mm particles, 9 thick, 48 substeps) but 4 cm wide for 0.5 s: the
 * ν a user states is the ν the spreading rate gives back by Huppert's law, within 60 %.
 *
 * Hydrostatic, free-fall and dam-break: their tiny cases are held to the full size's tolerances
 * (runCase's `tolerances`), which they meet with a wide margin (hydrostatic's speed 4.0e-5, volume
 * 0 and drift 3.7e-5 against 0.05, 0.02 and 0.05, the full size's 0.011, 0 and 8.1e-4; the
 * dam-break front's RMS error 0.036 against 0.15, the full size's 0.070), and their full sizes (5.0
 * and 1.8 s of CPU) run with VISCID_LONG=1. A pool at rest is held more tightly in the default run
 * by tests/particle/physics.test.ts (2 mm particles: RMS speed ≤ 0.01 √(g h), density within 2 %)
 * and tests/particle/pool-rest.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import '../../src/index.ts';
import { formatResults, runCase } from '../../src/compare/validate.ts';
import { VALIDATION_CASES } from '../../src/compare/validate/registry.ts';

// The viscosity cases (slot-poiseuille, shear-decay) have their own file: viscosity-implicit.test.ts;
// rope coiling its own, rope-coiling.test.ts (its full size is a long case).
const OWN_FILE_CASES = ['slot-poiseuille', 'shear-decay', 'rope-coiling'];
const cases = VALIDATION_CASES.filter((c) => c.engines.includes('particle') && !OWN_FILE_CASES.includes(c.name));
/** Tiny cases held to the full size's tolerances in the default run (see above). */
const TINY_AT_FULL = new Set(['hydrostatic', 'free-fall', 'dam-break']);
/** Full-size cases that run only with VISCID_LONG=1 (see above): too long, or their property held by a tiny case. */
const LONG_FULL = new Set(['spreading', ...TINY_AT_FULL]);

function passes(name: string, size: 'tiny' | 'full', tolerances: 'tiny' | 'full' = size): void {
  const r = runCase(cases.find((c) => c.name === name)!, 'particle', size, undefined, tolerances);
  expect(r.error, r.error).toBeUndefined();
  expect(r.checks.length).toBeGreaterThan(0);
  expect(r.tolerances ?? r.size).toBe(tolerances);
  expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
}

describe('viscid validate, particle engine', () => {
  it('names the particle engine in hydrostatic, free-fall, dam-break and spreading', () => {
    expect(cases.map((c) => c.name)).toEqual(['hydrostatic', 'free-fall', 'dam-break', 'spreading']);
  });
  for (const size of ['tiny', 'full'] as const) {
    for (const c of cases) {
      if (size === 'full' && LONG_FULL.has(c.name)) continue;
      const tolerances = size === 'tiny' && TINY_AT_FULL.has(c.name) ? 'full' : size;
      it(`${c.name} passes at ${size} size${tolerances !== size ? " (at the full size's tolerances)" : ''}`, () => passes(c.name, size, tolerances), 600_000);
    }
  }
});

describeLong(import.meta, 'viscid validate, particle engine, full size (VISCID_LONG=1)', () => {
  for (const name of LONG_FULL) it(`${name} passes at full size`, () => passes(name, 'full'), 600_000);
});
