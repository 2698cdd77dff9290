/**
 * Liquids of different densities on the grid (src/grid/variable-density.ts; docs/decisions.md, "Liquids of
 * different densities on the grid"): the heavy block on a water pool (tests/particle/heavy-pool.ts heavyOnWater,
 * the block 1 cm off the middle) on the grid. Each frame: the tracers' mean height of the water and of the block
 * (cm), the block's lowest tracer, steps and pressure iterations; then the pressure solves' iterations over the run
 * (and how many took the multigrid), and, on the last state, one step's gravity solved from a zero pressure with
 * the weighted rows and with the one-density rows on the same cells.
 *
 *   npx tsx bench/grid-densities.ts [heavy=3000] [frames=15] [h=0.0025] [out=FILE.json: the scene, for ab-frames]
 */
import { writeFileSync } from 'node:fs';
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import type { Preconditioner, SparseSystem } from '../src/grid/pcg.ts';
import { heavyOnWater } from '../tests/particle/heavy-pool.ts';

const kv = Object.fromEntries(process.argv.slice(2).filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const heavy = Number(kv.heavy ?? 3000), frames = Number(kv.frames ?? 15), h = Number(kv.h ?? 0.0025);
const scene = { ...heavyOnWater({ heavy, shift: 0.01, colours: true }), name: 'heavy-sink-grid', duration: frames / 30, grid: { cellSize: h } };
if (kv.out) writeFileSync(kv.out, JSON.stringify(scene, null, 1));
const sim = new GridSimulation(parseScene(scene));
sim.initialize();

// Every pressure solve's iterations, and whether it took the multigrid (a preconditioner object).
type Solve = (A: SparseSystem, x: Float64Array, tol: number, max: number, mic?: boolean | Preconditioner) => { iterations: number };
const solver = (sim.pressure as unknown as { solver: { solve: Solve } }).solver;
const solve = solver.solve.bind(solver);
let solves = 0, iterations = 0, multigrid = 0;
solver.solve = (A, x, tol, max, mic) => {
  const r = solve(A, x, tol, max, mic);
  solves++;
  iterations += r.iterations;
  if (typeof mic === 'object') multigrid++;
  return r;
};

const cpu0 = process.cpuUsage();
for (let f = 0; f < frames; f++) {
  const st = sim.stepFrame();
  const p = sim.ext.liquids!.points, y = [0, 0], n = [0, 0];
  let low = Infinity;
  for (let q = 0; q < p.count; q++) {
    const m = p.material[q];
    y[m] += p.pos[3 * q + 1];
    n[m]++;
    if (m === 1) low = Math.min(low, p.pos[3 * q + 1]);
  }
  console.log(`frame ${f + 1}: water ${((100 * y[0]) / n[0]).toFixed(2)} cm, block ${((100 * y[1]) / n[1]).toFixed(2)} cm (lowest ${(100 * low).toFixed(2)}), ${st.counters.steps} steps, ${st.counters.pressureIterations} pressure iterations`);
}
const cpu = process.cpuUsage(cpu0);
console.log(`ρ ${heavy} on 1000, h ${h} m: ${solves} solves (${multigrid} multigrid), ${(iterations / solves).toFixed(1)} iterations a solve, ${sim.pressure.last.iterations} the last; CPU ${((cpu.user + cpu.system) / 1e3 / frames).toFixed(0)} ms a frame`);

// One step's gravity from zero on the last state, with the weighted rows and with the one-density rows.
const s = sim.store, count = s.count, dt = sim.dt, density = sim.pressure.density;
const u = s.u.map((a) => a.slice(0, count));
for (const mode of density ? ['weighted', 'one density'] : ['one density']) {
  for (let a = 0; a < 3; a++) s.u[a].set(u[a]);
  s.pressure.fill(0, 0, count);
  for (let c = 0; c < count; c++) s.u[1][c] -= 9.81 * dt;
  sim.pressure.density = mode === 'weighted' ? density : null;
  const r = sim.pressure.project(s, sim.scene.grid.tolerance, 1000, true);
  console.log(`gravity from zero, ${mode} rows: ${r.iterations} iterations (${(sim.pressure as unknown as { sys: SparseSystem }).sys.n} rows)`);
}
