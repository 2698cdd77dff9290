/**
 * The app's behaviour behind the page: opening bundled, dropped and edited scenes through the
 * session (session.ts), what happens when one runs or is refused (camera, parameter panel, error
 * box, plots), the overlay, and the exports. The controls (panel.ts) and the test hook (hook.ts)
 * call into it; main.ts builds it.
 */
import { zip } from 'fflate';
import type { EngineName } from '../api.ts';
import { OrbitCamera } from '../render/camera.ts';
import { Renderer, type DisplayOptions } from '../render/renderer.ts';
import { frameFileName, framePadding } from '../io/frame-names.ts';
import { SimClient } from './client.ts';
import { DrawLoop } from './draw-loop.ts';
import { hideSceneError, showSceneError } from './errors.ts';
import { CanvasRecorder, download } from './export.ts';
import { hudText, statusOf, type Status } from './hud.ts';
import { MetricPlots } from './plots.ts';
import type { FrameOptions, MeshFormat, ParticleBackend, Threads } from './protocol.ts';
import { sceneMeshes, sceneText } from './scenes.ts';
import { Session, type LoadOutcome, type Mode, type RecordedMeshes, type Refusal, type Running } from './session.ts';

export interface AppElements {
  canvas: HTMLCanvasElement;
  hud: HTMLElement;
  banner: HTMLElement;
  errors: HTMLElement;
  labels: HTMLElement;
  plots: HTMLElement;
  plotsPanel: HTMLDetailsElement;
  /** Where the running scene's description (what to look for) is shown. */
  description: HTMLElement;
}

/** Longest engine error line the banner shows, characters. */
const MAX_BANNER_LINE = 400;

export class App {
  readonly renderer: Renderer;
  readonly camera = new OrbitCamera();
  readonly display: DisplayOptions = {
    particles: false,
    mesh: true,
    objects: true,
    domain: true,
    velocity: false,
    cells: false,
    smoke: true,
    colorMode: 'material',
    opacity: 0.82,
  };
  readonly session: Session<SimClient>;
  readonly loop: DrawLoop;
  readonly plots: MetricPlots;
  readonly video = new CanvasRecorder();
  /** The particle engine's threads, applied by reloading. */
  threads: Threads = 'auto';
  /** Where the particle engine steps (`?backend=`, the panel), applied by reloading. */
  backend: ParticleBackend = 'auto';
  /** The format of exports and recordings: the scene's `output.mesh` (as `viscid run` writes) until the user picks one. */
  exportFormat: MeshFormat = 'ply';
  exportFormatPicked = false;
  /** The overlay shows the developer statistics too. */
  details = false;
  /** Redraw on every animation frame even when nothing changed (`?continuous`; for measuring). */
  continuous = false;
  /** The running scene with defaults filled, edited by the parameter panel. */
  edited: Record<string, unknown> | null = null;
  paramsDirty = false;
  lastError: string | null = null;
  recordedFrames = 0;
  /** Called when the scene runs (rebuild the parameter panel) or the request changes back (update the controls). */
  onSceneChange: () => void = () => undefined;
  /** Called when a recording ends without being asked to (the scene was replaced). */
  onRecordingEnded: () => void = () => undefined;
  private lastHud = 0;
  private sentOptions = '';
  private labelsHtml = '';

