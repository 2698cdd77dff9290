/**
 * The CPU time of each WebGPU frame (SwiftShader) of tests/gpu/liquids.test.ts's heavy block on a
 * water pool, the block at ρ 3 000 and at the water's ρ 1 000, one simulation after another on one
 * device; the process's CPU time and its main thread's, with the frame's counters.
 *   npx tsx bench/gpu-liquids-cost.ts [frames] [pressureAfterViscosity: 0|1]
 * (docs/decisions.md, "The test suite's time, ninth pass": the ρ 3 000 block's first frame.)
 */
import { cpuLaps } from './cpu-laps.ts';
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { heavyOnWater } from '../tests/particle/heavy-pool.ts';

const frames = Number(process.argv[2] ?? 2);
const pressureAfterViscosity = (process.argv[3] ?? '0') === '1';

/** The test's scene (liquids.test.ts `sinking`). */
function sinking(heavy: number): SceneInput {
  return heavyOnWater({ heavy, particle: { radius: 0.0025, pressureAfterViscosity } });
}

const lap = cpuLaps();
const { device } = await requestNodeGpu();
lap('device');
for (const heavy of [3000, 1000, 3000]) {
  const sim = new GpuParticleSimulation(device, parseScene(sinking(heavy)));
  lap(`block at ρ ${heavy}: set up (${sim.count} particles)`);
  for (let f = 0; f < frames; f++) {
    const st = await sim.stepFrame();
    lap(`  frame ${f + 1} (${JSON.stringify(st.counters)})`);
  }
  sim.destroy();
}
releaseNodeGpu();
