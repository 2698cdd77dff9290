/**
 * The viscid app: opens the honey drop running, lets the user pick or drop scenes, tune
 * parameters, compare the particle and grid engines side by side, and export meshes, frame
 * ranges, screenshots and video. The simulation runs in Web Workers (sim.worker.ts).
 */
import GUI, { type Controller } from 'lil-gui';
import type { EngineName } from '../api.ts';
import { OrbitCamera } from '../render/camera.ts';
import { Renderer, type DisplayOptions } from '../render/renderer.ts';
import { SimClient, type Loaded, type LoadResult } from './client.ts';
import { DEFAULT_SCENE, sceneMeshes, sceneNames, sceneText } from './scenes.ts';
import { buildParamPanel, type ParamPanel } from './params.ts';
import { MetricPlots } from './plots.ts';
import { CanvasRecorder, download, toBase64 } from './export.ts';
import type { MeshFormat, Threads } from './protocol.ts';
import { autoThreads } from './threads.ts';
import type { SceneIssue } from '../scene/parse.ts';
import { hideSceneError, showSceneError } from './errors.ts';
import { hudText, RateCounter } from './hud.ts';

type Mode = 'particle' | 'grid' | 'side by side';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const canvas = $<HTMLCanvasElement>('view');
const hud = $('hud');
const banner = $('banner');
const errorsBox = $('errors');
const labels = $('labels');
const fileInput = $<HTMLInputElement>('file');

const renderer = new Renderer(canvas);
const camera = new OrbitCamera();
camera.attach(canvas, () => canvas.clientHeight);
const plots = new MetricPlots($('plots'));
const videoRecorder = new CanvasRecorder();

