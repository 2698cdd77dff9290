/**
 * The grid's trailing fill on a thread team (redistance.ts fillSolidPhi's `trail`, read by the
 * redistancing job's last pass and by the solid-φ job): a plate lifted off a water pool at 5 cm/s
 * (tests/grid/body-side.ts `lift-slow`, where the liquid separates from objects and the plate's
 * cells take φ from the water they leave) steps on two threads to the same checkpoint bytes as on
 * one, with both jobs on the team.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { GRID_JOBS } from '../../src/grid/jobs.ts';
import { gridWork } from '../../src/grid/phases.ts';
import { spawnNodeThread } from './helpers.ts';
import { bodySideScene } from '../grid/body-side.ts';

const open: GridEngineSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

describe('the grid\'s trailing fill on 2 threads', () => {
  it('a plate leaving a pool steps to the same bytes as on one thread', () => {
    const saved = gridWork.minCells;
    gridWork.minCells = 1;
    try {
      const sim = (workers: number) => {
        const s = createSimulation(parseScene(bodySideScene('lift-slow', 0.025)), 'grid', { workers, spawnThread: spawnNodeThread }) as GridEngineSimulation;
        open.push(s);
        return s;
      };
      const one = sim(1), two = sim(2);
      expect(two.sim.trailingFill).toBeGreaterThan(0);
      const jobs = new Set<string>(), team = two.sim.runner.team!;
      const run = team.run.bind(team);
      team.run = (id: number, self: () => void) => {
        jobs.add(GRID_JOBS.layouts[id].job.name);
        run(id, self);
      };
      let separated = 0;
      // Frames 1–18: the plate leaves its first row of cells at 0.25 s.
      for (let f = 0; f < 18; f++) {
        one.stepFrame();
        separated += two.stepFrame().counters.separatedFaces ?? 0;
      }
      expect(separated).toBeGreaterThan(0);
      expect(jobs.has('grid-redistance') && jobs.has('grid-solid-phi')).toBe(true);
      expect(Buffer.from(two.save()).equals(Buffer.from(one.save()))).toBe(true);
    } finally {
      gridWork.minCells = saved;
    }
  });
});
