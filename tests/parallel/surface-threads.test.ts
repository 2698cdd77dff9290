/**
 * The surface test (src/particle/surface.ts markSurface) with its normals and normal-side counts on
 * a thread team (surfaceSidesJob): on two threads, from the same jittered drop over a ball, every
 * flag and normal comes out as on one thread, bit for bit, and the team ran the job; and the job's
 * own output (the normals and every particle's count, which the flags' rule reads with a wide
 * margin) is the calling thread's alone, entry for entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { markSurface, surfaceSidesJob } from '../../src/particle/surface.ts';
import { runJob } from '../../src/parallel/run-job.ts';
import { allocFloat64, allocInt32 } from '../../src/parallel/memory.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const SCENE: SceneInput = {
  gravity: [0, -9.81, 0],
  materials: { honey: liquid(5), steel: { kind: 'solid', friction: 0.5 } },
  bodies: [
    { material: 'honey', shape: { type: 'sphere', center: [0, 0.03, 0], radius: 0.036 } },
    { material: 'steel', shape: { type: 'sphere', center: [0, -0.03, 0], radius: 0.02 } },
  ],
  particle: { radius: 0.002 },
};

const sims: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of sims.splice(0)) s.dispose?.();
});

/** The drop on `workers` threads, squeezed and jittered by `seed`, sorted, flagged near the ball, with adhesion's sums: what markSurface reads. */
async function squeezed(workers: number, seed: number) {
  const sim = threadedSim(SCENE, workers);
  sims.push(sim);
  await sim.ready?.();
  const ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(seed);
  for (let o = 0; o < 3 * n; o++) L.pos[o] = 0.95 * L.pos[o] + (rnd() - 0.5) * 0.8 * ctx.r;
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  computeAdhesion(ctx);
  return { sim, ctx, L, n, rnd };
}

/** markSurface's flags and normals on `workers` threads, from the block squeezed and jittered by one seed. */
async function surfaceOn(workers: number) {
  const { sim, ctx, L, n } = await squeezed(workers, 7);
  const jobs = teamKernels(sim);
  const flagged = markSurface(ctx);
  return { n, flagged, jobs, surface: Array.from(L.surface.subarray(0, n)), normal: Array.from(L.normal.subarray(0, 3 * n)) };
}

describe('the surface test on a thread team', () => {
  it('flags and orients every particle as one thread does, with the normal-side counts on the team', async () => {
    const one = await surfaceOn(1), two = await surfaceOn(2);
    expect(two.n).toBe(one.n);
    expect(two.n).toBeGreaterThanOrEqual(teamWork.minParticles);
    expect(two.jobs.has('surface-sides')).toBe(true);
    expect(one.jobs.size).toBe(0);
    // A drop of ~3 000 particles: its outer shells flagged, its bulk not (a test that can tell a wrong count from a right one).
    expect(one.flagged).toBeGreaterThan(0.1 * one.n);
    expect(one.flagged).toBeLessThan(0.6 * one.n);
    expect(two.flagged).toBe(one.flagged);
    expect(two.surface).toEqual(one.surface);
    expect(two.normal).toEqual(one.normal);
  });

  it("gives every particle the one-thread run's normal-side count and normal", async () => {
    const { ctx, L, n, rnd } = await squeezed(2, 5);
    // Centroid offsets of random lengths and directions (some under the balanced length), neighbour counts 0–30.
    const S0 = allocFloat64(3 * n, true), cnt = allocInt32(n, true);
    for (let o = 0; o < 3 * n; o++) S0[o] = (rnd() - 0.5) * ctx.densityH;
    for (let i = 0; i < n; i++) cnt[i] = Math.floor(31 * rnd());
    const job = ctx.runner.bind(surfaceSidesJob), h = ctx.densityH;
    const run = (inline: boolean) => {
      const S = allocFloat64(3 * n, true), side = allocInt32(n, true);
      S.set(S0);
      job.a.S = S; job.a.side = side; job.a.pos = L.pos; job.a.cnt = cnt; job.a.ps = ctx.cells.pairs.start; job.a.pj = ctx.cells.pairs.j;
      job.s.r2 = h * h; job.s.balanced = 0.1 * h; job.s.sinTheta = Math.sin((10 * Math.PI) / 180);
      job.inline = inline;
      runJob(job, n);
      job.inline = false;
      return { S: Array.from(S), side: Array.from(side), teamed: job.teamed };
    };
    const one = run(true), two = run(false);
    expect(one.teamed).toBe(false);
    expect(two.teamed).toBe(true);
    let counted = 0;
    for (let i = 0; i < n; i++) counted += one.side[i];
    expect(counted).toBeGreaterThan(n);
    expect(two.side).toEqual(one.side);
    expect(two.S).toEqual(one.S);
  });
});
