/**
 * The pressure stage and PBF density correction on a thread team (src/particle/pressure-job.ts:
 * phases over 'items', each slot writing only its own entries, residuals summed in slot order):
 * a squeezed, jittered block of liquid in a closed box (mirror ghosts at the walls, the phase
 * most exposed to a race) gives the same velocities and positions on two threads as on one, bit
 * for bit, and the job runs on the team, a solve without closed walls in one run (its source,
 * passes and finish meeting at barriers). At the positions the adhesion stage listed its pairs at,
 * the team lists the pressure solve's rows from them itself (solve-pair-rows.ts), and a ball's
 * boundary rows (solve-boundary-rows.ts), as one thread lists them, and both solves there (the
 * second, every particle next to the ball, adding to the first one's pressure down to minus it)
 * give the same bits and stored pressures. One thread and the team run
 * the passes over each pair once (pressure-half.ts; the team's threads each over its range, the
 * pairs from the ranges below gathered first): the same bits, with equal masses and with two
 * liquids of different densities. PBF takes its first measure in one run and each pass, with the
 * measure after it, in one more (pbf-job.ts), the calling thread's constraint between.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { applyPressure } from '../../src/particle/pressure.ts';
import { solveDensityPBF } from '../../src/particle/pbf.ts';
import { teamWork } from '../../src/particle/work.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { PARTICLE_JOBS } from '../../src/particle/jobs.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const SCENE: SceneInput = {
  materials: { honey: liquid(5) },
  domain: { min: [-0.02, 0, -0.02], max: [0.02, 0.04, 0.02], boundary: 'noslip' },
  bodies: [{ material: 'honey', shape: { type: 'box', center: [0, 0.016, 0], size: [0.04, 0.032, 0.04] } }],
  particle: { radius: 0.00125 }, // 3 072 particles, over teamWork.minParticles (2 048); 6 400 at 1 mm until branch suite67
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** SCENE at 1.5 mm (2 400 particles) with a ball standing in the liquid's top (the solves' boundary rows). */
const WITH_BALL: SceneInput = {
  ...SCENE,
  particle: { radius: 0.0015 },
  materials: { ...SCENE.materials, steel: { kind: 'solid', density: 7800 } },
  bodies: [...SCENE.bodies!, { material: 'steel', shape: { type: 'sphere', center: [0, 0.032, 0], radius: 0.008 } }],
};

/** SCENE as two liquids side by side, one 1.6 times as dense (the passes' mass-weighted paths). */
const MIXED: SceneInput = {
  ...SCENE,
  particle: { radius: 0.0013 },
  materials: { honey: liquid(5), syrup: { ...liquid(5), density: 1600 } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [-0.01, 0.016, 0], size: [0.02, 0.032, 0.04] } },
    { material: 'syrup', shape: { type: 'box', center: [0.01, 0.016, 0], size: [0.02, 0.032, 0.04] } },
  ],
};

/** The scene on `workers` threads, squeezed by 4 % toward the floor and jittered: both solves have passes to do. */
function squeezed(workers: number, scene: SceneInput): ParticleSimulation {
  const sim = threadedSim(scene, workers);
  open.push(sim);
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(5);
  for (let i = 0; i < L.count; i++) {
    L.pos[3 * i + 1] *= 0.96;
    for (let k = 0; k < 3; k++) {
      L.pos[3 * i + k] += (rnd() - 0.5) * 0.2 * ctx.r;
      L.vel[3 * i + k] = (rnd() - 0.5) * 0.1;
    }
  }
  ctx.cells.buildSorted(L);
  return sim;
}

