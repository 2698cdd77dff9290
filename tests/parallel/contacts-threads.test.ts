/**
 * A move's contacts on a thread team (src/particle/liquid-contacts.ts: liquid contacts over slabs,
 * then the object contacts, in one job): on a jittered, squeezed block of two liquids, eight moves
 * on two and three threads conserve momentum to round-off, repeat bit for bit, leave overlaps as
 * small as one thread does, and run on the team.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { preventInterpenetration } from '../../src/particle/collisions.ts';
import { LIQUID_CONTACT } from '../../src/particle/liquid-contacts.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { listObjectContacts } from '../../src/particle/object-lists.ts';
import { teamWork } from '../../src/particle/work.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { lcg, liquid, momentum, teamKernels, threadedSim } from './helpers.ts';

teamWork.minParticles = 2048;

/**
 * ~13 500 particles, half of them twice as dense (both splits of a push), and a ball out of their
 * reach: the job runs its object-contact part, which moves nothing, so momentum stays the liquid's.
 */
const SCENE: SceneInput = {
  gravity: [0, 0, 0],
  materials: { light: liquid(2), heavy: { ...liquid(2), density: 2000 }, steel: { kind: 'solid' } },
  bodies: [
    { material: 'light', shape: { type: 'box', center: [-0.015, 0, 0], size: [0.03, 0.03, 0.06] } },
    { material: 'heavy', shape: { type: 'box', center: [0.015, 0, 0], size: [0.03, 0.03, 0.06] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0.2, 0], radius: 0.02 } },
  ],
  particle: { radius: 0.001 },
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

function run(workers: number) {
  const sim = threadedSim(SCENE, workers);
  open.push(sim);
  const kernels = teamKernels(sim);
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(11), dt = 1 / 960;
  // Squeeze by 25 % and jitter: many pairs closer than the contact distance.
  for (let o = 0; o < 3 * L.count; o++) {
    L.pos[o] = 0.75 * L.pos[o] + (rnd() - 0.5) * 0.5 * ctx.r;
    L.vel[o] = rnd() - 0.5;
  }
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  computeAdhesion(ctx);
  listObjectContacts(ctx, dt);
  const before = momentum(sim);
  for (let m = 0; m < 8; m++) preventInterpenetration(ctx, dt);
  const after = momentum(sim);
  // The deepest remaining overlap, relative to the contact distance.
  const dc = LIQUID_CONTACT * 2 * ctx.r, ls = ctx.contacts.start, lj = ctx.contacts.j;
  let deepest = 0, closePairs = 0;
  for (let i = 0; i < L.count; i++) {
    for (let q = ls[i]; q < ls[i + 1]; q++) {
      const j = lj[q];
      const d = Math.hypot(L.pos[3 * j] - L.pos[3 * i], L.pos[3 * j + 1] - L.pos[3 * i + 1], L.pos[3 * j + 2] - L.pos[3 * i + 2]);
      if (d < dc) {
        closePairs++;
        deepest = Math.max(deepest, (dc - d) / dc);
      }
    }
  }
  return { n: L.count, before, after, deepest, closePairs, pos: L.pos.slice(0, 3 * L.count), kernels };
}

describe('a move\'s contacts on two threads', () => {
  // Three threads: interior slabs, where a particle could have partners on both sides.
  const one = run(1), two = run(2), again = run(2), three = run(3);

  it('run on the team, the list split once for the eight moves', () => {
    expect(one.n).toBeGreaterThan(2048);
    expect(two.kernels.has('contact-slabs')).toBe(true);
    expect(two.kernels.has('contacts')).toBe(true);
    expect(three.kernels.has('contacts')).toBe(true);
    expect(one.kernels.size).toBe(0);
  });

  it('conserve momentum to round-off', () => {
    for (const r of [one, two, three]) {
      for (let k = 0; k < 3; k++) expect(Math.abs(r.after[k] - r.before[k]) / r.before[3]).toBeLessThan(1e-13);
    }
  });

  it('repeat bit for bit for a given thread count', () => {
    expect(again.pos).toEqual(two.pos);
  });

  it('leave overlaps as small as one thread does (a different Gauss–Seidel order, not a worse one)', () => {
    expect(one.deepest).toBeGreaterThan(0.05);
    expect(two.deepest).toBeLessThan(1.5 * one.deepest);
    expect(two.closePairs).toBeLessThan(1.5 * one.closePairs);
    expect(three.deepest).toBeLessThan(1.5 * one.deepest);
    expect(three.closePairs).toBeLessThan(1.5 * one.closePairs);
    // The two orders do differ: the comparison above is not of two identical runs.
    expect(two.pos).not.toEqual(one.pos);
  });
});
