/**
 * `viscid run <scene>`: simulates frames with one engine or both and writes one mesh and/or point
 * file per frame, a manifest and checkpoints into the output folder:
 *
 *   out/honey-drop/manifest.json
 *   out/honey-drop/particle/mesh-0001.obj …  points-0001.vtk …  checkpoint.vscd
 *
 * Three threads share the work: the simulation steps on a thread of its own (sim-thread.ts), a
 * second encodes and writes each frame's files while the next frame steps (frame-writer.ts), and
 * the main thread keeps the manifest, the checkpoints and the signals. A frame is recorded in the
 * manifest, and checkpointed, once its files are on disk.
 *
 * The folder belongs to the run (run-dir.ts): a folder holding anything else is refused unless
 * `--force`, and `--resume DIR` is the only way to continue a run, from its checkpoint (checked
 * against its checksum and the scene's hash first). Ctrl-C (SIGINT) or SIGTERM stops the
 * simulation thread at once, keeps the finished frames, writes a checkpoint of the last one and
 * the manifest (`interrupted`), and exits 130 within a second or two. A failure keeps the same and
 * exits 1; the manifest says `failed`, with the frame and the file that could not be written.
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { Option } from 'commander';
import { engineFlag, engineOption, methodAlias } from './engine-option.ts';
import { ignoredFeatures, type EngineName, type Scene } from '../index.ts';
import { MAX_WORKERS } from '../scene/schema.ts';
import { defineCommand, EXIT_FAILURE, EXIT_INTERRUPTED, intAtLeast, intBetween, setExitCode, UsageError } from './command.ts';
import { capWarnings, predictFrameCost } from './cost.ts';
import { diskText, estimateDisk } from './disk.ts';
import { writeFileAtomic } from './files.ts';
import { fmtDuration } from './format.ts';
import { loadScene, type LoadedScene } from './load-scene.ts';
import { MANIFEST, writeManifest, writeManifestLast, type EngineRecord, type Failure, type Manifest, type MeshFormat, type PointsFormat, type RunMethod } from './manifest.ts';
import { createProgress } from './progress.ts';
import { frameJob } from './sim-thread.ts';
import { FrameWriter, type FrameWritten } from './frame-writer.ts';
import { sweepForResume, type ClaimedDir } from './run-dir.ts';
import { enginesOf, startRunFolder } from './run-start.ts';
import { printable, printableLines } from './printable.ts';
import { StopSignal } from './stop-signal.ts';
import { SimThread, SimThreadGone, type Loaded, type SteppedFrame } from './sim-thread.ts';
import { volumeWarner } from './volume-warning.ts';
import { nameVulkanDriver } from './webgpu.ts';
import { methodDifferences, unportedFeatures } from '../gpu/refuse.ts';
import { UnportedSceneError } from '../gpu/simulation.ts';

export interface RunFlags {
  /** The engine (or 'both'); `method` is its older name, resolved into `engine` by the action. */
  engine?: RunMethod;
  method?: RunMethod;
  frames?: number;
  out?: string;
  mesh?: MeshFormat;
  points?: PointsFormat;
  solids?: MeshFormat;
  resume?: string;
  force?: boolean;
  /** Take over a lock another host's run left (--force; for a sweep, its own --force). Default: force. */
  breakLock?: boolean;
  /** The command that retries with --force, for the message about a lock that cannot be checked. */
  lockRemedy?: string;
  /** How to start the run over, for the refusal of a resume whose scene cannot be compared (default: `viscid run` with --out and --force; a sweep names its own). */
  restartRemedy?: string;
  allowPaths?: string[];
  workers?: number;
  /** Where the particle engine's frames run (default cpu). */
  backend?: 'cpu' | 'webgpu';
  checkpointEvery: number;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

