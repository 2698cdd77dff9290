/**
 * `viscid compare <scene>`: runs the scene in both engines and writes metrics.csv, report.html and
 * one SVG per plot to the output directory, then prints the summary table.
 */
import { Option } from 'commander';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { engineNames, ignoredFeatures, type EngineName } from '../index.ts';
import { compareEngines, comparisonReport, defaultFrames } from '../compare/compare.ts';
import { recordRunAsync, type FrameRecord, type RunRecord } from '../compare/metrics.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { GpuParticleRun } from '../gpu/mirror.ts';
import type { Scene, Simulation } from '../index.ts';
import { requestNodeGpu, releaseNodeGpu } from './webgpu.ts';
import type { Axis } from '../compare/metrics.ts';
import { defineCommand, intAtLeast, setExitCode, EXIT_FAILURE, UsageError } from './command.ts';
import { writeFileAtomic } from './files.ts';
import { loadScene } from './load-scene.ts';
import { defaultOutputFolder } from './output-name.ts';
import { printable } from './printable.ts';
import { createProgress } from './progress.ts';
import { volumeWarner } from './volume-warning.ts';

interface CompareFlags {
  frames?: number;
  out?: string;
  engines?: string;
  engine?: string[];
  method?: string[];
  frontAxis?: string;
  quiet?: boolean;
  allowPaths?: string[];
  force?: boolean;
  backend?: 'cpu' | 'webgpu';
}

/** The run 'particle-webgpu': the particle engine's frames stepped on the GPU (src/gpu/mirror.ts), recorded as the others. */
async function gpuRun(scene: Scene, frames: number, options: Parameters<typeof recordRunAsync>[4]): Promise<RunRecord> {
  const engine = 'particle-webgpu';
  let run: GpuParticleRun;
  try {
    const { device } = await requestNodeGpu();
    run = new GpuParticleRun(device, new ParticleSimulation(scene));
  } catch (e) {
    releaseNodeGpu();
    return { engine, scene: scene.name, frames: [], initialVolume: NaN, error: `could not start: ${(e as Error)?.message ?? String(e)}` };
  }
  try {
    return await recordRunAsync(run.mirror, frames, () => run.stepFrame(), engine, options);
  } finally {
    run.dispose();
    releaseNodeGpu();
  }
}

/** What compare writes into its folder: these it may replace with --force, nothing else. */
const COMPARE_FILE = /^(metrics\.csv|report\.html|[\w-]+\.svg)$/;

/**
 * The folder compare writes into, checked before any engine runs: a new or empty folder, or with
 * --force one holding compare's own files (replaced; anything else there is left alone). Another
 * run's files are never overwritten silently.
 */
function compareFolder(out: string, force: boolean): void {
  if (!existsSync(out)) return;
  if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out}: it is a file, not a folder; name a folder for the report`);
  const entries = readdirSync(out);
  if (entries.length === 0) return;
  const shown = entries.slice(0, 3).map(printable).join(', ') + (entries.length > 3 ? ', …' : '');
  if (!force) {
    throw new UsageError(`${out} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}: ${shown}): name a new or empty folder, or pass --force to replace compare's files there (metrics.csv, report.html, the plots)`);
  }
  const ours = entries.filter((e) => COMPARE_FILE.test(e));
  if (ours.some((e) => !lstatSync(join(out, e)).isFile())) throw new UsageError(`${out}: an entry named like compare's output is not a plain file; name another folder`);
  process.stderr.write(`--force: replacing ${ours.length} of compare's files in ${out}${entries.length > ours.length ? `; leaving ${entries.length - ours.length} other entr${entries.length - ours.length === 1 ? 'y' : 'ies'} there` : ''}\n`);
}

function parseEngines(list: string | undefined): EngineName[] | undefined {
  if (list === undefined) return undefined;
  const names = list.split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of names) {
    if (n !== 'particle' && n !== 'grid') throw new UsageError(`--engines: unknown engine '${n}'; engines: particle, grid`);
    if (!engineNames().includes(n)) throw new UsageError(`--engines: engine '${n}' is not available in this build`);
  }
  return names as EngineName[];
}

