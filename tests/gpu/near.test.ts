/**
 * Which liquid the WebGPU backend treats as next to a body (guard-wgsl.ts markNear) against the
 * CPU particle engine's flags (boundaries.ts markNearObjects at step.ts's nearMargin), particle by
 * particle, on SwiftShader. The flag decides where the pressure's take-back, position shift and
 * filter and free flight leave the liquid alone (pressure.ts), so the two engines must draw the
 * same line: the GPU used to flag the slots within P.oreach of an object particle, 132 of the
 * spinning paddle's 144 where the CPU flagged all (docs/decisions.md, "The spinning paddle's first
 * sub-timestep, stage by stage"). The GPU is seeded from the CPU engine's state at frame k; one
 * sub-timestep a frame (120 fps), so both flag the same positions at that sub-timestep's start.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const r = 0.002;
const materials = { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } }, solid: { kind: 'solid', friction: 0.6 } } as const;

/** The paddle of tests/gpu/moving.test.ts at the defaults, at one sub-timestep a frame. */
const paddle: SceneInput = {
  fps: 120, duration: 1, materials,
  adhesion: [{ between: ['w', 'w'], type: 'attract', strength: 0 }],
  particle: { radius: r, substeps: 1 },
  domain: { min: [0, 0, 0], max: [0.024, 0.04, 0.024], boundary: 'slip' },
  bodies: [
    { name: 'paddle', material: 'solid', shape: { type: 'box', center: [0.012, 0.007, 0.012], size: [0.016, 0.01, 0.003] }, motion: { type: 'spin', axis: [0, 1, 0], center: [0.012, 0, 0.012], rate: 12 } },
    { material: 'w', shape: { type: 'box', center: [0.012, 0.008, 0.012], size: [0.024, 0.016, 0.024] } },
  ],
};

/** A still ball in a wide pool: the flagged shell is a part of the liquid, with a boundary inside it. */
const ball: SceneInput = {
  fps: 120, duration: 1, materials,
  particle: { radius: r, substeps: 1 },
  domain: { min: [0, 0, 0], max: [0.04, 0.04, 0.04], boundary: 'slip' },
  bodies: [
    { name: 'ball', material: 'solid', shape: { type: 'sphere', center: [0.02, 0.012, 0.02], radius: 0.004 } },
    { material: 'w', shape: { type: 'box', center: [0.02, 0.008, 0.02], size: [0.04, 0.016, 0.04] } },
  ],
};

/** After frame k + 1 on both engines (the GPU seeded from the CPU's frame k): the flags' counts and how many particles they part on. */
async function flags(input: SceneInput, k: number): Promise<{ n: number; gpu: number; cpu: number; differ: number }> {
  const device = await gpuDevice();
  return checked(device, async () => {
    const scene = parseScene(input);
    const cpu = new ParticleSimulation(scene);
    for (let f = 0; f < k; f++) cpu.stepFrame();
    const seeded = cpu.ctx.liquid.id.slice(0, cpu.ctx.liquid.count);
    const gpu = new GpuParticleSimulation(device, scene, cpu);
    await gpu.stepFrame();
    cpu.stepFrame();
    const g = await gpu.read(), L = cpu.ctx.liquid, n = gpu.count;
    expect(n).toBe(L.count);
    // The GPU's ids index the seeding liquid's rows (read-back.ts), whose L.id the CPU's rows carry.
    const row = new Map<number, number>();
    for (let i = 0; i < n; i++) row.set(L.id[i], i);
    let gn = 0, cn = 0, differ = 0;
    for (let a = 0; a < n; a++) {
      const i = row.get(seeded[g.id[a]])!;
      gn += g.near[a];
      cn += L.nearObject[i];
      if (g.near[a] !== L.nearObject[i]) differ++;
    }
    gpu.destroy();
    cpu.dispose();
    return { n, gpu: gn, cpu: cn, differ };
  });
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU near-a-body flags'), () => {
  it.each([
    ['the spinning paddle, first sub-timestep', paddle, 0],
    ['the spinning paddle, fourth sub-timestep (the liquid moving)', paddle, 3],
    ['a still ball in a wide pool', ball, 0],
    ['a still ball in a wide pool, fourth sub-timestep', ball, 3],
  ] as const)('flags the particles the CPU engine flags near a body: %s', async (label, input, k) => {
    const f = await flags(input, k);
    console.log(`${label}: flagged near a body ${f.gpu} / ${f.cpu} of ${f.n} (GPU / CPU), ${f.differ} differ`);
    expect(f.cpu).toBeGreaterThan(0);
    // Single precision against double at the margin's edge: at most one particle in 200 on either side of it.
    expect(f.differ).toBeLessThanOrEqual(Math.max(1, Math.floor(f.n / 200)));
  });
});
