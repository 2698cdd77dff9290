/**
 * The thin pull on the WebGPU backend (src/gpu/thin-pull.ts, thin-pull-wgsl.ts) against the CPU engine's
 * (src/particle/thin-pull.ts): a sheet two particles thick stretched within its plane (v = s (x − x̄) across the
 * plane's two axes and sheared, so it opens up everywhere), half of it sparse (ρ/ρ0 set to 0.6, the rest 1), takes the
 * same pull per particle on both, one sub-timestep's stage alone: each particle's Δv within 0.1 % of the largest
 * (single precision against double: 1e-6 measured, docs/decisions.md). The pull closes the sheet (Δv against the
 * stretch); a GPU pull removed is 100 % off, turned over (λ's sign) 2 900 %.
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { pullThin } from '../../src/particle/thin-pull.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';

releaseGpuAfterAll();

const r = 0.002;

/** A sheet 4 cm × 4 cm, two particles thick (200 particles), in the middle of a closed box, with the thin pull at `pull`. */
function sheet(pull: number): SceneInput {
  return {
    fps: 30,
    duration: 1,
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip' },
    materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 1, unit: 'Pa.s' } } },
    bodies: [{ material: 'syrup', shape: { type: 'box', center: [0, 0.1, 0], size: [0.04, 2 * 2 * r, 0.04] } }],
    particle: { radius: r, thinPull: pull, substeps: 2 },
  };
}

describe.skipIf(GPU_SKIP)('WebGPU thin pull', () => {
  it('gives each particle of a stretched sheet the CPU engine\'s Δv, within 0.1 % of the largest', async () => {
    const { worst, largest, pulled, sparse, closing } = await agreement(sheet(0.5), false);
    expect(pulled).toBe(sparse);
    expect(sparse).toBeGreaterThan(0.3 * 200);
    // The pull is there and closes the sheet on the CPU (against the stretch at most particles).
    expect(largest).toBeGreaterThan(0.01);
    expect(closing).toBeGreaterThan(0.5 * 200);
    expect(worst / largest).toBeLessThan(1e-3);
  });

  it('leaves out next to a body what the CPU engine leaves out: the flagged liquid within the objects\' reach of its surface', async () => {
    // A ball under the sheet's middle, every slot flagged near (as a sub-timestep whose fastest particle travels far
    // flags all within centimetres): those within GUARD r + objectReach + r_o of the ball take no λ, on both engines.
    const input = sheet(0.5);
    input.materials.ball = { kind: 'solid' };
    input.bodies!.push({ material: 'ball', shape: { type: 'sphere', center: [0, 0.1 - 2 * r - 0.012, 0], radius: 0.01 } });
    const { worst, largest, pulled, sparse } = await agreement(input, true);
    expect(pulled).toBeGreaterThan(0.3 * sparse);
    expect(pulled).toBeLessThan(sparse - 8);
    expect(largest).toBeGreaterThan(0.01);
    expect(worst / largest).toBeLessThan(1e-3);
  });

  it('slows a stretched sheet over a frame as the CPU engine does: its stretch rate within a tenth of what the pull changes', async () => {
    const device = await gpuDevice();
    const scene = parseScene(sheet(0.5));
    const cpu = new ParticleSimulation(scene), off = new ParticleSimulation(parseScene(sheet(0))), seed = new ParticleSimulation(scene);
    for (const sim of [cpu, off, seed]) stretch(sim);
    for (let f = 0; f < FRAMES; f++) { cpu.stepFrame(); off.stepFrame(); }
    const rate = (sim: ParticleSimulation) => stretchRate(sim.ctx.liquid.pos, sim.ctx.liquid.vel, sim.ctx.liquid.count);
    const withPull = rate(cpu), without = rate(off);
    await checked(device, async () => {
      const gpu = new GpuParticleSimulation(device, scene, seed);
      for (let f = 0; f < FRAMES; f++) await gpu.stepFrame();
      const g = await gpu.read(), onGpu = stretchRate(g.pos, g.vel, gpu.count);
      console.log(`stretch rate after ${FRAMES} frame(s), 1/s: CPU ${withPull.toFixed(5)} (without the pull ${without.toFixed(5)}), GPU ${onGpu.toFixed(5)}`);
      expect(Math.abs(withPull - without)).toBeGreaterThan(0.05);
      expect(Math.abs(onGpu - withPull)).toBeLessThan(0.1 * Math.abs(withPull - without));
      gpu.destroy();
    });
  });
});

/**
 * The stage alone on both engines from the same start: the sheet of `input` opening up within its plane (v = s (x − x̄),
 * sheared across), half of it sparse (ρ/ρ0 0.6, the rest 1); `allNear`: every particle flagged near a body. The
 * largest Δv on the CPU, the largest difference of a particle's Δv between the two, and the sparse particles the
 * CPU pulled (pullThin's count) of those set sparse, and the particles whose CPU Δv is against the stretch.
 */
