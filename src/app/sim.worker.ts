/**
 * The simulation worker: parses a scene, creates its simulation, steps it while playing and hands
 * each frame to the page (frame-poster.ts). A client of the page (client.ts) uses it for one scene
 * and its replays; messages are read between frames. When the page replaces the scene it sends
 * 'reset': the running scene's host ends (its simulation disposed, its later messages dropped), a
 * fresh one takes its place and the worker answers 'reset', to be reused for the next scene with
 * its compiled code and its mesh worker warm (the page terminates one that does not answer soon:
 * a long frame under way). The particle engine steps on the GPU where WebGPU can run the scene
 * (gpu-backend.ts): the GPU's particles are read back once a frame into the simulation here, which
 * meshes and reports as on the CPU.
 */
import * as viscid from '../index.ts';
import type { Scene, Simulation } from '../index.ts';
import { SceneError } from '../scene/parse.ts';
import { sceneFrameCount } from '../io/frame-names.ts';
import type { FromWorker, ToWorker } from './protocol.ts';
import { threadOptions } from './threads.ts';
import { FramePoster, finished, type MesherSlot } from './frame-poster.ts';
import { inflowOf, materialsOf, solidInfos, viewBounds } from './scene-info.ts';
import { chooseGpu, startBackend } from './gpu-backend.ts';
import type { GpuParticleRun } from '../gpu/mirror.ts';

type LoadMessage = Extract<ToWorker, { type: 'load' }>;

