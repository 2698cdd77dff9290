/**
 * The implicit viscosity (src/particle/viscosity-weiler.ts) on a thread team: the solve runs on the
 * team at T = 2, repeats bit for bit, and reaches the one-thread solution within the CG tolerance
 * (the threads add their dot products in rank order, so T = 2 takes other steps than T = 1); the
 * team lists the full rows itself, laid out as the serial listing laid them out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
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
 * Full rows as the serial listing made them (a count pass, then each pair of the adhesion list,
 * i < j, written into both rows at per-row cursors, in list order): the team's layout must match.
 */
function serialRows(s: ParticleSimulation): { start: Int32Array; j: Int32Array } {
  const ctx = s.ctx, n = ctx.liquid.count, pos = ctx.liquid.pos, mat = ctx.liquid.material, nm = ctx.mass.length;
  const ps = ctx.cells.pairs.start, pj = ctx.cells.pairs.j, ph2 = ctx.viscositySolve!.ph2;
  const within = (i: number, j: number): boolean =>
    (pos[3 * j] - pos[3 * i]) ** 2 + (pos[3 * j + 1] - pos[3 * i + 1]) ** 2 + (pos[3 * j + 2] - pos[3 * i + 2]) ** 2 < ph2[mat[i] * nm + mat[j]];
  const cnt = new Int32Array(n), start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let e = ps[i]; e < ps[i + 1]; e++) if (within(i, pj[e])) { cnt[i]++; cnt[pj[e]]++; }
  }
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + cnt[i];
  const cur = start.slice(0, n), j = new Int32Array(start[n]);
  for (let i = 0; i < n; i++) {
    for (let e = ps[i]; e < ps[i + 1]; e++) {
      if (!within(i, pj[e])) continue;
      j[cur[i]++] = pj[e];
      j[cur[pj[e]]++] = i;
    }
  }
  return { start, j };
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
    // The team lists the full rows itself (viscosity-weiler-team-rows.ts), as the serial listing laid them out.
    expect(jobs.has('viscosity-rows-count') && jobs.has('viscosity-rows-fill')).toBe(true);
    const want = serialRows(two), rows = two.ctx.viscositySolve!.rows;
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
});