const display: DisplayOptions = {
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

const state = {
  mode: 'particle' as Mode,
  sceneName: DEFAULT_SCENE,
  playing: true,
  /** The running scene's source, what reset and engine switches load again. */
  source: null as { text: string; meshes: Record<string, string> } | null,
  /** The running scene with defaults filled, edited by the parameter panel. */
  edited: null as Record<string, unknown> | null,
  paramsDirty: false,
  lastError: null as string | null,
  renderFrames: 0,
  recordingMeshes: false,
  /** Redraw on every animation frame even when nothing changed (`?continuous`; for measuring). */
  continuous: false,
  recordedFrames: 0,
};

let clients: SimClient[] = [];
interface ZipResult { engine: EngineName; bytes: Uint8Array; frames: number }
const zipWaiters = new Map<SimClient, (r: ZipResult) => void>();

/**
 * Starts recording every new frame's mesh in each worker, or stops and collects one zip per
 * engine (frames named scene_engine_00012.obj …).
 */
function setRecording(on: boolean): Promise<ZipResult[]> {
  state.recordingMeshes = on;
  state.recordedFrames = 0;
  const format = controls.exportFormat;
  if (on) {
    for (const c of clients) c.send({ type: 'record', on: true, format });
    return Promise.resolve([]);
  }
  return Promise.all(
    clients.map(
      (c) =>
        new Promise<ZipResult>((resolve) => {
          zipWaiters.set(c, resolve);
          c.send({ type: 'record', on: false, format });
        }),
    ),
  );
}
let paramPanel: ParamPanel | null = null;
let engineCtrl: Controller | null = null;
let sceneCtrl: Controller | null = null;

// ---------------------------------------------------------------------------------------------
// Workers

const events = {
  onLoaded: (_c: SimClient, _l: Loaded) => {
    requestDraw();
    updateBanner();
  },
  onFrame: (c: SimClient) => {
    requestDraw();
    if (c.metrics && c.stats) plots.push(c.engine, c.time, c.metrics);
  },
  onError: (c: SimClient, message: string) => {
    requestDraw();
    state.lastError = `${c.engine}: ${message}`;
    updateBanner();
  },
  onRecording: (_c: SimClient, frames: number) => {
    state.recordedFrames = frames;
  },
  onZip: (c: SimClient, bytes: Uint8Array, frames: number) => {
    const waiter = zipWaiters.get(c);
    zipWaiters.delete(c);
    waiter?.({ engine: c.engine, bytes, frames });
  },
};

function enginesFor(mode: Mode): EngineName[] {
  return mode === 'side by side' ? ['particle', 'grid'] : [mode];
}

function frameOptions() {
  return { mesh: display.mesh, points: display.particles, velocity: display.velocity, cells: display.cells, smoke: display.smoke };
}

function ensureClients(): void {
  const want = enginesFor(state.mode);
  if (clients.length === want.length && clients.every((c, i) => c.engine === want[i])) return;
  for (const c of clients) c.dispose();
  clients = want.map((engine) => new SimClient(engine, renderer.createView(), events));
  for (const c of clients) c.setOptions(frameOptions());
  plots.reset(want);
}

/**
 * Loads a scene into every worker. On a scene error nothing changes: the workers keep running
 * what they ran, and the error is shown with its paths.
 */
async function loadScene(text: string, meshes: Record<string, string>, opts: { fit: boolean; label?: string }): Promise<LoadResult> {
  ensureClients();
  // Two phases, so that side by side both engines switch only if both accept the scene.
  const targets = clients;
  const staged = await Promise.all(targets.map((c) => c.load(text, meshes, true, controls.threads)));
  const failed = staged.find((r): r is Extract<LoadResult, { ok: false }> => !r.ok);
  if (failed) {
    for (const c of targets) c.discard();
    showError(opts.label ?? 'scene', failed.issues, failed.message);
    return failed;
  }
  const results: LoadResult[] = (await Promise.all(targets.map((c) => c.commit()))).map((loaded) => ({ ok: true, loaded }));
  hideSceneError(errorsBox);
  state.source = { text, meshes };
  if (opts.label) state.sceneName = opts.label;
  const loaded = (results[0] as Extract<LoadResult, { ok: true }>).loaded;
  if (opts.fit) camera.fit(loaded.view.min, loaded.view.max);
  state.edited = JSON.parse(loaded.sceneJson);
  // Smoke has no liquid surface: show its density (and the particle engine's particles side by side).
  if (opts.fit) {
    const smoke = !!(state.edited?.grid as { smoke?: unknown } | undefined)?.smoke;
    display.smoke = smoke;
    display.particles = smoke && clients.some((c) => c.engine === 'particle');
    for (const c of gui.controllersRecursive()) if (c.object === display) c.updateDisplay();
  }
  state.paramsDirty = false;
  rebuildParams();
  plots.reset(clients.map((c) => c.engine));
  if (state.playing) for (const c of clients) c.send({ type: 'play' });
  updateBanner();
  return results[0];
}

async function openBundledScene(name: string): Promise<LoadResult> {
  controls.scene = name;
  sceneCtrl?.updateDisplay();
  const text = await sceneText(name);
  return loadScene(text, await sceneMeshes(text), { fit: true, label: name });
}

async function reset(): Promise<void> {
  if (!state.source) return;
  const text = state.paramsDirty && state.edited ? JSON.stringify(state.edited) : state.source.text;
  // On a scene error the previous run goes on and the panel keeps the user's edits to fix.
  await loadScene(text, state.source.meshes, { fit: false });
}

function play(): void {
  state.playing = true;
  for (const c of clients) c.send({ type: 'play' });
}
function pause(): void {
  state.playing = false;
  for (const c of clients) c.send({ type: 'pause' });
}
function step(): void {
  state.playing = false;
  for (const c of clients) c.send({ type: 'step' });
}

async function setMode(mode: Mode): Promise<void> {
  state.mode = mode;
  controls.engine = mode;
  engineCtrl?.updateDisplay();
  ensureClients();
  if (state.source) await loadScene(state.source.text, state.source.meshes, { fit: false });
}

// ---------------------------------------------------------------------------------------------
// Errors and messages

function showError(label: string, issues: SceneIssue[], message: string): void {
  state.lastError = message;
  showSceneError(errorsBox, label, issues);
}

function updateBanner(): void {
  const problems = clients.filter((c) => c.error).map((c) => `${c.engine}: ${c.error}`);
  if (problems.length === 0) {
    banner.style.display = 'none';
    return;
  }
  const known = clients.find((c) => c.loaded)?.loaded?.engines ?? [];
  banner.textContent = `${problems.join('\n')}\n\nRegistered engines: ${known.length ? known.join(', ') : 'none yet'}.`;
  banner.style.display = 'block';
}

// ---------------------------------------------------------------------------------------------
// Files: open and drop

async function openFiles(files: File[]): Promise<LoadResult | null> {
  const json = files.find((f) => f.name.toLowerCase().endsWith('.json'));
  if (!json) {
    showError('dropped files', [{ path: '', message: 'no .json scene among the files' }], 'no .json scene among the files');
    return null;
  }
  const extra: Record<string, string> = {};
  for (const f of files) if (f.name.toLowerCase().endsWith('.obj')) extra[f.name] = await f.text();
  const text = await json.text();
  return loadScene(text, await sceneMeshes(text, extra), { fit: true, label: json.name.replace(/\.json$/i, '') });
}

fileInput.addEventListener('change', () => {
  if (fileInput.files?.length) void openFiles([...fileInput.files]);
  fileInput.value = '';
});
const dropOverlay = $('drop');
window.addEventListener('dragover', (e) => {
  e.preventDefault();
  dropOverlay.style.display = 'flex';
});
window.addEventListener('dragleave', () => (dropOverlay.style.display = 'none'));
window.addEventListener('drop', (e) => {
  e.preventDefault();
  dropOverlay.style.display = 'none';
  if (e.dataTransfer?.files.length) void openFiles([...e.dataTransfer.files]);
});

// ---------------------------------------------------------------------------------------------
// Exports

async function exportMesh(format: MeshFormat, engine?: EngineName): Promise<Uint8Array> {
  const c = clients.find((x) => !engine || x.engine === engine);
  if (!c) throw new Error('no simulation is running');
  return c.exportMesh(format);
}

let pendingCapture: ((canvas: HTMLCanvasElement) => void)[] = [];
/** Runs `fn` right after the next frame is drawn, while the drawing buffer still holds it. */
function afterNextDraw<T>(fn: (canvas: HTMLCanvasElement) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    pendingCapture.push((cv) => {
      try {
        resolve(fn(cv));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

async function screenshotPNG(): Promise<Blob> {
  const blob = await afterNextDraw((cv) => new Promise<Blob | null>((res) => cv.toBlob(res, 'image/png')));
  const b = await blob;
  if (!b) throw new Error('the canvas could not be encoded as PNG');
  return b;
}

function readPixels(): Promise<{ width: number; height: number; data: string }> {
  return afterNextDraw(() => {
    // Straight from the GL context in the frame that drew it (regl.read insists on preserveDrawingBuffer).
    const gl = renderer.regl._gl;
    const width = canvas.width, height = canvas.height;
    const pixels = new Uint8Array(4 * width * height);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return { width, height, data: toBase64(pixels) }; // rows bottom to top
  });
}

// ---------------------------------------------------------------------------------------------
// GUI

const gui = new GUI({ title: 'viscid' });
const controls = {
  scene: DEFAULT_SCENE,
  open: () => fileInput.click(),
  engine: 'particle' as Mode,
  threads: 'auto' as Threads,
  play: () => play(),
  pause: () => pause(),
  step: () => step(),
  reset: () => void reset(),
  exportFormat: 'obj' as MeshFormat,
  exportMesh: async () => {
    for (const c of clients) {
      try {
        download(await c.exportMesh(controls.exportFormat), `${state.sceneName}-${c.engine}-${String(c.frame).padStart(5, '0')}.${controls.exportFormat}`);
      } catch (e) {
        state.lastError = (e as Error).message;
        banner.textContent = `export: ${(e as Error).message}`;
        banner.style.display = 'block';
        setTimeout(updateBanner, 4000);
      }
    }
  },
  recordMeshes: async () => {
    const on = !state.recordingMeshes;
    recordMeshesCtrl.name(on ? 'stop and download zip' : 'record frames (zip)');
    const zips = await setRecording(on);
    for (const z of zips) if (z.frames > 0) download(z.bytes, `${state.sceneName}-${z.engine}-frames.zip`);
  },
  screenshot: async () => download(await screenshotPNG(), `${state.sceneName}.png`),
  video: async () => {
    if (videoRecorder.active) {
      download(await videoRecorder.stop(), `${state.sceneName}.webm`);
      videoCtrl.name('record video (WebM)');
    } else {
      videoRecorder.start(canvas, 30);
      videoCtrl.name('stop video and download');
    }
  },
};

const sim = gui.addFolder('Simulation');
sceneCtrl = sim.add(controls, 'scene', sceneNames()).name('scene').onChange((name: string) => void openBundledScene(name));
sim.add(controls, 'open').name('open scene file…');
engineCtrl = sim.add(controls, 'engine', ['particle', 'grid', 'side by side']).name('engine').onChange((m: Mode) => void setMode(m));
// The particle engine's threads (src/app/threads.ts): 'auto' or a fixed count, applied by reloading.
const cores = navigator.hardwareConcurrency ?? 1;
const threadChoices: Record<string, Threads> = { [`auto (${autoThreads(cores)} here)`]: 'auto' };
for (const n of [1, 2, 3, 4, 6, 8, 12, 16]) if (n === 1 || n <= cores) threadChoices[String(n)] = n;
sim.add(controls, 'threads', threadChoices).name('particle threads').onChange(() => void reset());
sim.add(controls, 'play');
sim.add(controls, 'pause');
sim.add(controls, 'step').name('single step');
sim.add(controls, 'reset').name('reset (applies parameters)');

const disp = gui.addFolder('Display');
disp.add(display, 'mesh').name('surface mesh');
disp.add(display, 'particles').name('particles / markers');
disp.add(display, 'colorMode', ['material', 'surface', 'speed']).name('particle colour');
disp.add(display, 'objects').name('solid objects');
disp.add(display, 'domain').name('domain box');
disp.add(display, 'velocity').name('velocity field');
disp.add(display, 'cells').name('grid: liquid cells');
disp.add(display, 'smoke').name('grid: smoke density');
disp.add(display, 'opacity', 0.2, 1, 0.01).name('surface opacity');
disp.close();

const exp = gui.addFolder('Export');
exp.add(controls, 'exportFormat', ['obj', 'ply', 'glb']).name('mesh format');
exp.add(controls, 'exportMesh').name('export current mesh');
const recordMeshesCtrl = exp.add(controls, 'recordMeshes').name('record frames (zip)');
exp.add(controls, 'screenshot').name('PNG screenshot');
const videoCtrl = exp.add(controls, 'video').name('record video (WebM)');
exp.close();

function rebuildParams(): void {
  paramPanel?.destroy();
  paramPanel = null;
  if (!state.edited) return;
  paramPanel = buildParamPanel(gui, state.edited, () => {
    state.paramsDirty = true;
  });
}

// ---------------------------------------------------------------------------------------------
// Statistics

let labelsHtml = '';
function updateLabels(): void {
  const html = clients.length < 2 ? '' : clients
    .map((c, i) => `<div style="left:${((i + 0.5) * 100) / clients.length}%">${c.engine}</div>`)
    .join('');
  if (html === labelsHtml) return; // touching the DOM only on change keeps layout out of the frame loop
  labelsHtml = html;
  labels.innerHTML = html;
}

// ---------------------------------------------------------------------------------------------
// Render loop and test hook

/**
 * Drawing happens on demand: when a frame arrives, the camera or the display options change, the
 * canvas is resized, a capture is asked for, or video is being recorded. The page itself keeps
 * its requestAnimationFrame rate whatever the simulation does; `pageFps` counts those callbacks
 * and `drawsPerSecond` the actual draws.
 */
let needsDraw = true;
let lastSignature = '';
let lastHud = 0;
const pageRate = new RateCounter();
const drawRate = new RateCounter();
let lastDrawMs = 0;
/** Moving averages of the main thread's time per animation frame: the whole callback, and the draw calls. */
let callbackMsAverage = 0;
let drawMsAverage = 0;

function signature(): string {
  const c = camera;
  const d = display;
  return `${c.yaw},${c.pitch},${c.distance},${c.target[0]},${c.target[1]},${c.target[2]},${+d.particles}${+d.mesh}${+d.objects}${+d.domain}${+d.velocity}${+d.cells}${+d.smoke},${d.colorMode},${d.opacity},${clients.length}`;
}

/** Tells the workers what to compute per frame whenever the display options that need it change. */
let sentOptions = '';
let sentTo: SimClient[] = [];
function syncFrameOptions(): void {
  const opts = frameOptions();
  const key = JSON.stringify(opts);
  if (key === sentOptions && sentTo.length === clients.length && sentTo.every((c, i) => c === clients[i])) return;
  sentOptions = key;
  sentTo = [...clients];
  for (const c of clients) c.setOptions(opts);
}

/**
 * Dynamic resolution while redrawing every frame (continuous mode): software WebGL is largely
 * fill-bound, so when frames take longer than ~40 ms the drawing buffer shrinks (down to half
 * size) and grows back when they are quick again. On-demand drawing and video recordings keep
 * full resolution.
 */
let lastFrameAt = 0;
let frameMsAverage = 16;
let lastAdapt = 0;
/** The smallest resolution scale continuous redraw may fall to. */
const MIN_SCALE = 0.5;
function adaptResolution(now: number, drawing: boolean): void {
  const interval = lastFrameAt ? now - lastFrameAt : 16;
  lastFrameAt = now;
  const everyFrame = state.continuous && !videoRecorder.active;
  if (!everyFrame || !drawing) {
    if (!everyFrame && renderer.scale !== 1) renderer.scale = 1;
    return;
  }
  frameMsAverage = 0.8 * frameMsAverage + 0.2 * interval;
  if (now - lastAdapt < 500) return;
  lastAdapt = now;
  // Frames land on vsync (16.7 ms steps): 33 ms is a steady 30 fps, an average above 40 ms means
  // frames are being missed. Shrink then; grow back below 22 ms.
  if (frameMsAverage > 40 && renderer.scale > MIN_SCALE) renderer.scale = Math.max(MIN_SCALE, renderer.scale * 0.85);
  else if (frameMsAverage < 22 && renderer.scale < 1) renderer.scale = Math.min(1, renderer.scale * 1.1);
}

function requestDraw(): void {
  needsDraw = true;
}

renderer.regl.frame(() => {
  const now = performance.now();
  pageRate.push(now);
  const resized = renderer.resize();
  syncFrameOptions();
  for (const c of clients) if (c.upload()) needsDraw = true;
  const sig = signature();
  if (resized || sig !== lastSignature || pendingCapture.length > 0 || videoRecorder.active || state.continuous) needsDraw = true;
  adaptResolution(now, needsDraw);
  if (needsDraw) {
    needsDraw = false;
    lastSignature = sig;
    const t0 = performance.now();
    renderer.draw(clients.map((c) => c.view), camera, display);
    lastDrawMs = performance.now() - t0;
    drawMsAverage = 0.95 * drawMsAverage + 0.05 * lastDrawMs;
    state.renderFrames++;
    drawRate.push(now);
    const captures = pendingCapture;
    pendingCapture = [];
    for (const fn of captures) fn(canvas);
  }
  if (now - lastHud > 500) {
    lastHud = now;
    hud.textContent = hudText({
      sceneName: state.sceneName,
      pageFps: pageRate.rate(now),
      drawsPerSecond: drawRate.rate(now),
      lastDrawMs,
      playing: state.playing,
      paramsDirty: state.paramsDirty,
      recordedFrames: state.recordingMeshes ? state.recordedFrames : null,
      clients,
      now,
    });
    updateLabels();
    plots.flush(now);
  }
  callbackMsAverage = 0.95 * callbackMsAverage + 0.05 * (performance.now() - now);
});

function benchmarkDraw(n: number): { minMs: number; medianMs: number } {
  const r = renderer.benchmark(clients.map((c) => c.view), camera, display, n);
  needsDraw = true;
  return r;
}

/** A small surface for the browser tests (tests/e2e) and for scripting from the console. */
const hook = {
  get ready() {
    // Every view has something to draw, or its worker has said why not (a worker that failed to start too).
    return clients.length > 0 && clients.every((c) => c.error !== null || (c.loaded !== null && (c.view.meshElements > 0 || c.view.pointCount > 0 || c.view.smokeCount > 0)));
  },
  get frame() {
    return clients[0]?.frame ?? 0;
  },
  get frames() {
    return clients.map((c) => ({ engine: c.engine, frame: c.frame, time: c.time, error: c.error, triangles: c.triangleCount, points: c.pointCount }));
  },
  get renderFrames() {
    return state.renderFrames;
  },
  get lastError() {
    return state.lastError;
  },
  get engines() {
    return clients.find((c) => c.loaded)?.loaded?.engines ?? [];
  },
  get mode() {
    return state.mode;
  },
  get sceneName() {
    return state.sceneName;
  },
  get continuous() {
    return state.continuous;
  },
  set continuous(on: boolean) {
    state.continuous = on;
  },
  /** A value of the running scene (defaults filled) by dotted path, e.g. 'particle.substeps'. */
  sceneValue(path: string): unknown {
    let v: unknown = state.edited;
    for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    return v;
  },
  get paramsDirty() {
    return state.paramsDirty;
  },
  get paramControls() {
    return paramPanel?.controls ?? 0;
  },
  stats() {
    const now = performance.now();
    return { renderFps: drawRate.rate(now), pageFps: pageRate.rate(now), lastDrawMs, renderScale: renderer.scale, callbackMs: callbackMsAverage, drawCallMs: drawMsAverage, frameIntervalMs: frameMsAverage, simFps: clients.map((c) => c.simFps(now)), simMs: clients.map((c) => (c.stats ? c.stats.wallMs + c.meshMs : 0)), meshMs: clients.map((c) => c.meshMs), threads: clients.map((c) => c.stats?.counters.threads ?? 1) };
  },
  play,
  pause,
  step,
  reset,
  /** Sets the particle engine's threads ('auto' or a count) and reloads the scene with them. */
  async setThreads(threads: Threads) {
    controls.threads = threads;
    for (const c of gui.controllersRecursive()) if (c.object === controls) c.updateDisplay();
    await reset();
  },
  setMode,
  display,
  camera,
  openScene: openBundledScene,
  /** Loads scene JSON text as if it were dropped; resolves with the outcome. */
  async loadSceneText(text: string, name = 'dropped') {
    const r = await loadScene(text, await sceneMeshes(text), { fit: true, label: name });
    return r.ok ? { ok: true as const } : { ok: false as const, message: r.message, issues: r.issues };
  },
  /** The current mesh in a format, base64 (OBJ/PLY text is UTF-8). */
  async exportMesh(format: MeshFormat, engine?: EngineName) {
    return toBase64(await exportMesh(format, engine));
  },
  readPixels,
  benchmarkDraw,
  /** Records `ms` of WebM video of the canvas; resolves with its bytes (base64). */
  async recordVideo(ms: number) {
    videoRecorder.start(canvas, 30);
    await new Promise((r) => setTimeout(r, ms));
    return toBase64(new Uint8Array(await (await videoRecorder.stop()).arrayBuffer()));
  },
  /** Starts recording meshes, or stops and resolves with each engine's zip (base64). */
  async recordMeshes(on: boolean, format: MeshFormat = 'obj') {
    controls.exportFormat = format;
    const zips = await setRecording(on);
    return zips.map((z) => ({ engine: z.engine, frames: z.frames, data: toBase64(z.bytes) }));
  },
  async screenshot() {
    return toBase64(new Uint8Array(await (await screenshotPNG()).arrayBuffer()));
  },
};
(window as unknown as { __viscid: typeof hook }).__viscid = hook;

// Start: the honey drop, running.
const initial = new URLSearchParams(location.search);
state.mode = (initial.get('engine') as Mode | null) ?? 'particle';
state.continuous = initial.has('continuous');
controls.engine = state.mode;
const firstScene = initial.get('scene') ?? DEFAULT_SCENE;
controls.scene = firstScene;
gui.controllersRecursive().forEach((c) => c.updateDisplay());
void openBundledScene(firstScene).catch((e: Error) => {
  state.lastError = e.message;
  banner.textContent = e.message;
  banner.style.display = 'block';
});
