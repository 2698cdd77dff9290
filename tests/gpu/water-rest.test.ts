/**
 * Water at rest on the WebGPU backend (issue 26 "Rest at any size", issue 29): with the position
 * shift and the particle-scale filter of the second pressure solve (src/gpu/pressure-shift-wgsl.ts,
 * pressure-filter-wgsl.ts; the CPU's pressure.ts shiftPresent and pressure-filter.ts), a still
 * water pool (ν 1e-6 m²/s, 4 mm particles, the defaults) rests as on the CPU engine, under the
 * bound of tests/particle/water-pool-start.test.ts (RMS ≤ 0.005 √(g h), no frame over 0.008). The
 * pool is the smallest that shows it, 4 × 3.2 cm (100 particles), over the fewest frames that tell:
 * without the shift and the filter the GPU's read 0.025–0.031 √(g h) at frames 1–5, from the first.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { GPU_SKIP, gpuFrames, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const width = 0.04, depth = 0.032, FRAMES = 5;

const pool: SceneInput = {
  name: 'water-pool', fps: 30, duration: 1,
  domain: { min: [0, 0, 0], max: [width, 2 * depth, width], boundary: 'noslip' },
  materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
  bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, depth / 2, width / 2], size: [width, depth, width] } }],
  particle: { radius: 0.004 },
};

/** RMS speed / √(g h) of n particles' velocities (xyz each). */
function rms(vel: ArrayLike<number>, n: number): number {
  let sq = 0;
  for (let i = 0; i < 3 * n; i++) sq += vel[i] * vel[i];
  return Math.sqrt(sq / n) / Math.sqrt(9.81 * depth);
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU water at rest (the position shift and the particle-scale filter)'), () => {
  it('a 4 × 3.2 cm water pool rests as on the CPU engine: RMS ≤ 0.005 √(g h) over frames 4–5, no frame from the second over 0.008', async () => {
    const gpu: number[] = [];
    await gpuFrames(pool, FRAMES, async (_s, read) => {
      const { vel, n } = await read();
      gpu.push(rms(vel, n));
    });
    const sim = new ParticleSimulation(parseScene(pool)), L = sim.ctx.liquid, cpu: number[] = [];
    for (let f = 0; f < FRAMES; f++) {
      sim.stepFrame();
      cpu.push(rms(L.vel, L.count));
    }
    sim.dispose();
    console.log(`water pool, RMS / √(g h) frames 1–${FRAMES}: GPU ${gpu.map((v) => v.toFixed(4)).join(' ')}; CPU ${cpu.map((v) => v.toFixed(4)).join(' ')}`);
    const late = (v: number[]) => Math.sqrt(v.slice(3).reduce((s, x) => s + x * x, 0) / (v.length - 3));
    expect(late(gpu)).toBeLessThan(0.005);
    // The first frame settles the lattice (CPU 0.014, GPU 0.016); from the second on, every frame.
    expect(Math.max(...gpu.slice(1))).toBeLessThan(0.008);
    // And within 2× the CPU's, plus 0.001 (single precision, and the GPU's neighbour sums in bucket order).
    expect(late(gpu)).toBeLessThan(2 * late(cpu) + 0.001);
  });
});
