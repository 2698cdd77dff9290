/**
 * The validation suite behind `viscid validate`: small physical cases with reference answers
 * (analytic, or published data in ./reference/, each cited there), run in the engines they apply
 * to, each reporting its error against a stated tolerance. Every case has a `full` size (the CLI)
 * and a `tiny` size (the test suite: seconds, looser tolerances stated beside the full ones).
 * One file per case in ./validate/, listed in ./validate/registry.ts; this file runs them.
 */
import type { EngineName } from '../api.ts';
import { withMaker, type CaseResult, type CaseSize, type MakeSimulation, type ValidationCase } from './validate/case.ts';
import { findCase, VALIDATION_CASES } from './validate/registry.ts';

export type { CaseResult, CaseSize, Check, MakeSimulation, ValidationCase } from './validate/case.ts';
export { CaseRefused } from './validate/case.ts';
export { fitLine } from './validate/case.ts';
export { findCase, VALIDATION_CASES } from './validate/registry.ts';
export { fitSpreading, measureSpreading, type SpreadingMeasurement } from './validate/spreading.ts';
export { engineLabel, formatResults, validationReportHtml } from './validate/report.ts';

/** Where a run's engines step: a backend's name and how it makes the cases' simulations (case.ts MakeSimulation). */
export interface CaseBackend {
  name: string;
  make: MakeSimulation;
}

/**
 * Runs one case in one engine (on `backend` when given), timing it; an engine error is a failed
 * case, not a crash, and a scene the backend refuses is a refused case (neither passed nor failed).
 * `tolerances`: the size whose tolerances the checks are held to (default: `size`; the cases that
 * read it: hydrostatic, free-fall, dam-break and spreading).
 */
export function runCase(c: ValidationCase, engine: EngineName, size: CaseSize = 'full', backend?: CaseBackend, tolerances: CaseSize = size): CaseResult {
  const start = performance.now();
  const on = { ...(backend ? { backend: backend.name } : {}), ...(tolerances !== size ? { tolerances } : {}) };
  try {
    const r = withMaker(backend?.make, () => c.run(engine, size, tolerances));
    return { caseName: c.name, engine, size, ...on, passed: r.checks.every((k) => k.passed), wallMs: performance.now() - start, ...r };
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    if ((e as Error)?.name === 'CaseRefused') {
      return { caseName: c.name, engine, size, ...on, passed: false, checks: [], wallMs: performance.now() - start, detail: `refused by the ${backend?.name} backend`, refused: message };
    }
    return {
      caseName: c.name, engine, size, ...on, passed: false, checks: [], wallMs: performance.now() - start,
      detail: 'the run stopped with an error', error: message,
    };
  }
}

/** Runs the named cases (default: all) in every registered engine they apply to. */
export function runValidation(
  options: { cases?: string[]; engines?: EngineName[]; size?: CaseSize; backend?: CaseBackend; onResult?: (r: CaseResult) => void } = {},
): CaseResult[] {
  const cases = options.cases?.length ? options.cases.map(findCase) : VALIDATION_CASES;
  const results: CaseResult[] = [];
  for (const c of cases) {
    for (const engine of c.engines) {
      if (options.engines && !options.engines.includes(engine)) continue;
      const r = runCase(c, engine, options.size, options.backend);
      results.push(r);
      options.onResult?.(r);
    }
  }
  return results;
}
