/**
 * The cost of the elastic force's two free-surface forms (grid.elasticSurface "cells" and
 * "fractions": viscoelastic.ts, viscoelastic-fractions.ts) on soap-pour's grid at frame F: the force
 * applied REPS times in each form, alternated in rounds in one process (CPU time, the velocities put
 * back after each), against one step of the whole pipeline at that frame.
 *
 *   npx tsx bench/grid-elastic-cost.ts [F=30] [REPS=20] [ROUNDS=5]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';

const [F = 30, REPS = 20, ROUNDS = 5] = process.argv.slice(2).map(Number);
const json = JSON.parse(readFileSync(new URL('../scenes/soap-pour.json', import.meta.url), 'utf8'));
const engine = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
for (let f = 0; f < F; f++) engine.stepFrame();
const sim = engine.sim, ve = sim.ext.viscoelastic!, s = sim.store, dt = sim.dt;
const saved = s.u.map((u) => u.slice(0, s.count));
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
function time(surface: 'cells' | 'fractions'): number {
  ve.surface = surface;
  const t0 = cpu();
  for (let r = 0; r < REPS; r++) { ve.applyElasticForce(sim, dt); for (let a = 0; a < 3; a++) s.u[a].set(saved[a]); }
  return (cpu() - t0) / REPS;
}
const cells: number[] = [], fractions: number[] = [];
for (let r = 0; r < ROUNDS; r++) { cells.push(time('cells')); fractions.push(time('fractions')); }
ve.surface = 'cells';
const t0 = cpu(), steps0 = sim.steps;
engine.stepFrame();
const step = (cpu() - t0) / Math.max(sim.steps - steps0, 1);
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(`soap-pour frame ${F}, ${s.count} cells: elastic force, cells ${med(cells).toFixed(3)} ms, fractions ${med(fractions).toFixed(3)} ms (median of ${ROUNDS} rounds of ${REPS}; ratio ${(med(fractions) / med(cells)).toFixed(2)}); one whole step ${step.toFixed(1)} ms (the next frame's mean): the fractions form adds ${(100 * (med(fractions) - med(cells)) / step).toFixed(1)} % of a step`);
