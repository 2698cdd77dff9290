/**
 * The simulation thread of `viscid run` (sim-thread.ts): builds the simulation, steps one frame per
 * request and posts what the frame writer and the manifest need, with the checkpoint bytes.
 */
import { parentPort } from 'node:worker_threads';
import { createSimulation, parseScene, restoreSimulation, type Simulation } from '../index.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { GpuParticleRun } from '../gpu/mirror.ts';
import { requestNodeGpu } from './webgpu.ts';
import { solidsMesh } from './solids.ts';
import { spawnNodeThread } from './threads.ts';
import type { LoadRequest, SimReply, SteppedFrame } from './sim-thread.ts';

const port = parentPort;
if (!port) throw new Error('sim-thread-entry.ts runs as a worker thread');

let sim: Simulation | null = null;
/** With --backend webgpu: the GPU steps, `sim` is its host copy (mirror.ts). */
let gpu: GpuParticleRun | null = null;
let want: LoadRequest['want'] = { mesh: false, solids: false, points: false };

async function load(req: LoadRequest): Promise<SimReply> {
  if (gpu) gpu.dispose();
  else sim?.dispose();
  sim = null;
  gpu = null;
  const options = { ...(req.workers ? { workers: req.workers } : {}), spawnThread: spawnNodeThread };
  sim = req.checkpoint ? restoreSimulation(req.checkpoint, options) : createSimulation(parseScene(req.sceneText, { loadedMeshes: req.meshes }), req.engine, options);
  want = req.want;
  let adapter: string | undefined;
  if (req.backend === 'webgpu') {
    if (!(sim instanceof ParticleSimulation)) throw new Error(`--backend webgpu runs the particle engine, not the ${sim.engine} engine`);
    const node = await requestNodeGpu();
    adapter = node.adapter;
    gpu = new GpuParticleRun(node.device, sim);
  }
  return { type: 'loaded', engine: sim.engine, frame: sim.frame, state: sim.save(), ...(adapter ? { adapter } : {}) };
}

async function step(): Promise<SteppedFrame> {
  if (!sim) throw new Error('no simulation loaded');
  const t0 = performance.now();
  const stats = gpu ? await gpu.stepFrame() : sim.stepFrame();
  const t1 = performance.now();
  let surface: SteppedFrame['surface'];
  if (want.mesh) {
    // Meshed by the frame writer where the engine hands over its surface, else here.
    const job = sim.surfaceJob?.();
    surface = job ? { job } : { mesh: sim.surfaceMesh() };
  }
  const surfaceMs = performance.now() - t1;
  const solids = want.solids ? solidsMesh(sim.solids()) : undefined;
  const points = sim.fluidPoints();
  const metrics = sim.metrics();
  return {
    type: 'frame',
    frame: sim.frame,
    time: sim.time,
    stats,
    stepMs: t1 - t0,
    surfaceMs,
    surface,
    solids,
    // Only the count when the points are not written.
    points: want.points ? points : { ...points, positions: new Float32Array(0), velocities: new Float32Array(0), materials: new Uint16Array(0), densities: undefined, surface: undefined },
    fluidVolume: metrics.fluidVolume,
    maxSpeed: metrics.maxSpeed,
    volumeChange: metrics.volumeChange,
    liquidGone: metrics.liquidGone,
    centerOfMass: Array.from(metrics.centerOfMass),
    bounds: { min: Array.from(metrics.bounds.min), max: Array.from(metrics.bounds.max) },
    state: sim.save(),
  };
}

port.on('message', async (msg: LoadRequest | { type: 'step' }) => {
  let reply: SimReply;
  try {
    reply = msg.type === 'load' ? await load(msg) : await step();
  } catch (e) {
    const err = e as Error;
    port.postMessage({ type: 'error', name: err?.name ?? 'Error', message: err?.message ?? String(e), stack: err?.stack } satisfies SimReply);
    return;
  }
  // The checkpoint bytes are the thread's own: moved, not copied.
  const state = reply.type === 'error' ? null : reply.state;
  port.postMessage(reply, state && state.byteOffset === 0 && state.byteLength === state.buffer.byteLength ? [state.buffer as ArrayBuffer] : []);
});
