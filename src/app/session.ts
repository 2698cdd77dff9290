/**
 * What the app runs: the scene and engine mode the user asked for last, and the simulation
 * clients running what was accepted. Every load (picking, dropping or resetting a scene, changing
 * the engine or the thread count) loads the scene asked for now into new clients, on workers that
 * run nothing (client.ts), and once every engine has accepted it disposes the old ones: their
 * scenes end at once for the page, their workers are reset for reuse or, in a long frame,
 * terminated. A newer request supersedes one still loading, so the scene that runs is always the
 * last one asked for; a scene that is refused leaves the running one going and the controls back
 * on it.
 */
import type { EngineName } from '../api.ts';
import type { SceneIssue } from '../scene/parse.ts';
import type { ClientEvents, Loaded, LoadResult } from './client.ts';
import type { FrameOptions, MeshFormat, ParticleBackend, Threads, ToWorker } from './protocol.ts';

export type Mode = 'particle' | 'grid' | 'side by side';

export function enginesFor(mode: Mode): EngineName[] {
  return mode === 'side by side' ? ['particle', 'grid'] : [mode];
}

export interface SceneSource {
  text: string;
  meshes: Record<string, string>;
}

/** A scene the user asked for; its text may still be on its way. */
export interface SceneRequest {
  label: string;
  source: Promise<SceneSource>;
  /** Frame the camera on it once it runs (not on a reset of the same scene). */
  fit: boolean;
  /** Open it in an engine the scene names (its `engines`) rather than keep the mode on show. */
  pickEngine?: boolean;
}

/**
 * The mode a scene opens in: the first engine the scene's `engines` names (the one it is meant
 * for), or side by side when that is on show (it shows both). Text that does not parse, or a
 * scene that names none, keeps the mode (the engines report what is wrong with the scene).
 */
export function modeForScene(text: string, current: Mode): Mode {
  let engines: unknown;
  try {
    engines = (JSON.parse(text) as { engines?: unknown } | null)?.engines;
  } catch {
    return current;
  }
  if (!Array.isArray(engines)) return current;
  const named = engines.filter((e): e is EngineName => e === 'particle' || e === 'grid');
  if (named.length === 0 || current === 'side by side') return current;
  return named[0];
}

/** What runs now. */
export interface Running {
  mode: Mode;
  request: SceneRequest;
  source: SceneSource;
  loaded: Loaded;
}

export type Refusal = { label: string; message: string; issues: SceneIssue[] };

export type LoadOutcome = LoadResult | { ok: false; superseded: true; message: string; issues: SceneIssue[] };

/** What the session needs of a simulation client (client.ts SimClient; a fake in the unit tests). */
export interface SessionClient {
  readonly engine: EngineName;
  /** Meshes recorded since recording started, by file name. */
  recorded: Record<string, Uint8Array>;
  load(sceneText: string, meshes: Record<string, string>, threads: Threads, keepRunning: boolean, backend?: ParticleBackend): Promise<LoadResult>;
  send(msg: ToWorker): void;
  setOptions(options: FrameOptions): void;
  startRecording(format: MeshFormat): void;
  stopRecording(format: MeshFormat): Promise<Record<string, Uint8Array>>;
  dispose(): void;
}

export interface SessionEvents<C> extends Omit<ClientEvents<C>, 'onLoaded'> {
  /** A scene started running on new clients; `fit`: frame the camera on it. */
  onRunning(running: Running, fit: boolean): void;
  /** A scene was refused; the running one goes on. */
  onRefused(refusal: Refusal): void;
  /** The mode or scene asked for went back to what runs (after a refusal). */
  onRequestChanged(): void;
  /** Meshes recorded by clients that were replaced: the recording ends with them. */
  onRecordingEnded(recorded: RecordedMeshes[]): void;
  /** A client started its scene over by itself (play after the end). */
  onReloaded(client: C): void;
}

export interface RecordedMeshes {
  /** The scene recorded (its label). */
  scene: string;
  engine: EngineName;
  /** File name (`mesh-0052.obj`) to bytes. */
  files: Record<string, Uint8Array>;
}

export interface SessionSetup<C extends SessionClient> {
  createClient(engine: EngineName, events: ClientEvents<C>): C;
  threads(): Threads;
  /** Where the particle engine steps (protocol.ts ParticleBackend); 'auto' when not given. */
  backend?(): ParticleBackend;
  frameOptions(): FrameOptions;
  events: SessionEvents<C>;
}

export class Session<C extends SessionClient> {
  /** The engine mode and scene asked for last (what the controls show). */
  mode: Mode = 'particle';
  request: SceneRequest | null = null;
  /** What the clients run. */
  running: Running | null = null;
  clients: C[] = [];
  playing = true;
  /** Loads under way (a newer one supersedes the older). */
  loading = 0;
  /** Bumped whenever the clients are replaced. */
  generation = 0;
  /** The mesh format being recorded in, or null. */
  recording: MeshFormat | null = null;
  private ticket = 0;
  private fitted: SceneRequest | null = null;
  private readonly clientEvents: ClientEvents<C>;

