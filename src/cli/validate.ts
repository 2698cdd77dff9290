/**
 * `viscid validate [--case NAME]`: the built-in physical validation suite (src/compare/validate.ts).
 * Prints each check's error against its tolerance; exits 1 when any check fails.
 */
import { join, resolve } from 'node:path';
import { engineNames, type EngineName } from '../index.ts';
import { findCase, formatResults, runValidation, validationReportHtml, VALIDATION_CASES, type CaseResult } from '../compare/validate.ts';
import { defineCommand, EXIT_FAILURE, setExitCode, UsageError } from './command.ts';
import { writeFileAtomic } from './files.ts';
import { engineFlag, methodAlias } from './engine-option.ts';

interface ValidateFlags {
  case?: string[];
  engine?: string;
  method?: string;
  tiny?: boolean;
  out?: string;
  list?: boolean;
}

defineCommand((program) =>
  program
    .command('validate')
    .description('run the physical validation suite (analytic and published reference answers); exit code 1 if a case fails')
    .option('-c, --case <name...>', `cases to run (default: all): ${VALIDATION_CASES.map((c) => c.name).join(', ')}`)
    .option('-e, --engine <name>', 'only this engine: particle or grid (alias: -m, --method)')
    .addOption(methodAlias(['particle', 'grid']))
    .option('--tiny', 'the small variants used by the test suite (seconds, looser tolerances)')
    .option('-o, --out <dir>', 'also write report.html, results.json and one SVG plot per case and engine here')
    .option('--list', 'list the cases, their engines and sources, and exit')
    .action((opts: ValidateFlags) => {
      if (opts.list) {
        for (const c of VALIDATION_CASES) process.stdout.write(`${c.name.padEnd(20)} ${c.engines.join(', ').padEnd(15)} ${c.title}\n${' '.repeat(21)}reference: ${c.source}\n${' '.repeat(21)}${c.meaning}\n`);
        return;
      }
      for (const name of opts.case ?? []) {
        try {
          findCase(name);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
      }
      opts.engine = engineFlag(opts);
      if (opts.engine !== undefined && opts.engine !== 'particle' && opts.engine !== 'grid') {
        throw new UsageError(`--engine: expected particle or grid, got '${opts.engine}'`);
      }
      const available = engineNames() as EngineName[];
      const wanted = (opts.engine ? [opts.engine as EngineName] : (['particle', 'grid'] as EngineName[])).filter((e) => available.includes(e));
      if (wanted.length === 0) throw new UsageError(`no engine to validate: registered engines: ${available.join(', ') || 'none'}`);
      const results: CaseResult[] = runValidation({
        cases: opts.case,
        engines: wanted,
        size: opts.tiny ? 'tiny' : 'full',
        onResult: (r) => process.stderr.write(`${r.caseName} (${r.engine}): ${r.passed ? 'pass' : 'FAIL'} in ${(r.wallMs / 1000).toFixed(1)} s — ${r.detail}${r.error ? `: ${r.error}` : ''}\n`),
      });
      process.stdout.write(`${formatResults(results)}\n`);
      const failed = results.filter((r) => !r.passed);
      process.stdout.write(`\n${results.length - failed.length}/${results.length} passed${failed.length ? `; failed: ${failed.map((r) => `${r.caseName} (${r.engine})`).join(', ')}` : ''}\n`);
      if (opts.out) {
        const out = resolve(opts.out);
        for (const r of results) if (r.plot) writeFileAtomic(join(out, `${r.caseName}-${r.engine}.svg`), r.plot);
        writeFileAtomic(join(out, 'report.html'), validationReportHtml(results));
        writeFileAtomic(join(out, 'results.json'), `${JSON.stringify(results.map(({ plot: _plot, ...rest }) => rest), null, 2)}\n`);
      }
      if (failed.length) setExitCode(EXIT_FAILURE);
    }),
);
