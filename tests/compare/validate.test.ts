/**
 * The validation runner, and every case's tiny variant in the engines it applies to: each runs to
 * the end with finite errors; the cases listed in EXPECTED_PASS must also pass their tolerances.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type CaseResult, type EngineName, engineNames, runValidation, VALIDATION_CASES, type ValidationCase } from '../../src/index.ts';
import { formatResults, runCase } from '../../src/compare/validate.ts';

/** Tiny variants that pass today (measured 2026-11-25); a regression turns one of these red. */
const EXPECTED_PASS = [
  'hydrostatic/grid', 'free-fall/particle', 'poiseuille/grid', 'poiseuille-startup/grid', 'cavity/grid', 'dam-break/grid',
  'dam-break/particle', 'hydrostatic/particle', 'spreading/particle',
];

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

const runs: { c: ValidationCase; engine: EngineName }[] = [];
for (const c of VALIDATION_CASES) for (const engine of c.engines) if (engineNames().includes(engine)) runs.push({ c, engine });

describe.runIf(runs.length > 0)('tiny variants', () => {
  const results = new Map<string, CaseResult>();
  beforeAll(() => {
    for (const { c, engine } of runs) results.set(`${c.name}/${engine}`, runCase(c, engine, 'tiny'));
  }, 240_000);

  it.each(runs.map(({ c, engine }) => `${c.name}/${engine}`))('%s runs to the end with finite errors', (key) => {
    const r = results.get(key)!;
    expect(r.error, r.error).toBeUndefined();
    expect(r.checks.length).toBeGreaterThan(0);
    for (const k of r.checks) {
      expect(Number.isFinite(k.value), `${k.name} = ${k.value}`).toBe(true);
      expect(k.tolerance).toBeGreaterThan(0);
    }
    if (r.plot) expect(r.plot).toMatch(/^<svg[\s\S]*<\/svg>$/);
    if (EXPECTED_PASS.includes(key)) expect(r.passed, `${key}: ${r.detail}\n${formatResults([r])}`).toBe(true);
  });
});