function run(workers: number, fromPairs = false, scene: SceneInput = fromPairs ? WITH_BALL : SCENE): { vel: Float64Array; pos: Float64Array; passes: number[]; jobs: Set<string>; rows: (Int32Array | Uint16Array)[]; lam: Float64Array } {
  const sim = squeezed(workers, scene);
  const jobs = teamKernels(sim);
  const ctx = sim.ctx, L = ctx.liquid, dt = 1 / 120;
  if (fromPairs) {
    ctx.rebuildObjectCells();
    L.nearObject.fill(1, 0, L.count);
    computeAdhesion(ctx);
  }
  const pr = applyPressure(ctx, dt);
  const rows = ctx.solve!.pairs, bl = ctx.solve!.boundary;
  const listed = [rows.start.slice(0, L.count + 1), rows.j.slice(0, rows.length), bl.start.slice(0, L.count + 1), bl.j.slice(0, bl.length)];
  // With the ball (every particle next to it), the second solve too: it adds to the first one's
  // pressure, down to minus it (pressure-kernels.ts SolveView.floor), and stores the sum.
  const de = fromPairs ? applyPressure(ctx, dt, true) : solveDensityPBF(ctx, dt);
  return { vel: L.vel.slice(0, 3 * L.count), pos: L.pos.slice(0, 3 * L.count), passes: [pr.passes, de.passes], jobs, rows: listed, lam: L.lambda.slice(0, L.count) };
}

describe('pressure and PBF passes on 2 threads', () => {
  it('equal one thread bit for bit, walls included, and run on the team', () => {
    const saved = teamWork.minParticles;
    teamWork.minParticles = 2048;
    try {
      // Without the mirror walls one thread keeps the rows' upper parts alone (solve-setup.ts prepareSolve).
      const open1 = run(1, false, { ...SCENE, particle: { radius: 0.00125, walls: false } }), open2 = run(2, false, { ...SCENE, particle: { radius: 0.00125, walls: false } });
      expect(open1.passes[1]).toBeGreaterThan(0);
      expect(open2.passes).toEqual(open1.passes);
      expect(Buffer.from(open2.vel.buffer).equals(Buffer.from(open1.vel.buffer))).toBe(true);
      expect(Buffer.from(open2.pos.buffer).equals(Buffer.from(open1.pos.buffer))).toBe(true);
      const one = run(1), two = run(2);
      expect(one.passes[0]).toBeGreaterThan(1);
      expect(one.passes[1]).toBeGreaterThan(0);
      expect(two.passes).toEqual(one.passes);
      expect(two.jobs.has('pressure-solve')).toBe(true);
      // PBF's rows, listed as upper halves over the density cells, made full by the team's jobs.
      expect(two.jobs.has('solve-rows-fill')).toBe(true);
      expect(Buffer.from(two.vel.buffer).equals(Buffer.from(one.vel.buffer))).toBe(true);
      expect(Buffer.from(two.pos.buffer).equals(Buffer.from(one.pos.buffer))).toBe(true);
    } finally {
      teamWork.minParticles = saved;
    }
  });

  it('take a solve without closed walls, its passes and its finish in one run of the team', () => {
    const saved = teamWork.minParticles;
    teamWork.minParticles = 2048;
    try {
      const sim = squeezed(2, { ...SCENE, particle: { radius: 0.00125, walls: false } }), team = sim.ctx.runner.team!;
      // The team's runs by job name (pressure-job.ts SOLVE: the source, the passes and the finish meet at barriers).
      const runs = new Map<string, number>(), start = team.run.bind(team);
      team.run = (id: number, self: () => void) => {
        const name = PARTICLE_JOBS.layouts[id].job.name;
        runs.set(name, (runs.get(name) ?? 0) + 1);
        start(id, self);
      };
      const first = applyPressure(sim.ctx, 1 / 120);
      expect(first.passes).toBeGreaterThan(1);
      expect(runs.get('pressure-solve')).toBe(1);
    } finally {
      teamWork.minParticles = saved;
    }
  });

  it('take a PBF measure and the pass after it in one run of the team, closed walls included (pbf-job.ts)', () => {
    const saved = teamWork.minParticles;
    teamWork.minParticles = 2048;
    try {
      const sim = squeezed(2, SCENE), team = sim.ctx.runner.team!;
      applyPressure(sim.ctx, 1 / 120);
      let solveRuns = 0, constrained = 0;
      const start = team.run.bind(team);
      team.run = (id: number, self: () => void) => {
        if (PARTICLE_JOBS.layouts[id].job.name === 'pressure-solve') solveRuns++;
        start(id, self);
      };
      // A constraint the calling thread runs between the runs (as step.ts keepOut): it sees each pass's positions.
      const L = sim.ctx.liquid, seen: number[] = [];
      const de = solveDensityPBF(sim.ctx, 1 / 120, (ctx) => {
        constrained++;
        seen.push(L.pos[1]);
      });
      expect(de.passes).toBeGreaterThan(1);
      // The first measure, then one run a pass (its measure after it in the same run).
      expect(solveRuns).toBe(de.passes + 1);
      expect(constrained).toBe(de.passes);
      expect(new Set(seen).size).toBe(de.passes);
    } finally {
      teamWork.minParticles = saved;
    }
  });

  it('equal one thread bit for bit with two liquids of different densities', () => {
    const saved = teamWork.minParticles;
    teamWork.minParticles = 1024;
    try {
      const one = run(1, false, MIXED), two = run(2, false, MIXED);
      expect(one.passes[0]).toBeGreaterThan(1);
      expect(one.passes[1]).toBeGreaterThan(0);
      expect(two.passes).toEqual(one.passes);
      expect(Buffer.from(two.vel.buffer).equals(Buffer.from(one.vel.buffer))).toBe(true);
      expect(Buffer.from(two.pos.buffer).equals(Buffer.from(one.pos.buffer))).toBe(true);
    } finally {
      teamWork.minParticles = saved;
    }
  });
});