defineCommand((program) =>
  program
    .command('compare')
    .description('run a scene in both engines and write per-frame metrics (CSV), plots (SVG) and an HTML report')
    .argument('<scene>', 'scene JSON file')
    .option('-f, --frames <n>', 'frames per engine (default: duration × fps)', intAtLeast(1))
    .option('-o, --out <dir>', 'output directory (default: out/compare-<scene name>)')
    .option('--engines <list>', 'comma-separated engines (default: particle,grid)')
    .option('-e, --engine <engine>', 'one engine, or a comma-separated list as --engines (repeatable; alias: -m, --method)', (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option('-m, --method <engine>', 'another name for --engine').argParser((v: string, prev: string[] = []) => [...prev, v]).hideHelp())
    .option('--front-axis <axis>', 'axis the front position is measured along: x, y or z', 'x')
    .option('-q, --quiet', 'no per-frame progress')
    .option('--force', "write into a folder that is not empty, replacing compare's own files there (metrics.csv, report.html, *.svg)")
    .option('--allow-paths <folder>', 'let the scene name files under this folder too, besides its own folder (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .addOption(new Option('--backend <backend>', "webgpu: also run the particle engine on the GPU, as the run 'particle-webgpu' beside the engines compared (then particle alone unless named)").choices(['cpu', 'webgpu']))
    .action(async (file: string, opts: CompareFlags) => {
      const { scene } = loadScene(file, { allowPaths: opts.allowPaths });
      const axisIndex = 'xyz'.indexOf(opts.frontAxis ?? 'x');
      if (axisIndex < 0 || (opts.frontAxis ?? 'x').length !== 1) throw new UsageError(`--front-axis: expected x, y or z, got '${opts.frontAxis}'`);
      const named = [...(opts.engine ?? []), ...(opts.method ?? [])];
      if (named.length && opts.engines !== undefined) throw new UsageError('--engine and --engines both name engines: give one of them');
      const gpu = opts.backend === 'webgpu';
      const engines = parseEngines(named.length ? named.join(',') : opts.engines) ?? (gpu ? ['particle'] : undefined);
      const frames = opts.frames ?? defaultFrames(scene);
      const out = opts.out ? resolve(opts.out) : defaultOutputFolder('compare-', scene.name);
      compareFolder(out, Boolean(opts.force));
      const progress = new Map<string, ReturnType<typeof createProgress>>();
      const warners = new Map<string, ReturnType<typeof volumeWarner>>();
      for (const e of engines ?? (['particle', 'grid'] as const)) for (const f of ignoredFeatures(scene, e)) process.stderr.write(`warning: ${e} engine ignores ${f.path}: ${f.message}\n`);
      const onFrame = (engine: string, record: FrameRecord, sim: Simulation) => {
        if (record.frame === 0) return;
        let p = progress.get(engine);
        if (!opts.quiet) {
          if (!p) progress.set(engine, (p = createProgress(engine, 0, frames, process.stderr)));
          p.update({ frame: record.frame, time: record.time, points: record.pointCount, frameMs: record.wallMs });
        }
        // Liquid the method lost or gained (the engine's own account, sources and sinks counted), said once.
        let warn = warners.get(engine);
        if (!warn) warners.set(engine, (warn = volumeWarner(engine)));
        const line = warn(sim.metrics(), record.time, record.frame);
        if (line) {
          if (p) p.log(line);
          else process.stderr.write(`${line}\n`);
        }
        if (record.frame === frames) p?.stop();
      };
      const measure = { frontAxis: axisIndex as Axis, frontQuantile: 0.01 };
      const runs = compareEngines(scene, { engines, frames, ...measure, onFrame });
      if (gpu) runs.push(await gpuRun(scene, frames, { ...measure, onFrame: (record, sim) => onFrame('particle-webgpu', record, sim) }));
      const report = comparisonReport(scene, runs, axisIndex);
      for (const p of progress.values()) p.stop();
      writeFileAtomic(join(out, 'metrics.csv'), report.csv);
      writeFileAtomic(join(out, 'report.html'), report.html);
      for (const plot of report.plots) writeFileAtomic(join(out, `${plot.name}.svg`), plot.svg);
      process.stdout.write(`${printable(scene.name)}: ${frames} frames per engine\n\n${report.table}\n\nwrote ${join(out, 'report.html')}, metrics.csv and ${report.plots.length} SVG plots\n`);
      for (const run of runs) {
        if (run.error) {
          const when = run.frames.length ? `stopped after frame ${run.frames.length - 1}` : 'did not run';
          process.stderr.write(`${run.engine} ${when}: ${run.error}\n`);
          setExitCode(EXIT_FAILURE);
        }
      }
    }),
);
