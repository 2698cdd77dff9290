/**
 * spout-fill on the grid: which stage gains or loses liquid volume, and where (spout column, floor
 * layer, wall band, elsewhere). `npx tsx bench/spout-loss.ts FIRST LAST '{grid overrides}'`
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { cellLiquidFraction } from '../src/grid/levelset-volume.ts';

const json = JSON.parse(readFileSync(new URL('../scenes/spout-fill.json', import.meta.url), 'utf8'));
if (process.argv[4]) Object.assign(json.grid, JSON.parse(process.argv[4]));
const sim = new GridSimulation(parseScene(json));
sim.initialize();
const first = Number(process.argv[2] ?? 6), last = Number(process.argv[3] ?? 12);
const REGIONS = ['column', 'floor', 'walls', 'other'];
const n = sim.d.n, h = sim.d.h;
function regionVolumes(): number[] {
  const s = sim.store, v = [0, 0, 0, 0];
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === 2 || s.wall[c] !== 0) continue;
    const i = s.ci[c], j = s.cj[c], k = s.ck[c];
    const dw = Math.min(i, k, n[0] - 1 - i, n[2] - 1 - k);
    const r = Math.hypot(i - 9.5, k - 9.5) <= 3 && j >= 2 ? 0 : j <= 1 ? 1 : dw <= 1 ? 2 : 3;
    v[r] += cellLiquidFraction(s, c, h) * h * h * h * 1e6;
  }
  return v;
}
const acc = new Map<string, number[]>();
let active = false;
for (const st of sim.pipeline) {
  const run = st.run.bind(st);
  st.run = (sm, dt) => {
    if (!active) return run(sm, dt);
    const a = regionVolumes();
    run(sm, dt);
    const b = regionVolumes();
    const row = acc.get(st.name) ?? acc.set(st.name, [0, 0, 0, 0]).get(st.name)!;
    for (let r = 0; r < 4; r++) row[r] += b[r] - a[r];
  };
}
for (let f = 1; f <= last; f++) {
  active = f >= first;
  sim.stepFrame();
}
console.log(`frames ${first}–${last}, cm³ a frame by stage and region (${REGIONS.join(', ')}); volumes now ${regionVolumes().map((x) => x.toFixed(0)).join(', ')}`);
const frames = last - first + 1;
for (const [name, row] of acc) console.log(`${name.padEnd(14)} ${row.map((x) => (x / frames).toFixed(1).padStart(8)).join(' ')}  total ${(row.reduce((p, q) => p + q, 0) / frames).toFixed(1)}`);
