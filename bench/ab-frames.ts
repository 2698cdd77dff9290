/**
 * Whole frames of a scene in two versions of an engine at once: this checkout (B) and another one
 * (A, e.g. a worktree of main: `git worktree add /tmp/viscid-main main`, with node_modules linked),
 * loaded side by side in one process and stepped alternately, one frame each in turn, so that the
 * load of a shared machine falls on both alike:
 *   npx tsx bench/ab-frames.ts <other checkout> [scene] [firstFrame] [lastFrame] [threads] [rounds]
 *     [--engine grid] [--grid '{"particlesPerCell":8}'] [--grid-a '{…}']
 *     [--particle '{"viscositySolver":"implicit"}'] [--particle-a '{…}']
 * (defaults: the particle engine on the honey drop, frames 3–22; the grid engine on the dam break,
 * frames 4–8; 1 thread, 1 round). `--grid` sets scene.grid fields in B (and in A unless `--grid-a`
 * gives A its own); `--particle` and `--particle-a` do the same for scene.particle (so `.` as the
other checkout compares two settings of one engine, e.g. the viscosity solvers). Each round makes fresh simulations and swaps which of the two steps first.
 * `--dist` loads both engines from their built dist/ (what `viscid run` and `viscid bench` run; each
 * checkout built first with `npm run build`) rather than their sources through tsx; `--dist-a` A's
 * alone, so that `.` as the other checkout compares this checkout's build with its own sources.
 * Prints the mean and median wall ms a frame and the CPU time of the process's threads a frame
 * (less disturbed by a loaded machine) of each over the window and B/A, the stage split, the
 * particle engine's correction passes a sub-timestep, and whether the first round's states stayed
 * the same (fluidPoints: float32 positions and velocities; bench/particle-checksums.ts and
 * bench/grid-checksums.ts compare the full state). Two engines in one process share caches:
 * compare the figures with each other only.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Engine {
  parseScene(json: unknown): { grid: Record<string, unknown>; particle: Record<string, unknown> };
  createSimulation(scene: unknown, engine: string, options: object): {
    stepFrame(): { wallMs: number; stages: Record<string, number>; counters: Record<string, number> };
    fluidPoints(): { positions: Float32Array; velocities: Float32Array };
    ready?(): Promise<void>;
    dispose?(): void;
  };
}

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
// (--dist and --dist-a take no value.)
const valued = (a: string | undefined) => a !== undefined && a.startsWith('--') && a !== '--dist' && a !== '--dist-a';
const pos = argv.filter((a, i) => !a.startsWith('--') && !valued(argv[i - 1]));
const other = pos[0];
if (!other) throw new Error('usage: npx tsx bench/ab-frames.ts <other checkout> [scene] [firstFrame] [lastFrame] [threads] [rounds] [--engine grid] [--grid JSON] [--grid-a JSON]');
const engineName = flag('--engine') ?? 'particle';
if (engineName !== 'particle' && engineName !== 'grid') throw new Error(`--engine ${engineName}: particle or grid`);
const grid = engineName === 'grid';
const file = pos[1] ?? (grid ? 'scenes/dam-break.json' : 'scenes/honey-drop.json');
const first = Number(pos[2] ?? (grid ? 4 : 3)), last = Number(pos[3] ?? (grid ? 8 : 22));
const T = grid ? 1 : Number(pos[4] ?? 1), rounds = Number(pos[5] ?? 1);
const gridB = JSON.parse(flag('--grid') ?? '{}') as Record<string, unknown>;
const gridA = JSON.parse(flag('--grid-a') ?? flag('--grid') ?? '{}') as Record<string, unknown>;
const particleB = JSON.parse(flag('--particle') ?? '{}') as Record<string, unknown>;
const particleA = JSON.parse(flag('--particle-a') ?? flag('--particle') ?? '{}') as Record<string, unknown>;

async function load(root: string, built: boolean): Promise<{ engine: Engine; spawn: unknown }> {
  const from = (path: string) => pathToFileURL(resolve(root, built ? `dist/${path}.js` : `src/${path}.ts`)).href;
  const engine = (await import(from('index'))) as Engine;
  const threads = (await import(from('cli/threads'))) as { spawnNodeThread: unknown };
  return { engine, spawn: threads.spawnNodeThread };
}

const distB = argv.includes('--dist'), distA = distB || argv.includes('--dist-a');
const A = await load(other, distA), B = await load(resolve(import.meta.dirname, '..'), distB);
const json = JSON.parse(readFileSync(file, 'utf8'));
const tA: number[] = [], tB: number[] = [], cA: number[] = [], cB: number[] = [];
const sA: Record<string, number> = {}, sB: Record<string, number> = {};
const kA: Record<string, number> = {}, kB: Record<string, number> = {}, mA: Record<string, number> = {}, mB: Record<string, number> = {};
const addStages = (to: Record<string, number>, from: Record<string, number>) => {
  for (const [k, v] of Object.entries(from)) to[k] = (to[k] ?? 0) + v;
};
let differs = -1;
console.log(`${file}, ${engineName} engine, frames ${first}–${last}, ${T} thread(s), ${rounds} round(s); A = ${other}${distA ? ' (dist)' : ''} ${JSON.stringify({ ...gridA, ...particleA })}, B = this checkout${distB ? ' (dist)' : ''} ${JSON.stringify({ ...gridB, ...particleB })}; load ${loadavg()[0].toFixed(1)}`);
for (let round = 0; round < rounds; round++) {
  const make = async (e: { engine: Engine; spawn: unknown }, gridFields: Record<string, unknown>, particleFields: Record<string, unknown>) => {
    const scene = e.engine.parseScene(json);
    Object.assign(scene.grid, gridFields);
    Object.assign(scene.particle, particleFields);
    const sim = e.engine.createSimulation(scene, engineName, T > 1 ? { workers: T, spawnThread: e.spawn } : { workers: 1 });
    await sim.ready?.();
    return sim;
  };
  const a = await make(A, gridA, particleA), b = await make(B, gridB, particleB);
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
      tA.push(ra.wallMs);
      tB.push(rb.wallMs);
      cA.push(ca);
      cB.push(cb);
      addStages(sA, ra.stages);
      addStages(sB, rb.stages);
      addStages(kA, ra.counters);
      addStages(kB, rb.counters);
      mA.densityError = Math.max(mA.densityError ?? 0, ra.counters.densityError ?? 0);
      mB.densityError = Math.max(mB.densityError ?? 0, rb.counters.densityError ?? 0);
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
console.log(`  A: mean ${mean(tA).toFixed(1)}, median ${median(tA).toFixed(1)} ms/frame; CPU (every thread of the process) mean ${mean(cA).toFixed(1)}, median ${median(cA).toFixed(1)}`);
console.log(`  B: mean ${mean(tB).toFixed(1)}, median ${median(tB).toFixed(1)} ms/frame; CPU (every thread of the process) mean ${mean(cB).toFixed(1)}, median ${median(cB).toFixed(1)}`);
console.log(`  CPU B/A: mean ${(mean(cB) / mean(cA)).toFixed(3)}, median ${(median(cB) / median(cA)).toFixed(3)}`);
const per = (x: Record<string, number>, k: string) => ((x[k] ?? 0) / tA.length).toFixed(1).padStart(8);
console.log(`  stage ms/frame   ${'A'.padStart(8)} ${'B'.padStart(8)}`);
for (const k of [...new Set([...Object.keys(sA), ...Object.keys(sB)])]) console.log(`  ${k.padEnd(14)} ${per(sA, k)} ${per(sB, k)}`);
const measures = (k: Record<string, number>) => (k.densityMeasures ? ` (${(k.densityMeasures / (k.substeps ?? 1)).toFixed(2)} measures)` : '');
const passes = (k: Record<string, number>) => `pressure ${((k.pressurePasses ?? 0) / (k.substeps ?? 1)).toFixed(2)} + density ${((k.densityPasses ?? 0) / (k.substeps ?? 1)).toFixed(2)}${measures(k)}`;
const cg = (k: Record<string, number>) => (k.viscositySolves ? `; viscosity CG ${(k.viscosityIterations / k.viscositySolves).toFixed(1)} iterations a solve` : '');
if (!grid) console.log(`  correction passes a sub-timestep: A ${passes(kA)}${cg(kA)}; B ${passes(kB)}${cg(kB)}`);
const handed = (k: Record<string, number>) => `${((100 * (k.densityErrorBefore ?? 0)) / (k.substeps ?? 1)).toFixed(3)} %`;
if (!grid) console.log(`  mean compression handed to PBF a sub-timestep: A ${handed(kA)}, B ${handed(kB)}`);
// The compression PBF leaves at each frame's end (its last sub-timestep's: StepStats densityError), mean and largest.
const frameEnd = (k: Record<string, number>, m: Record<string, number>) => `${((100 * (k.densityError ?? 0)) / tA.length).toFixed(3)} % (largest ${(100 * (m.densityError ?? 0)).toFixed(3)} %)`;
if (!grid) console.log(`  mean compression at the frames' end: A ${frameEnd(kA, mA)}, B ${frameEnd(kB, mB)}`);
console.log(`  B/A: mean ${(mean(tB) / mean(tA)).toFixed(3)}, median ${(median(tB) / median(tA)).toFixed(3)}; states ${differs < 0 ? 'the same bits every frame' : `differ from frame ${differs}`}; load ${loadavg()[0].toFixed(1)}`);
process.exit(0);
