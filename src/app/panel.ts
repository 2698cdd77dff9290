/**
 * The control panel (lil-gui): scene, engine, threads and playback; display toggles; exports; and
 * the parameter panel generated from the scene schema (params.ts). The scene and engine controls
 * show what was asked for last and go back to what runs when a scene is refused.
 */
import GUI, { type Controller } from 'lil-gui';
import { buildParamPanel, type ParamPanel } from './params.ts';
import type { App } from './app.ts';
import type { MeshFormat, ParticleBackend, Threads } from './protocol.ts';
import type { Mode } from './session.ts';
import { sceneNames } from './scenes.ts';
import { autoThreads } from './threads.ts';
import { download } from './export.ts';

export class Panel {
  readonly gui: GUI;
  /** What the controls edit; kept in step with the app by `sync()`. */
  readonly controls = {
    scene: '',
    open: () => this.fileInput.click(),
    engine: 'particle' as Mode,
    threads: 'auto' as Threads,
    backend: 'auto' as ParticleBackend,
    play: () => this.app.session.play(),
    pause: () => this.app.session.pause(),
    step: () => this.app.session.step(),
    reset: () => void this.app.reset(),
    exportFormat: 'ply' as MeshFormat,
    exportMesh: () => void this.app.exportMeshes().catch((e: Error) => this.app.showMessage(`export: ${e.message}`)),
    recordMeshes: () => void this.toggleRecording(),
    screenshot: async () => download(await this.app.screenshotPNG(), `${this.app.sceneName}.png`),
    video: () => void this.toggleVideo(),
  };
  params: ParamPanel | null = null;
  /** The run the parameter panel was built for. */
  private paramsFor: unknown = null;
  private readonly recordCtrl: Controller;
  private readonly videoCtrl: Controller;

  constructor(private readonly app: App, private readonly fileInput: HTMLInputElement, container: HTMLElement) {
    this.gui = new GUI({ title: 'viscid', container });
    const c = this.controls;
    const sim = this.gui.addFolder('Simulation');
    sim.add(c, 'scene', sceneNames()).name('scene').onChange((name: string) => void app.openBundled(name));
    sim.add(c, 'open').name('open scene file…');
    sim.add(c, 'engine', ['particle', 'grid', 'side by side']).name('engine').onChange((m: Mode) => void app.setMode(m));
    // The particle engine's threads (src/app/threads.ts): 'auto' or a fixed count, applied by reloading.
    const cores = navigator.hardwareConcurrency ?? 1;
    const threadChoices: Record<string, Threads> = { [`auto (${autoThreads(cores)} here)`]: 'auto' };
    for (const n of [1, 2, 3, 4, 6, 8, 12, 16]) if (n === 1 || n <= cores) threadChoices[String(n)] = n;
    sim.add(c, 'threads', threadChoices).name('threads').onChange((t: Threads) => void app.setThreads(t));
    // Where the particle engine steps (gpu-backend.ts): the overlay says which, and why not the GPU.
    const backends: Record<string, ParticleBackend> = { 'auto (WebGPU where it can)': 'auto', WebGPU: 'webgpu', 'CPU (bit-exact)': 'cpu' };
    sim.add(c, 'backend', backends).name('particle backend').onChange((b: ParticleBackend) => void app.setBackend(b));
    sim.add(c, 'play');
    sim.add(c, 'pause');
    sim.add(c, 'step').name('single step');
    sim.add(c, 'reset').name('reset (applies parameters)');

    const d = app.display;
    const disp = this.gui.addFolder('Display');
    disp.add(d, 'mesh').name('surface mesh');
    disp.add(d, 'particles').name('particles / markers');
    disp.add(d, 'colorMode', ['material', 'surface', 'speed']).name('particle colour');
    disp.add(d, 'objects').name('solid objects');
    disp.add(d, 'domain').name('domain box');
    disp.add(d, 'velocity').name('velocity field');
    disp.add(d, 'cells').name('grid: liquid cells');
    disp.add(d, 'smoke').name('grid: smoke density');
    disp.add(d, 'opacity', 0.2, 1, 0.01).name('surface opacity');
    disp.add(app, 'details').name('developer statistics');
    disp.add({ frame: () => app.frameCamera() }, 'frame').name('frame the scene');
    disp.close();

    const exp = this.gui.addFolder('Export');
    exp.add(c, 'exportFormat', ['obj', 'ply', 'glb']).name('mesh format').onChange((f: MeshFormat) => {
      app.exportFormat = f;
      app.exportFormatPicked = true;
    });
    exp.add(c, 'exportMesh').name('export current mesh');
    this.recordCtrl = exp.add(c, 'recordMeshes').name('record frames (zip)');
    exp.add(c, 'screenshot').name('PNG screenshot');
    this.videoCtrl = exp.add(c, 'video').name('record video (WebM)');
    exp.close();

    app.onSceneChange = () => this.sceneChanged();
    app.onRecordingEnded = () => this.recordCtrl.name('record frames (zip)');
  }

  /** Puts the controls in step with the app (the scene and mode asked for, threads, format). */
  sync(): void {
    const c = this.controls;
    c.scene = this.app.sceneName;
    c.engine = this.app.session.mode;
    c.threads = this.app.threads;
    c.backend = this.app.backend;
    c.exportFormat = this.app.exportFormat;
    for (const ctrl of this.gui.controllersRecursive()) ctrl.updateDisplay();
  }

  private sceneChanged(): void {
    this.sync();
    const running = this.app.session.running;
    if (this.params && this.paramsFor === running) return;
    this.params?.destroy();
    this.params = null;
    this.paramsFor = running;
    if (!this.app.edited) return;
    this.params = buildParamPanel(this.gui, this.app.edited, () => {
      this.app.paramsDirty = true;
    });
  }
  private async toggleRecording(): Promise<void> {
    const session = this.app.session;
    if (!session.recording) {
      session.startRecording(this.app.exportFormat);
      this.recordCtrl.name('stop and download zip');
      return;
    }
    this.recordCtrl.name('record frames (zip)');
    await this.app.downloadRecordings(await session.stopRecording());
  }

  private async toggleVideo(): Promise<void> {
    const v = this.app.video;
    if (v.active) {
      download(await v.stop(), `${this.app.sceneName}.webm`);
      this.videoCtrl.name('record video (WebM)');
    } else {
      v.start(this.app.renderer.canvas, 30);
      this.videoCtrl.name('stop video and download');
    }
  }
}
