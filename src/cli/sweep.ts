/**
 * `viscid sweep`: parameter sweeps that any job runner fans out, with no scheduler of viscid's own.
 *
 *   viscid sweep base.json --set materials.honey.viscosity.value=1,5,20 --set adhesion[1].strength=5,10 --out DIR
 *       writes DIR/scenes/0000.json … (one scene per combination, validated) and DIR/sweep.json
 *   viscid sweep DIR --index N        runs combination N into DIR/runs/NNNN (a `viscid run` directory);
 *                                     N may come from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX
 *                                     (a Slurm job array, a Kubernetes Indexed Job) instead
 *   viscid sweep DIR --jobs N         runs every combination not yet complete, N at a time
 *   viscid sweep report DIR           metrics over the swept values (sweep-report.ts)
 *
 * A run that was stopped continues from its checkpoint (every 10 frames, or --checkpoint-every)
 * when its index runs again; a complete one is left alone, so a job array may be resubmitted as it
 * is. A Slurm task that is requeued, onto any node, takes over the lock its earlier attempt left
 * (sweep-task.ts). tests/sweep/slurm.test.ts runs all of this on a real Slurm.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, lstatSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option } from 'commander';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { sceneMeshFiles, SceneError } from '../index.ts';
import { defineCommand, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_INTERRUPTED, intAtLeast, intBetween, setExitCode, UsageError } from './command.ts';
import { defaultOutputFolder } from './output-name.ts';
import { printable } from './printable.ts';
import { readJsonFile, writeFileAtomic } from './files.ts';
import { fmtDuration } from './format.ts';
import { loadScene } from './load-scene.ts';
import { MANIFEST, MAX_MANIFEST_BYTES, type MeshFormat, type PointsFormat, type RunMethod } from './manifest.ts';
import { applySet, checkSweepSize, combinations, MAX_SWEEP_RUNS, parseSet, readSweep, SWEEP_FILE, SWEEP_RUNS_CEILING, type JsonValue, type SweepFile } from './sweep-plan.ts';
import { claimForSlurmTask, slurmTaskOf } from './sweep-task.ts';

/** Most runs `--jobs` starts at once: each is a process with its own threads. */
const MAX_JOBS = 256;
/** Frames between a combination's checkpoints unless the sweep says (`viscid run`'s default). */
const CHECKPOINT_EVERY = 10;

interface SweepFlags {
  set?: string[];
  out?: string;
  index?: number;
  jobs?: number;
  engine?: RunMethod;
  method?: RunMethod;
  frames?: number;
  mesh?: MeshFormat;
  points?: PointsFormat;
  metric?: string[];
  checkpointEvery?: number;
  force?: boolean;
  maxRuns?: number;
}

defineCommand((program) =>
  program
    .command('sweep')
    .description('parameter sweeps: write one scene per combination of --set values and a sweep.json, run one by --index (or SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) or all with --jobs, and report metrics over the swept values')
    .argument('<target>', "a base scene JSON file (with --set), a sweep directory (with --index or --jobs), or 'report'")
    .argument('[dir]', "the sweep directory, after 'report'")
    .option('--set <path=values>', 'a scene value to sweep, e.g. materials.honey.viscosity.value=1,5,20 or adhesion[1].strength=5,10 (repeatable)', (v: string, all: string[] = []) => [...all, v])
    .option('-o, --out <dir>', 'sweep directory to create (default: out/sweep-<scene name>)')
    .option('--index <n>', 'run the combination with this index (default: $SLURM_ARRAY_TASK_ID or $JOB_COMPLETION_INDEX)', intAtLeast(0))
    .option('-j, --jobs <n>', `run every combination not yet complete, n at a time (on one machine; 1 to ${MAX_JOBS})`, intBetween(1, MAX_JOBS, 'processes on one machine'))
    .addOption(engineOption('engine each combination runs (default: particle)', ['particle', 'grid', 'both']))
    .addOption(methodAlias(['particle', 'grid', 'both']))
    .option('-f, --frames <n>', 'frames each combination runs (default: duration × fps)', intAtLeast(1))
    .addOption(new Option('--mesh <format>', "surface mesh per frame (default: the scene's output.mesh)").choices(['obj', 'ply', 'glb', 'none']))
    .addOption(new Option('--points <format>', "particles per frame (default: the scene's output.points)").choices(['vtk', 'ply', 'none']))
    .option('--checkpoint-every <n>', `frames between each combination's checkpoints, where a stopped or requeued run continues from (default: ${CHECKPOINT_EVERY})`, intAtLeast(1))
    .option('--force', "with --index or --jobs: take over a run folder whose lock a run on another host left, once that run has ended (a node lost, a job requeued)")
    .option('--max-runs <n>', `most combinations a new sweep may make (default ${MAX_SWEEP_RUNS}, at most ${SWEEP_RUNS_CEILING}); counted before anything is written`, intBetween(1, SWEEP_RUNS_CEILING, 'combinations of one sweep'))
    .option('--metric <name...>', 'with report: metrics to plot (default: all)')
    .action(async (target: string, dir: string | undefined, flags: SweepFlags) => {
      flags.method = engineFlag(flags);
      if (target === 'report') {
        if (!dir) throw new UsageError("sweep report: name the sweep directory: viscid sweep report DIR");
        const { sweepReport } = await import('./sweep-report.ts');
        sweepReport(resolve(dir), flags.metric);
        return;
      }
      if (dir) throw new UsageError(`sweep: unexpected argument '${dir}' (only 'report' takes a directory after it)`);
      let sweepDir: string;
      if (existsSync(join(target, SWEEP_FILE))) {
        if (flags.set?.length) throw new UsageError(`sweep: ${target} is a sweep directory already; --set belongs to a new sweep of a base scene`);
        sweepDir = resolve(target);
      } else {
        if (!flags.set?.length) {
          throw new UsageError(`sweep: ${target} is not a sweep directory (no ${SWEEP_FILE}); to create one give the base scene and --set PATH=V1,V2…`);
        }
        sweepDir = createSweep(target, flags);
      }
      const index = flags.index ?? indexFromEnvironment();
      if (index !== undefined && flags.jobs) throw new UsageError('sweep: --index runs one combination and --jobs all of them; give one');
      if (index !== undefined) setExitCode(await runIndex(sweepDir, index, Boolean(flags.force)));
      else if (flags.jobs) setExitCode(await runAll(sweepDir, flags.jobs, Boolean(flags.force)));
    }),
);

