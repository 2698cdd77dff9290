/**
 * The grid engine on a thread team (src/grid/threads.ts): a small dam break (24³ cells of a 0.6 m
 * box, level set, MacCormack advection) steps two frames on two threads to the same grid as on
 * one, bit for bit (the split passes write only their own cells), the split stages (advection,
 * transport, the PCG with its start, extrapolation, redistancing (seeds, first trial cells, the two
 * sides' marches, write-back), the solid velocities, the pressure's assembly, update, multigrid
 * labels and level-0 rows, the rebuild's growth, listing and finish) run
 * on the team, and a checkpoint written on two threads restores on one and continues the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { GRID_JOBS } from '../../src/grid/jobs.ts';
import { gridWork } from '../../src/grid/phases.ts';
import { spawnNodeThread } from './helpers.ts';

const SCENE: SceneInput = {
  fps: 30,
  domain: { min: [0, 0, 0], max: [0.6, 0.6, 0.6], boundary: 'slip' },
  materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
  bodies: [{ material: 'water', shape: { type: 'box', center: [0.12, 0.18, 0.3], size: [0.24, 0.36, 0.6] } }],
  grid: { cellSize: 0.025, cfl: 2, tracking: 'levelset' },
};

const open: GridEngineSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

function gridSim(workers: number): GridEngineSimulation {
  const sim = createSimulation(parseScene(SCENE), 'grid', { workers, spawnThread: spawnNodeThread }) as GridEngineSimulation;
  open.push(sim);
  return sim;
}

/** The jobs (by name) the simulation's team runs from now on. */
function teamJobs(sim: GridEngineSimulation): Set<string> {
  const jobs = new Set<string>();
  const team = sim.sim.runner.team;
  if (team !== null) {
    const run = team.run.bind(team);
    team.run = (id: number, self: () => void) => {
      jobs.add(GRID_JOBS.layouts[id].job.name);
      run(id, self);
    };
  }
  return jobs;
}

function state(sim: GridEngineSimulation): Buffer {
  const s = sim.sim.store, n = s.count;
  const arrays = [s.ci, s.cj, s.ck, s.type, s.layer, s.u[0], s.u[1], s.u[2], s.phi, s.pressure, s.temperature];
  const cells = Buffer.concat(arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, (a.byteLength / a.length) * n)));
  return Buffer.concat([cells, Buffer.from(s.nb.buffer, s.nb.byteOffset, 24 * n), Buffer.from(s.face.buffer, s.face.byteOffset, 3 * n)]);
}

describe('the grid engine on 2 threads', () => {
  it('steps to the same grid as one thread, bit for bit, with the split stages on the team', () => {
    const saved = gridWork.minCells;
    gridWork.minCells = 256;
    try {
      const one = gridSim(1), two = gridSim(2);
      const jobs = teamJobs(two);
      for (let f = 0; f < 2; f++) {
        expect(one.stepFrame().counters.threads).toBe(1);
        expect(two.stepFrame().counters.threads).toBe(2);
      }
      expect([...jobs].sort()).toEqual([
        'grid-extrapolate', 'grid-faces', 'grid-grow', 'grid-grow-list', 'grid-levelset-transport', 'grid-maccormack',
        'grid-marker-fill', 'grid-marker-masks',
        'grid-multigrid-flags', 'grid-multigrid-rows', 'grid-pcg-multigrid', 'grid-pressure-assemble', 'grid-pressure-update',
        'grid-rebuild-finish', 'grid-redistance', 'grid-solid-phi', 'grid-solid-velocities',
      ]);
      expect(two.sim.store.count).toBe(one.sim.store.count);
      expect(state(two).equals(state(one))).toBe(true);
      // A checkpoint of the two-thread run continues on one thread as the one-thread run does.
      const restored = restoreSimulation(two.save()) as GridEngineSimulation;
      open.push(restored);
      restored.stepFrame();
      one.stepFrame();
      expect(state(restored).equals(state(one))).toBe(true);
    } finally {
      gridWork.minCells = saved;
    }
  });
});
