/**
 * The page's handle on one simulation worker: sends commands, keeps the latest frame's numbers,
 * and feeds frames to its renderer view.
 */
import type { EngineName, Metrics, StepStats } from '../api.ts';
import type { View, ViewFrame } from '../render/renderer.ts';
import type { FromWorker, FrameOptions, MeshFormat, Threads, ToWorker } from './protocol.ts';
import type { SceneIssue } from '../scene/parse.ts';

export type Loaded = Extract<FromWorker, { type: 'loaded' }>;
export type LoadResult = { ok: true; loaded: Loaded } | { ok: false; message: string; issues: SceneIssue[] };

export interface ClientEvents {
  onLoaded(client: SimClient, loaded: Loaded): void;
  onFrame(client: SimClient): void;
  onError(client: SimClient, message: string): void;
  onRecording(client: SimClient, frames: number): void;
  onZip(client: SimClient, bytes: Uint8Array, frames: number): void;
}

export class SimClient {
  readonly worker: Worker;
  loaded: Loaded | null = null;
  frame = 0;
  time = 0;
  playing = false;
  stats: StepStats | null = null;
  meshMs = 0;
  metrics: Metrics | null = null;
  pointCount = 0;
  triangleCount = 0;
  /** Triangles drawn (the mesh is simplified for display above a limit). */
  drawnTriangles = 0;
  /** The engine's last error (not registered, a SimulationError…); cleared by a successful load. */
  error: string | null = null;
  /** Wall-clock arrival times of stepped frames, for the simulation frame rate. */
  readonly arrivals: number[] = [];
  private loadedAt = performance.now();
  private pendingFrame: ViewFrame | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, (msg: FromWorker) => void>();

  constructor(readonly engine: EngineName, readonly view: View, private readonly events: ClientEvents) {
    this.worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: `viscid-${engine}` });
    this.worker.onmessage = (ev: MessageEvent<FromWorker>) => this.receive(ev.data);
    this.worker.onerror = (ev) => {
      this.error = `worker failed: ${ev.message || 'could not start (see the console)'}`;
      this.events.onError(this, this.error);
    };
  }

  send(msg: ToWorker): void {
    this.worker.postMessage(msg);
  }

  /**
   * Loads a scene. With `stage` the worker only prepares it and this resolves once it accepts or
   * refuses; `commit()` then starts it (and resolves with 'loaded'), `discard()` drops it.
   */
  load(sceneText: string, meshes: Record<string, string>, stage = false, threads: Threads = 'auto'): Promise<LoadResult | { ok: true; staged: true }> {
    const id = this.nextId++;
    this.stagedId = stage ? id : -1;
    return new Promise((resolve) => {
      this.pending.set(id, (msg) => {
        if (msg.type === 'loaded') resolve({ ok: true, loaded: msg });
        else if (msg.type === 'staged') resolve({ ok: true, staged: true });
        else if (msg.type === 'sceneError') resolve({ ok: false, message: msg.message, issues: msg.issues });
      });
      this.send({ type: 'load', id, sceneText, meshes, engine: this.engine, stage, threads });
    });
  }

  private stagedId = -1;

  /** Starts the staged scene; resolves with its 'loaded' message. */
  commit(): Promise<Loaded> {
    const id = this.stagedId;
    this.stagedId = -1;
    return new Promise((resolve) => {
      this.pending.set(id, (msg) => {
        if (msg.type === 'loaded') resolve(msg);
      });
      this.send({ type: 'commit', id });
    });
  }

  /** Drops the staged scene; the running one goes on. */
  discard(): void {
    this.stagedId = -1;
    this.send({ type: 'discard' });
  }

  exportMesh(format: MeshFormat): Promise<Uint8Array> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (msg) => {
        if (msg.type !== 'export') return;
        if (msg.bytes) resolve(msg.bytes);
        else reject(new Error(msg.error ?? 'export failed'));
      });
      this.send({ type: 'export', id, format });
    });
  }

  setOptions(options: FrameOptions): void {
    this.send({ type: 'options', options });
  }

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

  dispose(): void {
    this.worker.terminate();
  }

  private receive(msg: FromWorker): void {
    switch (msg.type) {
      case 'loaded':
        this.loaded = msg;
        this.error = null;
        this.frame = 0;
        this.time = 0;
        this.stats = null;
        this.metrics = null;
        this.arrivals.length = 0;
        this.loadedAt = performance.now();
        this.pendingFrame = null;
        this.view.setScene({
          palette: msg.materials.map((m) => m.color),
          liquidColor: msg.materials.find((m) => m.kind === 'liquid')?.color ?? [0.7, 0.35, 0.02],
          particleRadius: msg.particleRadius,
          domain: msg.domain,
          solids: msg.solids,
        });
        this.events.onLoaded(this, msg);
        this.resolvePending(msg.id, msg);
        return;
      case 'sceneError':
      case 'staged':
        this.resolvePending(msg.id, msg);
        return;
      case 'export':
        this.resolvePending(msg.id, msg);
        return;
      case 'error':
        this.error = msg.frame !== undefined ? `${msg.message} (stage ${msg.stage}, frame ${msg.frame})` : msg.message;
        this.playing = false;
        this.events.onError(this, this.error);
        return;
      case 'frame': {
        if (msg.stats) this.arrivals.push(performance.now());
        this.frame = msg.frame;
        this.time = msg.time;
        this.playing = msg.playing;
        if (msg.stats) this.stats = msg.stats;
        if (msg.stats) this.meshMs = msg.meshMs;
        this.metrics = msg.metrics;
        if (msg.points) this.pointCount = msg.points.total;
        if (msg.mesh) {
          this.triangleCount = msg.mesh.fullTriangles;
          this.drawnTriangles = msg.mesh.indices.length / 3;
        }
        // Uploaded at the next draw: when frames come faster than the page draws, only the
        // newest is uploaded.
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
        return;
      }
      case 'recording':
        this.events.onRecording(this, msg.frames);
        return;
      case 'zip':
        this.events.onZip(this, msg.bytes, msg.frames);
        return;
    }
  }

  private resolvePending(id: number, msg: FromWorker): void {
    const fn = this.pending.get(id);
    if (fn) {
      this.pending.delete(id);
      fn(msg);
    }
  }
}