/** The array index a job runner gives: Slurm's job arrays, then a Kubernetes Indexed Job's. */
export function indexFromEnvironment(env: NodeJS.ProcessEnv = process.env): number | undefined {
  for (const name of ['SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX']) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^\d+$/.test(v)) throw new UsageError(`sweep: ${name}=${v} is not an index (a whole number ≥ 0)`);
    return Number(v);
  }
  return undefined;
}

/**
 * Mesh files a scene names, copied into the sweep's scenes/meshes/ and renamed there: a sweep folder
 * holds everything its scenes read, so running one never needs a folder outside it (and sweep.json
 * cannot widen what a scene may read).
 */
function copyMeshFiles(raw: JsonValue, from: string, scenesDir: string): JsonValue {
  const files = [...new Set(sceneMeshFiles(raw))];
  if (files.length === 0) return raw;
  const renamed = new Map<string, string>();
  mkdirSync(join(scenesDir, 'meshes'), { recursive: true });
  files.forEach((f, k) => {
    const name = `meshes/${String(k).padStart(2, '0')}-${basename(f).replace(/[^\w.-]+/g, '-')}`;
    copyFileSync(resolve(from, f), join(scenesDir, name));
    renamed.set(f, name);
  });
  const walk = (node: JsonValue): JsonValue => {
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') {
      const out: { [k: string]: JsonValue } = {};
      for (const [k, v] of Object.entries(node)) out[k] = k === 'file' && typeof v === 'string' && renamed.has(v) ? renamed.get(v)! : walk(v);
      return out;
    }
    return node;
  };
  return walk(raw);
}

/** A run's folder and scene lie in the sweep folder: no symbolic link on the way leads out of it. */
function checkInsideSweep(dir: string, rel: string): void {
  let at = dir;
  for (const part of rel.split(/[/\\]/)) {
    at = join(at, part);
    if (existsSync(at) && lstatSync(at).isSymbolicLink()) throw new UsageError(`sweep: ${at} is a symbolic link; a sweep's runs and scenes must lie in its folder`);
  }
}

