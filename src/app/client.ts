/**
 * The page's handle on one simulation worker (sim.worker.ts) running one scene: sends commands,
 * keeps the latest frame's numbers, and feeds frames to its renderer view. A new scene gets a new
 * client (session.ts) on a worker that runs nothing; `dispose()` hands the worker back to be reset
 * and reused (worker-pool.ts): its scene, the engine's worker threads with it, ends between frames,
 * and a worker still in a frame after RESET_GRACE_MS is terminated, its threads and mesh worker
 * with it.
 */
import type { EngineName, Metrics, StepStats } from '../api.ts';
import type { View, ViewFrame } from '../render/renderer.ts';
import type { FromWorker, FrameOptions, MeshFormat, ParticleBackend, Threads, ToWorker } from './protocol.ts';
import type { SceneIssue } from '../scene/parse.ts';
import { WorkerPool } from './worker-pool.ts';

export type Loaded = Extract<FromWorker, { type: 'loaded' }>;
export type LoadResult = { ok: true; loaded: Loaded } | { ok: false; message: string; issues: SceneIssue[] };

export interface ClientEvents<C = SimClient> {
  onLoaded(client: C, loaded: Loaded): void;
  onFrame(client: C): void;
  onError(client: C, message: string): void;
  onRecorded(client: C, files: number): void;
}

/** Two idle: side by side takes two at once. */
const pool = new WorkerPool(2, () => new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'viscid-sim' }));

export class SimClient {
  readonly worker: Worker;
  loaded: Loaded | null = null;
  frame = 0;
  time = 0;
  playing = false;
  /** The scene's duration is reached (the worker stopped there). */
  finished = false;
  stats: StepStats | null = null;
  meshMs = 0;
  metrics: Metrics | null = null;
  /** Liquid volume of the first frame after the (re)load, m³: what the overlay's change is against. */
  volume0: number | null = null;
  pointCount = 0;
  triangleCount = 0;
  /** Triangles drawn (the mesh is simplified for display above a limit). */
  drawnTriangles = 0;
  /** The engine's last error (not registered, a SimulationError…); cleared by a successful load. */
  error: string | null = null;
  /** Meshes recorded since recording started, by file name (`mesh-0052.obj`). */
  recorded: Record<string, Uint8Array> = {};
  /** Wall-clock arrival times of stepped frames, for the simulation frame rate. */
  readonly arrivals: number[] = [];
  private loadedAt = performance.now();
  /** Scenes the worker has loaded: a load, or a replay from the start once the scene has finished. */
  loads = 0;
  private pendingFrame: ViewFrame | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (msg: FromWorker | null) => void>();
  private disposed = false;
  /** The worker threw (or never started): it is terminated, not reused. */
  private broken = false;

