/// <reference types="@webgpu/types" />
/**
 * Where the app's particle engine steps (in the simulation worker): on the GPU through WebGPU
 * compute (src/gpu/, a backend of the particle engine) where `navigator.gpu` gives an adapter and
 * the backend runs the scene (src/gpu/refuse.ts), else on the CPU engine, which stays the fallback
 * and the choice for bit-exact runs (the GPU's pair sums come in an order that changes from run to
 * run). The GPU steps each frame; its particles are read back once a frame into a host particle
 * simulation (src/gpu/mirror.ts) whose surface job the mesh worker meshes, as for a CPU run.
 *
 * What was asked: 'auto' (the default) or 'webgpu' — the GPU where it can, else the CPU engine —
 * or 'cpu'. The answer always carries a short line for the overlay: the adapter, or why the GPU is
 * not used.
 */
import type { EngineName, Simulation } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { GpuParticleRun } from '../gpu/mirror.ts';
import { unportedFeatures } from '../gpu/refuse.ts';
import type { BackendInfo, ParticleBackend } from './protocol.ts';

/** How long the browser may take to answer for an adapter before the CPU engine is used, ms. */
const ADAPTER_WAIT_MS = 8000;

/** The GPU device of this worker: asked for once, kept for its replays. */
let device: Promise<{ device: GPUDevice; adapter: string } | string> | null = null;

/**
 * Why the WebGPU backend is not tried for this scene and engine, or null when it is: the grid
 * engine, the CPU asked for, or the scene's features the backend does not run (their JSON paths).
 */
export function gpuRefusal(scene: Scene, engine: EngineName, asked: ParticleBackend): string | null {
  if (engine !== 'particle') return 'the WebGPU backend runs the particle engine';
  if (asked === 'cpu') return 'the CPU engine was chosen (bit-exact runs)';
  const unported = unportedFeatures(scene);
  if (unported.length === 0) return null;
  // Said once each (an open domain.boundary is named once per face).
  const paths = [...new Set(unported.map((f) => f.path))];
  const shown = paths.length > 4 ? `${paths.slice(0, 4).join(', ')} and ${paths.length - 4} more` : paths.join(', ');
  return `WebGPU cannot run this scene yet (${shown})`;
}

/** The worker's GPU device, or why there is none (a short line). */
function requestDevice(): Promise<{ device: GPUDevice; adapter: string } | string> {
  device ??= (async () => {
    const gpu = (navigator as Navigator & { gpu?: GPU }).gpu;
    if (!gpu) return 'no WebGPU in this browser (navigator.gpu is missing)';
    const timeout = new Promise<'late'>((done) => setTimeout(() => done('late'), ADAPTER_WAIT_MS));
    const adapter = await Promise.race([gpu.requestAdapter().catch(() => null), timeout]);
    if (adapter === 'late') return `no WebGPU adapter (none within ${ADAPTER_WAIT_MS / 1000} s)`;
    if (!adapter) return 'no WebGPU adapter (navigator.gpu gave none)';
    const d = await adapter.requestDevice();
    // A lost device (a driver reset, a tab in the background too long) ends this worker's GPU: the next load asks again.
    void d.lost.then(() => (device = null));
    const i = adapter.info;
    const words = [i.vendor, i.architecture, i.device, i.description].filter((s) => s && s.length > 0).join(' ');
    return { device: d, adapter: words || 'unnamed adapter' };
  })().catch((e: Error) => `WebGPU failed to start (${e.message})`);
  return device;
}

export type GpuChoice = { device: GPUDevice; adapter: string } | { why: string };

/**
 * The GPU device to run `scene` on, or why the CPU engine runs it (a short line; empty for the
 * grid engine, which has no GPU backend to speak of). Asked before the simulation is made: on the
 * GPU it is made without worker threads (it is the host copy, never stepped), on the CPU with them.
 */
export async function chooseGpu(scene: Scene, engine: EngineName, asked: ParticleBackend): Promise<GpuChoice> {
  const refusal = gpuRefusal(scene, engine, asked);
  if (refusal !== null) return { why: engine === 'particle' ? refusal : '' };
  const got = await requestDevice();
  return typeof got === 'string' ? { why: got } : got;
}

export interface PickedBackend {
  /** The GPU run stepping `sim`'s particles, or null on the CPU engine. */
  gpu: GpuParticleRun | null;
  info: BackendInfo;
}

/** Puts `sim` (a new particle simulation made without threads) on the GPU chosen; the CPU engine where that fails, saying why. */
export function startBackend(choice: GpuChoice, sim: Simulation): PickedBackend {
  if ('why' in choice) return { gpu: null, info: { name: 'cpu', note: choice.why } };
  if (!(sim instanceof ParticleSimulation)) return { gpu: null, info: { name: 'cpu', note: 'the WebGPU backend runs the particle engine' } };
  try {
    return { gpu: new GpuParticleRun(choice.device, sim), info: { name: 'webgpu', note: choice.adapter } };
  } catch (e) {
    return { gpu: null, info: { name: 'cpu', note: `the WebGPU backend failed to start (${(e as Error).message.split('\n')[0]})` } };
  }
}
