/**
 * A GPU run resumed from its checkpoint (the host copy's: src/gpu/mirror.ts) goes on as the
 * uninterrupted run does, bit for bit: the checkpoint keeps the pressure's warm start (p/δt², vel.w
 * on the GPU: LiquidParticles.lambda), the implicit viscosity's (the change of each particle's last
 * solve: its channel) and ρ/ρ0 of the last density correction by particle (the viscosity's volumes
 * and cohesion's exposure: read-back.ts scId, liquids.ts seedW), and the GPU's run repeats itself
 * (neighbours.ts: a stable sort). On SwiftShader, a viscous cube of 125 particles dropped into a box at the
 * defaults (the implicit viscosity between two pressure solves, the walls' holds, cohesion's
 * share): a run of 2 frames whose checkpoint is taken after the first (taking it reads the host
 * copy and leaves the GPU's run as it was); the checkpoint resumed for one frame against the run's
 * second, and against the same resume with the warm starts dropped (what a GPU checkpoint held
 * before), particle by particle (by id).
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
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.015, 0.012, 0.015], size: [0.02, 0.02, 0.02] } }],
};

/**
 * Positions and velocities (xyz, xyz) by particle id after `frames` more frames of a GPU run from
 * `sim` (new or restored), and the run's checkpoint after frame `saveAt` of them (none when not given).
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
    for (let i = 0; i < L.count; i++) pos.set(L.id[i], [...L.pos.subarray(3 * i, 3 * i + 3), ...L.vel.subarray(3 * i, 3 * i + 3)]);
    gpu.dispose();
    return { pos, bytes };
  });
}

/** Particles of `b` whose position and velocity have the bits of the same particle's in `a`. */
function sameBits(a: Map<number, number[]>, b: Map<number, number[]>): number {
  let same = 0;
  for (const [id, p] of a) if (b.get(id)?.every((v, k) => v === p[k])) same++;
  return same;
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
  it('resumes as the uninterrupted run goes on, bit for bit (the warm starts and the measured densities carried)', async () => {
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
    // A second uninterrupted run in this process: the GPU's run repeats itself bit for bit.
    const again = await run(device, new ParticleSimulation(parseScene(scene)), 2);
    const with_ = apart(resumed.pos, whole.pos), without = apart(dropped.pos, whole.pos);
    const same = sameBits(whole.pos, resumed.pos), repeat = sameBits(whole.pos, again.pos);
    console.log(`GPU run resumed at frame 1, at frame 2: ${same} of ${n} particles with the uninterrupted run's bits, ${(with_ * 1e6).toFixed(4)} µm a particle from it; with the warm starts dropped ${(without * 1e6).toFixed(2)} µm; a second uninterrupted run ${repeat} of ${n} with its bits`);
    expect(resumed.pos.size).toBe(whole.pos.size);
    // Bit for bit: every particle's position and velocity (it parted by 0.01–36 µm a particle, from one
    // process to the next, before the density by id, the exposure's steps and the stable sort:
    // docs/decisions.md "What a resumed WebGPU run missed"); without the warm starts, 90 µm.
    expect(same).toBe(n);
    expect(repeat).toBe(n);
    expect(without).toBeGreaterThan(10e-6);
  }, 600_000);
});
