/**
 * The thin pull (src/particle/thin-pull.ts) on a thread team: from the same sparse, jittered, opening block the
 * listing, the rows' shapes and both halves of every pass run on the team, and the velocities come out as on one
 * thread to round-off (the pass's sums are added in another order), the sparse count the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { pullThin } from '../../src/particle/thin-pull.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const r = 0.002, s = 2 * r;
const SCENE: SceneInput = {
  gravity: [0, 0, 0],
  materials: { w: liquid(1) },
  bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0.012, 0], size: [0.1, 0.024, 0.1] } }],
  particle: { radius: r, thinPull: 0.5 },
};

const sims: ParticleSimulation[] = [];
afterEach(() => {
  for (const x of sims.splice(0)) x.dispose?.();
});

/** The block on `workers` threads, a third of it taken out, jittered, sparse, opening up; the pull's velocities by particle id. */
async function pulled(workers: number) {
  const sim = threadedSim(SCENE, workers);
  sims.push(sim);
  await sim.ready?.();
  const jobs = teamKernels(sim);
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(9);
  let m = 0;
  for (let a = 0; a < L.count; a++) {
    if (rnd() < 0.33) continue;
    for (let k = 0; k < 3; k++) {
      L.pos[3 * m + k] = L.pos[3 * a + k] + 0.3 * s * (rnd() - 0.5);
      L.vel[3 * m + k] = 2 * L.pos[3 * m + k] + 0.05 * (rnd() - 0.5);
    }
    L.density[m] = 0.4 + 0.6 * rnd();
    L.id[m] = m;
    m++;
  }
  L.count = m;
  ctx.cells.buildSorted(L, false);
  const before = new Float64Array(3 * m), byId = new Float64Array(3 * m);
  for (let a = 0; a < m; a++) for (let k = 0; k < 3; k++) before[3 * L.id[a] + k] = L.vel[3 * a + k];
  const sparse = pullThin(ctx);
  for (let a = 0; a < m; a++) for (let k = 0; k < 3; k++) byId[3 * L.id[a] + k] = L.vel[3 * a + k];
  return { sparse, before, byId, jobs, n: m };
}

describe('the thin pull on a thread team', () => {
  it('runs its five jobs on the team and pulls as one thread does, to round-off', async () => {
    const one = await pulled(1), two = await pulled(2);
    expect(one.n).toBeGreaterThan(teamWork.minParticles);
    expect(one.jobs.size).toBe(0);
    for (const j of ['thin-list', 'thin-shape', 'thin-grad', 'thin-pass', 'thin-apply']) expect(two.jobs.has(j), j).toBe(true);
    expect(two.sparse).toBe(one.sparse);
    expect(one.sparse).toBeGreaterThan(0.5 * one.n);
    let diff = 0, change = 0;
    for (let k = 0; k < 3 * one.n; k++) diff = Math.max(diff, Math.abs(two.byId[k] - one.byId[k]));
    for (let k = 0; k < 3 * one.n; k++) change = Math.max(change, Math.abs(one.byId[k] - one.before[k]));
    // The pull acts (the block opens at 2 /s; it takes a good share of that), and two threads agree with one.
    expect(change).toBeGreaterThan(0.01);
    expect(diff).toBeLessThan(1e-12 * change);
  });
});
