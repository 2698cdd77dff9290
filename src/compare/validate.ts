/**
 * The validation suite behind `viscid validate`: small physical cases with reference answers
 * (analytic, or published data in ./reference/, each cited there), run in the engines they apply
 * to, each reporting its error against a stated tolerance. Every case has a `full` size (the CLI)
 * and a `tiny` size (the test suite: seconds, looser tolerances stated beside the full ones).
 * One file per case in ./validate/, listed in ./validate/registry.ts; this file runs them.
 */
import type { EngineName } from '../api.ts';
import type { CaseResult, CaseSize, ValidationCase } from './validate/case.ts';
import { findCase, VALIDATION_CASES } from './validate/registry.ts';

export type { CaseResult, CaseSize, Check, ValidationCase } from './validate/case.ts';
export { fitLine } from './validate/case.ts';
export { findCase, VALIDATION_CASES } from './validate/registry.ts';
export { fitSpreading, measureSpreading, type SpreadingMeasurement } from './validate/spreading.ts';
export { formatResults, validationReportHtml } from './validate/report.ts';

/** Runs one case in one engine, timing it; an engine error is a failed case, not a crash. */
export function runCase(c: ValidationCase, engine: EngineName, size: CaseSize = 'full'): CaseResult {
  const start = performance.now();
  try {
    const r = c.run(engine, size);
    return { caseName: c.name, engine, size, passed: r.checks.every((k) => k.passed), wallMs: performance.now() - start, ...r };
  } catch (e) {
    return {
      caseName: c.name, engine, size, passed: false, checks: [], wallMs: performance.now() - start,
      detail: 'the run stopped with an error', error: (e as Error)?.message ?? String(e),
    };
  }
}

/** Runs the named cases (default: all) in every registered engine they apply to. */
export function runValidation(
  options: { cases?: string[]; engines?: EngineName[]; size?: CaseSize; onResult?: (r: CaseResult) => void } = {},
): CaseResult[] {
  const cases = options.cases?.length ? options.cases.map(findCase) : VALIDATION_CASES;
  const results: CaseResult[] = [];
  for (const c of cases) {
    for (const engine of c.engines) {
      if (options.engines && !options.engines.includes(engine)) continue;
      const r = runCase(c, engine, options.size);
      results.push(r);
      options.onResult?.(r);
    }
  }
  return results;
}
