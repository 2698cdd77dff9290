/**
 * The GPU device of the WebGPU tests: `webgpu` (Dawn) through src/cli/webgpu.ts, which names
 * SwiftShader's Vulkan ICD where no driver is named and chromium ships it. The suites skip by name
 * (tests/skips.ts, tool 'webgpu') where the package or a Vulkan driver is missing; where both are
 * there and Dawn still finds no adapter, they fail, saying so.
 */
import { afterAll } from 'vitest';
import type { StepStats } from '../../src/api.ts';
import { releaseNodeGpu, requestNodeGpu } from '../../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { skipReason } from '../skips.ts';

export const GPU_SKIP = skipReason('webgpu');

let pending: Promise<GPUDevice> | undefined;

/**
 * Releases the test file's device and Dawn after its tests: called at the top of each file that
 * asks for a device. (Not registered by this module itself: the test files share their worker's
 * modules, vitest.config.ts `isolate: false`, so this module runs once a worker, and a device
 * asked for by a later file would be left running, Dawn's event processing with it.)
 */
export function releaseGpuAfterAll(): void {
  afterAll(() => {
    if (!pending) return;
    releaseNodeGpu();
    pending = undefined;
  });
}

/** The shared device of a test file (released after it); an uncaptured WebGPU error fails the test that caused it. */
export function gpuDevice(): Promise<GPUDevice> {
  pending ??= requestNodeGpu().then(({ device }) => {
    device.addEventListener('uncapturederror', (e) => {
      throw new Error(`WebGPU error: ${(e as GPUUncapturedErrorEvent).error.message}`);
    });
    return device;
  });
  return pending;
}

/** Runs fn with validation errors captured: rejects with the first one. */
export async function checked<T>(device: GPUDevice, fn: () => Promise<T>): Promise<T> {
  device.pushErrorScope('validation');
  const out = await fn();
  const err = await device.popErrorScope();
  if (err) throw new Error(`WebGPU validation error: ${err.message}`);
  return out;
}

/** The liquid read back from the GPU: positions and velocities (xyz a particle, in the GPU's order) and the count. */
export interface GpuLiquid {
  pos: Float32Array;
  vel: Float32Array;
  n: number;
}

/**
 * The scene stepped `frames` frames on the GPU backend, with onFrame given each frame's stats, a
 * read of the liquid at that frame (awaited: a test that compares frame by frame steps one run and
 * reads it each frame, rather than a run for every frame count) and the simulation, then the liquid
 * read back: positions, velocities, the count and the room made for sources, and the free bodies'
 * state (x, q, v, ω a body: src/particle/free-bodies.ts), where there are any. Validation errors
 * fail it (checked).
 */
export async function gpuFrames(input: SceneInput, frames: number, onFrame?: (stats: StepStats, read: () => Promise<GpuLiquid>, sim: GpuParticleSimulation) => unknown): Promise<GpuLiquid & { capacity: number; bodies: Float64Array | null }> {
  const device = await gpuDevice();
  return checked(device, async () => {
    const sim = new GpuParticleSimulation(device, parseScene(input));
    const read = async (): Promise<GpuLiquid> => {
      const { pos, vel } = await sim.read();
      return { pos, vel, n: sim.count };
    };
    for (let f = 0; f < frames; f++) {
      const stats = await sim.stepFrame();
      await onFrame?.(stats, read, sim);
    }
    const { pos, vel } = await sim.read();
    const out = { pos, vel, n: sim.count, capacity: sim.capacity, bodies: sim.host.freeBodies?.state.slice() ?? null };
    sim.destroy();
    return out;
  });
}