  constructor(private readonly setup: SessionSetup<C>) {
    const ev = setup.events;
    this.clientEvents = {
      onLoaded: (c) => {
        // A worker's own reload (play after the end) starts the scene over in the same client.
        if (this.clients.includes(c) && this.running) ev.onReloaded(c);
      },
      // Clients still loading (or replaced) speak only through what they keep: the page reads
      // their frame and error once they run.
      onFrame: (c) => this.clients.includes(c) && ev.onFrame(c),
      onError: (c, m) => this.clients.includes(c) && ev.onError(c, m),
      onRecorded: (c, n) => this.clients.includes(c) && ev.onRecorded(c, n),
    };
  }

  /** Runs `request` in the current mode. */
  open(request: SceneRequest): Promise<LoadOutcome> {
    this.request = request;
    return this.load();
  }

  /** Runs the scene asked for in `mode`. */
  setMode(mode: Mode): Promise<LoadOutcome> | null {
    this.mode = mode;
    return this.request ? this.load() : null;
  }

  /**
   * Starts the scene asked for over: with `editedText` (the parameter panel's edits) when that is
   * the scene running, else the scene asked for as it is (which may still be loading).
   */
  reset(editedText?: string): Promise<LoadOutcome> | null {
    const r = this.request;
    if (!r) return null;
    if (this.running && this.running.request === r) {
      const source = editedText === undefined ? this.running.source : { text: editedText, meshes: this.running.source.meshes };
      this.request = { label: r.label, source: Promise.resolve(source), fit: false };
      this.fitted = this.request;
    }
    return this.load();
  }

  play(): void {
    this.playing = true;
    for (const c of this.clients) c.send({ type: 'play' });
  }

  pause(): void {
    this.playing = false;
    for (const c of this.clients) c.send({ type: 'pause' });
  }

  step(): void {
    this.playing = false;
    for (const c of this.clients) c.send({ type: 'step' });
  }

  setFrameOptions(options: FrameOptions): void {
    for (const c of this.clients) c.setOptions(options);
  }

  startRecording(format: MeshFormat): void {
    this.recording = format;
    for (const c of this.clients) c.startRecording(format);
  }

  /** Stops recording; resolves with each engine's meshes once the last frame still meshing is in. */
  async stopRecording(): Promise<RecordedMeshes[]> {
    const format = this.recording;
    if (!format) return [];
    this.recording = null;
    const clients = this.clients;
    const files = await Promise.all(clients.map((c) => c.stopRecording(format)));
    const scene = this.running?.request.label ?? 'scene';
    return clients.map((c, i) => ({ scene, engine: c.engine, files: files[i] }));
  }

  private async load(): Promise<LoadOutcome> {
    const ticket = ++this.ticket;
    const request = this.request!;
    let mode = this.mode;
    this.loading++;
    try {
      let source: SceneSource;
      try {
        source = await request.source;
      } catch (e) {
        return this.refuse(ticket, request, { ok: false, message: (e as Error).message, issues: [{ path: '', message: (e as Error).message }] });
      }
      if (ticket !== this.ticket) return superseded();
      if (request.pickEngine) {
        // Once: an engine chosen later (setMode) reloads this request and must stay chosen.
        request.pickEngine = false;
        mode = modeForScene(source.text, mode);
        if (mode !== this.mode) {
          this.mode = mode;
          this.setup.events.onRequestChanged();
        }
      }
      const fresh = enginesFor(mode).map((engine) => this.setup.createClient(engine, this.clientEvents));
      const options = this.setup.frameOptions();
      for (const c of fresh) c.setOptions(options);
      const keepRunning = this.running !== null;
      const results = await Promise.all(fresh.map((c) => c.load(source.text, source.meshes, this.setup.threads(), keepRunning, this.setup.backend?.() ?? 'auto')));
      if (ticket !== this.ticket) {
        for (const c of fresh) c.dispose();
        return superseded();
      }
      const failed = results.find((r): r is Extract<LoadResult, { ok: false }> => !r.ok);
      if (failed) {
        for (const c of fresh) c.dispose();
        return this.refuse(ticket, request, failed);
      }
      this.replaceClients(fresh);
      const loaded = (results[0] as Extract<LoadResult, { ok: true }>).loaded;
      const fit = request.fit && this.fitted !== request;
      this.fitted = request;
      this.running = { mode, request, source, loaded };
      this.setup.events.onRunning(this.running, fit);
      if (this.playing) for (const c of fresh) c.send({ type: 'play' });
      return results[0];
    } finally {
      this.loading--;
    }
  }

  private replaceClients(fresh: C[]): void {
    const old = this.clients;
    this.clients = fresh;
    this.generation++;
    if (this.recording) {
      // The recording belongs to the scene it started on: it ends with it, keeping what came in.
      this.recording = null;
      const scene = this.running?.request.label ?? 'scene';
      this.setup.events.onRecordingEnded(old.map((c) => ({ scene, engine: c.engine, files: c.recorded })));
    }
    for (const c of old) c.dispose();
  }

  private refuse(ticket: number, request: SceneRequest, failed: Extract<LoadResult, { ok: false }>): LoadOutcome {
    if (ticket !== this.ticket) return superseded();
    // The controls go back to what runs.
    this.mode = this.running?.mode ?? this.mode;
    this.request = this.running?.request ?? null;
    this.setup.events.onRequestChanged();
    this.setup.events.onRefused({ label: request.label, message: failed.message, issues: failed.issues });
    return failed;
  }
}

function superseded(): LoadOutcome {
  const message = 'superseded by a newer load';
  return { ok: false, superseded: true, message, issues: [{ path: '', message }] };
}
