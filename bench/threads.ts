/**
 * Worker-thread scaling of the particle engine: the viscosity stage in isolation (one call per
 * sub-timestep on a settled state) and whole frames, at T = 1 and T = 2 (or the thread counts
 * given). The simulations of every T run side by side, their calls and frames interleaved, so that
 * the load of a shared machine falls on all of them alike:
 *   npx tsx bench/threads.ts [scene] [warmupFrames] [reps] [frames] [threads...]
 * Prints min and median wall time, and the CPU time of all threads together (process.cpuUsage):
 * T = 2 ideally takes the CPU of T = 1 in half the wall time; a wall time equal to the CPU time
 * means the second core was busy with other processes. Load average before and after.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { computeAdhesion } from '../src/particle/adhesion.ts';
import { applyViscosity } from '../src/particle/viscosity.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';

const file = process.argv[2] ?? 'scenes/honey-drop.json';
const warm = Number(process.argv[3] ?? 3), reps = Number(process.argv[4] ?? 15), frames = Number(process.argv[5] ?? 4);
const counts = process.argv.length > 6 ? process.argv.slice(6).map(Number) : [1, 2];
const scene = parseScene(JSON.parse(readFileSync(file, 'utf8')));
const dt = 1 / (scene.fps * scene.particle.substeps);

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const stat = (xs: number[]) => `min ${sorted(xs)[0].toFixed(1)}  median ${sorted(xs)[xs.length >> 1].toFixed(1)}`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');

interface Run {
  T: number;
  sim: ParticleSimulation;
  pos: Float64Array;
  vel: Float64Array;
  call: number[];
  cpu: number[];
  frame: number[];
  stages: Record<string, number[]>;
}

console.log(`${file}; load average ${load()}`);
const runs: Run[] = [];
for (const T of counts) {
  const sim = createSimulation(scene, 'particle', { workers: T, spawnThread: spawnNodeThread }) as unknown as ParticleSimulation;
  await sim.ready();
  for (let f = 0; f < warm; f++) sim.stepFrame();
  const L = sim.ctx.liquid;
  runs.push({ T, sim, pos: L.pos.slice(0, 3 * L.count), vel: L.vel.slice(0, 3 * L.count), call: [], cpu: [], frame: [], stages: {} });
}
for (let k = 0; k < reps + 2; k++) {
  for (const r of runs) {
    const ctx = r.sim.ctx, L = ctx.liquid;
    L.pos.set(r.pos);
    L.vel.set(r.vel);
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    applyViscosity(ctx, dt);
    const t1 = performance.now();
    const c = process.cpuUsage(c0);
    if (k >= 2) {
      r.call.push(t1 - t0);
      r.cpu.push((c.user + c.system) / 1000);
    }
  }
}
for (const r of runs) {
  r.sim.ctx.liquid.pos.set(r.pos);
  r.sim.ctx.liquid.vel.set(r.vel);
}
for (let f = 0; f < frames; f++) {
  for (const r of runs) {
    const s = r.sim.stepFrame();
    r.frame.push(s.wallMs);
    for (const [k, v] of Object.entries(s.stages)) (r.stages[k] ??= []).push(v);
  }
}
for (const r of runs) {
  const med = (xs: number[]) => sorted(xs)[xs.length >> 1];
  console.log(`T=${r.T} (${r.sim.ctx.liquid.count} particles, ${r.sim.ctx.counters.viscositySweeps ?? 1} sweeps/frame)`);
  console.log(`  viscosity call (ms): ${stat(r.call)}; CPU of all threads ${stat(r.cpu)}`);
  console.log(`  viscosity per frame: ${stat(r.stages.viscosity ?? [0])}`);
  console.log(`  frame:               ${stat(r.frame)}`);
  console.log(`  stages (median ms/frame): ${Object.entries(r.stages).filter(([, v]) => med(v) >= 0.5).map(([k, v]) => `${k} ${med(v).toFixed(0)}`).join(', ')}`);
  r.sim.dispose();
}
console.log(`load average after ${load()}`);