defineCommand((program) =>
  program
    .command('run')
    .description('simulate a scene and write one mesh and/or point file per frame, a manifest.json and checkpoints')
    .argument('<scene>', 'scene JSON file (mesh files it names are read relative to it)')
    .addOption(engineOption("engine to run (default: the first of the scene's engines, else particle)", ['particle', 'grid', 'both']))
    .addOption(methodAlias(['particle', 'grid', 'both']))
    .option('-f, --frames <n>', 'frames to simulate in total (default: duration × fps)', intAtLeast(1))
    .option('-o, --out <dir>', 'output folder, new or empty (default: out/<scene name>)')
    .addOption(new Option('--mesh <format>', "surface mesh per frame (default: the scene's output.mesh)").choices(['obj', 'ply', 'glb', 'none']))
    .addOption(new Option('--points <format>', "particles per frame (default: the scene's output.points)").choices(['vtk', 'ply', 'none']))
    .addOption(new Option('--solids <format>', 'solid objects in their pose per frame, one mesh (default: none)').choices(['obj', 'ply', 'glb', 'none']))
    .option('--resume <dir>', 'continue the run in this folder from its checkpoint')
    .option('--force', "write into an output folder that is not empty, first removing viscid's files from it (its manifest, frames and checkpoints; nothing else); with --resume, only take over a lock left by a run on another host that has ended")
    .option('--allow-paths <folder>', "let the scene name files under this folder too, besides its own folder (repeatable)", collect)
    .option('--workers <n>', `worker threads, 1 to ${MAX_WORKERS} (the particle engine's, overriding the scene's particle.workers, and the grid engine's, which runs on 1 without it)`, intBetween(1, MAX_WORKERS, "particle.workers' range"))
    .addOption(new Option('--backend <backend>', "where the particle engine's frames run: cpu (default) or webgpu (the GPU through the optional package webgpu; up to 8 liquids, mixing and temperature included, gels, static, moving and free objects, sources and sinks for now, other scenes are refused naming what is not ported)").choices(['cpu', 'webgpu']))
    .option('--checkpoint-every <n>', 'write a checkpoint every n frames (and always on stop, failure and completion)', intAtLeast(1), 10)
    .action(async (sceneFile: string, flags: RunFlags) => {
      setExitCode(await runCommand(sceneFile, { ...flags, method: engineFlag(flags) }));
    }),
);

/** How long an interrupted run waits for the frame being written before it gives the frame up, ms. */
const STOP_WRITE_WAIT_MS = 500;

interface RunContext {
  dir: string;
  loaded: LoadedScene;
  scene: Scene;
  manifest: Manifest;
  stop: StopSignal;
  thread: SimThread;
  /** Verified checkpoint bytes to resume each engine from. */
  checkpoints: Partial<Record<EngineName, Uint8Array>>;
  resuming: boolean;
}

export async function runCommand(sceneFile: string, flags: RunFlags): Promise<number> {
  let thread: SimThread | undefined;
  const stop = new StopSignal();
  let claim: ClaimedDir | undefined;
  try {
    const loaded = loadScene(sceneFile, { allowPaths: flags.allowPaths });
    const { scene } = loaded;
    if (flags.backend === 'webgpu') checkWebGpuScene(scene, flags.method ?? scene.engines?.[0]);
    const { dir, manifest, checkpoints, claim: claimed } = startRunFolder(sceneFile, flags, loaded);
    claim = claimed;
    const engines = enginesOf(manifest.settings.method);
    const { mesh, points, frames, solids } = manifest.settings;
    const formats = [mesh !== 'none' ? `${mesh} meshes` : '', points !== 'none' ? `${points} points` : '', solids !== 'none' ? `${solids} solids` : ''].filter(Boolean).join(', ') || 'no frame files';
    process.stderr.write(`disk: ${diskText(estimateDisk(scene, { engines, frames, mesh, points, solids }), formats)}\n`);
    for (const w of predictFrameCost(scene).warnings) {
      if (engines.some((e) => w.startsWith(`${e} engine`))) process.stderr.write(`warning: ${printable(w)}\n`);
    }
    for (const e of engines) for (const f of ignoredFeatures(scene, e)) process.stderr.write(`warning: ${e} engine ignores ${f.path}: ${f.message}\n`);
    // Started once the input is known to be good: a refusal starts no thread.
    if (manifest.settings.backend === 'webgpu') nameVulkanDriver();
    const sim = (thread = new SimThread());
    stop.install();
    stop.onStop(() => ctx.thread.terminate());
    const ctx: RunContext = { dir, loaded, scene, manifest, stop, thread: sim, checkpoints, resuming: Boolean(flags.resume) };
    manifest.status = 'running';
    writeManifest(dir, manifest);
    let code = 0;
    for (const engine of engines) {
      if (stop.requested) break;
      // A run that failed writing stopped the thread at once; the next engine gets a new one.
      if (ctx.thread.stopped) thread = ctx.thread = new SimThread();
      const status = await runEngine(ctx, engine);
      if (status === 'failed') code = EXIT_FAILURE;
    }
    manifest.status = stop.requested ? 'interrupted' : code !== 0 ? 'failed' : 'complete';
    const lost = writeManifestLast(dir, manifest);
    if (lost) process.stderr.write(`error: the manifest could not be updated: ${lost.message}\n`);
    if (stop.requested) {
      process.stderr.write(`stopped; continue with: viscid run ${sceneFile} --resume ${relative(process.cwd(), dir) || '.'}\n`);
      // Everything is on disk. A process told to stop does not wait for its threads to wind down
      // (that takes up to a second on a busy machine): it exits soon after this returns.
      setTimeout(() => process.exit(EXIT_INTERRUPTED), 50).unref();
      return EXIT_INTERRUPTED;
    }
    if (code === 0) process.stderr.write(`done: ${relative(process.cwd(), dir) || '.'}/${MANIFEST}\n`);
    return code || (lost ? EXIT_FAILURE : 0);
  } finally {
    thread?.terminate();
    stop.uninstall();
    claim?.release();
  }
}


