/**
 * Temperature-dependent viscosity on the GPU (src/gpu/temperature.ts) against the CPU engine
 * (src/particle/temperature.ts): a cold and a hot block of honey side by side in a box, as
 * scenes/honey-melt.json but small: each particle's temperature after the heat crossed between
 * them, the heat kept, and the hot block slumping faster than the cold one as on the CPU.
 */
import { describe, expect, it } from 'vitest';
import { GpuParticleRun } from '../../src/gpu/mirror.ts';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const law = (initial: number) => ({ viscosityModel: 'variable' as const, temperature: { initial, reference: 20, coefficient: 0.1, diffusivity: 1e-4 } });

/** Cold (20 °C) and hot (60 °C) blocks of 20 Pa·s honey touching in a box, 2 mm particles. */
const SCENE: SceneInput = {
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.06, 0.04, 0.012], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip' } },
  materials: {
    cold: { kind: 'liquid', density: 1420, viscosity: { value: 20, unit: 'Pa.s' }, grid: law(20) },
    hot: { kind: 'liquid', density: 1420, viscosity: { value: 20, unit: 'Pa.s' }, grid: law(60) },
  },
  bodies: [
    { material: 'cold', shape: { type: 'box', center: [0.02, 0.012, 0.006], size: [0.016, 0.024, 0.012] } },
    { material: 'hot', shape: { type: 'box', center: [0.036, 0.012, 0.006], size: [0.016, 0.024, 0.012] } },
  ],
  particle: { radius: 0.002 },
};

/** Per particle id: temperature; per liquid: mean height (m); after `frames` frames of `sim` stepped by `step`. */
function measure(sim: ParticleSimulation): { T: Float64Array; y: number[] } {
  const L = sim.ctx.liquid, n = L.count, T = new Float64Array(n), st = sim.ctx.temperature!, s = [0, 0], c = [0, 0];
  for (let i = 0; i < n; i++) { T[L.id[i]] = st.T[i]; s[L.material[i]] += L.pos[3 * i + 1]; c[L.material[i]]++; }
  return { T, y: [s[0] / c[0], s[1] / c[1]] };
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU temperature-dependent viscosity'), () => {
  it('conducts heat between a cold and a hot block and slumps the hot one faster, as the CPU engine does', async () => {
    const frames = 3, device = await gpuDevice();
    const gpu = await checked(device, async () => {
      const run = new GpuParticleRun(device, new ParticleSimulation(parseScene(SCENE)));
      for (let k = 0; k < frames; k++) await run.stepFrame();
      const out = measure(run.mirror);
      run.dispose();
      return out;
    });
    const sim = new ParticleSimulation(parseScene(SCENE));
    for (let k = 0; k < frames; k++) sim.stepFrame();
    const cpu = measure(sim);
    sim.dispose();
    const n = cpu.T.length;
    let diff = 0, sumG = 0, sumC = 0, warmed = 0, meanDiff = 0, spreadG = 0, spreadC = 0;
    for (let i = 0; i < n; i++) {
      diff = Math.max(diff, Math.abs(gpu.T[i] - cpu.T[i]));
      meanDiff += Math.abs(gpu.T[i] - cpu.T[i]) / n;
      spreadG += Math.abs(gpu.T[i] - 40) / n; spreadC += Math.abs(cpu.T[i] - 40) / n;
      sumG += gpu.T[i]; sumC += cpu.T[i];
      if (cpu.T[i] > 20.5 && cpu.T[i] < 59.5) warmed++;
    }
    console.log(`temperature, ${n} particles, ${frames} frames: ${warmed} between 20.5 and 59.5 °C on the CPU; largest GPU − CPU ${diff.toFixed(4)} °C, mean ${meanDiff.toFixed(4)}; mean |T − 40| ${spreadG.toFixed(3)} / ${spreadC.toFixed(3)} °C; mean ${(sumG / n).toFixed(4)} / ${(sumC / n).toFixed(4)} °C; mean height cold, hot ${(1e3 * gpu.y[0]).toFixed(2)}, ${(1e3 * gpu.y[1]).toFixed(2)} mm on the GPU, ${(1e3 * cpu.y[0]).toFixed(2)}, ${(1e3 * cpu.y[1]).toFixed(2)} on the CPU (12 at the start)`);
    expect(warmed).toBeGreaterThan(10);
    // The particles move a little differently, across a gradient of up to 40 °C over a few mm: each
    // particle within 3 °C of the CPU's, 0.5 °C on the mean; the heat moved (mean |T − 40|) within 1 %; the heat kept.
    expect(diff).toBeLessThan(3);
    expect(meanDiff).toBeLessThan(0.5);
    expect(Math.abs(spreadG - spreadC)).toBeLessThan(0.01 * spreadC);
    expect(Math.abs(sumG / n - 40)).toBeLessThan(0.01);
    // The hot block slumps faster (e⁴ ≈ 55 times runnier), on both, the GPU within 1 mm of the CPU.
    expect(gpu.y[1]).toBeLessThan(gpu.y[0] - 0.0005);
    for (const k of [0, 1]) expect(Math.abs(gpu.y[k] - cpu.y[k])).toBeLessThan(0.001);
  });
});
