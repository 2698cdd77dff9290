/**
 * Adhesion between liquid particles on the GPU (src/gpu/adhesion-wgsl.ts) against the CPU engine
 * (src/particle/adhesion.ts): the accelerations of a disordered liquid particle for particle, for
 * the default cohesion and for a function given by points; and a cohesive cube without gravity
 * drawing itself in as the CPU engine's does, keeping its momentum.
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();


/** Two bodies of water thrown into each other without gravity, 2 mm particles; `adhesion` as given (none: the default cohesion). */
function collision(adhesion: SceneInput['adhesion']): SceneInput {
  return {
    fps: 30,
    duration: 1,
    gravity: [0, 0, 0],
    materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
    ...(adhesion ? { adhesion } : {}),
    bodies: [
      { material: 'w', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.009 }, velocity: [0.2, 0, 0] },
      { material: 'w', shape: { type: 'box', center: [0.016, 0.004, 0], size: [0.01, 0.01, 0.01] }, velocity: [-0.3, 0.1, 0] },
    ],
    particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
  };
}

/** The largest difference between the GPU's and the CPU's adhesion accelerations, and the largest CPU one (m/s²). */
async function accelerations(input: SceneInput): Promise<{ diff: number; max: number; n: number }> {
  const device = await gpuDevice();
  const cpu = new ParticleSimulation(parseScene(input));
  cpu.stepFrame();
  const L = cpu.ctx.liquid, n = L.count;
  const idAtUpload = L.id.slice(0, n);
  const acc = await checked(device, async () => {
    const gpu = new GpuParticleSimulation(device, cpu.scene, cpu);
    const a = await gpu.adhesionAccelerations();
    const { id } = await gpu.read();
    gpu.destroy();
    // By particle id, xyz.
    const out = new Map<number, number[]>();
    for (let s = 0; s < n; s++) out.set(idAtUpload[id[s]], [a[3 * s], a[3 * s + 1], a[3 * s + 2]]);
    return out;
  });
  cpu.ctx.cells.buildSorted(L);
  L.acc.fill(0, 0, 3 * n);
  computeAdhesion(cpu.ctx);
  let diff = 0, max = 0;
  for (let i = 0; i < n; i++) {
    const g = acc.get(L.id[i])!;
    for (let k = 0; k < 3; k++) {
      diff = Math.max(diff, Math.abs(g[k] - L.acc[3 * i + k]));
      max = Math.max(max, Math.abs(L.acc[3 * i + k]));
    }
  }
  cpu.dispose();
  return { diff, max, n };
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU adhesion between liquid particles'), () => {
  it('gives each particle the CPU engine\'s acceleration: the default cohesion, and a function of points', async () => {
    const def = await accelerations(collision(undefined));
    const points = await accelerations(collision([{ between: ['w', 'w'], points: [[0, 30], [1.2, 30], [2, 0], [2.6, -4], [3.1, -6], [4, -2], [5, 0]] }]));
    for (const [name, r] of [['default cohesion', def], ['points', points]] as const) {
      console.log(`adhesion, ${name}: ${r.n} particles, largest |a| ${r.max.toFixed(3)} m/s², largest GPU − CPU ${r.diff.toExponential(2)} m/s²`);
      expect(r.max).toBeGreaterThan(1);
      // Single precision: positions to 2^-24 of 1 cm, pair distances of a few mm, ~30 pairs a particle.
      expect(r.diff).toBeLessThan(1e-5 * r.max);
    }
  });

  it('draws a cohesive cube without gravity in as the CPU engine does, keeping its momentum', async () => {
    const input: SceneInput = {
      fps: 30,
      duration: 1,
      gravity: [0, 0, 0],
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
      adhesion: [{ between: ['w', 'w'], type: 'lennard-jones', strength: 5 }],
      bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [0.024, 0.024, 0.024] }, velocity: [0.05, 0, 0] }],
      particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
    };
    const frames = 6;
    const spread = (pos: ArrayLike<number>, vel: ArrayLike<number>, n: number) => {
      const c = [0, 0, 0], p = [0, 0, 0];
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) { c[k] += pos[3 * i + k] / n; p[k] += vel[3 * i + k] / n; }
      let r2 = 0, far = 0;
      for (let i = 0; i < n; i++) {
        const d2 = (pos[3 * i] - c[0]) ** 2 + (pos[3 * i + 1] - c[1]) ** 2 + (pos[3 * i + 2] - c[2]) ** 2;
        r2 += d2 / n;
        far = Math.max(far, Math.sqrt(d2));
      }
      return { rg: Math.sqrt(r2), far, p };
    };
    const cpu = new ParticleSimulation(parseScene(input));
    const L = cpu.ctx.liquid, n = L.count;
    const start = spread(L.pos, L.vel, n);
    const device = await gpuDevice();
    const gpuTrack: ReturnType<typeof spread>[] = [], cpuTrack: ReturnType<typeof spread>[] = [];
    await checked(device, async () => {
      const gpu = new GpuParticleSimulation(device, parseScene(input));
      for (let f = 0; f < frames; f++) {
        await gpu.stepFrame();
        const { pos, vel } = await gpu.read();
        gpuTrack.push(spread(pos, vel, n));
      }
      gpu.destroy();
    });
    for (let f = 0; f < frames; f++) {
      cpu.stepFrame();
      cpuTrack.push(spread(L.pos, L.vel, n));
    }
    cpu.dispose();
    const mm = (v: number) => (v * 1000).toFixed(2);
    console.log(`cohesive cube, ${n} particles: radius of gyration ${mm(start.rg)} mm, corner ${mm(start.far)} mm at frame 0; frames 1–${frames}, GPU / CPU:\n` +
      gpuTrack.map((g, f) => `  ${f + 1}: ${mm(g.rg)} / ${mm(cpuTrack[f].rg)} mm, farthest ${mm(g.far)} / ${mm(cpuTrack[f].far)} mm, mean vx ${g.p[0].toFixed(5)} / ${cpuTrack[f].p[0].toFixed(5)} m/s`).join('\n'));
    // Surface tension rounds the cube: its corners are drawn in at once (17.32 → 15.4 mm by frame 1 on
    // both engines; without cohesion they stay), while its radius of gyration can fall only towards
    // a sphere's of the same volume, 11.54 mm (0.29 mm under the cube's). Cohesion's share
    // (cohesionShare "band", the default) leaves the bulk's pairs out, so frame 1 draws in 0.07–0.08 mm
    // (the paper's every pair, squeezing the bulk as well, 0.32 mm: past the sphere's).
    const drawn = (t: typeof gpuTrack) => start.rg - t[0].rg;
    expect(drawn(cpuTrack)).toBeGreaterThan(0.00005);
    expect(Math.abs(drawn(gpuTrack) - drawn(cpuTrack))).toBeLessThan(0.3 * drawn(cpuTrack));
    for (const t of [gpuTrack, cpuTrack]) expect(t[0].far).toBeLessThan(0.95 * start.far);
    // Within 2 % over frames 1–3 (measured 0.4 %). From frame 3 the cube flings particles from its
    // corners, and the engines' particles part by millimetres whichever the rule (every pair, the
    // linear share and the band alike: docs/decisions.md "Cohesion's share with a dead band"), so
    // later frames are compared in momentum alone.
    for (let f = 0; f < 3; f++) expect(Math.abs(gpuTrack[f].rg - cpuTrack[f].rg)).toBeLessThan(0.02 * cpuTrack[f].rg);
    for (let f = 0; f < frames; f++) {
      // Each pair's adhesion is equal and opposite: the mean velocity stays 0.05 m/s along x.
      expect(Math.hypot(gpuTrack[f].p[0] - 0.05, gpuTrack[f].p[1], gpuTrack[f].p[2])).toBeLessThan(1e-5);
    }
  });
});
