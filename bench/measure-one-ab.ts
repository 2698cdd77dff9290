/**
 * PBF's measure on one thread (pbf-measure.ts pbfMeasureOne) and the pressure stage's pair sweeps
 * that share its kernel arithmetic (pressure-half.ts factorHalf) of two checkouts on one solve
 * view, calls interleaved, each timed in CPU time (process.cpuUsage), outputs compared bit for bit:
 *   npx tsx bench/measure-one-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]
 * (B is this checkout; defaults: the honey drop, frame 6, 30 calls). The view is this checkout's
 * (solve-view.ts: the density cells' rows at the frame's end positions, as PBF lists them).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import type { SolveView } from '../src/particle/pressure-kernels.ts';
import type { HalfRows } from '../src/particle/pressure-half.ts';
import { abTable, solveArgs, solveLabel, solveViewAt } from './solve-view.ts';

const args = solveArgs({ file: 'scenes/honey-drop.json', frame: 6, reps: 30 }, 'npx tsx bench/measure-one-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]');
interface Kernels {
  pbfMeasureOne(v: SolveView, n: number, hr: HalfRows): void;
  factorHalf(v: SolveView, from: number, to: number, hr: HalfRows): void;
}
async function load(root: string): Promise<Kernels> {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return { ...(await imp('src/particle/pbf-measure.ts')), ...(await imp('src/particle/pressure-half.ts')) } as Kernels;
}
const K: [Kernels, Kernels] = [await load(args.other!), await load(resolve(import.meta.dirname, '..'))];
const { n, pr } = solveViewAt(args);
const v = pr.v, hr = v.half!;
const outputs = {
  measure: () => [v.dens.slice(0, n), v.alpha.slice(0, n), v.kg.slice(0, v.ls[n]), v.bg.slice(0, v.bs[n]), v.dx.slice(0, 3 * n)],
  factor: () => [v.dens.slice(0, n), v.alpha.slice(0, n), v.nb.slice(0, n), v.kg.slice(0, v.ls[n]), v.bg.slice(0, v.bs[n])],
};
const run = {
  measure: (k: Kernels) => k.pbfMeasureOne(v, n, hr),
  factor: (k: Kernels) => k.factorHalf(v, 0, n, hr),
};
console.log(`${solveLabel(args)}: ${n} slots, ${(v.ls[n] / n).toFixed(1)} row entries a slot, ${args.reps} calls each; load ${loadavg()[0].toFixed(1)}`);
abTable('kernel', K, args.reps, run, outputs, 3);
