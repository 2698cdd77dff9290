/**
 * Zalesak's slotted disk of tests/grid/trackers/particle-levelset.test.ts over draws: the disk (and
 * its centre of rotation) moved by a fraction of a cell along a low-discrepancy sequence (draw 0 as
 * the test: the slot's middle on a cell face, a mirror image), turned once on n² cells by the plain
 * level set and the particle level set as published (no minimum sheet thickness), both without the
 * volume correction; prints each draw's volume change and shape error for both and the means.
 *   npx tsx bench/grid-zalesak-draws.ts [draws=0-5] [n=50]
 */
import type { GridSimulation } from '../src/grid/step.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { carry, trackingSim, zalesak } from '../tests/grid/trackers/rotation.ts';

const [d0, d1] = (process.argv[2] ?? '0-5').split('-').map(Number);
const n = Number(process.argv[3] ?? 50), h = 1 / n;
const sums = { ls: [0, 0], pls: [0, 0] };
let draws = 0, plsBetter = 0;
for (let k = d0; k <= (d1 ?? d0); k++) {
  const dx = k === 0 ? 0 : ((k * 0.618034) % 1) * h, dy = k === 0 ? 0 : ((k * 0.414214) % 1) * h;
  // The field turns about (0.5 + dx, 0.5 + dy): the disk's path as the test's, moved with it.
  const spin = (x: number, y: number, _z: number, _t: number, a: number) => (a === 0 ? -(y - 0.5 - dy) : a === 1 ? x - 0.5 - dx : 0) * 2 * Math.PI;
  const out: Record<string, number[]> = {};
  for (const tracking of ['levelset', 'particle-levelset'] as const) {
    const sim: GridSimulation = trackingSim(tracking, n, true, (x, y) => zalesak(x - dx, y - dy), { volumeCorrection: false });
    if (tracking === 'particle-levelset') (sim.tracker as ParticleLevelSetTracker).particles.sheetDepth = 0;
    const r = carry(sim, spin, 1, 2 * Math.PI * 0.45, 0.5);
    out[tracking] = [r.v1 / r.v0 - 1, r.mismatch / r.v0];
  }
  const [lsV, lsS] = out.levelset, [pV, pS] = out['particle-levelset'];
  sums.ls[0] += Math.abs(lsV); sums.ls[1] += lsS; sums.pls[0] += Math.abs(pV); sums.pls[1] += pS;
  draws++;
  if (Math.abs(pV) < Math.abs(lsV)) plsBetter++;
  const pct = (v: number) => (100 * v).toFixed(2);
  console.log(`draw ${k} (${(dx / h).toFixed(3)}, ${(dy / h).toFixed(3)}) cells: level set ΔV ${pct(lsV)} % shape ${pct(lsS)} %; particle level set ΔV ${pct(pV)} % shape ${pct(pS)} %`);
}
const m = (v: number) => (100 * v / draws).toFixed(2);
console.log(`${n}², ${draws} draws: mean |ΔV| level set ${m(sums.ls[0])} %, particle level set ${m(sums.pls[0])} %; mean shape error ${m(sums.ls[1])} % / ${m(sums.pls[1])} %; particle level set's |ΔV| the smaller in ${plsBetter} of ${draws}`);
