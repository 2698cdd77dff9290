/**
 * Density correction's pair loops, the object contact lists, the liquid ← object contacts and a
 * move (accelerate, translate, friction: move.ts) on two threads: on the same state, the same
 * density pair list and object contact lists, the same passes and positions as one thread to
 * round-off (contacts and moves: bit for bit), and Σ m Δx = 0 as on one thread.
 */
import { describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { correctDensity, listDensityPairs } from '../../src/particle/density.ts';
import { markSurface } from '../../src/particle/surface.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { CLEAR_STRIDE, listObjectContacts, objectListsOf } from '../../src/particle/object-lists.ts';
import { objectContacts } from '../../src/particle/object-contacts.ts';
import { accelerateRange, translateRange } from '../../src/particle/integrate.ts';
import { moveJob, moveLiquid } from '../../src/particle/move.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

// The scenes here are smaller than the engine's threshold for these stages: run them threaded anyway.
teamWork.minParticles = 2048;

/** A compressed, jittered block of ~5 800 particles resting on a ball. */
const SCENE: SceneInput = {
  gravity: [0, 0, 0],
  materials: { honey: liquid(5), steel: { kind: 'solid', friction: 0.5 } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0, 0.034, 0], size: [0.072, 0.036, 0.072] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } },
  ],
  particle: { radius: 0.002 },
};

function run(workers: number) {
  const sim = threadedSim(SCENE, workers);
  const kernels = teamKernels(sim);
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(5);
  // Squeeze the block by 8 % and jitter it: density correction has work to do.
  for (let o = 0; o < 3 * L.count; o++) L.pos[o] = 0.92 * L.pos[o] + (rnd() - 0.5) * 0.6 * ctx.r;
  // Densities from exposed to interior, so that the liquid pairs take cohesion (adhesion.ts: none between two at the rest density).
  for (let i = 0; i < L.count; i++) L.density[i] = 0.8 + 0.25 * rnd();
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  computeAdhesion(ctx);
  listObjectContacts(ctx, 1 / 120);
  const ol = objectListsOf(ctx);
  const objectLists = { start: ol.start.slice(0, L.count + 1), j: ol.j.slice(0, ol.length), clear: ol.clear.slice(0, CLEAR_STRIDE * L.count), longest: ol.longest };
  const before = L.pos.slice(0, 3 * L.count);
  objectContacts(ctx);
  const afterContacts = L.pos.slice(0, 3 * L.count);
  // A move (accelerate, translate, friction) from random velocities, friction on the particles
  // flagged at the surface and touching the ball; and accelerate and translate alone from the same
  // state, to see what friction did.
  markSurface(ctx);
  for (let o = 0; o < 3 * L.count; o++) L.vel[o] = rnd() - 0.5;
  const posBefore = L.pos.slice(0, 3 * L.count), moveStart = L.vel.slice(0, 3 * L.count), dt = 1 / 960;
  const [gx, gy, gz] = ctx.scene.gravity;
  accelerateRange(L.vel, L.acc, gx, gy, gz, dt, Infinity, 0, L.count);
  translateRange(L.pos, L.vel, dt, 0, L.count);
  const noFriction = L.vel.slice(0, 3 * L.count);
  // The move on the calling thread alone, then (from the same state) as the engine runs it.
  const move = ctx.runner.bind(moveJob);
  L.pos.set(posBefore);
  L.vel.set(moveStart);
  move.inline = true;
  moveLiquid(ctx, dt);
  move.inline = false;
  const inline = { pos: L.pos.slice(0, 3 * L.count), vel: L.vel.slice(0, 3 * L.count) };
  L.pos.set(posBefore);
  L.vel.set(moveStart);
  moveLiquid(ctx, dt);
  const afterMove = { pos: L.pos.slice(0, 3 * L.count), vel: L.vel.slice(0, 3 * L.count), teamed: move.teamed };
  let slowed = 0;
  for (let o = 0; o < noFriction.length; o++) if (afterMove.vel[o] !== noFriction[o]) slowed++;
  let pushed = 0;
  for (let o = 0; o < before.length; o++) if (before[o] !== afterContacts[o]) pushed++;
  listDensityPairs(ctx);
  const dp = ctx.densityPairs, list = { start: dp.start.slice(0, L.count + 1), j: dp.j.slice(0, dp.length) };
  const res = correctDensity(ctx, 1 / 120);
  const out = { n: L.count, pushed, afterContacts, pos: L.pos.slice(0, 3 * L.count), res, threads: ctx.runner.size, beforeDensity: afterMove.pos, kernels, list, objectLists, slowed, afterMove, moveStart, inline };
  sim.dispose();
  return out;
}

