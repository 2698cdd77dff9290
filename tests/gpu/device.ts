/**
 * The GPU device of the WebGPU tests: `webgpu` (Dawn) through src/cli/webgpu.ts, which names
 * SwiftShader's Vulkan ICD where no driver is named and chromium ships it. The suites skip by name
 * (tests/skips.ts, tool 'webgpu') where the package or a Vulkan driver is missing; where both are
 * there and Dawn still finds no adapter, they fail, saying so.
 */
import { afterAll } from 'vitest';
import type { StepStats } from '../../src/api.ts';
import { requestNodeGpu } from '../../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { skipReason } from '../skips.ts';

export const GPU_SKIP = skipReason('webgpu');

let pending: Promise<GPUDevice> | undefined;

/**
 * Ends a test file's use of the worker's device: after its tests, waits until the GPU has done the
 * work the file submitted, so that none runs on into the next file. Called at the top of each file
 * that asks for a device. The device itself is kept for the worker's next GPU file and ends with
 * the worker's process (vitest.config.ts `isolate: false`: a worker runs file after file in one
 * process, and this module once a worker; vitest ends a worker with SIGTERM, which a live Dawn
 * instance does not hold up). A device's compute pipelines are compiled once, for that device
 * (src/gpu/device.ts Kernels keeps them): on SwiftShader the implicit default's set is 4–7 s of
 * CPU, paid again by a new device in the same process and not at all by a later simulation on the
 * same device (bench/gpu-test-cost.ts: 7.32 s, then 6.55 s on a new device, against 0.01 s on the
 * same one; BENCHMARKS.md, "The test suite, seventh pass"; before the Kernels kept them, Dawn
 * compiled them again once the last simulation's were collected, 3–25 s of a file's CPU). On
 * SwiftShader, Dawn's wait for the GPU polls on a timer (src/cli/webgpu-poll.ts). An idle device
 * costs no CPU (0.05 s over 10 s).
 */
export function releaseGpuAfterAll(): void {
  afterAll(async () => {
    if (!pending) return;
    const device = await pending.catch(() => null);
    await device?.queue.onSubmittedWorkDone();
  });
}

/**
 * The worker's shared device (see releaseGpuAfterAll); an uncaptured WebGPU error fails the test
 * that caused it. A device that is lost (destroyed by a `releaseNodeGpu()` of the CLI's in this
 * process, or by the driver) is replaced by a new one at the next call.
 */
export function gpuDevice(): Promise<GPUDevice> {
  if (pending) return pending;
  const made = requestNodeGpu().then(({ device }) => {
    device.addEventListener('uncapturederror', (e) => {
      throw new Error(`WebGPU error: ${(e as GPUUncapturedErrorEvent).error.message}`);
    });
    void device.lost.then(() => {
      if (pending === made) pending = undefined;
    });
    return device;
  });
  pending = made;
  // No adapter: the next call asks again (and says why again).
  made.catch(() => {
    if (pending === made) pending = undefined;
  });
  return made;
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
