/**
 * The pressure stage and density correction on the WebGPU backend against the CPU particle engine,
 * particle by particle, on SwiftShader: a 144-particle pool on its rest lattice in a slip box (walls
 * on every side but the top: corners with three mirror images), sub-timesteps 2–4 of 1/120 s. The
 * moves make no contact there (the lattice is at 2r), so both engines run the same method and read
 * the same to single precision. Two departures made them part by 40 % of the pool's RMS speed from
 * the first sub-timestep (docs/decisions.md, "The spinning paddle's first sub-timestep"): the GPU's
 * α left the walls' images out of its pair sum (wgsl.ts measure), and which of a lattice's
 * neighbours at exactly h counted toward the free-surface test (FULL) was a rounding coin toss on
 * either engine (pressure-ghosts.ts NEIGHBOUR_EDGE).
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { GpuParticleSimulation } from '../../src/gpu/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const r = 0.002, c = 0.012;

const pool: SceneInput = {
  fps: 120,
  duration: 1,
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
  particle: { radius: r, substeps: 1 },
  domain: { min: [0, 0, 0], max: [0.024, 0.04, 0.024], boundary: 'slip' },
  bodies: [{ material: 'w', shape: { type: 'box', center: [c, 0.008, c], size: [0.024, 0.016, 0.024] } }],
};

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU pressure and density correction, particle by particle'), () => {
  it('a pool on its lattice in a slip box: every particle within 1 % of the RMS speed of the CPU engine\'s over three sub-timesteps after the first', async () => {
    const device = await gpuDevice();
    await checked(device, async () => {
      const scene = parseScene(pool);
      const cpu = new ParticleSimulation(scene), gpu = new GpuParticleSimulation(device, scene);
      // The first sub-timestep has no cohesion on either engine (a fresh run's particles read the
      // rest density until their first density correction: src/particle/adhesion.ts), and a pool on
      // its lattice does not move in it (CPU 0.001 mm/s): it is stepped, and the next three compared.
      cpu.stepFrame();
      await gpu.stepFrame();
      for (let f = 2; f <= 4; f++) {
        cpu.stepFrame();
        await gpu.stepFrame();
        const g = await gpu.read(), L = cpu.ctx.liquid, n = gpu.count;
        expect(n).toBe(L.count);
        // The GPU's ids are the CPU liquid's at frame 0 (read-back.ts); the CPU's rows carry theirs (L.id).
        const row = new Int32Array(n);
        for (let i = 0; i < n; i++) row[L.id[i]] = i;
        let dv2 = 0, v2 = 0, worst = 0;
        for (let a = 0; a < n; a++) {
          const i = row[g.id[a]];
          let e = 0;
          for (let k = 0; k < 3; k++) {
            e += (g.vel[3 * a + k] - L.vel[3 * i + k]) ** 2;
            v2 += L.vel[3 * i + k] ** 2;
          }
          dv2 += e;
          worst = Math.max(worst, Math.sqrt(e));
        }
        const rmsV = Math.sqrt(v2 / n), rmsDv = Math.sqrt(dv2 / n);
        console.log(`pool in a slip box, sub-timestep ${f}: |v_GPU − v_CPU| RMS ${(rmsDv * 1000).toFixed(4)} mm/s, largest ${(worst * 1000).toFixed(4)} mm/s, of an RMS speed of ${(rmsV * 1000).toFixed(3)} mm/s`);
        expect(rmsV).toBeGreaterThan(1e-3);
        expect(worst).toBeLessThan(0.01 * rmsV);
      }
      gpu.destroy();
      cpu.dispose();
    });
  });
});