describe('density correction and object contacts on two threads', () => {
  const one = run(1), two = run(2);

  it('run with work to do, on the team', () => {
    expect(one.n).toBeGreaterThan(2048);
    expect(one.pushed).toBeGreaterThan(30);
    expect(one.res.passes).toBeGreaterThan(1);
    expect(two.threads).toBe(2);
    for (const k of ['density-list', 'density-measure', 'density-push', 'object-contacts', 'object-lists', 'move']) {
      expect(two.kernels.has(k), `job ${k} on the team`).toBe(true);
    }
    expect(one.kernels.size).toBe(0);
  });

  it('lists the same density pairs in the same order', () => {
    expect(two.list.j.length).toBeGreaterThan(10 * one.n);
    expect(two.list.start).toEqual(one.list.start);
    expect(two.list.j).toEqual(one.list.j);
  });

  it('lists the same object contacts, with the same clearances, as one thread', () => {
    expect(two.objectLists.j.length).toBeGreaterThan(500);
    expect(two.objectLists.start).toEqual(one.objectLists.start);
    expect(two.objectLists.j).toEqual(one.objectLists.j);
    expect(two.objectLists.clear).toEqual(one.objectLists.clear);
    expect(two.objectLists.longest).toBe(one.objectLists.longest);
  });

  it('a move (accelerate, translate, friction) on the team ends exactly where it does on the calling thread alone', () => {
    expect(one.slowed).toBeGreaterThan(30);
    expect(two.slowed).toBeGreaterThan(30);
    expect(two.afterMove.teamed).toBe(true);
    let moved = 0;
    for (let o = 0; o < two.afterMove.vel.length; o++) if (two.afterMove.vel[o] !== two.moveStart[o]) moved++;
    expect(moved).toBeGreaterThan(two.n);
    expect(two.afterMove.vel).toEqual(two.inline.vel);
    expect(two.afterMove.pos).toEqual(two.inline.pos);
  });

  it('object contacts move exactly as on one thread', () => {
    expect(two.afterContacts).toEqual(one.afterContacts);
  });

  it('density correction takes the same passes to the same positions, to round-off', () => {
    expect(two.res.passes).toBe(one.res.passes);
    expect(Math.abs(two.res.error - one.res.error)).toBeLessThan(1e-9);
    let moved = 0, diff = 0;
    for (let o = 0; o < one.pos.length; o++) {
      moved = Math.max(moved, Math.abs(one.pos[o] - one.beforeDensity[o]));
      diff = Math.max(diff, Math.abs(one.pos[o] - two.pos[o]));
    }
    expect(moved).toBeGreaterThan(1e-5);
    expect(diff / moved).toBeLessThan(1e-9);
  });

  it('keeps Σ Δx = 0 (one liquid: equal masses)', () => {
    const sum = [0, 0, 0];
    let abs = 0;
    for (let i = 0; i < two.n; i++) {
      for (let k = 0; k < 3; k++) {
        const dx = two.pos[3 * i + k] - two.beforeDensity[3 * i + k];
        sum[k] += dx;
        abs += Math.abs(dx);
      }
    }
    expect(abs).toBeGreaterThan(1e-4);
    for (let k = 0; k < 3; k++) expect(Math.abs(sum[k]) / abs).toBeLessThan(1e-10);
  });
});
