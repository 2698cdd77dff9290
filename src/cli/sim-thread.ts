/**
 * `viscid run` steps its simulation on a worker thread of its own (sim-thread-entry.ts), so the
 * main thread stays free for signals and I/O: a frame can take minutes, and Node runs a SIGINT or
 * SIGTERM handler only when the main thread is idle. On Ctrl-C the main thread terminates this
 * thread at once (the frame in progress is dropped; the last finished frame's checkpoint is in the
 * main thread's hands) and ends the run within a second or two.
 *
 * The thread builds the same Simulation from the same scene text and meshes (or the same
 * checkpoint bytes) as the main thread did before, so frames and checkpoints are the same bytes.
 * Per frame it posts the step's statistics, what the frame writer needs (the engine's surface
 * job or mesh, the solids, the points) and the checkpoint bytes (transferred, not copied).
 */
import type { Worker } from 'node:worker_threads';
import type { EngineName, FluidPoints, Mesh, Scene, StepStats, SurfaceJob, TriMesh } from '../index.ts';
import type { MESH_EXTENSIONS, POINTS_EXTENSIONS } from './export.ts';
import { frameFileName } from './files.ts';
import type { FrameFiles } from './frame-files.ts';
import type { RunSettings } from './manifest.ts';
import { siblingModule, startModuleWorker } from './threads.ts';

export interface LoadRequest {
  type: 'load';
  engine: EngineName;
  /** The scene file's text and the meshes it loaded (parsed again there: the same Scene). */
  sceneText: string;
  meshes: Record<string, TriMesh>;
  /** Continue from these checkpoint bytes instead of the scene's start. */
  checkpoint?: Uint8Array;
  workers?: number;
  /** 'webgpu': the particle engine's frames are stepped on the GPU (src/gpu/mirror.ts). */
  backend?: 'webgpu';
  /** What the frame writer wants of each frame. */
  want: { mesh: boolean; solids: boolean; points: boolean };
}

export interface Loaded {
  type: 'loaded';
  engine: EngineName;
  frame: number;
  /** Checkpoint of the state loaded (frame `frame`). */
  state: Uint8Array;
  /** The GPU adapter, in words, when the frames run on WebGPU. */
  adapter?: string;
}

export interface SteppedFrame {
  type: 'frame';
  frame: number;
  time: number;
  stats: StepStats;
  stepMs: number;
  /** Time the thread took to make the surface (a job for the writer's thread, or the mesh), ms. */
  surfaceMs: number;
  surface?: { job?: SurfaceJob; mesh?: Mesh };
  solids?: Mesh;
  points: FluidPoints;
  fluidVolume: number;
  maxSpeed: number;
  /** Metrics.volumeChange and liquidGone, where the engine keeps a volume account (the volume warning). */
  volumeChange?: number;
  liquidGone?: boolean;
  centerOfMass: number[];
  bounds: { min: number[]; max: number[] };
  state: Uint8Array;
}

export type SimReply = Loaded | SteppedFrame | { type: 'error'; name: string; message: string; stack?: string };

/** The thread was terminated (a stop), or died: what the waiting request rejects with. */
export class SimThreadGone extends Error {
  override name = 'SimThreadGone';
}

/** An error the simulation threw on its thread, with its name (SimulationError, …). */
export class SimThreadError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    readonly threadStack?: string,
  ) {
    super(message);
  }
}

export class SimThread {
  private worker: Worker | null;
  private waiting: { resolve: (r: Loaded | SteppedFrame) => void; reject: (e: Error) => void } | null = null;
  private gone: Error | null = null;

  /** Starts the thread now (its imports take a moment); requests wait for it. */
  constructor() {
    const w = startModuleWorker(siblingModule('sim-thread-entry', import.meta.url));
    w.on('message', (m: SimReply) => {
      const p = this.waiting;
      this.waiting = null;
      this.worker?.unref();
      if (!p) return;
      if (m.type === 'error') p.reject(new SimThreadError(m.name, m.message, m.stack));
      else p.resolve(m);
    });
    w.on('error', (e) => this.die(new SimThreadError(e.name ?? 'Error', `the simulation thread failed: ${e.message}`)));
    w.on('exit', (code) => this.die(new SimThreadGone(`the simulation thread exited (code ${code})`)));
    this.worker = w;
  }

  load(req: LoadRequest): Promise<Loaded> {
    // A checkpoint is moved to the thread (the caller passes bytes of its own).
    return this.request(req, req.checkpoint ? [req.checkpoint.buffer as ArrayBuffer] : []) as Promise<Loaded>;
  }

  step(): Promise<SteppedFrame> {
    return this.request({ type: 'step' }) as Promise<SteppedFrame>;
  }

  private request(msg: unknown, transfer: ArrayBuffer[] = []): Promise<Loaded | SteppedFrame> {
    if (this.gone || !this.worker) return Promise.reject(this.gone ?? new SimThreadGone('the simulation thread was stopped'));
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    const p = new Promise<Loaded | SteppedFrame>((resolve, reject) => (this.waiting = { resolve, reject }));
    // Referenced while it works (the process waits for it), unreferenced while idle.
    this.worker.ref();
    this.worker.postMessage(msg, transfer);
    return p;
  }

  /** Whether the thread was stopped or died (it takes no more requests). */
  get stopped(): boolean {
    return this.gone !== null;
  }

  /** Stops the thread at once, whatever it is doing; a waiting request rejects with SimThreadGone. */
  terminate(): void {
    this.die(new SimThreadGone('the simulation thread was stopped'));
  }

  private die(e: Error): void {
    if (!this.gone) this.gone = e;
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
    const p = this.waiting;
    this.waiting = null;
    p?.reject(this.gone);
  }
}

/** The frame writer's job for a frame the thread stepped: its files, named for the run's settings. */
export function frameJob(
  dir: string,
  scene: Scene,
  engine: EngineName,
  settings: RunSettings,
  f: SteppedFrame,
  ext: { MESH_EXTENSIONS: typeof MESH_EXTENSIONS; POINTS_EXTENSIONS: typeof POINTS_EXTENSIONS },
): FrameFiles {
  const labels = { name: scene.name, output: { colors: scene.output.colors }, materialNames: scene.materialNames };
  const job: FrameFiles = { dir, labels };
  const name = (stem: string, extension: string) => `${engine}/${frameFileName(stem, f.frame, settings.padding, extension)}`;
  if (f.surface && settings.mesh !== 'none') job.mesh = { format: settings.mesh, file: name('mesh', ext.MESH_EXTENSIONS[settings.mesh]), ...f.surface };
  if (f.solids && settings.solids !== 'none') job.solids = { format: settings.solids, file: name('solids', ext.MESH_EXTENSIONS[settings.solids]), mesh: f.solids };
  if (settings.points !== 'none') job.points = { format: settings.points, file: name('points', ext.POINTS_EXTENSIONS[settings.points]), points: f.points };
  return job;
}
