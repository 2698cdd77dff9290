/**
 * The surface test (src/particle/surface.ts markSurface) with its normals and normal-side counts on
 * a thread team (surfaceSidesJob): on two threads, from the same jittered block draped on a ball,
 * every flag and normal comes out as on one thread, bit for bit, and the team ran the job.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { markSurface } from '../../src/particle/surface.ts';
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

/** markSurface's flags and normals on `workers` threads, from the block squeezed and jittered by one seed. */
async function surfaceOn(workers: number) {
  const sim = threadedSim(SCENE, workers);
  sims.push(sim);
  await sim.ready?.();
  const ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(7);
  for (let o = 0; o < 3 * n; o++) L.pos[o] = 0.95 * L.pos[o] + (rnd() - 0.5) * 0.8 * ctx.r;
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  computeAdhesion(ctx);
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
});
