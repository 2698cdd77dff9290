/**
 * `viscid validate [--case NAME] [--backend webgpu]`: the built-in physical validation suite
 * (src/compare/validate.ts). Prints each check's error against its tolerance; exits 1 when any
 * check fails. With --backend webgpu the particle engine's frames are stepped on the GPU
 * (gpu-validate.ts); the cases whose scenes the backend does not run are listed as refused, with
 * what it does not run, and fail nothing.
 */
import { join, resolve } from 'node:path';
import { Option } from 'commander';
import { engineNames, type EngineName } from '../index.ts';
import { engineLabel, findCase, formatResults, runValidation, validationReportHtml, VALIDATION_CASES, type CaseResult } from '../compare/validate.ts';
import { defineCommand, EXIT_FAILURE, setExitCode, UsageError } from './command.ts';
import { writeFileAtomic } from './files.ts';
import { engineFlag, methodAlias } from './engine-option.ts';
import { webgpuValidation } from './gpu-validate.ts';

interface ValidateFlags {
  case?: string[];
  engine?: string;
  method?: string;
  tiny?: boolean;
  out?: string;
  list?: boolean;
  backend?: 'cpu' | 'webgpu';
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
    .addOption(new Option('--backend <backend>', "where the particle engine's frames run: cpu (default) or webgpu (the GPU through the optional package webgpu; cases whose scenes it does not run are refused, naming what)").choices(['cpu', 'webgpu']))
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
      const gpu = opts.backend === 'webgpu';
      if (gpu && opts.engine === 'grid') throw new UsageError('--backend webgpu runs the particle engine: give --engine particle (or no --engine)');
      if (gpu) opts.engine = 'particle';
      const available = engineNames() as EngineName[];
      const wanted = (opts.engine ? [opts.engine as EngineName] : (['particle', 'grid'] as EngineName[])).filter((e) => available.includes(e));
      if (wanted.length === 0) throw new UsageError(`no engine to validate: registered engines: ${available.join(', ') || 'none'}`);
      const backend = gpu ? webgpuValidation() : undefined;
      let results: CaseResult[];
      let adapter = '';
      try {
        results = runValidation({
          cases: opts.case,
          engines: wanted,
          size: opts.tiny ? 'tiny' : 'full',
          backend,
          onResult: (r) => process.stderr.write(`${r.caseName} (${engineLabel(r)}): ${r.refused ? `refused — ${r.refused}` : `${r.passed ? 'pass' : 'FAIL'} in ${(r.wallMs / 1000).toFixed(1)} s — ${r.detail}${r.error ? `: ${r.error}` : ''}`}\n`),
        });
      } finally {
        adapter = backend?.adapter() ?? '';
        backend?.close();
      }
      process.stdout.write(`${formatResults(results)}\n`);
      const refused = results.filter((r) => r.refused);
      const ran = results.filter((r) => !r.refused);
      const failed = ran.filter((r) => !r.passed);
      const named = (rs: CaseResult[]) => rs.map((r) => `${r.caseName} (${engineLabel(r)})`).join(', ');
      process.stdout.write(`\n${ran.length - failed.length}/${ran.length} passed${failed.length ? `; failed: ${named(failed)}` : ''}${refused.length ? `; refused by the ${backend?.name} backend: ${named(refused)}` : ''}\n`);
      if (adapter) process.stdout.write(`WebGPU adapter: ${adapter}\n`);
      if (opts.out) {
        const out = resolve(opts.out);
        for (const r of results) if (r.plot) writeFileAtomic(join(out, `${r.caseName}-${r.engine}.svg`), r.plot);
        writeFileAtomic(join(out, 'report.html'), validationReportHtml(results));
        writeFileAtomic(join(out, 'results.json'), `${JSON.stringify(results.map(({ plot: _plot, ...rest }) => rest), null, 2)}\n`);
      }
      if (failed.length) setExitCode(EXIT_FAILURE);
    }),
);
