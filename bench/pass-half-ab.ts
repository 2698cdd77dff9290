/**
 * The pressure stage's one-thread phases (pressure-job.ts: the measure, a pass's displacement and
 * update) of two checkouts on one solve view, as the dam break's stage runs them (rows of upper
 * parts alone, closed walls, the walls' ghost table), calls interleaved, each timed in CPU time
 * (process.cpuUsage):
 *   npx tsx bench/pass-half-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]
 * (B is this checkout; defaults: the dam break, frame 3, 20 calls.) This checkout steps the scene
 * to the frame and lists the first solve's view (prepareSolve at the frame's end positions); each
 * checkout's job runs WALLS once (its own ghost table), then FACTOR, DISPLACE (p = α (ρ̂ − 1)
 * where compressed, PBF's) and UPDATE (ω = RELAX) over every slot, and the outputs are compared
 * bit for bit. Prints median and mean ms a call, B/A and whether the outputs agree.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StepContext } from '../src/particle/context.ts';
import type { SolveView } from '../src/particle/pressure-kernels.ts';
import { abTable, solveArgs, solveLabel, solveViewAt } from './solve-view.ts';

const args = solveArgs({ file: 'scenes/dam-break.json', frame: 3, reps: 20 }, 'npx tsx bench/pass-half-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]');
const other = args.other!, reps = args.reps;

interface Job {
  runSolvePhase(ctx: StepContext, v: SolveView, n: number, phase: number, wallsDone?: boolean): void;
  runUpdatePhase(ctx: StepContext, v: SolveView, n: number, omega: number): void;
  WALLS: number; FACTOR: number; DISPLACE: number;
}
const load = async (root: string): Promise<Job> => (await import(pathToFileURL(resolve(root, 'src/particle/pressure-job.ts')).href)) as Job;
const K: [Job, Job] = [await load(other), await load('.')];

const { ctx, n, pr } = solveViewAt(args);
const v = pr.v;
if (!v.half?.upperOnly) throw new Error('pass-half-ab: the view\'s rows are full (a team?): one thread lists upper parts alone');
for (const k of K) k.runSolvePhase(ctx, v, n, k.WALLS);
for (const k of K) k.runSolvePhase(ctx, v, n, k.FACTOR, true);
for (let a = 0; a < n; a++) v.p[a] = v.dens[a] > 1 ? (v.dens[a] - 1) * v.alpha[a] : 0;
const p0 = v.p.slice(0, n), dens0 = v.dens.slice(0, n);

const outputs: Record<string, () => ArrayLike<number>[]> = {
  factor: () => [v.dens.slice(0, n), v.alpha.slice(0, n), v.nb.slice(0, n), v.kg.slice(0, v.ls[n])],
  displace: () => [v.dx.slice(0, 3 * n)],
  update: () => [v.p.slice(0, n), v.res.slice(0, n)],
};
const run: Record<string, (k: Job) => void> = {
  factor: (k) => k.runSolvePhase(ctx, v, n, k.FACTOR, true),
  displace: (k) => { v.p.set(p0); k.runSolvePhase(ctx, v, n, k.DISPLACE); },
  update: (k) => { v.p.set(p0); v.dens.set(dens0); k.runUpdatePhase(ctx, v, n, 0.5); },
};
let walled = 0;
for (let a = 0; a < n; a++) if (v.wmask[a] !== 0) walled++;
console.log(`${solveLabel(args)}: ${n} liquid particles, ${v.ls[n]} upper entries (${(v.ls[n] / n).toFixed(2)} a slot), ${walled} walled slots, ${reps} calls each; load ${loadavg()[0].toFixed(1)}`);
abTable('phase', K, reps, run, outputs, 2);
