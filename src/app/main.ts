/**
 * The viscid app: opens the honey drop running, lets the user pick or drop scenes, tune
 * parameters, compare the particle and grid engines side by side, and export meshes, frame
 * ranges, screenshots and video. The simulation runs in Web Workers (sim.worker.ts), one per
 * engine shown; app.ts holds the behaviour, panel.ts the controls, hook.ts the test surface.
 */
import { App } from './app.ts';
import { installHook } from './hook.ts';
import { Panel } from './panel.ts';
import { DEFAULT_SCENE } from './scenes.ts';
import type { Mode } from './session.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const app = new App({
  canvas: $<HTMLCanvasElement>('view'),
  hud: $('hud'),
  banner: $('banner'),
  errors: $('errors'),
  labels: $('labels'),
  plots: $('plots'),
  plotsPanel: $<HTMLDetailsElement>('plots-panel'),
  description: $('description'),
});
const fileInput = $<HTMLInputElement>('file');
const panel = new Panel(app, fileInput, $('sidebar'));
installHook(app, panel);

// Files: the "open scene file" input, and scenes dropped on the page.
fileInput.addEventListener('change', () => {
  if (fileInput.files?.length) void app.openFiles([...fileInput.files]);
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
  if (e.dataTransfer?.files.length) void app.openFiles([...e.dataTransfer.files]);
});

// Start: the honey drop (or ?scene=, ?engine=, ?backend=), running (or, with ?paused, at its frame 0).
const initial = new URLSearchParams(location.search);
app.session.mode = (initial.get('engine') as Mode | null) ?? 'particle';
if (initial.has('paused')) app.session.playing = false;
app.continuous = initial.has('continuous');
app.details = initial.has('details');
// ?backend=auto|webgpu|cpu: where the particle engine steps (gpu-backend.ts).
const backend = initial.get('backend');
if (backend === 'auto' || backend === 'webgpu' || backend === 'cpu') app.backend = backend;
else if (backend !== null) app.showMessage(`?backend=${backend}: expected auto, webgpu or cpu; using auto`, 8000);
const first = app.openBundled(initial.get('scene') ?? DEFAULT_SCENE, !initial.has('engine'));
panel.sync();
void first.catch((e: Error) => app.showMessage(e.message, 1e9));