const postToPage = (msg: FromWorker, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(msg, transfer);

/** What the browser tests (tests/e2e/switching.test.ts) read of a worker: its scene, and every scene it has run. */
const seen = self as unknown as { viscidScene?: string; viscidScenes?: string[] };
seen.viscidScenes = [];

/** The nested mesh worker: one for the worker's life, shared by every host it runs. */
const mesher: MesherSlot = { client: undefined };

/** The running simulation and the play loop around it: one scene (and its replays), until the page resets the worker. */
class Host {
  sim: Simulation | null = null;
  /** On WebGPU: the GPU run whose particles `sim` copies each frame. */
  gpu: GpuParticleRun | null = null;
  scene: Scene | null = null;
  playing = false;
  /** False once the page reset the worker: whatever this host still has under way posts nothing. */
  private live = true;
  private readonly post = (msg: FromWorker, transfer: Transferable[] = []) => {
    if (this.live) postToPage(msg, transfer);
  };
  readonly frames = new FramePoster(this.post, mesher);
  /** The load that made the running scene: a replay at the end loads it again. */
  private lastLoad: LoadMessage | null = null;
  /** Set while the simulation's worker threads start (nested workers start only when this worker yields). */
  private starting: Promise<void> | null = null;
  /** Set while a step runs (it may wait for the mesh worker): one step at a time. */
  private stepping = false;
  private scheduled = false;
  /** Set while play's reload from the start is under way: playing follows it. */
  private replaying = false;

  async load(msg: LoadMessage): Promise<void> {
    const post = this.post;
    let scene: Scene;
    try {
      scene = viscid.parseScene(msg.sceneText, { meshes: msg.meshes });
    } catch (e) {
      const issues = e instanceof SceneError ? e.issues : [{ path: '', message: (e as Error).message }];
      post({ type: 'sceneError', id: msg.id, message: (e as Error).message, issues });
      return;
    }
    const choice = await chooseGpu(scene, msg.engine, msg.backend ?? 'auto');
    if (!this.live) return; // reset while the GPU was asked for: no simulation for it
    let sim: Simulation | null = null;
    let createError: string | null = null;
    try {
      // On the GPU the simulation here is its host copy, never stepped: no threads. Both CPU engines
      // take the app's thread count (the grid's split passes run on the same thread team).
      sim = viscid.createSimulation(scene, msg.engine, 'why' in choice ? threadOptions(scene, msg.threads, msg.engine) : {});
    } catch (e) {
      createError = (e as Error).message;
    }
    const picked = sim ? startBackend(choice, sim) : { gpu: null, info: { name: 'cpu' as const, note: 'why' in choice ? choice.why : '' } };
    if (createError !== null && msg.keepRunning) {
      // The engine refused the scene while the page still shows another: say why like any scene error.
      post({ type: 'sceneError', id: msg.id, message: createError, issues: [{ path: '', message: `the ${msg.engine} engine cannot run it: ${createError}` }] });
      return;
    }
    if (this.gpu) this.gpu.dispose();
    else this.sim?.dispose();
    this.sim = sim;
    this.gpu = picked.gpu;
    this.scene = scene;
    seen.viscidScene = scene.name;
    if (msg.id !== -1) seen.viscidScenes!.push(scene.name); // a replay (id −1) is the same scene
    this.lastLoad = msg;
    this.frames.replaced();
    this.startThreads(sim);
    post({
      type: 'loaded',
      id: msg.id,
      engine: msg.engine,
      sceneName: scene.name,
      sceneJson: viscid.serializeScene(scene, 0),
      frames: sceneFrameCount(scene.duration, scene.fps),
      sources: scene.sources.length > 0 || scene.bodies.some((b) => b.start > 0 && scene.materials[b.material].kind === 'liquid'),
      sinks: scene.sinks.length > 0,
      inflow: inflowOf(scene),
      smoke: msg.engine === 'grid' && scene.grid.smoke !== undefined,
      materials: materialsOf(scene),
      domain: scene.domain ? { min: [...scene.domain.min], max: [...scene.domain.max] } : null,
      view: viewBounds(scene),
      particleRadius: scene.particle.radius,
      solids: sim ? solidInfos(sim) : [],
      engines: viscid.engineNames(),
      backend: picked.info,
      ignored: viscid.ignoredFeatures(scene, msg.engine),
    });
    if (!sim) {
      this.playing = false;
      post({ type: 'error', message: createError ?? 'no simulation', stage: 'create' });
      return;
    }
    this.frames.send(sim, scene, null, this.playing);
  }

  play(): void {
    const { sim, scene } = this;
    if (sim && scene && finished(sim, scene) && this.lastLoad) {
      // From the start: playing resumes once the scene is loaded again (a GPU load awaits its device), unless paused meanwhile.
      this.playing = false;
      this.replaying = true;
      void this.load({ ...this.lastLoad, id: -1 }).then(() => {
        if (!this.replaying) return;
        this.replaying = false;
        this.play();
      });
      return;
    }
    this.playing = this.sim !== null;
    this.schedule();
  }

  pause(): void {
    this.playing = false;
    this.replaying = false;
    this.sendCurrent();
  }

  step(): void {
    this.playing = false;
    this.replaying = false;
    if (this.starting) void this.starting.then(() => this.stepAlone());
    else void this.stepAlone();
  }

  /**
   * The page is done with this host (a 'reset'): playing stops, the simulation and its threads (or
   * its GPU run) are disposed, and what is still under way here (a load awaiting the GPU, a frame
   * with the mesh worker, an export or a recording's encoding) posts nothing when it ends.
   */
  end(): void {
    this.live = false;
    this.playing = false;
    this.replaying = false;
    if (this.gpu) this.gpu.dispose();
    else this.sim?.dispose();
    this.sim = null;
    this.gpu = null;
    this.scene = null;
  }

  sendCurrent(): void {
    if (this.sim && this.scene) this.frames.send(this.sim, this.scene, null, this.playing);
  }

  private startThreads(sim: Simulation | null): void {
    const p = sim?.ready?.();
    if (!p) {
      this.starting = null;
      return;
    }
    const mine: Promise<void> = p.then(
      () => {
        if (this.starting === mine) this.starting = null;
      },
      (e: Error) => {
        if (this.starting !== mine) return;
        this.starting = null;
        this.playing = false;
        this.post({ type: 'error', message: `worker threads: ${e.message}`, stage: 'threads' });
      },
    );
    this.starting = mine;
  }

  private async stepOnce(): Promise<boolean> {
    const { sim, scene, gpu } = this;
    if (!sim || !scene) return false;
    try {
      const stats = gpu ? await gpu.stepFrame() : sim.stepFrame();
      if (this.sim !== sim) return false; // replaced while the GPU stepped
      if (finished(sim, scene)) this.playing = false;
      await this.frames.settled(); // the last frame's mesh is out before this one's goes
      if (this.sim !== sim) return false; // replaced while waiting
      this.frames.send(sim, scene, stats, this.playing);
      return true;
    } catch (e) {
      this.playing = false;
      const err = e as Error & { stage?: string; frame?: number };
      this.post({ type: 'error', message: err.message, stage: err.stage, frame: err.frame });
      return false;
    }
  }

  /** stepOnce, unless a step is already under way; then false. */
  private async stepAlone(): Promise<boolean> {
    if (this.stepping) return false;
    this.stepping = true;
    try {
      return await this.stepOnce();
    } finally {
      this.stepping = false;
    }
  }

  private tick(): void {
    this.scheduled = false;
    if (!this.playing || this.stepping) return;
    if (this.starting) {
      this.scheduled = true;
      void this.starting.then(() => {
        this.scheduled = false;
        this.tick();
      });
      return;
    }
    void this.stepAlone().then((ok) => {
      if (ok && this.playing) this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => this.tick(), 0); // lets pause/step/options messages in between frames
  }
}

let host = new Host();
// The mesh worker starts now, while this worker waits for its scene (it may be a spare: client.ts).
host.frames.warm();

self.onmessage = (ev: MessageEvent<ToWorker>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'reset':
      // Read between frames, like every message: the next scene's host starts as a fresh worker's would.
      host.end();
      host = new Host();
      seen.viscidScene = undefined;
      postToPage({ type: 'reset' });
      break;
    case 'load':
      void host.load(msg);
      break;
    case 'play':
      host.play();
      break;
    case 'pause':
      host.pause();
      break;
    case 'step':
      host.step();
      break;
    case 'options':
      host.frames.options = msg.options;
      if (!host.playing) host.sendCurrent();
      break;
    case 'export':
      host.frames.exportMesh(host.sim, host.scene, msg.id, msg.format);
      break;
    case 'record':
      host.frames.record(msg.on, msg.format, msg.id);
      break;
  }
};