/** Refuses, before a folder or thread is made, what --backend webgpu cannot run; warns where its method differs (src/gpu/refuse.ts). */
function checkWebGpuScene(scene: Scene, method: RunMethod | undefined): void {
  if (method === 'grid') throw new UsageError('--backend webgpu runs the particle engine: give --engine particle (or both)');
  const unported = unportedFeatures(scene);
  if (unported.length > 0) throw new UsageError(new UnportedSceneError(unported).message);
  for (const f of methodDifferences(scene)) process.stderr.write(`warning: webgpu backend: ${f.path}: ${f.message}\n`);
}

/**
 * The particle engine's threads, as the start line gives them: one thread on a machine of four
 * cores or more says how to use them (the scene's particle.workers stays the default, so that a
 * run repeats bit for bit whatever machine it is made on). On two cores the frame writer has the
 * second: honey drop, 25 frames, 5.5 s on one engine thread against 6.0 on two.
 */
export function threadsNote(workers: number, cores = availableParallelism()): string {
  if (workers > 1) return `${workers} threads`;
  return cores >= 4 ? `1 thread (this machine has ${cores} cores: see --workers)` : '1 thread';
}

/** A stepped frame whose files the frame writer has (runEngine's submit). */
interface PendingFrame {
  t0: number;
  state: { bytes: Uint8Array; frame: number };
  written: Promise<FrameWritten>;
  entry: Omit<EngineRecord['frames'][number], 'wallMs' | 'writeMs' | 'files'>;
}

/** An error with the frame it happened at and, for a write, the file (relative to the run folder). */
type Located = Error & { frame?: number; file?: string };