function createSweep(baseFile: string, flags: SweepFlags): string {
  const base = loadScene(baseFile); // the base scene itself must be valid
  const raw = JSON.parse(base.text) as JsonValue;
  const params = flags.set!.map(parseSet);
  const paths = new Set<string>();
  for (const p of params) {
    if (paths.has(p.path)) throw new UsageError(`--set ${p.path} is given twice; list all its values in one --set`);
    paths.add(p.path);
  }
  const count = checkSweepSize(params, flags.maxRuns ?? MAX_SWEEP_RUNS);
  const dir = flags.out ? resolve(flags.out) : defaultOutputFolder('sweep-', base.scene.name);
  if (existsSync(join(dir, SWEEP_FILE))) throw new UsageError(`${dir} holds a sweep already; give another --out, or run it with: viscid sweep ${relative(process.cwd(), dir) || '.'} --jobs N`);
  const combos = combinations(params);
  const pad = Math.max(4, String(count - 1).length);
  const scenesDir = join(dir, 'scenes');
  const rebased = copyMeshFiles(raw, dirname(base.file), scenesDir);
  const runs: SweepFile['runs'] = [];
  const problems: string[] = [];
  for (const [index, values] of combos.entries()) {
    let scene = rebased;
    params.forEach((p, k) => (scene = applySet(scene, p, values[k])));
    const id = String(index).padStart(pad, '0');
    const obj = scene as { [k: string]: JsonValue };
    obj.name = `${base.scene.name}-${id}`;
    const settings = params.map((p, k) => `${p.path}=${JSON.stringify(values[k])}`).join(', ');
    obj.description = `${base.scene.name} with ${settings} (viscid sweep, combination ${index})`;
    const file = join(scenesDir, `${id}.json`);
    writeFileAtomic(file, `${JSON.stringify(scene, null, 2)}\n`);
    try {
      loadScene(file); // its mesh files are in scenes/meshes (copied above)
    } catch (e) {
      if (!(e instanceof SceneError)) throw e;
      problems.push(`combination ${index} (${settings}): ${e.message}`);
    }
    runs.push({ index, values, scene: relative(dir, file), out: join('runs', id) });
  }
  if (problems.length) {
    rmSync(scenesDir, { recursive: true, force: true });
    throw new UsageError(`the sweep has scenes the schema refuses (nothing will run):\n  ${problems.slice(0, 10).join('\n  ')}${problems.length > 10 ? `\n  … and ${problems.length - 10} more` : ''}`);
  }
  const sweep: SweepFile = {
    viscid: 'sweep',
    base: relative(dir, base.file),
    parameters: params.map((p) => ({ path: p.path, values: p.values })),
    run: { method: flags.method ?? 'particle', ...(flags.frames ? { frames: flags.frames } : {}), ...(flags.mesh ? { mesh: flags.mesh } : {}), ...(flags.points ? { points: flags.points } : {}), ...(flags.checkpointEvery ? { checkpointEvery: flags.checkpointEvery } : {}) },
    runs,
    createdAt: new Date().toISOString(),
  };
  writeFileAtomic(join(dir, SWEEP_FILE), `${JSON.stringify(sweep, null, 2)}\n`);
  const rel = relative(process.cwd(), dir) || '.';
  process.stderr.write(
    `sweep: ${runs.length} scenes (${params.map((p) => `${p.values.length} × ${p.path}`).join(', ')}) → ${rel}\n` +
      `  one:  viscid sweep ${rel} --index N        (N = 0…${runs.length - 1}; or SLURM_ARRAY_TASK_ID / JOB_COMPLETION_INDEX)\n` +
      `  all:  viscid sweep ${rel} --jobs ${Math.max(1, availableParallelism())}\n` +
      `  then: viscid sweep report ${rel}\n`,
  );
  return dir;
}

async function runIndex(dir: string, index: number, breakLock: boolean): Promise<number> {
  const sweep = readSweep(dir);
  const run = sweep.runs.find((r) => r.index === index);
  if (!run) throw new UsageError(`sweep: index ${index} is not in ${join(dir, SWEEP_FILE)} (indices 0–${sweep.runs.length - 1})`);
  const out = join(dir, run.out);
  checkInsideSweep(dir, run.out);
  checkInsideSweep(dir, run.scene);
  const { runCommand } = await import('./run.ts');
  const settings = sweep.parameters.map((p, k) => `${p.path}=${JSON.stringify(run.values[k])}`).join(', ');
  process.stderr.write(`sweep ${index}/${sweep.runs.length - 1}: ${printable(settings)}\n`);
  const task = slurmTaskOf(index);
  if (task) {
    const took = claimForSlurmTask(dir, out, run.out, task);
    if (took) process.stderr.write(`sweep: ${took}\n`);
  }
  const resume = existsSync(join(out, MANIFEST));
  if (resume) process.stderr.write(`sweep: continuing ${run.out} ${resumePoint(out)}\n`);
  return runCommand(join(dir, run.scene), {
    // The sweep made the folder (and its log.txt): the run takes it over (--force clears viscid's files only).
    ...(resume ? { resume: out } : { out, force: true }),
    breakLock,
    lockRemedy: `viscid sweep ${relative(process.cwd(), dir) || '.'} --index ${index} --force`,
    // The sweep starts a run over when its folder holds no manifest (with --force, as above).
    restartRemedy: `remove ${join(relative(process.cwd(), out) || '.', MANIFEST)} and run viscid sweep ${relative(process.cwd(), dir) || '.'} --index ${index} (or --jobs) again, which starts that run over`,
    method: sweep.run.method,
    ...(sweep.run.frames ? { frames: sweep.run.frames } : {}),
    ...(sweep.run.mesh ? { mesh: sweep.run.mesh } : {}),
    ...(sweep.run.points ? { points: sweep.run.points } : {}),
    checkpointEvery: sweep.run.checkpointEvery ?? CHECKPOINT_EVERY,
  });
}

