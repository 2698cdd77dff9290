/**
 * The liquid's sort by cell on a thread team (src/particle/liquid-sort.ts): on two threads, with a
 * random permutation and every persistent field filled with distinct values, each field and a
 * channel come out as LiquidParticles.sortByCell leaves them on one thread, bit for bit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { sortLiquid } from '../../src/particle/liquid-sort.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const SCENE: SceneInput = {
  gravity: [0, -9.81, 0],
  materials: { honey: liquid(5), oil: { ...liquid(1), density: 900 } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0, 0.02, 0], size: [0.06, 0.03, 0.06] } },
    { material: 'oil', shape: { type: 'box', center: [0, 0.06, 0], size: [0.06, 0.03, 0.06] } },
  ],
  particle: { radius: 0.002 },
};

const sims: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of sims.splice(0)) s.dispose?.();
});

/** A simulation on `workers` threads with every sorted field of its liquid filled from one seed, and a channel of 2 f32 a particle. */
async function filled(workers: number) {
  const sim = threadedSim(SCENE, workers);
  sims.push(sim);
  await sim.ready?.();
  const L = sim.ctx.liquid, n = L.count, rnd = lcg(11);
  const ch = L.addChannel({ name: 'test-pair', kind: 'f32', width: 2, initial: [0, 0, 0, 0] });
  for (let o = 0; o < 3 * n; o++) {
    L.pos[o] = rnd(); L.vel[o] = rnd() - 0.5; L.normal[o] = rnd();
  }
  for (let i = 0; i < n; i++) {
    L.lambda[i] = rnd() * 1e3; L.density[i] = 0.9 + 0.2 * rnd(); L.surface[i] = rnd() < 0.3 ? 1 : 0; L.material[i] = rnd() < 0.5 ? 0 : 1;
    L.id[i] = 1000 + i; ch.array[2 * i] = rnd(); ch.array[2 * i + 1] = -rnd();
  }
  return { sim, L, n, ch };
}

/** A permutation of n from a seed (Fisher–Yates). */
function permutation(n: number, seed: number): Int32Array {
  const rnd = lcg(seed), p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const k = Math.floor(rnd() * (i + 1)), t = p[i];
    p[i] = p[k];
    p[k] = t;
  }
  return p;
}

describe("the liquid's sort on a thread team", () => {
  it('moves every field and channel as the one-thread sort does, and runs on the team', async () => {
    const one = await filled(1), two = await filled(2);
    expect(two.n).toBe(one.n);
    // Enough liquid for the team (teamWork.minParticles).
    expect(two.n).toBeGreaterThanOrEqual(teamWork.minParticles);
    const order = permutation(one.n, 3);
    one.L.sortByCell(order);
    const jobs = teamKernels(two.sim);
    sortLiquid(two.sim.ctx, order);
    expect(jobs.has('liquid-sort')).toBe(true);
    const n = one.n;
    const fields = (L: typeof one.L) => [L.pos.subarray(0, 3 * n), L.vel.subarray(0, 3 * n), L.lambda.subarray(0, n), L.id.subarray(0, n),
      L.normal.subarray(0, 3 * n), L.density.subarray(0, n), L.material.subarray(0, n), L.surface.subarray(0, n)];
    const a = fields(one.L), b = fields(two.L);
    for (let f = 0; f < a.length; f++) expect(Array.from(b[f])).toEqual(Array.from(a[f]));
    expect(Array.from(two.ch.array.subarray(0, 2 * n))).toEqual(Array.from(one.ch.array.subarray(0, 2 * n)));
    // Not the identity: particle 0 moved.
    expect(one.L.id[0]).toBe(1000 + order[0]);
  });
});
