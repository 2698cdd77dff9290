/**
 * The pressure stage's and PBF's kernels (pressure-kernels.ts, pressure-filter.ts) of two checkouts
 * on one solve view, calls interleaved, each timed in CPU time (process.cpuUsage; one thread):
 *   npx tsx bench/solve-kernels-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]
 * (B is this checkout; defaults: the dam break, frame 3, 10 calls.) This checkout steps the scene
 * to the frame and lists a solve (prepareSolve at the frame's end positions, the density cells'
 * rows, as PBF does); then each kernel of A and of B runs over every slot of that view, and its
 * outputs are compared bit for bit (the kernels read and write the same SolveView in both). The
 * pressure of the displacement is PBF's, p = α (ρ̂ − 1) where compressed; u (ADVANCE, FILTER) the
 * velocities times the sub-timestep. Prints median and mean ms a call of each, B/A and whether
 * the outputs agree.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SolveView } from '../src/particle/pressure-kernels.ts';
import { abTable, solveArgs, solveLabel, solveViewAt } from './solve-view.ts';

const args = solveArgs({ file: 'scenes/dam-break.json', frame: 3, reps: 10 }, 'npx tsx bench/solve-kernels-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]');
const other = args.other!, reps = args.reps;

interface Kernels {
  factorRange(v: SolveView, a0: number, a1: number): void;
  pressureDisplacementRange(v: SolveView, a0: number, a1: number): void;
  advanceDensityRange(v: SolveView, a0: number, a1: number, u: Float64Array, ou: Float64Array | null): void;
  pressureUpdateRange(v: SolveView, a0: number, a1: number, omega: number): void;
  wallRange(v: SolveView, a0: number, a1: number): void;
  filterRange(v: SolveView, a0: number, a1: number, u: Float64Array, c: Float64Array, out: Float64Array): void;
}
async function load(root: string): Promise<Kernels> {
  const imp = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  return { ...(await imp('src/particle/pressure-kernels.ts')), ...(await imp('src/particle/pressure-filter.ts')) } as Kernels;
}
const K: [Kernels, Kernels] = [await load(other), await load('.')];

const { ctx, n, pr } = solveViewAt(args);
const v = pr.v;
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
const u = new Float64Array(3 * n), c = new Float64Array(n), out = new Float64Array(3 * n);
for (let a = 0; a < n; a++) {
  const i = pr.order[a];
  for (let k = 0; k < 3; k++) u[3 * a + k] = ctx.liquid.vel[3 * i + k] * dt;
  c[a] = 1;
}
K[1].wallRange(v, 0, n);
K[1].factorRange(v, 0, n);
for (let a = 0; a < n; a++) v.p[a] = v.dens[a] > 1 ? (v.dens[a] - 1) * v.alpha[a] : 0;
const p0 = v.p.slice(0, n), dens0 = v.dens.slice(0, n);

/** What a phase writes, copied after a call (to compare A with B). */
const outputs: Record<string, () => ArrayLike<number>[]> = {
  factor: () => [v.dens.slice(0, n), v.alpha.slice(0, n), v.nb.slice(0, n), v.kg.slice(0, v.ls[n]), v.bg.slice(0, v.bs[n])],
  displace: () => [v.dx.slice(0, 3 * n)],
  advance: () => [v.dens.slice(0, n)],
  update: () => [v.p.slice(0, n), v.res.slice(0, n)],
  filter: () => [out.slice(0, 3 * n)],
};
const run: Record<string, (k: Kernels) => void> = {
  factor: (k) => k.factorRange(v, 0, n),
  displace: (k) => { v.p.set(p0); k.pressureDisplacementRange(v, 0, n); },
  advance: (k) => { v.dens.set(dens0); k.advanceDensityRange(v, 0, n, u, null); },
  update: (k) => { v.p.set(p0); v.dens.set(dens0); k.pressureUpdateRange(v, 0, n, 0.5); },
  filter: (k) => k.filterRange(v, 0, n, u, c, out),
};
console.log(`${solveLabel(args)}: ${n} liquid particles, ${v.ls[n]} row entries, ${reps} calls each; load ${loadavg()[0].toFixed(1)}`);
abTable('kernel', K, reps, run, outputs, 1);
