/**
 * What the pressure solve's benches share (solve-kernels-ab.ts, solve-half-ab.ts, pass-half-ab.ts,
 * measure-keep-cost.ts): their arguments, a scene stepped to a frame on one thread with the first
 * solve's view listed at the frame's end positions (prepareSolve, the density cells' rows, as PBF
 * lists them), and the table of two checkouts' calls interleaved, each timed in CPU time
 * (process.cpuUsage), their outputs compared bit for bit.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import type { StepContext } from '../src/particle/context.ts';
import { prepareSolve } from '../src/particle/solve-setup.ts';

export interface SolveArgs {
  /** The other checkout (A), where the bench compares two. */
  other?: string;
  file: string;
  frame: number;
  reps: number;
  /** `--radius R`: the particle radius the scene is run at (m), as given. */
  radius?: string;
}

/**
 * `[checkout A] [scene] [frame] [calls] [--radius R]` from the command line: with `otherUsage`
 * the checkout comes first and is required (the error without it names that usage).
 */
export function solveArgs(defaults: { file: string; frame: number; reps: number }, otherUsage?: string): SolveArgs {
  const argv = process.argv.slice(2);
  const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const other = otherUsage ? pos.shift() : undefined;
  if (otherUsage && !other) throw new Error(`usage: ${otherUsage}`);
  const radius = argv.includes('--radius') ? argv[argv.indexOf('--radius') + 1] : undefined;
  return { other, file: pos[0] ?? defaults.file, frame: Number(pos[1] ?? defaults.frame), reps: Number(pos[2] ?? defaults.reps), radius };
}

/** The scene of `a` on the particle engine, one thread, stepped to `a.frame`, and its first solve's view listed. */
export function solveViewAt(a: SolveArgs): { sim: ParticleSimulation; ctx: StepContext; n: number; pr: ReturnType<typeof prepareSolve> } {
  const json = JSON.parse(readFileSync(a.file, 'utf8'));
  if (a.radius !== undefined) json.particle = { ...json.particle, radius: Number(a.radius) };
  json.engines = ['particle'];
  const sim = createSimulation(parseScene(json), 'particle', { workers: 1 }) as ParticleSimulation;
  for (let f = 0; f < a.frame; f++) sim.stepFrame();
  const ctx = sim.ctx;
  ctx.adhesionPairsCurrent = false;
  return { sim, ctx, n: ctx.liquid.count, pr: prepareSolve(ctx, false, true) };
}

/** The scene, frame and radius of `a`, as the benches' first line names them. */
export const solveLabel = (a: SolveArgs): string => `${a.file}${a.radius ? ` at r = ${a.radius}` : ''}, frame ${a.frame}`;

const same = (x: ArrayLike<number>[], y: ArrayLike<number>[]): boolean =>
  x.every((a, i) => a.length === y[i].length && Array.prototype.every.call(a, (e: number, j: number) => Object.is(e, y[i][j])));
export const median = (a: number[]): number => [...a].sort((p, q) => p - q)[a.length >> 1];
export const mean = (a: number[]): number => a.reduce((p, q) => p + q, 0) / a.length;

/**
 * Each named call of checkout A (K[0]) and B (K[1]), `reps` times after two warm-ups, A and B in
 * turn (the order swapped every round), its outputs copied after each call and compared; prints a
 * line a name: median and mean ms of each, B/A of the medians, whether the outputs agree.
 */
export function abTable<K>(column: string, K: [K, K], reps: number, run: Record<string, (k: K) => void>, outputs: Record<string, () => ArrayLike<number>[]>, digits: number): void {
  console.log(`  ${column.padEnd(10)}  A ms median (mean)   B ms median (mean)   B/A median   outputs`);
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
    console.log(`  ${name.padEnd(10)} ${median(t[0]).toFixed(digits).padStart(8)} (${mean(t[0]).toFixed(digits)})${''.padEnd(6)} ${median(t[1]).toFixed(digits).padStart(8)} (${mean(t[1]).toFixed(digits)})${''.padEnd(6)} ${(median(t[1]) / median(t[0])).toFixed(3).padStart(7)}      ${agree ? 'same bits' : 'DIFFER'}`);
  }
  console.log(`load ${loadavg()[0].toFixed(1)}`);
}
