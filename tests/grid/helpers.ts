/** Small scenes and stage drivers shared by the grid-engine tests. */
import { parseScene } from '../../src/index.ts';
import type { Scene } from '../../src/scene/scene.ts';
import { GridSimulation } from '../../src/grid/step.ts';
import type { LevelSet } from '../../src/grid/levelset.ts';
import { LevelSetTracker } from '../../src/grid/trackers/levelset.ts';

export function scene(json: Record<string, unknown>): Scene {
  return parseScene(json);
}

/** A simulation seeded at t = 0. */
export function gridSim(json: Record<string, unknown>): GridSimulation {
  const sim = new GridSimulation(scene(json));
  sim.initialize();
  return sim;
}

/** Runs the named stages (in pipeline order) for one step of dt, without moving the liquid. */
export function runStages(sim: GridSimulation, names: string[], dt: number): void {
  sim.dt = dt;
  for (const stage of sim.pipeline) {
    if (!names.includes(stage.name)) continue;
    if (stage.when && !stage.when(sim)) continue;
    sim.currentStage = stage.name;
    stage.run(sim, dt);
  }
  sim.time += dt;
}

/** Value of face component a of the box cell (i, j, k). */
export function faceValue(sim: GridSimulation, a: number, i: number, j: number, k: number): number {
  const c = sim.store.find(i, j, k);
  if (c < 0) throw new Error(`cell (${i}, ${j}, ${k}) does not exist`);
  return sim.store.u[a][c];
}

/** The level-set numerics of a simulation tracked by a level set (plain or with particles). */
export function levelSetOf(sim: GridSimulation): LevelSet {
  if (!(sim.tracker instanceof LevelSetTracker)) throw new Error(`the simulation tracks its surface with '${sim.tracker.name}', not a level set`);
  return sim.tracker.levelSet;
}