  constructor(private readonly el: AppElements) {
    this.renderer = new Renderer(el.canvas);
    this.camera.attach(el.canvas, () => el.canvas.clientHeight);
    this.plots = new MetricPlots(el.plots, el.plotsPanel);
    this.session = new Session({
      createClient: (engine, events) => new SimClient(engine, this.renderer.createView(), events),
      threads: () => this.threads,
      backend: () => this.backend,
      frameOptions: () => this.frameOptions(),
      events: {
        onRunning: (r, fit) => this.running(r, fit),
        onRefused: (r) => this.refused(r),
        onRequestChanged: () => {
          this.onSceneChange();
          this.loop.wake();
        },
        onRecordingEnded: (zips) => {
          void this.downloadRecordings(zips);
          this.onRecordingEnded();
        },
        onReloaded: () => {
          this.plots.reset(this.session.clients.map((c) => c.engine));
          this.loop.wake();
        },
        onFrame: (c) => {
          this.loop.request();
          if (c.metrics && c.stats) this.plots.push(c.engine, c.time, c.metrics);
        },
        onError: (c, message) => {
          this.loop.request();
          this.lastError = `${c.engine}: ${message}`;
          this.updateBanner();
        },
        onRecorded: (_c, n) => {
          this.recordedFrames = n;
        },
      },
    });
    this.loop = new DrawLoop(this.renderer, this.camera, this.display, {
      views: () => this.session.clients.map((c) => c.view),
      upload: () => {
        this.syncFrameOptions();
        let any = false;
        for (const c of this.session.clients) if (c.upload()) any = true;
        return any;
      },
      everyFrame: () => this.continuous || this.video.active,
      recordingVideo: () => this.video.active,
      afterFrame: (now) => this.afterFrame(now),
    });
  }

  get clients(): SimClient[] {
    return this.session.clients;
  }

  /** The scene asked for (shown by the controls and the overlay). */
  get sceneName(): string {
    return this.session.request?.label ?? '';
  }

  get status(): Status {
    return statusOf(this.clients, this.session.playing, this.session.loading > 0);
  }

  frameOptions(): FrameOptions {
    const d = this.display;
    return { mesh: d.mesh, points: d.particles, velocity: d.velocity, cells: d.cells, smoke: d.smoke };
  }

  /** Opens a bundled scene; with `pickEngine`, in an engine it names (session.ts modeForScene). */
  openBundled(name: string, pickEngine = true): Promise<LoadOutcome> {
    const source = sceneText(name).then(async (text) => ({ text, meshes: await sceneMeshes(text) }));
    return this.session.open({ label: name, source, fit: true, pickEngine });
  }

  /** Loads scene text as if it were dropped (`extra`: mesh files dropped with it, by name). */
  openText(text: string, label: string, extra: Record<string, string> = {}, pickEngine = true): Promise<LoadOutcome> {
    const source = sceneMeshes(text, extra).then((meshes) => ({ text, meshes }));
    return this.session.open({ label, source, fit: true, pickEngine });
  }

  /** Dropped or picked files: one .json scene and the .obj meshes it names. */
  async openFiles(files: File[]): Promise<LoadOutcome | null> {
    const json = files.find((f) => f.name.toLowerCase().endsWith('.json'));
    if (!json) {
      const message = 'no .json scene among the files';
      this.refused({ label: 'dropped files', message, issues: [{ path: '', message }] });
      return null;
    }
    const extra: Record<string, string> = {};
    for (const f of files) if (f.name.toLowerCase().endsWith('.obj')) extra[f.name] = await f.text();
    return this.openText(await json.text(), json.name.replace(/\.json$/i, ''), extra);
  }

  /** Starts the scene asked for over, with the parameter panel's edits. */
  reset(): Promise<LoadOutcome> | null {
    return this.session.reset(this.paramsDirty && this.edited ? JSON.stringify(this.edited) : undefined);
  }

  setMode(mode: Mode): Promise<LoadOutcome> | null {
    return this.session.setMode(mode);
  }

  setThreads(threads: Threads): Promise<LoadOutcome> | null {
    this.threads = threads;
    return this.reset();
  }

  setBackend(backend: ParticleBackend): Promise<LoadOutcome> | null {
    this.backend = backend;
    return this.reset();
  }