  constructor(readonly engine: EngineName, readonly view: View, private readonly events: ClientEvents) {
    this.worker = pool.take();
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      this.broken = true;
      this.error = `worker failed: ${ev.message || 'could not start (see the console)'}`;
      this.events.onError(this, this.error);
      if (!this.loaded) this.failPending(); // it never started: nothing will answer
    };
  }

  send(msg: ToWorker): void {
    if (!this.disposed) this.worker.postMessage(msg);
  }

  /**
   * Loads a scene; resolves once the worker runs it (its first frame follows) or refuses it.
   * `keepRunning`: another scene is on show and goes on if this one is refused. `backend`: where
   * the particle engine steps (gpu-backend.ts; 'auto' when not given).
   */
  load(sceneText: string, meshes: Record<string, string>, threads: Threads, keepRunning: boolean, backend: ParticleBackend = 'auto'): Promise<LoadResult> {
    return this.request((id) => ({ type: 'load', id, sceneText, meshes, engine: this.engine, threads, backend, keepRunning }), (msg) => {
      if (msg?.type === 'loaded') return { ok: true, loaded: msg };
      if (msg?.type === 'sceneError') return { ok: false, message: msg.message, issues: msg.issues };
      const why = this.error ?? 'the simulation worker stopped';
      return { ok: false, message: why, issues: [{ path: '', message: why }] };
    });
  }

  /** The mesh of the frame on show, encoded, and that frame's number. */
  exportMesh(format: MeshFormat): Promise<{ bytes: Uint8Array; frame: number }> {
    return this.request((id) => ({ type: 'export', id, format }), (msg) => {
      if (msg?.type === 'export' && msg.bytes) return { bytes: msg.bytes, frame: msg.frame };
      throw new Error(msg?.type === 'export' ? (msg.error ?? 'export failed') : 'the scene was replaced before its mesh was exported');
    });
  }

  /** Starts recording each new frame's mesh, in `format`. */
  startRecording(format: MeshFormat): void {
    this.recorded = {};
    this.send({ type: 'record', id: 0, on: true, format });
  }

  /** Stops recording; resolves with the meshes recorded, once the last frame still meshing is in. */
  stopRecording(format: MeshFormat): Promise<Record<string, Uint8Array>> {
    return this.request((id) => ({ type: 'record', id, on: false, format }), () => {
      const files = this.recorded;
      this.recorded = {};
      return files;
    });
  }

  setOptions(options: FrameOptions): void {
    this.send({ type: 'options', options });
  }

  /** simFps as of the last frame that arrived (0 before one): what a paused or finished run last ran at. */
  lastSimFps = 0;

  /** Simulated frames per wall-clock second over the last few seconds. */
  simFps(now = performance.now()): number {
    while (this.arrivals.length > 0 && now - this.arrivals[0] > 5000) this.arrivals.shift();
    const window = Math.min(5000, now - this.loadedAt);
    return window > 0 ? (1000 * this.arrivals.length) / window : 0;
  }

  /** Hands the newest received frame to the renderer view; true if there was one. */
  upload(): boolean {
    const f = this.pendingFrame;
    if (!f) return false;
    this.pendingFrame = null;
    this.view.setFrame(f);
    return true;
  }

  /** Ends the scene (the worker goes back to the pool, which resets or terminates it) and frees the view. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    pool.giveBack(this.worker, this.broken);
    this.view.destroy();
    this.failPending();
  }

  private request<T>(make: (id: number) => ToWorker, answer: (msg: FromWorker | null) => T): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, (msg) => {
        try {
          resolve(answer(msg));
        } catch (e) {
          reject(e as Error);
        }
      });
      if (this.disposed) this.failPending();
      else this.send(make(id));
    });
  }

  /** Answers every open request with null: the worker will not. */
  private failPending(): void {
    const open = [...this.pending.values()];
    this.pending.clear();
    for (const fn of open) fn(null);
  }

  private receive(msg: FromWorker): void {
    if (this.disposed) return;
    switch (msg.type) {
      case 'loaded':
        this.loaded = msg;
        this.error = null;
        this.frame = 0;
        this.time = 0;
        this.finished = false;
        this.stats = null;
        this.metrics = null;
        this.volume0 = null;
        this.arrivals.length = 0;
        this.lastSimFps = 0;
        this.loadedAt = performance.now();
        this.loads++;
        this.pendingFrame = null;
        this.view.setScene({
          palette: msg.materials.map((m) => m.color),
          liquidColor: msg.materials.find((m) => m.kind === 'liquid')?.color ?? [0.7, 0.35, 0.02],
          particleRadius: msg.particleRadius,
          domain: msg.domain,
          solids: msg.solids,
        });
        this.events.onLoaded(this, msg);
        this.answer(msg.id, msg);
        return;
      case 'sceneError':
      case 'export':
        this.answer(msg.id, msg);
        return;
      case 'recordStopped':
        this.answer(msg.id, msg);
        return;
      case 'reset':
        return; // the pool's answer (it is no longer this client's once asked)
      case 'error':
        this.error = msg.frame !== undefined ? `${msg.message} (stage ${msg.stage}, frame ${msg.frame})` : msg.message;
        this.playing = false;
        this.events.onError(this, this.error);
        return;
      case 'recorded':
        this.recorded[msg.file] = msg.bytes;
        this.events.onRecorded(this, Object.keys(this.recorded).length);
        return;
      case 'frame':
        this.takeFrame(msg);
        return;
    }
  }

  private takeFrame(msg: Extract<FromWorker, { type: 'frame' }>): void {
    if (msg.stats) {
      const now = performance.now();
      this.arrivals.push(now);
      this.lastSimFps = this.simFps(now);
      this.stats = msg.stats;
      this.meshMs = msg.meshMs;
    }
    this.frame = msg.frame;
    this.time = msg.time;
    this.playing = msg.playing;
    this.finished = msg.finished;
    this.metrics = msg.metrics;
    if (msg.metrics && this.volume0 === null) this.volume0 = msg.metrics.fluidVolume;
    if (msg.points) this.pointCount = msg.points.total;
    if (msg.mesh) {
      this.triangleCount = msg.mesh.fullTriangles;
      this.drawnTriangles = msg.mesh.indices.length / 3;
    }
    // Uploaded at the next draw: when frames come faster than the page draws, only the newest is.
    this.pendingFrame = {
      points: msg.points,
      mesh: msg.mesh,
      transforms: msg.transforms,
      velocityLines: msg.velocityLines,
      cellLines: msg.cellLines,
      smoke: msg.smoke,
      maxSpeed: msg.metrics?.maxSpeed,
    };
    this.events.onFrame(this);
  }

  private answer(id: number, msg: FromWorker): void {
    const fn = this.pending.get(id);
    if (fn) {
      this.pending.delete(id);
      fn(msg);
    }
  }
}
