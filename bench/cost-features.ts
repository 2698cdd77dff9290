/**
 * What a feature adds to a frame in the particle engine, measured for `viscid info`'s cost model
 * (src/cli/cost.ts): for each pair of scenes of tests/cli/cost-features.ts (the temperature stage,
 * the implicit viscosity, the gel's springs), the ratio of the two scenes' CPU time, their frames
 * interleaved in this process (as bench/ab-frames.ts does, so the load of a shared machine falls on
 * both alike), printed beside the ratio of the model's two predictions.
 *
 *   npx tsx bench/cost-features.ts
 *
 * tests/cli/cost-model.test.ts records these measured ratios and holds the model within 1.5× of them.
 * The absolute figures on every shipped scene are in BENCHMARKS.md, from bench/frame-cpu.ts.
 */
import { createSimulation, type Scene } from '../src/index.ts';
import { PAIRS, pairScenes, predictedRatio } from '../tests/cli/cost-features.ts';

/** CPU ms a frame of scene B over scene A, frames 2–5 of each, interleaved (the first frame of each is a warm-up). */
function measuredRatio(a: Scene, b: Scene): number {
  const sims = [createSimulation(a, 'particle', { workers: 1 }), createSimulation(b, 'particle', { workers: 1 })];
  const cpu = [0, 0];
  for (let f = 0; f < 5; f++) {
    for (const k of f % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = process.cpuUsage();
      sims[k].stepFrame();
      const t = process.cpuUsage(t0);
      if (f > 0) cpu[k] += t.user + t.system;
    }
  }
  return cpu[1] / cpu[0];
}

for (const [what, edit] of PAIRS) {
  const [a, b] = pairScenes(what, edit);
  const predicted = predictedRatio(a, b), measured = measuredRatio(a, b);
  console.log(`${what}: measured ${measured.toFixed(2)}, predicted ${predicted.toFixed(2)}, measured / predicted ${(measured / predicted).toFixed(2)}`);
}
