/**
 * spout-fill on the grid: the liquid cells' kinetic and potential energy changed by each stage, mJ a
 * frame. `npx tsx bench/spout-energy.ts FIRST LAST '{grid overrides}'`
 */
import { perStageDeltas, spoutFill } from './grid-stage-deltas.ts';

const sim = spoutFill(process.argv[4]);
const first = Number(process.argv[2] ?? 30), last = Number(process.argv[3] ?? 42);
const rho = 1300, h = sim.d.h;
function energy(): number[] {
  const s = sim.store;
  let ke = 0, pe = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== 1) continue;
    const ux = 0.5 * (s.u[0][c] + s.u[0][s.nb[6 * c + 1]]), uy = 0.5 * (s.u[1][c] + s.u[1][s.nb[6 * c + 3]]), uz = 0.5 * (s.u[2][c] + s.u[2][s.nb[6 * c + 5]]);
    ke += 0.5 * rho * h * h * h * (ux * ux + uy * uy + uz * uz);
    pe += rho * 9.81 * h * h * h * (s.cj[c] + 0.5) * h;
  }
  return [1000 * ke, 1000 * pe];
}
const rows = perStageDeltas(sim, energy, first, last);
console.log(`frames ${first}–${last}: mJ a frame by stage (kinetic, potential); now KE ${energy()[0].toFixed(0)} mJ`);
for (const [name, row] of rows) console.log(`${name.padEnd(14)} ${row[0].toFixed(1).padStart(8)} ${row[1].toFixed(1).padStart(8)}`);
