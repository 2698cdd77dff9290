/**
 * The pressure projection alone, multigrid-preconditioned CG against MIC(0)-preconditioned CG, on
 * the systems a grid scene meets: one simulation runs (with the scene's solver) and, at each
 * pressure solve of frames FIRST–LAST, the same system is also solved by both preconditioners from
 * the same start on copies (in turn, which goes first alternating), each timed (CPU, the system's
 * assembly included) and checked (iterations, max |h ∇·u| after):
 *   npx tsx bench/grid-pressure.ts [scene] [first] [last] [--grid JSON]
 * (defaults: scenes/dam-break.json, frames 4–8).
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import { PressureSolver } from '../src/grid/pressure.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { AIR, FLUID, type GridStore } from '../src/grid/store.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const file = pos[0] ?? 'scenes/dam-break.json', first = Number(pos[1] ?? 4), last = Number(pos[2] ?? 8);
const scene = parseScene(JSON.parse(readFileSync(file, 'utf8')));
Object.assign(scene.grid, JSON.parse(flag('--grid') ?? '{}'));
const sim = (createSimulation(scene, 'grid', { workers: 1 }) as unknown as GridEngineSimulation).sim;

const solvers = { mic: new PressureSolver(), multigrid: new PressureSolver() };
solvers.mic.multigrid = false;
solvers.multigrid.box = sim.d.n;
const stats = { mic: { ms: 0, it: 0, div: 0 }, multigrid: { ms: 0, it: 0, div: 0 } };
let capturing = false, solves = 0, rows = 0, deep = 0;
const original = PressureSolver.prototype.project;
PressureSolver.prototype.project = function (this: PressureSolver, s: GridStore, tol: number, maxIt: number, warm = false) {
  if (capturing && !Object.values(solvers).includes(this)) {
    solves++;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      rows++;
      let air = false;
      for (let d = 0; d < 6; d++) { const m = s.nb[6 * c + d]; if (m >= 0 && s.type[m] === AIR) air = true; }
      if (!air) deep++;
    }
    const u = s.u.map((a) => a.slice()), p = s.pressure.slice();
    for (const key of solves % 2 ? (['multigrid', 'mic'] as const) : (['mic', 'multigrid'] as const)) {
      s.u.forEach((a, k) => a.set(u[k]));
      s.pressure.set(p);
      const c0 = process.cpuUsage();
      const r = solvers[key].project(s, tol, maxIt, warm);
      const c = process.cpuUsage(c0);
      stats[key].ms += (c.user + c.system) / 1000;
      stats[key].it += r.iterations;
      stats[key].div = Math.max(stats[key].div, solvers[key].divergenceAfter);
    }
    s.u.forEach((a, k) => a.set(u[k]));
    s.pressure.set(p);
  }
  return original.call(this, s, tol, maxIt, warm);
};
for (let f = 1; f <= last; f++) {
  capturing = f >= first;
  sim.stepFrame();
}
console.log(`${file}, frames ${first}–${last}: ${solves} pressure solves of ${Math.round(rows / solves)} liquid cells on average (${Math.round(deep / solves)} without an air neighbour), tolerance ${scene.grid.tolerance}`);
for (const [key, v] of Object.entries(stats)) {
  console.log(`  ${key.padEnd(10)} ${(v.ms / solves).toFixed(2).padStart(8)} ms CPU a solve, ${(v.it / solves).toFixed(1).padStart(6)} iterations a solve, max |h div u| after ${v.div.toExponential(2)} m/s`);
}
console.log(`  multigrid / mic CPU: ${(stats.multigrid.ms / stats.mic.ms).toFixed(3)}`);