  /**
   * The meshes on show in the export format, named as `viscid run` names them: `mesh-0052.obj`
   * for one engine; side by side one zip holding `particle/mesh-0052.obj` and `grid/mesh-0049.obj`.
   */
  async exportMeshes(): Promise<void> {
    const clients = this.clients;
    if (clients.length === 0) throw new Error('no simulation is running');
    const scene = this.session.running?.request.label ?? 'scene';
    const format = this.exportFormat;
    const parts = await Promise.all(clients.map(async (c) => ({ c, ...(await c.exportMesh(format)) })));
    const name = (c: SimClient, frame: number) => frameFileName('mesh', frame, framePadding(c.loaded?.frames ?? 1), format);
    if (parts.length === 1) {
      download(parts[0].bytes, name(parts[0].c, parts[0].frame));
      return;
    }
    const files: Record<string, Uint8Array> = {};
    for (const p of parts) files[`${p.c.engine}/${name(p.c, p.frame)}`] = p.bytes;
    download(await zipped(files), `${scene}-meshes.zip`);
  }

  /** The mesh on show of one engine (the first when none is named), encoded. */
  async exportMesh(format: MeshFormat, engine?: EngineName): Promise<Uint8Array> {
    const c = this.clients.find((x) => !engine || x.engine === engine);
    if (!c) throw new Error('no simulation is running');
    return (await c.exportMesh(format)).bytes;
  }

  /** Zips of recorded meshes, one per engine: `<scene>-<engine>.zip` holding `<engine>/mesh-0001.obj` …, as `viscid run` lays them out. */
  async recordingZips(recorded: RecordedMeshes[]): Promise<{ engine: EngineName; frames: number; name: string; bytes: Uint8Array }[]> {
    return Promise.all(
      recorded.map(async (r) => {
        const files: Record<string, Uint8Array> = {};
        for (const [file, bytes] of Object.entries(r.files)) files[`${r.engine}/${file}`] = bytes;
        return { engine: r.engine, frames: Object.keys(r.files).length, name: `${r.scene}-${r.engine}.zip`, bytes: await zipped(files) };
      }),
    );
  }

  async downloadRecordings(recorded: RecordedMeshes[]): Promise<void> {
    for (const z of await this.recordingZips(recorded)) if (z.frames > 0) download(z.bytes, z.name);
  }

  async screenshotPNG(): Promise<Blob> {
    const blob = await this.loop.afterNextDraw((cv) => new Promise<Blob | null>((res) => cv.toBlob(res, 'image/png')));
    if (!blob) throw new Error('the canvas could not be encoded as PNG');
    return blob;
  }

