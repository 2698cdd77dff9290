/**
 * spout-fill on the grid: where the liquid above 8 cm (away from the spout's column) is, and how
 * it moves. `npx tsx bench/spout-walls.ts FRAMES '{grid overrides}' [EVERY]`
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { levelSetVolume } from '../src/grid/levelset-volume.ts';

const json = JSON.parse(readFileSync(new URL('../scenes/spout-fill.json', import.meta.url), 'utf8'));
if (process.argv[3]) Object.assign(json.grid, JSON.parse(process.argv[3]));
if (process.env.SCENE_PATCH) Object.assign(json, JSON.parse(process.env.SCENE_PATCH));
const sim = new GridSimulation(parseScene(json));
sim.initialize();
const frames = Number(process.argv[2] ?? 20), every = Number(process.argv[4] ?? 3);
const t0 = performance.now();
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const s = sim.store, h = sim.d.h, n = sim.d.n;
  let high = 0, wall = 0, upSum = 0, vMax = -9, vMin = 9, still = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === 2 || !(s.phi[c] < 0)) continue;
    const i = s.ci[c], j = s.cj[c], k = s.ck[c];
    if (j < 8 || Math.hypot(i - 9.5, k - 9.5) <= 3) continue;
    high++;
    const dw = Math.min(i, k, n[0] - 1 - i, n[2] - 1 - k);
    if (dw <= 1) wall++;
    const v = 0.5 * (s.u[1][c] + s.u[1][s.nb[6 * c + 3]]);
    upSum += v; vMax = Math.max(vMax, v); vMin = Math.min(vMin, v);
    if (Math.abs(v) < 0.05) still++;
  }
  const vol = levelSetVolume(s, h);
  let ke = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== 1) continue;
    const ux = 0.5 * (s.u[0][c] + s.u[0][s.nb[6 * c + 1]]), uy = 0.5 * (s.u[1][c] + s.u[1][s.nb[6 * c + 3]]), uz = 0.5 * (s.u[2][c] + s.u[2][s.nb[6 * c + 5]]);
    ke += 0.5 * 1300 * h * h * h * (ux * ux + uy * uy + uz * uz);
  }
  const st = sim.counters;
  console.log(`f ${f} t ${sim.time.toFixed(2)} high ${high} (within 2 cells of a wall ${wall}, |v|<5cm/s ${still}) v mean ${(high ? upSum / high : 0).toFixed(2)} [${vMin.toFixed(2)}, ${vMax.toFixed(2)}] vol ${(vol * 1e6).toFixed(0)} cm³ KE ${(1000 * ke).toFixed(1)} mJ growth/step ${((st.volumeGrowth ?? 0) / st.steps).toFixed(3)} steps ${st.steps} shift ${((st.volumeShift ?? 0) / h).toFixed(2)}h cpu ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
