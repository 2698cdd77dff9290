/**
 * The surface test (src/particle/surface.ts markSurface) with its normals and normal-side counts on
 * a thread team (surfaceSidesJob): on two threads, from the same jittered drop over a ball, every
 * flag and normal comes out as on one thread, bit for bit, and the team ran the job; and the job's
 * own output (the centroid sums turned normals, the neighbour counts and the normal-side counts,
 * which the flags' rule reads with a wide margin) is the calling thread's alone, entry for entry,
 * on two and three threads (a middle thread gathers the pairs of the rows below its range first).
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

  it("gives every particle the one-thread run's centroid sum, count, normal-side count and normal, on 2 and 3 threads", async () => {
    for (const workers of [2, 3]) {
      const { ctx, L, n } = await squeezed(workers, 5);
      const job = ctx.runner.bind(surfaceSidesJob), h = ctx.densityH, c = ctx.cells, g = c.grid;
      const run = (inline: boolean) => {
        // Stale values in the job's outputs: the job sets every entry itself.
        const S = allocFloat64(3 * n, true).fill(7), cnt = allocInt32(n, true).fill(-3), side = allocInt32(n, true);
        job.a.S = S; job.a.cnt = cnt; job.a.side = side; job.a.pos = L.pos; job.a.ps = c.pairs.start; job.a.pj = c.pairs.j;
        job.a.start = g.start; job.a.count = g.count; job.a.first = c.first; job.a.cells = c.cells;
        job.s.r2 = h * h; job.s.balanced = 0.1 * h; job.s.sinTheta = Math.sin((10 * Math.PI) / 180); job.s.nc = g.cellCount;
        job.inline = inline;
        runJob(job, n);
        job.inline = false;
        return { S: Array.from(S), cnt: Array.from(cnt), side: Array.from(side), teamed: job.teamed, size: job.size };
      };
      const one = run(true), many = run(false);
      expect(one.teamed).toBe(false);
      expect(many.teamed).toBe(true);
      expect(many.size).toBe(workers);
      let counted = 0, neighbours = 0, normals = 0;
      for (let i = 0; i < n; i++) {
        counted += one.side[i];
        neighbours += one.cnt[i];
        if (one.S[3 * i] !== 0 || one.S[3 * i + 1] !== 0 || one.S[3 * i + 2] !== 0) normals++;
      }
      // Every particle has neighbours in the sampling sphere (about 20–30 in a squeezed drop), and some have normals.
      expect(neighbours).toBeGreaterThan(10 * n);
      expect(counted).toBeGreaterThan(n);
      expect(normals).toBeGreaterThan(0.1 * n);
      expect(many.cnt).toEqual(one.cnt);
      expect(many.S).toEqual(one.S);
      expect(many.side).toEqual(one.side);
    }
  });
});
