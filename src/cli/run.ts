/**
 * `viscid run <scene>`: simulates frames with one engine or both and writes one mesh and/or point
 * file per frame, a manifest and checkpoints into the output directory:
 *
 *   out/honey-drop/manifest.json
 *   out/honey-drop/particle/mesh-0001.obj …  points-0001.vtk …  checkpoint.vscd
 *
 * A thread of its own encodes and writes each frame's files while the next frame steps
 * (frame-writer.ts); a frame is recorded in the manifest, and checkpointed, once its files are on
 * disk. Ctrl-C (SIGINT) or SIGTERM finishes the frame in progress and the files in flight, writes a
 * checkpoint and the manifest, and exits 130; `--resume DIR` continues from there. A failure
 * leaves the frames written so far and a checkpoint of the last finished frame, and exits 1.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Option } from 'commander';
import { createSimulation, restoreSimulation, type EngineName, type Scene, type Simulation, type SimulationOptions } from '../index.ts';
import { spawnNodeThread } from './threads.ts';
import { diskText, estimateDisk } from './disk.ts';
import { defineCommand, EXIT_FAILURE, EXIT_INTERRUPTED, intAtLeast, setExitCode, UsageError } from './command.ts';
import { frameFileName, framePadding, writeFileAtomic } from './files.ts';
import { fmtDuration } from './format.ts';
import { loadScene } from './load-scene.ts';
import { MANIFEST, readManifest, writeManifest, type EngineRecord, type Manifest, type MeshFormat, type PointsFormat, type RunMethod } from './manifest.ts';
import { createProgress } from './progress.ts';
import { solidsMesh } from './solids.ts';
import type { FrameFiles } from './frame-files.ts';
import { FrameWriter, type FrameWritten } from './frame-writer.ts';
import { viscidVersion } from './version.ts';
import { volumeWarner } from './volume-warning.ts';

export interface RunFlags {
  method?: RunMethod;
  frames?: number;
  out?: string;
  mesh?: MeshFormat;
  points?: PointsFormat;
  solids?: MeshFormat;
  resume?: string;
  workers?: number;
  checkpointEvery: number;
}

defineCommand((program) =>
  program
    .command('run')
    .description('simulate a scene and write one mesh and/or point file per frame, a manifest.json and checkpoints')
    .argument('<scene>', 'scene JSON file (mesh files it names are read relative to it)')
    .addOption(new Option('-m, --method <engine>', 'engine to run (default: particle)').choices(['particle', 'grid', 'both']))
    .option('-f, --frames <n>', 'frames to simulate in total (default: duration × fps)', intAtLeast(1))
    .option('-o, --out <dir>', 'output directory (default: out/<scene name>)')
    .addOption(new Option('--mesh <format>', "surface mesh per frame (default: the scene's output.mesh)").choices(['obj', 'ply', 'glb', 'none']))
    .addOption(new Option('--points <format>', "particles per frame (default: the scene's output.points)").choices(['vtk', 'ply', 'none']))
    .addOption(new Option('--solids <format>', 'solid objects in their pose per frame, one mesh (default: none)').choices(['obj', 'ply', 'glb', 'none']))
    .option('--resume <dir>', 'continue the run in this directory from its checkpoint')
    .option('--workers <n>', "worker threads (overrides the scene's particle.workers)", intAtLeast(1))
    .option('--checkpoint-every <n>', 'write a checkpoint every n frames (and always on stop, failure and completion)', intAtLeast(1), 10)
    .action(async (sceneFile: string, flags: RunFlags) => {
      setExitCode(await runCommand(sceneFile, flags));
    }),
);

/** Stop requests from signals; the frame loop polls it between frames. */
class StopSignal {
  requested: NodeJS.Signals | null = null;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.requested) {
      process.stderr.write(`\n${signal} again: quitting now (frames written so far are complete)\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    this.requested = signal;
    process.stderr.write(`\n${signal}: finishing the current frame, then writing a checkpoint (press again to quit at once)\n`);
  };
  install(): void {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
  }
  uninstall(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
  }
}

/** Lets pending signals and I/O callbacks run between two synchronous frames. */
const yieldToEventLoop = () => new Promise<void>((r) => setTimeout(r, 0));

interface RunContext {
  dir: string;
  scene: Scene;
  manifest: Manifest;
  stop: StopSignal;
  options: SimulationOptions;
  resuming: boolean;
}

export async function runCommand(sceneFile: string, flags: RunFlags): Promise<number> {
  const loaded = loadScene(sceneFile);
  const { scene } = loaded;
  let dir: string;
  let manifest: Manifest;
  if (flags.resume) {
    dir = resolve(flags.resume);
    if (flags.out && resolve(flags.out) !== dir) throw new UsageError('--out and --resume name different directories; --resume writes into its own directory');
    manifest = readManifest(dir);
    if (manifest.scene.sha256 !== loaded.hash) {
      throw new UsageError(
        `cannot resume: ${sceneFile} differs from the scene of the run in ${flags.resume} (sha256 ${loaded.hash.slice(0, 12)}… vs ${manifest.scene.sha256.slice(0, 12)}…)`,
      );
    }
    const s = manifest.settings;
    s.method = flags.method ?? s.method;
    s.frames = flags.frames ?? s.frames;
    s.mesh = flags.mesh ?? s.mesh;
    s.points = flags.points ?? s.points;
    s.solids = flags.solids ?? s.solids ?? 'none'; // manifests written before --solids existed
    s.workers = flags.workers ?? s.workers;
    s.checkpointEvery = flags.checkpointEvery;
  } else {
    dir = resolve(flags.out ?? join('out', scene.name));
    const frames = flags.frames ?? Math.max(1, Math.ceil(scene.duration * scene.fps - 1e-9));
    manifest = {
      viscid: viscidVersion(),
      scene: { file: loaded.file, name: scene.name, sha256: loaded.hash, fps: scene.fps },
      settings: {
        method: flags.method ?? 'particle',
        frames,
        mesh: flags.mesh ?? scene.output.mesh,
        points: flags.points ?? scene.output.points,
        solids: flags.solids ?? 'none',
        workers: flags.workers ?? null,
        checkpointEvery: flags.checkpointEvery,
        padding: framePadding(frames),
      },
      sceneSettings: { particle: scene.particle, grid: scene.grid, output: scene.output },
      engines: {},
      startedAt: new Date().toISOString(),
      updatedAt: '',
    };
  }
  const engines: EngineName[] = manifest.settings.method === 'both' ? ['particle', 'grid'] : [manifest.settings.method];
  const stop = new StopSignal();
  stop.install();
  const ctx: RunContext = {
    dir,
    scene,
    manifest,
    stop,
    // Node worker threads for particle.workers / --workers (src/cli/threads.ts).
    options: { ...(manifest.settings.workers ? { workers: manifest.settings.workers } : {}), spawnThread: spawnNodeThread },
    resuming: Boolean(flags.resume),
  };
  let code = 0;
  const { mesh, points, frames } = manifest.settings;
  const formats = [mesh !== 'none' ? `${mesh} meshes` : '', points !== 'none' ? `${points} points` : ''].filter(Boolean).join(', ') || 'no frame files';
  process.stderr.write(`disk: ${diskText(estimateDisk(scene, { engines, frames, mesh, points }), formats)}\n`);
  try {
    writeManifest(dir, manifest);
    for (const engine of engines) {
      if (stop.requested) break;
      const status = await runEngine(ctx, engine);
      if (status === 'failed') code = EXIT_FAILURE;
    }
  } finally {
    stop.uninstall();
  }
  if (stop.requested) {
    process.stderr.write(`stopped; continue with: viscid run ${sceneFile} --resume ${relative(process.cwd(), dir) || '.'}\n`);
    return EXIT_INTERRUPTED;
  }
  if (code === 0) process.stderr.write(`done: ${relative(process.cwd(), dir) || '.'}/${MANIFEST}\n`);
  return code;
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

/** A stepped frame whose files the frame writer has (run.ts runEngine's settle). */
interface PendingFrame {
  t0: number;
  state: { bytes: Uint8Array; frame: number };
  written: Promise<FrameWritten>;
  entry: Omit<EngineRecord['frames'][number], 'wallMs' | 'writeMs' | 'files'>;
}

async function runEngine(ctx: RunContext, engine: EngineName): Promise<EngineRecord['status']> {
  const { dir, manifest, stop } = ctx;
  const settings = manifest.settings;
  const record: EngineRecord = manifest.engines[engine] ?? { status: 'running', checkpoint: null, frames: [] };
  manifest.engines[engine] = record;
  const checkpointFile = `${engine}/checkpoint.vscd`;
  let sim: Simulation | undefined;
  // The state after the last finished frame, so a failure mid-frame still leaves a clean checkpoint.
  let lastGood: { bytes: Uint8Array; frame: number } | undefined;
  const saveCheckpoint = (bytes: Uint8Array, frame: number) => {
    writeFileAtomic(join(dir, checkpointFile), bytes);
    record.checkpoint = { file: checkpointFile, frame };
  };
  let progress: ReturnType<typeof createProgress> | undefined;
  // Frame k's files are encoded and written (frame-writer.ts) while frame k + 1 steps; k is
  // recorded, and may be checkpointed, only once its files are on disk (settle).
  const writer = new FrameWriter(availableParallelism() < 2);
  let pending: PendingFrame | null = null;
  let sinceCheckpoint = 0;
  let lastDone = performance.now();
  const settle = async (): Promise<void> => {
    if (!pending) return;
    const p = pending;
    pending = null;
    const written = await p.written;
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
  try {
    // Loaded here, not at start-up: the encoders (glTF library included) are only needed by `run`
    // (and by the frame writer's thread, which loads them itself).
    const { MESH_EXTENSIONS, POINTS_EXTENSIONS } = await import('./export.ts');
    if (ctx.resuming && record.checkpoint && record.status === 'complete' && record.checkpoint.frame >= settings.frames) {
      return record.status; // nothing left to do; skip loading the checkpoint
    }
    if (ctx.resuming && record.checkpoint) {
      const bytes = new Uint8Array(readFileSync(join(dir, record.checkpoint.file)));
      sim = restoreSimulation(bytes, ctx.options);
      if (sim.engine !== engine) throw new Error(`checkpoint ${record.checkpoint.file} holds a '${sim.engine}' run, expected '${engine}'`);
      record.frames = record.frames.filter((f) => f.frame <= sim!.frame);
      lastGood = { bytes, frame: sim.frame };
    } else {
      record.frames = [];
      record.checkpoint = null;
      sim = createSimulation(ctx.scene, engine, ctx.options);
      lastGood = { bytes: sim.save(), frame: sim.frame };
    }
    record.status = 'running';
    delete record.error;
    if (sim.frame >= settings.frames) {
      record.status = 'complete';
      writeManifest(dir, manifest);
      return record.status;
    }
    const what = [
      settings.mesh !== 'none' ? `${settings.mesh} meshes` : '',
      settings.points !== 'none' ? `${settings.points} points` : '',
      settings.solids !== 'none' ? `${settings.solids} solids` : '',
    ]
      .filter(Boolean)
      .join(', ');
    process.stderr.write(
      `${engine}: ${ctx.scene.name}, frames ${sim.frame + 1}–${settings.frames}${what ? `, ${what}` : ''}${engine === 'particle' ? `, ${threadsNote(settings.workers ?? ctx.scene.particle.workers)}` : ''} → ${relative(process.cwd(), join(dir, engine)) || '.'}\n`,
    );
    progress = createProgress(engine, sim.frame, settings.frames);
    const started = performance.now();
    const warnVolume = volumeWarner(engine);
    lastDone = started;
    while (sim.frame < settings.frames && !stop.requested) {
      const t0 = performance.now();
      const stats = sim.stepFrame();
      const t1 = performance.now();
      const job: FrameFiles = { dir, labels: { name: ctx.scene.name, output: { colors: ctx.scene.output.colors }, materialNames: ctx.scene.materialNames } };
      let surfaceMs = 0;
      if (settings.mesh !== 'none') {
        const file = `${engine}/${frameFileName('mesh', sim.frame, settings.padding, MESH_EXTENSIONS[settings.mesh])}`;
        // Meshed by the frame writer where the engine hands over its surface, else here.
        const surface = sim.surfaceJob?.();
        job.mesh = surface ? { format: settings.mesh, file, job: surface } : { format: settings.mesh, file, mesh: sim.surfaceMesh() };
        surfaceMs = performance.now() - t1;
      }
      if (settings.solids !== 'none') {
        job.solids = { format: settings.solids, file: `${engine}/${frameFileName('solids', sim.frame, settings.padding, MESH_EXTENSIONS[settings.solids])}`, mesh: solidsMesh(sim.solids()) };
      }
      const points = sim.fluidPoints();
      if (settings.points !== 'none') {
        job.points = { format: settings.points, file: `${engine}/${frameFileName('points', sim.frame, settings.padding, POINTS_EXTENSIONS[settings.points])}`, points };
      }
      const metrics = sim.metrics();
      // Liquid the method lost or gained (Metrics.volumeChange: sources and sinks counted), said once.
      const volumeLine = warnVolume(metrics, sim.time, sim.frame);
      if (volumeLine) progress.log(volumeLine);
      const state = { bytes: sim.save(), frame: sim.frame };
      await settle();
      pending = {
        t0,
        state,
        written: writer.submit(job),
        entry: {
          frame: sim.frame,
          time: sim.time,
          stepMs: t1 - t0,
          surfaceMs,
          stages: stats.stages,
          counters: stats.counters,
          points: points.count,
          fluidVolume: metrics.fluidVolume,
          maxSpeed: metrics.maxSpeed,
          centerOfMass: Array.from(metrics.centerOfMass),
          bounds: { min: Array.from(metrics.bounds.min), max: Array.from(metrics.bounds.max) },
        },
      };
      await yieldToEventLoop();
    }
    await settle();
    progress.stop();
    if (writer.lost) process.stderr.write(`note: the frame writer's thread failed (${writer.lost}); the calling thread wrote the frames from then on\n`);
    if (stop.requested && sim.frame < settings.frames) {
      saveCheckpoint(lastGood.bytes, lastGood.frame);
      record.status = 'interrupted';
    } else {
      record.status = 'complete';
      process.stderr.write(`${engine}: ${record.frames.length} frames in ${fmtDuration((performance.now() - started) / 1000)}\n`);
    }
    writeManifest(dir, manifest);
    return record.status;
  } catch (e) {
    progress?.stop();
    record.status = 'failed';
    record.error = (e as Error)?.message ?? String(e);
    // The frame whose files were being written when the run failed: kept if they were written.
    const writing = pending?.entry.frame;
    try {
      await settle();
    } catch (inner) {
      record.error += `; and frame ${writing}'s files could not be written: ${(inner as Error).message}`;
    }
    if (lastGood) {
      try {
        saveCheckpoint(lastGood.bytes, lastGood.frame);
      } catch (inner) {
        record.error += `; and the checkpoint could not be written: ${(inner as Error).message}`;
      }
    }
    writeManifest(dir, manifest);
    const at = lastGood ? ` after frame ${lastGood.frame}` : '';
    process.stderr.write(`error: ${engine} engine failed${at}: ${record.error}\n`);
    if (process.env.VISCID_DEBUG && (e as Error)?.stack) process.stderr.write(`${(e as Error).stack}\n`);
    return record.status;
  } finally {
    sim?.dispose();
    writer.close();
  }
}
