/**
 * What the pressure solve's benches share (solve-kernels-ab.ts, solve-half-ab.ts, pass-half-ab.ts,
 * measure-keep-cost.ts): their arguments, a scene stepped to a frame on one thread with the first
 * solve's view listed at the frame's end positions (prepareSolve, the density cells' rows, as PBF
 * lists them), and the table of two checkouts' calls interleaved, each timed in CPU time
 * (process.cpuUsage), their outputs compared bit for bit. Below them, what the window benches
 * share (object-lists-ab.ts, rows-list-ab.ts, surface-ab.ts, adhesion-pairs-ab.ts,
 * object-rows-ab.ts: a stage's calls of two checkouts at every frame of a window): windowArgs,
 * loadBoth, stepWindow, cpuMs, turns, abLine.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** A window bench's arguments: `<checkout A> [scene] [firstFrame] [lastFrame] [calls]` (A required; the scene the honey drop). */
export interface WindowArgs { other: string; file: string; first: number; last: number; reps: number }

export function windowArgs(bench: string, d: { first: number; last: number; reps: number }): WindowArgs {
  const args = process.argv.slice(2);
  if (!args[0]) throw new Error(`usage: npx tsx bench/${bench} <checkout A> [scene] [firstFrame] [lastFrame] [calls]`);
  return { other: args[0], file: args[1] ?? 'scenes/honey-drop.json', first: Number(args[2] ?? d.first), last: Number(args[3] ?? d.last), reps: Number(args[4] ?? d.reps) };
}

/** The modules at `paths` (from a checkout's root) of checkout A and of this one (B), by name. */
export async function loadBoth<M>(other: string, paths: Record<keyof M & string, string>): Promise<{ A: M; B: M }> {
  const load = async (root: string): Promise<M> => {
    const m: Record<string, unknown> = {};
    for (const [k, p] of Object.entries<string>(paths)) m[k] = await import(pathToFileURL(resolve(root, p)).href);
    return m as M;
  };
  return { A: await load(other), B: await load(resolve(import.meta.dirname, '..')) };
}

/**
 * This checkout's simulation of w.file on one thread, stepped frame by frame to w.last, `each` at
 * every frame from w.first; returns the first line of the bench's report (the window, the calls,
 * `extra()` after the window's frames, the load before and after).
 */
export function stepWindow(w: WindowArgs, each: (ctx: StepContext, sim: ParticleSimulation) => void, extra: () => string = () => ''): string {
  const sim = createSimulation(parseScene(JSON.parse(readFileSync(w.file, 'utf8'))), 'particle', { workers: 1 }) as ParticleSimulation;
  const load0 = loadavg()[0];
  for (let f = 1; f <= w.last; f++) {
    sim.stepFrame();
    if (f >= w.first) each(sim.ctx, sim);
  }
  const x = extra();
  return `${w.file}, frames ${w.first}–${w.last}, ${w.reps} calls each a frame${x ? `, ${x}` : ''}, load ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
}

/** fn's CPU time in ms (process.cpuUsage: one thread). */
export function cpuMs(fn: () => void): number {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** The order of round r's two calls: A first on even rounds, B first on odd ones. */
export const turns = (r: number): ['A' | 'B', 'A' | 'B'] => (r % 2 === 0 ? ['A', 'B'] : ['B', 'A']);

/** `label: A median … mean … ms, B median … mean … ms; B/A median …, mean …`. */
export const abLine = (label: string, a: number[], b: number[]): string =>
  `  ${label}: A median ${median(a).toFixed(3)} mean ${mean(a).toFixed(3)} ms, B median ${median(b).toFixed(3)} mean ${mean(b).toFixed(3)} ms; B/A median ${(median(b) / median(a)).toFixed(3)}, mean ${(mean(b) / mean(a)).toFixed(3)}`;
