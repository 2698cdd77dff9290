/**
 * `viscid validate` and `viscid validate --tiny` for the particle engine: every case that names
 * the particle engine passes every check, at both sizes (issue 15). The full sizes take about a
 * minute on one core (measured: hydrostatic 10 s, dam break 6 s, spreading 36 s; 3–4× that on a
 * loaded machine), the tiny ones seconds;
 * tests/compare/validate.test.ts runs the tiny variants of every engine.
 */
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { formatResults, runCase } from '../../src/compare/validate.ts';
import { VALIDATION_CASES } from '../../src/compare/validate/registry.ts';

// The viscosity cases (slot-poiseuille, shear-decay) have their own file: viscosity-implicit.test.ts;
// rope coiling its own, rope-coiling.test.ts (its full size is a long case).
const OWN_FILE_CASES = ['slot-poiseuille', 'shear-decay', 'rope-coiling'];
const cases = VALIDATION_CASES.filter((c) => c.engines.includes('particle') && !OWN_FILE_CASES.includes(c.name));

describe('viscid validate, particle engine', () => {
  it('names the particle engine in hydrostatic, free-fall, dam-break and spreading', () => {
    expect(cases.map((c) => c.name)).toEqual(['hydrostatic', 'free-fall', 'dam-break', 'spreading']);
  });
  for (const size of ['tiny', 'full'] as const) {
    for (const c of cases) {
      it(`${c.name} passes at ${size} size`, () => {
        const r = runCase(c, 'particle', size);
        expect(r.error, r.error).toBeUndefined();
        expect(r.checks.length).toBeGreaterThan(0);
        expect(r.passed, `${r.detail}\n${formatResults([r])}`).toBe(true);
      }, 600_000);
    }
  }
});