async function runEngine(ctx: RunContext, engine: EngineName): Promise<EngineRecord['status']> {
  const { dir, manifest, stop, scene } = ctx;
  const thread = ctx.thread;
  const settings = manifest.settings;
  const record: EngineRecord = manifest.engines[engine] ?? { status: 'running', checkpoint: null, frames: [] };
  manifest.engines[engine] = record;
  const checkpointFile = `${engine}/checkpoint.vscd`;
  // The state after the last finished frame, so a failure or a stop mid-frame still leaves a clean checkpoint.
  let lastGood: { bytes: Uint8Array; frame: number } | undefined;
  const saveCheckpoint = (bytes: Uint8Array, frame: number) => {
    const hash = sha256(bytes);
    if (record.checkpoint?.frame === frame && record.checkpoint.sha256 === hash) return; // on disk already
    // Two writes, the manifest's first: it names the new bytes as `next` beside the ones on disk,
    // then the file is replaced. A run killed between the file and the manifest (a Slurm requeue)
    // leaves a manifest that names the checkpoint on disk either way (run-dir.ts verifiedCheckpoint).
    if (record.checkpoint) {
      record.checkpoint = { ...record.checkpoint, next: { frame, sha256: hash } };
      writeManifest(dir, manifest);
    }
    writeFileAtomic(join(dir, checkpointFile), bytes);
    record.checkpoint = { file: checkpointFile, frame, sha256: hash };
  };
  let progress: ReturnType<typeof createProgress> | undefined;
  const writer = new FrameWriter(availableParallelism() < 2);
  let sinceCheckpoint = 0;
  let lastDone = performance.now();
  const warned = new Set<string>();
  // Frame k's files are encoded and written (frame-writer.ts) while frame k + 1 steps; k is
  // recorded, and may be checkpointed, as soon as its files are on disk.
  const recordFrame = (p: PendingFrame, written: FrameWritten) => {
    const now = performance.now();
    record.frames.push({ ...p.entry, wallMs: now - p.t0, surfaceMs: p.entry.surfaceMs + written.surfaceMs, writeMs: written.writeMs, files: written.files });
    lastGood = p.state;
    if (++sinceCheckpoint >= settings.checkpointEvery || p.state.frame >= settings.frames) {
      saveCheckpoint(lastGood.bytes, lastGood.frame);
      sinceCheckpoint = 0;
    }
    writeManifest(dir, manifest);
    progress?.update({ frame: p.entry.frame, time: p.entry.time, points: p.entry.points, frameMs: now - lastDone });
    lastDone = now;
  };
  // The frame whose files the writer has, and the promise of its record (one frame at a time).
  let pending: PendingFrame | null = null;
  let recorded: Promise<void> = Promise.resolve();
  // A frame's files, its checkpoint or the manifest could not be written: the run fails at once
  // (the step in flight is stopped), not when the next frame is done.
  let writeFailure: Located | null = null;
  const submit = (p: PendingFrame) => {
    pending = p;
    recorded = handled(
      (async () => {
        try {
          recordFrame(p, await p.written);
        } catch (e) {
          const err = Object.assign(e as Located, { frame: (e as Located).frame ?? p.entry.frame });
          if (!stop.requested) {
            writeFailure ??= err;
            ctx.thread.terminate();
          }
          throw err;
        } finally {
          if (pending === p) pending = null;
        }
      })(),
    );
  };
  // The frame the simulation thread is stepping, for an error that names no other.
  let stepping = 0;
  try {
    // Loaded here, not at start-up: the encoders (the glTF library among them) serve `run` only.
    const extensions = await import('./export.ts');
    if (ctx.resuming && record.checkpoint && record.status === 'complete' && record.checkpoint.frame >= settings.frames) {
      // Nothing left to do but sweep what a killed earlier resume may have left; skip loading the checkpoint.
      sweepForResume(dir, engine, record.checkpoint.frame);
      return record.status;
    }
    const want = { mesh: settings.mesh !== 'none', solids: settings.solids !== 'none', points: settings.points !== 'none' };
    if (want.mesh || want.solids || want.points) writer.warm();
    const common = {
      type: 'load' as const, engine, sceneText: ctx.loaded.text, meshes: scene.assets.meshes, want, ...(settings.workers ? { workers: settings.workers } : {}),
      ...(settings.backend === 'webgpu' && engine === 'particle' ? { backend: 'webgpu' as const } : {}),
    };
    const resumeFrom = ctx.resuming ? ctx.checkpoints[engine] : undefined;
    let loaded: Loaded;
    if (ctx.resuming) {
      const removed = sweepForResume(dir, engine, resumeFrom ? record.checkpoint!.frame : 0);
      if (removed > 0) process.stderr.write(`${engine}: removed ${removed} file${removed === 1 ? '' : 's'} a stopped run left after its checkpoint (temporary files, frames to be written again)\n`);
    }
    if (resumeFrom) {
      loaded = await thread.load({ ...common, checkpoint: resumeFrom.slice() });
      if (loaded.engine !== engine) throw new Error(`checkpoint ${record.checkpoint!.file} holds a '${loaded.engine}' run, expected '${engine}'`);
      record.frames = record.frames.filter((f) => f.frame <= loaded.frame);
    } else {
      record.frames = [];
      record.checkpoint = null;
      loaded = await thread.load(common);
    }
    lastGood = { bytes: loaded.state, frame: loaded.frame };
    record.status = 'running';
    delete record.error;
    delete record.failure;
    if (loaded.frame >= settings.frames) {
      record.status = 'complete';
      writeManifest(dir, manifest);
      return record.status;
    }
    const what = [want.mesh ? `${settings.mesh} meshes` : '', want.points ? `${settings.points} points` : '', want.solids ? `${settings.solids} solids` : ''].filter(Boolean).join(', ');
    process.stderr.write(
      `${engine}: ${printable(scene.name)}, frames ${loaded.frame + 1}–${settings.frames}${what ? `, ${what}` : ''}${loaded.adapter ? `, on WebGPU (${printable(loaded.adapter)})` : engine === 'particle' ? `, ${threadsNote(settings.workers ?? scene.particle.workers)}` : engine === 'grid' ? `, ${threadsNote(settings.workers ?? 1)}` : ''} → ${relative(process.cwd(), join(dir, engine)) || '.'}\n`,
    );
    progress = createProgress(engine, loaded.frame, settings.frames, process.stderr);
    const warnVolume = volumeWarner(engine);
    const started = performance.now();
    lastDone = started;
    stepping = loaded.frame + 1;
    let t0 = performance.now();
    let inFlight: Promise<SteppedFrame> | null = stop.requested ? null : handled(thread.step());
    while (inFlight) {
      const f = await inFlight;
      const tStep = t0;
      // The next frame steps while this one's files are written.
      stepping = f.frame + 1;
      t0 = performance.now();
      inFlight = f.frame < settings.frames && !stop.requested ? handled(thread.step()) : null;
      const job = frameJob(dir, scene, engine, settings, f, extensions);
      await recorded; // the frame before is on disk and recorded
      submit({
        t0: tStep,
        state: { bytes: f.state, frame: f.frame },
        written: writer.submit(job),
        entry: {
          frame: f.frame,
          time: f.time,
          stepMs: f.stepMs,
          surfaceMs: f.surfaceMs,
          stages: f.stats.stages,
          counters: f.stats.counters,
          points: f.points.count,
          fluidVolume: f.fluidVolume,
          maxSpeed: f.maxSpeed,
          centerOfMass: f.centerOfMass,
          bounds: f.bounds,
        },
      });
      for (const w of capWarnings(engine, f.stats.counters)) {
        if (warned.has(w.key)) continue;
        warned.add(w.key);
        progress.log(`warning: frame ${f.frame}: ${w.text}`);
      }
      // Liquid the method lost or gained (Metrics.volumeChange: sources and sinks counted), said once.
      const volumeLine = warnVolume(f, f.time, f.frame);
      if (volumeLine) progress.log(volumeLine);
    }
    await recorded;
    progress.stop();
    if (writer.lost) process.stderr.write(`note: the frame writer's thread failed (${writer.lost}); the calling thread wrote the frames from then on\n`);
    if (stop.requested) return await interrupted();
    record.status = 'complete';
    process.stderr.write(`${engine}: ${record.frames.length} frames in ${fmtDuration((performance.now() - started) / 1000)}\n`);
    writeManifest(dir, manifest);
    return record.status;
  } catch (e) {
    progress?.stop();
    if (writeFailure) return await failed(writeFailure);
    if (stop.requested && (e instanceof SimThreadGone || !pending)) return await interrupted();
    return await failed(e as Located);
  } finally {
    writer.close();
  }

  /** A stop: the frame being written is kept if it lands within half a second; checkpoint, manifest. */
  async function interrupted(): Promise<EngineRecord['status']> {
    if (pending) {
      const p = pending;
      const timer = new Promise<'late'>((r) => setTimeout(() => r('late'), STOP_WRITE_WAIT_MS).unref());
      const outcome = await Promise.race([recorded.then(() => 'ok' as const, () => 'failed' as const), timer]);
      if (outcome !== 'ok') {
        writer.abandon();
        process.stderr.write(`${engine}: frame ${p.entry.frame}'s files were not finished; it is not kept\n`);
      }
    }
    record.status = 'interrupted';
    try {
      if (lastGood) saveCheckpoint(lastGood.bytes, lastGood.frame);
    } catch (e) {
      record.error = `the checkpoint could not be written: ${(e as Error).message}`;
    }
    const lost = writeManifestLast(dir, manifest);
    if (lost) process.stderr.write(`error: the manifest could not be updated: ${lost.message}\n`);
    return record.status;
  }

  /** A failure: the frames written so far and a checkpoint of the last one are kept; the manifest says where it failed. */
  async function failed(e: Located): Promise<EngineRecord['status']> {
    record.status = 'failed';
    const failure: Failure = { frame: e?.frame ?? stepping, message: e?.message ?? String(e) };
    if (e?.file) failure.file = relative(dir, e.file);
    // The frame whose files were being written when the run failed: kept if they were written.
    const writing = pending?.entry.frame;
    if (pending && e !== writeFailure) {
      try {
        await recorded;
      } catch (inner) {
        failure.message += `; and frame ${writing}'s files could not be written: ${(inner as Error).message}`;
      }
    }
    if (lastGood) {
      try {
        saveCheckpoint(lastGood.bytes, lastGood.frame);
      } catch (inner) {
        failure.message += `; and the checkpoint could not be written: ${(inner as Error).message}`;
      }
    }
    record.failure = failure;
    record.error = failure.message;
    manifest.status = 'failed';
    const lost = writeManifestLast(dir, manifest);
    const at = failure.file ? `frame ${failure.frame}, ${failure.file}` : `frame ${failure.frame}`;
    process.stderr.write(`error: ${engine} engine failed at ${at}: ${printableLines(failure.message)}\n`);
    if (lost) process.stderr.write(`error: and the manifest could not be updated: ${lost.message}\n`);
    if (process.env.VISCID_DEBUG && e?.stack) process.stderr.write(`${e.stack}\n`);
    if (process.env.VISCID_DEBUG && (e as { threadStack?: string })?.threadStack) process.stderr.write(`${(e as { threadStack?: string }).threadStack}\n`);
    return record.status;
  }
}

/**
 * A promise whose rejection is handled where it is awaited, which may be later (a stop rejects the
 * step in flight while the run waits for a frame's files): not an unhandled rejection meanwhile.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