  /** The canvas's pixels in the frame just drawn (rows bottom to top). */
  readPixels(): Promise<{ width: number; height: number; pixels: Uint8Array }> {
    return this.loop.afterNextDraw((cv) => {
      // Straight from the GL context in the frame that drew it (regl.read insists on preserveDrawingBuffer).
      const gl = this.renderer.regl._gl;
      const pixels = new Uint8Array(4 * cv.width * cv.height);
      gl.readPixels(0, 0, cv.width, cv.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      return { width: cv.width, height: cv.height, pixels };
    });
  }

  showMessage(message: string, ms = 4000): void {
    this.lastError = message;
    this.el.banner.textContent = cutLine(message);
    this.el.banner.style.display = 'block';
    setTimeout(() => this.updateBanner(), ms);
  }

  /** Frames the camera on the running scene as the view is shaped now. */
  frameCamera(): void {
    const loaded = this.session.running?.loaded;
    if (!loaded) return;
    const cv = this.el.canvas;
    const aspect = cv.clientWidth / Math.max(1, cv.clientHeight) / Math.max(1, this.clients.length);
    this.camera.fit(loaded.view.min, loaded.view.max, aspect);
  }

  private running(r: Running, fit: boolean): void {
    hideSceneError(this.el.errors);
    this.recordedFrames = 0;
    if (fit) this.frameCamera();
    this.edited = JSON.parse(r.loaded.sceneJson) as Record<string, unknown>;
    const description = typeof this.edited.description === 'string' ? this.edited.description.trim() : '';
    // What an engine on show ignores of the scene is said beside what to look for.
    const ignored = this.clients.flatMap((c) => (c.loaded?.ignored ?? []).map((f) => `${c.engine} engine ignores ${f.path}: ${f.message}`));
    this.el.description.textContent = [description || 'This scene has no description.', ...ignored].join('\n');
    const sceneFormat = (this.edited.output as { mesh?: string } | undefined)?.mesh;
    if (!this.exportFormatPicked && (sceneFormat === 'obj' || sceneFormat === 'ply' || sceneFormat === 'glb')) this.exportFormat = sceneFormat;
    if (fit) {
      // Smoke has no liquid surface: show its density (and the particle engine's particles side by side).
      const smoke = !!(this.edited.grid as { smoke?: unknown } | undefined)?.smoke;
      this.display.smoke = smoke;
      this.display.particles = smoke && this.clients.some((c) => c.engine === 'particle');
    }
    this.paramsDirty = false;
    this.plots.reset(this.clients.map((c) => c.engine));
    this.onSceneChange();
    this.updateBanner();
    this.loop.request();
  }

  private refused(r: Refusal): void {
    this.lastError = r.message;
    showSceneError(this.el.errors, r.label, r.issues);
  }

  private updateBanner(): void {
    const problems = this.clients.filter((c) => c.error).map((c) => cutLine(`${c.engine}: ${c.error}`));
    const banner = this.el.banner;
    if (problems.length === 0) {
      banner.style.display = 'none';
      return;
    }
    const known = this.clients.find((c) => c.loaded)?.loaded?.engines ?? [];
    banner.textContent = `${problems.join('\n')}\n\nRegistered engines: ${known.length ? known.join(', ') : 'none yet'}.`;
    banner.style.display = 'block';
  }

  /** Tells the workers what to compute per frame whenever the display options that need it change. */
  private syncFrameOptions(): void {
    const opts = this.frameOptions();
    const key = `${JSON.stringify(opts)} ${this.session.generation}`;
    if (key === this.sentOptions) return;
    this.sentOptions = key;
    this.session.setFrameOptions(opts);
  }

  private afterFrame(now: number): void {
    if (now - this.lastHud < 500) return;
    this.lastHud = now;
    const idle = this.loop.asleep;
    const text = hudText({
      sceneName: this.sceneName,
      mode: this.session.mode,
      status: this.status,
      // A stopped loop (a paused or settled page) counts no frames: its last rates, said to be (hud.ts).
      drawsPerSecond: idle ? this.loop.drawRate.last : this.loop.drawRate.rate(now),
      pageFps: idle ? this.loop.pageRate.last : this.loop.pageRate.rate(now),
      idle,
      lastDrawMs: this.loop.lastDrawMs,
      paramsDirty: this.paramsDirty,
      recordedFrames: this.session.recording ? this.recordedFrames : null,
      clients: this.clients,
      details: this.details,
      now,
    });
    // Written only when it changes: a stopped draw loop's checks then cost the page no layout or paint.
    if (text !== this.el.hud.textContent) this.el.hud.textContent = text;
    this.updateLabels();
    this.plots.flush(now);
  }

  private updateLabels(): void {
    const clients = this.clients;
    const html = clients.length < 2 ? '' : clients.map((c, i) => `<div style="left:${((i + 0.5) * 100) / clients.length}%">${c.engine}</div>`).join('');
    if (html === this.labelsHtml) return; // touching the DOM only on change keeps layout out of the frame loop
    this.labelsHtml = html;
    this.el.labels.innerHTML = html;
  }
}

function cutLine(s: string): string {
  return s.length > MAX_BANNER_LINE ? `${s.slice(0, MAX_BANNER_LINE - 3)}...` : s;
}

function zipped(files: Record<string, Uint8Array>): Promise<Uint8Array> {
  return new Promise((resolve, reject) => zip(files, { level: 6 }, (err, data) => (err ? reject(err) : resolve(data))));
}
