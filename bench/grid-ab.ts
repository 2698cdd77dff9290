/**
 * Whole frames of a scene on the grid engine in two versions of the engine at once: this checkout
 * (B) and another one (A, e.g. a worktree of main: `git worktree add /tmp/viscid-main main`, with
 * node_modules linked), loaded side by side in one process and stepped alternately, one frame each
 * in turn, so that the load of a shared machine falls on both alike (the grid engine's counterpart
 * of bench/ab-frames.ts):
 *
 *   npx tsx bench/grid-ab.ts <other checkout> [scene] [firstFrame] [lastFrame] [rounds] [--grid '{"particlesPerCell":8}'] [--grid-a '{…}']
 *
 * (defaults: the dam break, frames 4–8, 1 round). `--grid` sets scene.grid fields in B (and in A
 * unless `--grid-a` gives A its own). Each round makes fresh simulations and swaps which of the two
 * steps first. Prints the CPU time of the process a frame (process.cpuUsage: the grid engine runs on
 * one thread) of each, mean and median over the window, B/A, the stage split (wall ms) and whether
 * the two states stayed the same bits (fluidPoints positions and velocities, frame by frame).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Engine {
  parseScene(json: unknown): { grid: Record<string, unknown> };
  createSimulation(scene: unknown, engine: string, options: object): {
    stepFrame(): { wallMs: number; stages: Record<string, number> };
    fluidPoints(): { positions: Float32Array; velocities: Float32Array };
    dispose?(): void;
  };
}

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const other = pos[0];
if (!other) throw new Error('usage: npx tsx bench/grid-ab.ts <other checkout> [scene] [firstFrame] [lastFrame] [rounds] [--grid JSON] [--grid-a JSON]');
const file = pos[1] ?? 'scenes/dam-break.json';
const first = Number(pos[2] ?? 4), last = Number(pos[3] ?? 8), rounds = Number(pos[4] ?? 1);
const gridB = JSON.parse(flag('--grid') ?? '{}') as Record<string, unknown>;
const gridA = JSON.parse(flag('--grid-a') ?? flag('--grid') ?? '{}') as Record<string, unknown>;

const load = async (root: string) => (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as Engine;
const A = await load(other), B = await load(resolve(import.meta.dirname, '..'));
const json = JSON.parse(readFileSync(file, 'utf8'));
const cA: number[] = [], cB: number[] = [];
const sA: Record<string, number> = {}, sB: Record<string, number> = {};
const addStages = (to: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) to[k] = (to[k] ?? 0) + v;
};
let differs = -1;
console.log(`${file}, frames ${first}–${last}, ${rounds} round(s); A = ${other} ${JSON.stringify(gridA)}, B = this checkout ${JSON.stringify(gridB)}; load ${loadavg()[0].toFixed(1)}`);
for (let round = 0; round < rounds; round++) {
  const make = (e: Engine, grid: Record<string, unknown>) => {
    const scene = e.parseScene(json);
    Object.assign(scene.grid, grid);
    return e.createSimulation(scene, 'grid', { workers: 1 });
  };
  const a = make(A, gridA), b = make(B, gridB);
  for (let f = 1; f <= last; f++) {
    const order = round % 2 === 0 ? [a, b] : [b, a];
    const cpu: number[] = [];
    const st = order.map((s) => {
      const c0 = process.cpuUsage(), r = s.stepFrame(), c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      return r;
    });
    const [ra, rb] = round % 2 === 0 ? st : [st[1], st[0]];
    const [ca, cb] = round % 2 === 0 ? cpu : [cpu[1], cpu[0]];
    if (f >= first) {
      cA.push(ca);
      cB.push(cb);
      addStages(sA, ra.stages);
      addStages(sB, rb.stages);
    }
    if (round === 0 && differs < 0) {
      const pa = a.fluidPoints(), pb = b.fluidPoints();
      const same = pa.positions.length === pb.positions.length && pa.positions.every((v, k) => Object.is(v, pb.positions[k])) && pa.velocities.every((v, k) => Object.is(v, pb.velocities[k]));
      if (!same) differs = f;
    }
  }
  a.dispose?.();
  b.dispose?.();
}
const mean = (x: number[]) => x.reduce((s, v) => s + v, 0) / x.length;
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
console.log(`  A: CPU mean ${mean(cA).toFixed(1)}, median ${median(cA).toFixed(1)} ms/frame`);
console.log(`  B: CPU mean ${mean(cB).toFixed(1)}, median ${median(cB).toFixed(1)} ms/frame`);
const per = (x: Record<string, number>, k: string) => ((x[k] ?? 0) / cA.length).toFixed(1).padStart(8);
console.log(`  stage wall ms/frame ${'A'.padStart(8)} ${'B'.padStart(8)}`);
for (const k of [...new Set([...Object.keys(sA), ...Object.keys(sB)])]) console.log(`  ${k.padEnd(19)} ${per(sA, k)} ${per(sB, k)}`);
console.log(`  CPU B/A: mean ${(mean(cB) / mean(cA)).toFixed(3)}, median ${(median(cB) / median(cA)).toFixed(3)}; states ${differs < 0 ? 'the same bits every frame' : `differ from frame ${differs}`}; load ${loadavg()[0].toFixed(1)}`);
process.exit(0);
