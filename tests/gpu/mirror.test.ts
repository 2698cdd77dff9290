/**
 * The host copy of a GPU run (src/gpu/mirror.ts) carries each particle's own surface flag and
 * normal (the surface test run on the GPU at the frame's positions), not the first frame's flags
 * in another order: a cube of liquid without gravity, one frame, on SwiftShader, against the CPU
 * particle engine's flags at the same particles (matched by position: nothing moves by more than a
 * fraction of a radius).
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleRun } from '../../src/gpu/mirror.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU host copy'), () => {
  it('gives every particle its own surface flag and an outward normal, as the CPU engine does', async () => {
    const c = 0.012;
    const input: SceneInput = {
      fps: 30,
      duration: 1,
      gravity: [0, 0, 0],
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
      adhesion: [{ between: ['w', 'w'], type: 'attract', strength: 0 }],
      particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
      output: { normals: 'particles' },
      bodies: [{ material: 'w', shape: { type: 'box', center: [c, c, c], size: [0.024, 0.024, 0.024] } }],
    };
    const device = await gpuDevice();
    const gpu = await checked(device, async () => {
      const run = new GpuParticleRun(device, new ParticleSimulation(parseScene(input)));
      await run.stepFrame();
      const L = run.mirror.ctx.liquid, n = L.count;
      const out = { n, pos: L.pos.slice(0, 3 * n), surface: L.surface.slice(0, n), normal: L.normal.slice(0, 3 * n) };
      run.dispose();
      return out;
    });
    const cpuSim = new ParticleSimulation(parseScene(input));
    cpuSim.stepFrame();
    const L = cpuSim.ctx.liquid;
    let agree = 0, surface = 0, outward = 0, far = 0;
    for (let i = 0; i < gpu.n; i++) {
      let best = 0, d2 = Infinity;
      for (let j = 0; j < L.count; j++) {
        const e = (gpu.pos[3 * i] - L.pos[3 * j]) ** 2 + (gpu.pos[3 * i + 1] - L.pos[3 * j + 1]) ** 2 + (gpu.pos[3 * i + 2] - L.pos[3 * j + 2]) ** 2;
        if (e < d2) { d2 = e; best = j; }
      }
      far = Math.max(far, Math.sqrt(d2));
      if (gpu.surface[i] === L.surface[best]) agree++;
      if (!gpu.surface[i]) continue;
      surface++;
      const x = [0, 1, 2].map((k) => gpu.pos[3 * i + k] - c), nx = [0, 1, 2].map((k) => gpu.normal[3 * i + k]);
      if (x[0] * nx[0] + x[1] * nx[1] + x[2] * nx[2] > 0) outward++;
    }
    cpuSim.dispose();
    console.log(`host copy's surface flags: ${agree} of ${gpu.n} as the CPU engine's particle nearest (at most ${(far * 1000).toFixed(3)} mm away); ${surface} on the surface, ${outward} with an outward normal`);
    expect(gpu.n).toBe(216);
    expect(far).toBeLessThan(0.0005);
    expect(agree).toBeGreaterThanOrEqual(0.95 * gpu.n);
    // The cube's outer shell (152 of 216) at least; every surface normal pointing out.
    expect(surface).toBeGreaterThanOrEqual(152);
    expect(outward).toBe(surface);
  });
});