/** Where a run that is continued stands: each engine's checkpoint frame, as its manifest says. */
function resumePoint(dir: string): string {
  try {
    const m = readJsonFile(join(dir, MANIFEST), MAX_MANIFEST_BYTES) as { engines: Record<string, { status: string; checkpoint: { frame: number } | null }> };
    const parts = Object.entries(m.engines).map(([e, r]) => `${e} ${r.status === 'complete' ? 'complete' : r.checkpoint ? `from its checkpoint at frame ${r.checkpoint.frame}` : 'from the start (no checkpoint)'}`);
    return parts.length ? `(${parts.join('; ')})` : '(from the start)';
  } catch {
    return '(its manifest cannot be read)';
  }
}

/** Whether a combination's run directory holds a complete run of every engine it asks for. */
function isComplete(dir: string): boolean {
  try {
    const m = readJsonFile(join(dir, MANIFEST), MAX_MANIFEST_BYTES) as { settings: { method: RunMethod }; engines: Record<string, { status: string }> };
    const engines = m.settings.method === 'both' ? ['particle', 'grid'] : [m.settings.method];
    return engines.every((e) => m.engines[e]?.status === 'complete');
  } catch {
    return false;
  }
}

/** Every combination not yet complete, `jobs` processes at a time, each logging to its run directory. */
async function runAll(dir: string, jobs: number, breakLock: boolean): Promise<number> {
  const sweep = readSweep(dir);
  const todo = sweep.runs.filter((r) => !isComplete(join(dir, r.out)));
  const bin = fileURLToPath(new URL('../../bin/viscid.js', import.meta.url));
  process.stderr.write(`sweep: ${todo.length} of ${sweep.runs.length} to run, ${Math.min(jobs, todo.length)} at a time (logs: <run>/log.txt)\n`);
  let code = 0;
  let next = 0;
  const t0 = performance.now();
  // A stop (Ctrl-C, SIGTERM from a scheduler, SIGHUP of a closed terminal) goes to every run in
  // flight, which checkpoints and ends as a plain `viscid run` does; no new run starts. Again: killed.
  const children = new Set<ChildProcess>();
  let stopped: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopped) {
      for (const c of children) c.kill('SIGKILL');
      process.exit(EXIT_INTERRUPTED);
    }
    stopped = signal;
    next = todo.length;
    process.stderr.write(`\n${signal}: stopping ${children.size} run${children.size === 1 ? '' : 's'} in flight (each keeps a checkpoint; run the sweep again to continue)\n`);
    for (const c of children) c.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  const worker = async (): Promise<void> => {
    while (next < todo.length) {
      const run = todo[next++];
      const out = join(dir, run.out);
      checkInsideSweep(dir, run.out);
      mkdirSync(out, { recursive: true });
      const log = openSync(join(out, 'log.txt'), 'a');
      const started = performance.now();
      const exit = await new Promise<number>((done) => {
        const child = spawn(process.execPath, [bin, 'sweep', dir, '--index', String(run.index), ...(breakLock ? ['--force'] : [])], {
          stdio: ['ignore', log, log],
          // One engine thread each: the jobs share the cores. CI=true: plain progress lines.
          env: { ...process.env, CI: 'true', SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '' },
        });
        children.add(child);
        child.on('error', () => done(EXIT_FAILURE));
        child.on('close', (c) => {
          children.delete(child);
          done(c ?? EXIT_FAILURE);
        });
      });
      closeSync(log);
      code = Math.max(code, exit === EXIT_BAD_INPUT ? EXIT_BAD_INPUT : exit === 0 ? 0 : EXIT_FAILURE);
      const settings = sweep.parameters.map((p, k) => `${p.path}=${JSON.stringify(run.values[k])}`).join(', ');
      process.stderr.write(`  ${run.index}: ${exit === 0 ? 'done' : `failed (exit ${exit}, see ${join(run.out, 'log.txt')})`} in ${fmtDuration((performance.now() - started) / 1000)} — ${printable(settings)}\n`);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, todo.length) }, worker));
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
  if (stopped) return EXIT_INTERRUPTED;
  process.stderr.write(`sweep: ${todo.length} runs in ${fmtDuration((performance.now() - t0) / 1000)}; report: viscid sweep report ${relative(process.cwd(), dir) || '.'}\n`);
  return code;
}