/** The upper part of each full row (the slots above the row's own, in the row's order), in the rows' layout. */
function upperParts(start: Int32Array, j: Int32Array | Uint16Array): [Int32Array, Int32Array | Uint16Array] {
  const n = start.length - 1, us = new Int32Array(n + 1), uj: number[] = [];
  for (let a = 0; a < n; a++) {
    us[a] = uj.length;
    for (let q = start[a]; q < start[a + 1]; q++) if (j[q] > a) uj.push(j[q]);
  }
  us[n] = uj.length;
  return [us, j instanceof Uint16Array ? Uint16Array.from(uj) : Int32Array.from(uj)];
}

describe('the pressure solve\'s rows on 2 threads', () => {
  it('from the pair list and of a ball are listed by the team as one thread lists them, and the solve equals one thread\'s bit for bit', () => {
    const saved = teamWork.minParticles;
    teamWork.minParticles = 512;
    try {
      // One thread lists each row's upper part alone, with closed walls (the measures' ghosts read
      // the walled lower entries, pressure-wall-lower.ts) and without (solve-setup.ts prepareSolve):
      // the team's full rows' upper parts, entry for entry.
      for (const scene of [WITH_BALL, { ...WITH_BALL, particle: { radius: 0.0015, walls: false } }]) {
        const one = run(1, true, scene), two = run(2, true, scene);
        expect(two.jobs.has('solve-rows-count') && two.jobs.has('solve-boundary')).toBe(true);
        const want = upperParts(two.rows[0] as Int32Array, two.rows[1]);
        expect(one.rows[1].length).toBeGreaterThan(10 * one.rows[0].length);
        expect(one.rows[3].length).toBeGreaterThan(500);
        for (let k = 0; k < 2; k++) expect(Buffer.from(want[k].buffer).equals(Buffer.from(one.rows[k].buffer))).toBe(true);
        for (let k = 2; k < 4; k++) expect(Buffer.from(two.rows[k].buffer).equals(Buffer.from(one.rows[k].buffer))).toBe(true);
        expect(two.passes).toEqual(one.passes);
        expect(one.passes[1]).toBeGreaterThan(0);
        expect(Buffer.from(two.vel.buffer).equals(Buffer.from(one.vel.buffer))).toBe(true);
        expect(Buffer.from(two.pos.buffer).equals(Buffer.from(one.pos.buffer))).toBe(true);
        expect(Buffer.from(two.lam.buffer).equals(Buffer.from(one.lam.buffer))).toBe(true);
      }
    } finally {
      teamWork.minParticles = saved;
    }
  });
});
