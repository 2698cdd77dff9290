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
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { StepContext } from '../src/particle/context.ts';
import { prepareSolve } from '../src/particle/solve-setup.ts';
import type { SolveView } from '../src/particle/pressure-kernels.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const other = pos[0];
if (!other) throw new Error('usage: npx tsx bench/pass-half-ab.ts <checkout A> [scene] [frame] [calls] [--radius R]');
const file = pos[1] ?? 'scenes/dam-break.json', frame = Number(pos[2] ?? 3), reps = Number(pos[3] ?? 20);

interface Job {
  runSolvePhase(ctx: StepContext, v: SolveView, n: number, phase: number, wallsDone?: boolean): void;
  runUpdatePhase(ctx: StepContext, v: SolveView, n: number, omega: number): void;
  WALLS: number; FACTOR: number; DISPLACE: number;
}
const load = async (root: string): Promise<Job> => (await import(pathToFileURL(resolve(root, 'src/particle/pressure-job.ts')).href)) as Job;
const K = [await load(other), await load('.')];

const json = JSON.parse(readFileSync(file, 'utf8'));
const radius = flag('--radius');
if (radius !== undefined) json.particle = { ...json.particle, radius: Number(radius) };
json.engines = ['particle'];
const sim = createSimulation(parseScene(json), 'particle', { workers: 1 }) as ParticleSimulation;
for (let f = 0; f < frame; f++) sim.stepFrame();
const ctx = sim.ctx, n = ctx.liquid.count;
ctx.adhesionPairsCurrent = false;
const v = prepareSolve(ctx, false, true).v;
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
const same = (x: ArrayLike<number>[], y: ArrayLike<number>[]): boolean =>
  x.every((a, i) => a.length === y[i].length && Array.prototype.every.call(a, (e: number, j: number) => Object.is(e, y[i][j])));

let walled = 0;
for (let a = 0; a < n; a++) if (v.wmask[a] !== 0) walled++;
console.log(`${file}${radius ? ` at r = ${radius}` : ''}, frame ${frame}: ${n} liquid particles, ${v.ls[n]} upper entries (${(v.ls[n] / n).toFixed(2)} a slot), ${walled} walled slots, ${reps} calls each; load ${loadavg()[0].toFixed(1)}`);
console.log('  phase       A ms median (mean)   B ms median (mean)   B/A median   outputs');
for (const name of Object.keys(run)) {
  const t: number[][] = [[], []];
  let agree = true;
  for (let r = 0; r < reps + 2; r++) {
    const got: ArrayLike<number>[][] = [];
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const c0 = process.cpuUsage();
      run[name](K[k]);
      const dc = process.cpuUsage(c0);
      if (r >= 2) t[k].push((dc.user + dc.system) / 1000);
      got[k] = outputs[name]();
    }
    if (!same(got[0], got[1])) agree = false;
  }
  const med = (a: number[]) => [...a].sort((p, q) => p - q)[a.length >> 1], mean = (a: number[]) => a.reduce((p, q) => p + q, 0) / a.length;
  console.log(`  ${name.padEnd(10)} ${med(t[0]).toFixed(2).padStart(8)} (${mean(t[0]).toFixed(2)})${''.padEnd(6)} ${med(t[1]).toFixed(2).padStart(8)} (${mean(t[1]).toFixed(2)})${''.padEnd(6)} ${(med(t[1]) / med(t[0])).toFixed(3).padStart(7)}      ${agree ? 'same bits' : 'DIFFER'}`);
}
console.log(`load ${loadavg()[0].toFixed(1)}`);
