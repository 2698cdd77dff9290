/**
 * `viscid validate --backend webgpu`: the validation cases (src/compare/validate/) make and step
 * their simulations synchronously, and a WebGPU read-back is asynchronous. So the GPU steps in a
 * worker thread of its own (gpu-validate-entry.ts) and this thread waits for each frame
 * (Atomics.wait on a flag, the frame taken with receiveMessageOnPort): a case sees a particle
 * simulation whose stepFrame steps the GPU one frame and copies its particles in, as
 * `run --backend webgpu` does (src/gpu/mirror.ts); its metrics, points and point queries answer
 * from the copy. A scene the backend does not run (src/gpu/refuse.ts) is refused by name
 * (CaseRefused) before anything is made.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { EngineName, StepStats } from '../api.ts';
import { serializeScene } from '../index.ts';
import type { Scene } from '../scene/scene.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { CaseRefused, type CaseBackend } from '../compare/validate.ts';
import { unportedFeatures } from '../gpu/refuse.ts';
import { nameVulkanDriver } from './webgpu.ts';
import { loadFailure, siblingModule, startModuleWorker } from './threads.ts';

/** What this thread asks the GPU thread. */
export type GpuRequest = { type: 'create'; id: number; sceneJson: string } | { type: 'step'; id: number } | { type: 'dispose'; id: number };

/** Its answers (one per create and step; none to dispose). */
export type GpuReply =
  | { type: 'created'; adapter: string; count: number }
  | { type: 'frame'; frame: number; time: number; stats: StepStats; pos: Float32Array; vel: Float32Array; density: Float32Array }
  | { type: 'error'; message: string };

/** Longest wait for one answer of the GPU thread, ms: past it the thread is taken as stuck. */
const ANSWER_LIMIT_MS = 30 * 60_000;

/** The GPU thread and the blocking calls into it. */
class GpuThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** 0 while an answer is awaited; the GPU thread sets 1 once it has posted it. */
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  adapter = '';

  constructor(entry: URL) {
    // A worker thread's process.env is its own copy, which the Vulkan loader never reads: named here.
    nameVulkanDriver();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = startModuleWorker(entry);
    this.worker.postMessage({ port: port2, flag: this.flag }, [port2]);
  }

  newId(): number {
    return this.nextId++;
  }

  /** Sends `req` and waits, blocking this thread, for the answer. */
  call(req: GpuRequest): GpuReply {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(req);
    const t0 = Date.now();
    while (Atomics.wait(this.flag, 0, 0, 1000) === 'timed-out') {
      // A thread whose module did not load says so in shared memory (threads.ts): read while blocked.
      const failed = loadFailure(this.worker);
      if (failed !== null) throw new Error(`the WebGPU thread failed to load: ${failed}`);
      if (Date.now() - t0 > ANSWER_LIMIT_MS) throw new Error(`the WebGPU thread did not answer '${req.type}' within ${ANSWER_LIMIT_MS / 60_000} minutes`);
    }
    const got = receiveMessageOnPort(this.port);
    if (!got) throw new Error(`the WebGPU thread set its flag without an answer to '${req.type}'`);
    const reply = got.message as GpuReply;
    if (reply.type === 'error') throw new Error(reply.message);
    return reply;
  }

  send(req: GpuRequest): void {
    this.port.postMessage(req);
  }

  close(): void {
    this.port.close();
    void this.worker.terminate();
  }
}

/** A particle simulation whose frames the GPU steps (the host copy; its own step never runs). */
class GpuStepped extends ParticleSimulation {
  private gone = false;

  constructor(scene: Scene, private readonly thread: GpuThread, private readonly id: number) {
    super(scene);
    const made = thread.call({ type: 'create', id, sceneJson: serializeScene(scene, 0) });
    if (made.type !== 'created') throw new Error(`the WebGPU thread answered '${made.type}' to create`);
    thread.adapter = made.adapter;
    if (made.count !== this.ctx.liquid.count) throw new Error(`the GPU seeded ${made.count} particles, the host ${this.ctx.liquid.count}`);
  }

  override stepFrame(): StepStats {
    if (this.gone) throw new Error('stepFrame: this simulation was disposed; create or restore a new one');
    const r = this.thread.call({ type: 'step', id: this.id });
    if (r.type !== 'frame') throw new Error(`the WebGPU thread answered '${r.type}' to step`);
    const ctx = this.ctx, L = ctx.liquid;
    L.pos.set(r.pos);
    L.vel.set(r.vel);
    L.density.set(r.density);
    ctx.frame = r.frame;
    ctx.time = r.time;
    this.particlesMoved();
    return r.stats;
  }

  override dispose(): void {
    if (!this.gone) this.thread.send({ type: 'dispose', id: this.id });
    this.gone = true;
    super.dispose();
  }
}

/**
 * The WebGPU backend for `runValidation` (one GPU thread for the run; `close` ends it). The
 * adapter is found on first use: where there is none the first case fails saying why. `entry` is
 * the GPU thread's module: the one beside this module by default; the tests hand dist/'s when it is
 * up to date (the messages are plain data, so either build answers either), which spares the
 * thread tsx and a second transform of the engines.
 */
export function webgpuValidation(entry = siblingModule('gpu-validate-entry', import.meta.url)): CaseBackend & { close(): void; adapter(): string } {
  let thread: GpuThread | null = null;
  return {
    name: 'webgpu',
    make(engine: EngineName, scene: Scene) {
      if (engine !== 'particle') throw new CaseRefused(`the WebGPU backend runs the particle engine, not the ${engine} engine`);
      const unported = unportedFeatures(scene);
      if (unported.length > 0) {
        // A feature found on several faces is said once.
        const lines = [...new Set(unported.map((f) => `  ${f.path}: ${f.message}`))];
        const paths = [...new Set(unported.map((f) => f.path))];
        throw new CaseRefused(`the WebGPU backend does not run ${paths.join(', ')}\n${lines.join('\n')}`);
      }
      thread ??= new GpuThread(entry);
      return new GpuStepped(scene, thread, thread.newId());
    },
    close() {
      thread?.close();
      thread = null;
    },
    adapter: () => thread?.adapter ?? '',
  };
}
