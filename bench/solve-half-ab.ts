/**
 * The pressure stage's and PBF's loops over each pair once (pressure-half.ts, one thread) against
 * the gather loops over full rows (pressure-kernels.ts, what a team's threads run) on one solve
 * view, calls interleaved, each timed in CPU time (process.cpuUsage), outputs compared bit for bit:
 *   npx tsx bench/solve-half-ab.ts [scene] [frame] [calls] [--radius R]
 * (defaults: the honey drop, frame 4, 20 calls). The scene is stepped to the frame and a solve is
 * listed at its end positions (the density cells' rows, as PBF lists them); p = α (ρ̂ − 1) where
 * compressed (PBF's), u the velocities times the sub-timestep (the filter's velocities too; its strength 1, 0 on every seventh slot). Prints median ms a call of each,
 * half/gather, and whether the outputs agree.
 */
import { loadavg } from 'node:os';
import { advanceDensityRange, densityRange, factorRange, pressureDisplacementRange, pressureUpdateRange, wallRange } from '../src/particle/pressure-kernels.ts';
import { advanceHalf, densityHalf, displaceHalf, factorHalf, updateHalf } from '../src/particle/pressure-half.ts';
import { filterHalf, filterRange } from '../src/particle/pressure-filter.ts';
import { median, solveArgs, solveViewAt } from './solve-view.ts';

const args = solveArgs({ file: 'scenes/honey-drop.json', frame: 4, reps: 20 });
const { file, frame, reps } = args;
const { sim, ctx, n, pr } = solveViewAt(args);
const v = pr.v, hr = v.half!;
const dt = 1 / (ctx.scene.fps * ctx.scene.particle.substeps);
const u = new Float64Array(3 * n);
for (let a = 0; a < n; a++) for (let k = 0; k < 3; k++) u[3 * a + k] = ctx.liquid.vel[3 * pr.order[a] + k] * dt;
wallRange(v, 0, n);
factorRange(v, 0, n);
const p0 = new Float64Array(n);
for (let a = 0; a < n; a++) p0[a] = v.dens[a] > 1 ? (v.dens[a] - 1) * v.alpha[a] : 0;
const dens0 = v.dens.slice(0, n);
// The filter's strengths (pressure.ts filterVelocity): 1, and 0 on every seventh slot (as next to a body), so that pairs with c_ab ½ and 0 are met.
const strength = new Float64Array(n);
for (let a = 0; a < n; a++) strength[a] = a % 7 === 0 ? 0 : 1;
const weights = new Float64Array(n * 32);
const bytes = (x: ArrayLike<number> & { buffer: ArrayBufferLike; byteOffset: number }, len: number, size: number) => Buffer.from(x.buffer, x.byteOffset, len * size);
// (The measure's outputs; factorHalf also leaves its gradient sums in dx, which no measure outputs.)
const snap = (name: string) => Buffer.concat([bytes(v.dens, n, 8), bytes(v.alpha, n, 8), bytes(v.nb, n, 4), ...(name === 'factor' ? [] : [bytes(v.dx, 3 * n, 8), bytes(v.p, n, 8), bytes(v.res, n, 8)])]);
const prep = () => { v.p.set(p0); v.dens.set(dens0); };
const kernels: [string, () => void, () => void][] = [
  ['factor', () => factorRange(v, 0, n), () => factorHalf(v, 0, n, hr)],
  ['density', () => densityRange(v, 0, n), () => densityHalf(v, 0, n, hr)],
  ['displace', () => pressureDisplacementRange(v, 0, n), () => displaceHalf(v, 0, n, hr)],
  ['update', () => { pressureDisplacementRange(v, 0, n); pressureUpdateRange(v, 0, n, 0.5); }, () => { displaceHalf(v, 0, n, hr); updateHalf(v, 0, n, hr, 0.5); }],
  ['advance', () => advanceDensityRange(v, 0, n, u, null), () => advanceHalf(v, 0, n, hr, u, null)],
  ['filter', () => filterRange(v, 0, n, u, strength, v.dx), () => filterHalf(v, n, hr, u, strength, v.dx)],
  // The weights kept by a first sweep (pressure-job.ts filterStep), read back here: the filter's later sweeps.
  ['filter, kept', () => filterRange(v, 0, n, u, strength, v.dx), () => filterHalf(v, n, hr, u, strength, v.dx, weights, false)],
];
const cpu = (f: () => void): number => { const c0 = process.cpuUsage(); f(); const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
console.log(`${file}, frame ${frame}: ${n} slots, ${(v.ls[n] / n).toFixed(1)} row entries a slot, load ${loadavg()[0].toFixed(1)}`);
for (const [name, gather, half] of kernels) {
  if (weights.length < v.ls[n]) throw new Error('weights: room for ' + weights.length);
  filterHalf(v, n, hr, u, strength, v.dx, weights, true);
  // Gather first (it writes the full rows' slopes that the half loops' upper parts equal).
  factorRange(v, 0, n); prep(); gather(); const g = snap(name);
  factorRange(v, 0, n); prep(); half(); const h = snap(name);
  factorRange(v, 0, n);
  const tg: number[] = [], th: number[] = [];
  for (let r = 0; r < reps; r++) {
    prep(); tg.push(cpu(gather));
    prep(); th.push(cpu(half));
  }
  console.log(`  ${name.padEnd(9)} gather ${median(tg).toFixed(2)} ms, half ${median(th).toFixed(2)} ms: ${(median(th) / median(tg)).toFixed(3)}, ${g.equals(h) ? 'same bits' : 'DIFFERENT'}`);
}
sim.dispose();
