/**
 * A GPU run resumed from its checkpoint (the host copy's: src/gpu/mirror.ts) goes on as the
 * uninterrupted run does: the checkpoint keeps the pressure's warm start (p/δt², vel.w on the GPU:
 * LiquidParticles.lambda) and the implicit viscosity's (the change of each particle's last solve:
 * its channel), and the resumed GPU run starts from them. On SwiftShader, a viscous cube dropped
 * into a box at the defaults (the implicit viscosity between two pressure solves): a run of 2
 * frames whose checkpoint is taken after the first (taking it reads the host copy and leaves the
 * GPU's run as it was); the checkpoint resumed for one frame against the run's second, and against
 * the same resume with the warm starts dropped (what a GPU checkpoint held before), particle by
 * particle (by id).
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleRun } from '../../src/gpu/mirror.ts';
import { restoreSimulation } from '../../src/index.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { WARM_START_CHANNEL } from '../../src/particle/viscosity-weiler.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';

releaseGpuAfterAll();

const scene: SceneInput = {
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.03, 0.04, 0.03], boundary: 'noslip' },
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
  particle: { radius: 0.002 },
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.015, 0.014, 0.015], size: [0.024, 0.024, 0.024] } }],
};

/**
 * Positions by particle id after `frames` more frames of a GPU run from `sim` (new or restored), and
 * the run's checkpoint after frame `saveAt` of them (none when not given).
 */
async function run(device: GPUDevice, sim: ParticleSimulation, frames: number, saveAt?: number): Promise<{ pos: Map<number, number[]>; bytes: Uint8Array | null }> {
  return checked(device, async () => {
    const gpu = new GpuParticleRun(device, sim);
    let bytes: Uint8Array | null = null;
    for (let f = 1; f <= frames; f++) {
      await gpu.stepFrame();
      if (f === saveAt) bytes = gpu.mirror.save();
    }
    const L = gpu.mirror.ctx.liquid, pos = new Map<number, number[]>();
    for (let i = 0; i < L.count; i++) pos.set(L.id[i], [L.pos[3 * i], L.pos[3 * i + 1], L.pos[3 * i + 2]]);
    gpu.dispose();
    return { pos, bytes };
  });
}

/** Mean distance (m) between the same particles of two runs. */
function apart(a: Map<number, number[]>, b: Map<number, number[]>): number {
  let sum = 0;
  for (const [id, p] of a) {
    const q = b.get(id)!;
    sum += Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
  }
  return sum / a.size;
}

describe.skipIf(GPU_SKIP)('WebGPU checkpoints', () => {
  it('resume with the pressure\'s and the viscosity\'s warm starts, as the uninterrupted run goes on', async () => {
    const device = await gpuDevice();
    // One run of 2 frames, its checkpoint taken after the first: the GPU's frames of a run that
    // was never interrupted (a checkpoint only reads the host copy), and the checkpoint to resume.
    const whole = await run(device, new ParticleSimulation(parseScene(scene)), 2, 1);
    const restored = () => restoreSimulation(whole.bytes!) as ParticleSimulation;
    const warm = restored();
    const L = warm.ctx.liquid, n = L.count;
    // Both warm starts are in the checkpoint, and not zero.
    const lambda = L.lambda.subarray(0, n), change = L.channel(WARM_START_CHANNEL)!.array.subarray(0, 3 * n);
    expect(lambda.some((v) => v > 0)).toBe(true);
    expect(change.some((v) => v !== 0)).toBe(true);
    const resumed = await run(device, warm, 1);
    const cold = restored();
    cold.ctx.liquid.lambda.fill(0);
    cold.ctx.liquid.channel(WARM_START_CHANNEL)!.array.fill(0);
    const dropped = await run(device, cold, 1);
    // A second uninterrupted run in this process: within 0.03 µm of the first (the GPU's run is
    // repeatable here), so what parts the resumed run from the whole one is the resume's.
    const again = await run(device, new ParticleSimulation(parseScene(scene)), 2);
    const with_ = apart(resumed.pos, whole.pos), without = apart(dropped.pos, whole.pos), spread = apart(again.pos, whole.pos);
    console.log(`GPU run resumed at frame 1, at frame 2: ${(with_ * 1e6).toFixed(2)} µm a particle from the uninterrupted run (${n} particles); with the warm starts dropped ${(without * 1e6).toFixed(2)} µm; a second uninterrupted run ${(spread * 1e6).toFixed(2)} µm`);
    expect(resumed.pos.size).toBe(whole.pos.size);
    // The warm starts carried: under 0.4 of the difference without them. The resumed run still parts
    // from the whole one by 0–36 µm a particle at frame 2 from one process to the next (0.00–0.30 of the
    // difference without the warm starts; 4–8 µm, 0.04–0.08, before cohesion's share: something the
    // checkpoint does not carry, docs/decisions.md "Stop 48's merge"); without them, far outside the spread.
    expect(with_).toBeLessThan(0.4 * without);
    expect(without).toBeGreaterThan(100 * spread);
  }, 600_000);
});
