/**
 * spout-fill on the grid: which stage gains or loses liquid volume, and where (spout column, floor
 * layer, wall band, elsewhere). `npx tsx bench/spout-loss.ts FIRST LAST '{grid overrides}'`
 */
import { cellLiquidFraction } from '../src/grid/levelset-volume.ts';
import { perStageDeltas, spoutFill } from './grid-stage-deltas.ts';

const sim = spoutFill(process.argv[4]);
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
const rows = perStageDeltas(sim, regionVolumes, first, last);
console.log(`frames ${first}–${last}, cm³ a frame by stage and region (${REGIONS.join(', ')}); volumes now ${regionVolumes().map((x) => x.toFixed(0)).join(', ')}`);
for (const [name, row] of rows) console.log(`${name.padEnd(14)} ${row.map((x) => x.toFixed(1).padStart(8)).join(' ')}  total ${row.reduce((p, q) => p + q, 0).toFixed(1)}`);
