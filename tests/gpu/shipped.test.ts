/**
 * The shipped scene the WebGPU backend is meant for, as its description measures it:
 * scenes/gpu-dam-break.json stepped on the GPU (SwiftShader here) and on the CPU engine, the front
 * (the farthest liquid in x) read at frames 1–5. The CPU engine's front is held in
 * tests/scene/shipped.test.ts; this holds the GPU's to it. 420 particles take about 2 s of CPU a
 * frame on SwiftShader (the pipelines' compilation, 4–7 s, aside), so it runs with VISCID_LONG=1.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { GPU_SKIP, gpuFrames, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';
import { describeLong } from '../long.ts';

releaseGpuAfterAll();

const input = JSON.parse(readFileSync(new URL('../../scenes/gpu-dam-break.json', import.meta.url), 'utf8')) as SceneInput;

/** The farthest of the first n particles in x, m. */
function front(pos: ArrayLike<number>, n: number): number {
  let m = -Infinity;
  for (let i = 0; i < n; i++) m = Math.max(m, pos[3 * i]);
  return m;
}

describeLong(import.meta, 'gpu-dam-break on the WebGPU backend (VISCID_LONG=1)', () => {
  describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU gpu-dam-break'), () => {
    it('runs its front along the floor to the far wall (118 mm) by frame 5, within 3 mm of the CPU engine at each of frames 1–5', async () => {
      const gpu: number[] = [];
      await gpuFrames(input, 5, async (_s, read) => {
        const r = await read();
        gpu.push(front(r.pos, r.n));
      });
      const sim = new ParticleSimulation(parseScene(input));
      const cpu: number[] = [];
      for (let f = 0; f < 5; f++) {
        sim.stepFrame();
        cpu.push(front(sim.ctx.liquid.pos, sim.ctx.liquid.count));
      }
      sim.dispose();
      const mm = (v: number[]) => v.map((x) => (1000 * x).toFixed(0)).join(', ');
      console.log(`gpu-dam-break front at frames 1–5: ${mm(gpu)} mm on the GPU, ${mm(cpu)} mm on the CPU`);
      // The description (bench/gpu-agree.ts, 2026-11-30): 38 / 38, 61 / 61, 88 / 88, 117 / 117, 118 / 118 mm.
      for (let f = 0; f < 5; f++) expect(Math.abs(gpu[f] - cpu[f])).toBeLessThan(0.003);
      expect(gpu[0]).toBeLessThan(0.05);
      expect(gpu[4]).toBeGreaterThan(0.115);
    });
  });
});
