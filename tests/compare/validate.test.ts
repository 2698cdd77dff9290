/**
 * The validation runner: an engine error becomes a failed case, a check over its tolerance fails
 * the case, unknown names are refused, and a run reports each case in each engine it names.
 */
import { describe, expect, it } from 'vitest';
import { engineNames, runValidation, VALIDATION_CASES, type ValidationCase } from '../../src/index.ts';
import { formatResults, runCase } from '../../src/compare/validate.ts';

describe('runner', () => {
  const failing: ValidationCase = {
    name: 'boom', title: 'boom', engines: ['grid'], source: 'none', meaning: 'none',
    run() {
      throw new Error('engine exploded');
    },
  };
  const fine: ValidationCase = {
    name: 'fine', title: 'fine', engines: ['grid'], source: 'none', meaning: 'none',
    run: () => ({ checks: [{ name: 'err', value: 0.5, tolerance: 0.1, passed: false, unit: '' }], detail: 'd' }),
  };

  it('turns an engine error into a failed case instead of a crash', () => {
    const r = runCase(failing, 'grid', 'tiny');
    expect(r.passed).toBe(false);
    expect(r.error).toBe('engine exploded');
    expect(formatResults([r])).toMatch(/boom\s+grid\s+error\s+FAIL/);
  });

  it('fails a case when any check is over its tolerance', () => {
    const r = runCase(fine, 'grid', 'tiny');
    expect(r.passed).toBe(false);
    expect(formatResults([r])).toMatch(/fine\s+grid\s+err\s+0\.5000\s+≤ 0\.1000\s+FAIL/);
  });

  it('refuses an unknown case by name', () => {
    expect(() => runValidation({ cases: ['nope'] })).toThrow(/no validation case 'nope'; cases: hydrostatic/);
  });
});

/**
 * The runner end to end on the cheapest case in both engines: one result per engine, in the
 * registry's order, each with finite checks, positive tolerances and an SVG plot where it draws
 * one. Whether each case passes its tolerances is asserted per engine, tiny and full size, by
 * tests/grid/validate.test.ts and tests/particle/validate.test.ts.
 */
describe('runValidation', () => {
  it('runs free-fall (tiny) in each engine it names, reporting each result as it comes', () => {
    const seen: string[] = [];
    const results = runValidation({ cases: ['free-fall'], size: 'tiny', onResult: (r) => seen.push(`${r.caseName}/${r.engine}`) });
    const freeFall = VALIDATION_CASES.find((c) => c.name === 'free-fall')!;
    const engines = freeFall.engines.filter((e) => engineNames().includes(e));
    expect(engines.length).toBeGreaterThan(0);
    expect(results.map((r) => `${r.caseName}/${r.engine}`)).toEqual(engines.map((e) => `free-fall/${e}`));
    expect(seen).toEqual(results.map((r) => `${r.caseName}/${r.engine}`));
    for (const r of results) {
      expect(r.error, r.error).toBeUndefined();
      expect(r.checks.length).toBeGreaterThan(0);
      for (const k of r.checks) {
        expect(Number.isFinite(k.value), `${k.name} = ${k.value}`).toBe(true);
        expect(k.tolerance).toBeGreaterThan(0);
      }
      if (r.plot) expect(r.plot).toMatch(/^<svg[\s\S]*<\/svg>$/);
      expect(r.passed, formatResults([r])).toBe(true);
    }
  });
});