async function agreement(input: SceneInput, allNear: boolean): Promise<{ worst: number; largest: number; pulled: number; sparse: number; closing: number }> {
  const device = await gpuDevice();
  const scene = parseScene(input);
  const cpu = new ParticleSimulation(scene), ctx = cpu.ctx, L = ctx.liquid, n = L.count;
  let cx = 0, cz = 0;
  for (let i = 0; i < n; i++) { cx += L.pos[3 * i]; cz += L.pos[3 * i + 2]; }
  cx /= n; cz /= n;
  const s = 2; // 1/s: the sheet opens up
  // A shear across the plane too, so that Δv is not along the stretch alone.
  for (let i = 0; i < n; i++) {
    const x = L.pos[3 * i] - cx, z = L.pos[3 * i + 2] - cz;
    L.vel[3 * i] = s * x + 0.5 * s * z; L.vel[3 * i + 1] = 0; L.vel[3 * i + 2] = s * z;
    // Half the sheet sparse: the other half takes its share of the pairs unfiltered (thin-pull-wgsl.ts thinTouch).
    L.density[i] = x < 0 ? 0.6 : 1;
  }
  const sparse = Array.from(L.density.subarray(0, n)).filter((d) => d < 1).length;
  const before = Float64Array.from(L.vel.subarray(0, 3 * n)), idAt = Int32Array.from(L.id.subarray(0, n));
  let out = { worst: 0, largest: 0, pulled: 0, sparse, closing: 0 };
  await checked(device, async () => {
    const gpu = new GpuParticleSimulation(device, scene, cpu);
    await gpu.thinPullAlone(allNear);
    const g = await gpu.read();
    ctx.cells.buildSorted(L);
    if (allNear) L.nearObject.fill(1, 0, n);
    const pulled = pullThin(ctx);
    // CPU Δv by the GPU's id (the index at upload).
    const slotOf = new Map<number, number>();
    for (let i = 0; i < n; i++) slotOf.set(L.id[i], i);
    let largest = 0, worst = 0, closing = 0;
    for (let k = 0; k < n; k++) {
      const up = g.id[k], i = slotOf.get(idAt[up])!;
      let e2 = 0, c2 = 0, along = 0;
      for (let c = 0; c < 3; c++) {
        const dc = L.vel[3 * i + c] - before[3 * up + c], dg = g.vel[3 * k + c] - before[3 * up + c];
        e2 += (dg - dc) ** 2; c2 += dc * dc;
        along += dc * (c === 0 ? L.pos[3 * i] - cx : c === 2 ? L.pos[3 * i + 2] - cz : 0);
      }
      largest = Math.max(largest, Math.sqrt(c2));
      worst = Math.max(worst, Math.sqrt(e2));
      if (along < 0) closing++;
    }
    console.log(`thin pull Δv${allNear ? ' (all flagged near, a ball under the sheet)' : ''}: ${pulled} of ${sparse} sparse pulled, largest ${largest.toPrecision(4)} m/s, GPU against CPU ${(worst / largest).toExponential(2)} of it`);
    out = { worst, largest, pulled, sparse, closing };
    gpu.destroy();
  });
  return out;
}

const FRAMES = 1;

/** The sheet's particles set moving apart within its plane at 2 /s. */
function stretch(sim: ParticleSimulation): void {
  const L = sim.ctx.liquid, n = L.count;
  let cx = 0, cz = 0;
  for (let i = 0; i < n; i++) { cx += L.pos[3 * i]; cz += L.pos[3 * i + 2]; }
  cx /= n; cz /= n;
  for (let i = 0; i < n; i++) { L.vel[3 * i] = 2 * (L.pos[3 * i] - cx); L.vel[3 * i + 2] = 2 * (L.pos[3 * i + 2] - cz); }
}

/** Σ v·d / Σ |d|² over the particles, d the offset from the centroid within the sheet's plane (x, z): its stretch rate. */
function stretchRate(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number): number {
  let cx = 0, cz = 0, vx = 0, vz = 0;
  for (let i = 0; i < n; i++) { cx += pos[3 * i]; cz += pos[3 * i + 2]; vx += vel[3 * i]; vz += vel[3 * i + 2]; }
  cx /= n; cz /= n; vx /= n; vz /= n;
  let num = 0, den = 0;
  for (let i = 0; i < n; i++) {
    const dx = pos[3 * i] - cx, dz = pos[3 * i + 2] - cz;
    num += (vel[3 * i] - vx) * dx + (vel[3 * i + 2] - vz) * dz;
    den += dx * dx + dz * dz;
  }
  return num / den;
}
