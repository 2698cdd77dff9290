/**
 * The splash of tests/grid/body-hang.test.ts ("a splash thrown up against a plate leaves the
 * underside and reaches the floor") over draws: the thrown block's centre moved off the box's middle
 * by `shift` (m) along the golden angle k (draw 0 in the middle: the test's own run, mirror-symmetric
 * about x and z). Prints each draw's test measures (the most cells at the underside, at 0.35 s the
 * cells there and the top, at 0.6 s the top and the volume change) and the volume every `every` frames.
 * Runs on to `frames` (60 frames a second; the test reads 36) to show whether the volume comes back.
 *   npx tsx bench/grid-body-hang-draws.ts [draws=0-4] [shift=1e-4] [every=6] [frames=36]
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { bodyHangScene, hangMeasure } from '../tests/grid/body-hang.ts';

const [d0, d1] = (process.argv[2] ?? '0-4').split('-').map(Number);
const shift = Number(process.argv[3] ?? 1e-4), every = Number(process.argv[4] ?? 6), frames = Number(process.argv[5] ?? 36);
for (let k = d0; k <= (d1 ?? d0); k++) {
  const th = (2 * Math.PI * k) / ((3 + Math.sqrt(5)) / 2);
  const sh: [number, number] = k === 0 ? [0, 0] : [shift * Math.cos(th), shift * Math.sin(th)];
  const sim = new GridSimulation(parseScene(bodyHangScene('throw', 0.025, sh)));
  sim.initialize();
  const v0 = sim.tracker.volume(sim);
  let hit = 0, at35 = hangMeasure(sim);
  const vols: string[] = [];
  let end = at35, dv = 0;
  for (let f = 1; f <= Math.max(36, frames); f++) {
    sim.stepFrame();
    const m = hangMeasure(sim);
    if (f <= 36) hit = Math.max(hit, m.touching);
    if (f === 21) at35 = m;
    if (f === 36) { end = m; dv = sim.tracker.volume(sim) / v0 - 1; }
    if (f % every === 0) vols.push(`${f}:${(100 * (sim.tracker.volume(sim) / v0 - 1)).toFixed(1)}`);
  }
  const pass = hit > 30 && at35.touching === 0 && at35.top < 0.25 && end.top < 0.1 && Math.abs(dv) < 0.05;
  console.log(`draw ${k} shift (${(1e3 * sh[0]).toFixed(3)}, ${(1e3 * sh[1]).toFixed(3)}) mm: hit ${hit}, at 0.35 s ${at35.touching} top ${(100 * at35.top).toFixed(2)} cm, at 0.6 s top ${(100 * end.top).toFixed(2)} cm, ΔV ${(100 * dv).toFixed(1)} % ${pass ? 'PASS' : 'FAIL'}; ΔV % by frame ${vols.join(' ')}`);
}
