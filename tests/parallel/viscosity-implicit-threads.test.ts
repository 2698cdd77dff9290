/**
 * The implicit viscosity (src/particle/viscosity-weiler.ts) on a thread team: the solve runs on the
 * team at T = 2, repeats bit for bit, and reaches the one-thread solution within the CG tolerance
 * (the threads add their dot products in rank order, so T = 2 takes other steps than T = 1); the
 * team lists the cross rows between its ranges itself; the team's path on one thread
 * (teamWork.teamRowsOnOneThread: the half rows, no cross rows) is the one-thread path bit for bit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { weilerJob } from '../../src/particle/viscosity-weiler-solve.ts';
import { teamWork } from '../../src/particle/work.ts';
import { itemCut, type AnyJob } from '../../src/parallel/job.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** Two liquids, a no-slip floor and a ball, jittered, random velocities (1 600+ particles: above VISCOSITY_MIN_PARTICLES). */
function blob(workers: number): ParticleSimulation {
  const input: SceneInput = {
    gravity: [0, 0, 0],
    materials: { a: liquid(3), b: { ...liquid(8), density: 1600 }, steel: { kind: 'solid', density: 7800 } },
    domain: { min: [-0.04, -0.031, -0.04], max: [0.09, 0.06, 0.04], boundary: 'noslip' },
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.03 } },
      { material: 'b', shape: { type: 'sphere', center: [0.05, 0, 0], radius: 0.025 } },
      { material: 'steel', shape: { type: 'sphere', center: [0.025, 0.04, 0], radius: 0.012 } },
    ],
    particle: { radius: 0.0024, viscositySolver: 'implicit' },
  };
  const s = threadedSim(input, workers);
  open.push(s);
  const L = s.ctx.liquid, rnd = lcg(11);
  for (let o = 0; o < 3 * L.count; o++) {
    L.pos[o] += (rnd() - 0.5) * 0.002;
    L.vel[o] = (rnd() - 0.5) * 0.4;
  }
  s.ctx.rebuildObjectCells();
  s.ctx.cells.buildSorted(L);
  for (let i = 0; i < L.count; i++) L.nearObject[i] = 1;
  computeAdhesion(s.ctx);
  return s;
}

/**
 * The cross rows of a team of 2 (viscosity-weiler-team-rows.ts): the pairs of the adhesion list
 * within their support whose lower particle lies in thread 0's range and upper in thread 1's, in
 * the row of the upper one, in ascending lower particle; the ranges cut by the pairs (itemCut).
 */
function crossRows(s: ParticleSimulation): { start: Int32Array; j: Int32Array } {
  const ctx = s.ctx, n = ctx.liquid.count, pos = ctx.liquid.pos, mat = ctx.liquid.material, nm = ctx.mass.length;
  const ps = ctx.cells.pairs.start, pj = ctx.cells.pairs.j, ph2 = ctx.viscositySolve!.ph2;
  const cut = itemCut(weilerJob as unknown as AnyJob, { ls: ps }, n, 1, 2);
  const within = (i: number, j: number): boolean =>
    (pos[3 * j] - pos[3 * i]) ** 2 + (pos[3 * j + 1] - pos[3 * i + 1]) ** 2 + (pos[3 * j + 2] - pos[3 * i + 2]) ** 2 < ph2[mat[i] * nm + mat[j]];
  const rows: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < cut; i++) {
    for (let e = ps[i]; e < ps[i + 1]; e++) if (pj[e] >= cut && within(i, pj[e])) rows[pj[e]].push(i);
  }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + rows[i].length;
  return { start, j: Int32Array.from(rows.flat()) };
}

describe('implicit viscosity on 2 threads', () => {
  it('runs on the team, repeats bit for bit and matches one thread within the CG tolerance', async () => {
    const one = blob(1), two = blob(2), again = blob(2);
    await two.ready?.();
    await again.ready?.();
    const jobs = teamKernels(two);
    teamKernels(again);
    for (const s of [one, two, again]) applyImplicitViscosity(s.ctx, 1 / 120);
    expect(jobs.has('viscosity-weiler')).toBe(true);
    // The team lists the cross rows between its two ranges itself (viscosity-weiler-team-rows.ts):
    // counted in a run of their own, filled at the start of the solve's run (fillCross).
    expect(jobs.has('viscosity-rows-count') && !jobs.has('viscosity-rows-fill')).toBe(true);
    const want = crossRows(two), rows = two.ctx.viscositySolve!.rows;
    expect(want.j.length).toBeGreaterThan(0);
    expect(rows.length).toBe(want.j.length);
    expect(Array.from(rows.start.subarray(0, two.ctx.liquid.count + 1))).toEqual(Array.from(want.start));
    expect(Array.from(rows.j.subarray(0, rows.length))).toEqual(Array.from(want.j));
    const n = one.ctx.liquid.count, a = one.ctx.liquid.vel, b = two.ctx.liquid.vel, c = again.ctx.liquid.vel;
    expect(two.ctx.liquid.count).toBe(n);
    let diff = 0, size = 0;
    for (let o = 0; o < 3 * n; o++) {
      expect(c[o]).toBe(b[o]);
      diff += (a[o] - b[o]) ** 2;
      size += a[o] ** 2;
    }
    expect(Math.sqrt(diff / size)).toBeLessThan(1e-2);
    expect(two.ctx.counters.viscosityIterations).toBeGreaterThan(0);
  });

  it("the team's path on one thread is the one-thread path, bit for bit", () => {
    const one = blob(1), path = blob(1), before = one.ctx.liquid.vel.slice();
    applyImplicitViscosity(one.ctx, 1 / 120);
    teamWork.teamRowsOnOneThread = true;
    try {
      applyImplicitViscosity(path.ctx, 1 / 120);
    } finally {
      teamWork.teamRowsOnOneThread = false;
    }
    const n = one.ctx.liquid.count, a = one.ctx.liquid.vel, b = path.ctx.liquid.vel;
    // One range: no cross rows.
    expect(path.ctx.viscositySolve!.rows.length).toBe(0);
    let changed = 0;
    for (let o = 0; o < 3 * n; o++) {
      expect(b[o]).toBe(a[o]);
      if (a[o] !== before[o]) changed++;
    }
    expect(changed).toBeGreaterThan(n);
    expect(path.ctx.counters.viscosityIterations).toBe(one.ctx.counters.viscosityIterations);
  });
});
