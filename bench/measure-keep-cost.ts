/**
 * What the second pressure solve's measure costs measured again and kept (pressure-measure-keep.ts),
 * on one solve view of a walled scene, one thread, calls alternated, CPU time (process.cpuUsage):
 *   npx tsx bench/measure-keep-cost.ts [scene] [frame] [calls] [--radius R]
 * (defaults: the dam break, frame 1, 20 calls). Measured again (main's second solve): WALLS with
 * its walled lower list and ghost table, then FACTOR. Kept: WALLS with the lists standing and the
 * copy back (takeMeasure), and apart the first solve's copy (keepMeasure). Prints the median and
 * mean ms of each, (kept + copy) / measured, and whether both leave the measure's ρ̂, α, counts
 * and slopes.
 */
import { loadavg } from 'node:os';
import { FACTOR, runSolvePhase, WALLS } from '../src/particle/pressure-job.ts';
import { keepMeasure, MeasureKeep, takeMeasure } from '../src/particle/pressure-measure-keep.ts';
import { mean, median as med, solveArgs, solveLabel, solveViewAt } from './solve-view.ts';

const args = solveArgs({ file: 'scenes/dam-break.json', frame: 1, reps: 20 }), reps = args.reps;
const { ctx, n, pr } = solveViewAt(args);
const v = pr.v, version = pr.state.pairs.version;
if (!v.half?.upperOnly || v.walls.length === 0) throw new Error('measure-keep-cost: one thread and closed walls (the kept measure\'s case)');
const k = new MeasureKeep();
const snap = () => [v.dens.slice(0, n), v.alpha.slice(0, n), v.nb.slice(0, n), v.kg.slice(0, v.ls[n])].map((a) => Buffer.from(a.buffer));
const measured = (): void => {
  runSolvePhase(ctx, v, n, WALLS);
  runSolvePhase(ctx, v, n, FACTOR, true);
};
const kept = (): void => {
  runSolvePhase(ctx, v, n, WALLS, true);
  takeMeasure(k, v, n);
};
measured();
const ref = snap();
const t: number[][] = [[], [], []];
let same = true;
for (let r = 0; r < reps + 2; r++) {
  for (const w of r % 2 === 0 ? [0, 1] : [1, 0]) {
    if (w === 1) {
      // The first solve's copy, after its measure (timed apart: the first solve pays it).
      const c0 = process.cpuUsage();
      keepMeasure(k, v, n, version);
      const dc = process.cpuUsage(c0);
      if (r >= 2) t[2].push((dc.user + dc.system) / 1000);
    }
    v.dens.fill(0, 0, n); v.alpha.fill(0, 0, n); v.nb.fill(0, 0, n); v.kg.fill(0, 0, v.ls[n]);
    const c0 = process.cpuUsage();
    (w === 0 ? measured : kept)();
    const dc = process.cpuUsage(c0);
    if (r >= 2) t[w].push((dc.user + dc.system) / 1000);
    if (!snap().every((b, i) => b.equals(ref[i]))) same = false;
  }
}
console.log(`${solveLabel(args)}: ${n} liquid particles, ${v.ls[n]} upper entries, ${reps} calls each; load ${loadavg()[0].toFixed(1)}`);
console.log(`  measured again ${med(t[0]).toFixed(2)} ms median (${mean(t[0]).toFixed(2)} mean); kept ${med(t[1]).toFixed(2)} (${mean(t[1]).toFixed(2)}) and its copy ${med(t[2]).toFixed(2)} (${mean(t[2]).toFixed(2)}): kept with the copy / measured ${((med(t[1]) + med(t[2])) / med(t[0])).toFixed(3)}; ${same ? 'the same bits' : 'DIFFER'}; load ${loadavg()[0].toFixed(1)}`);
