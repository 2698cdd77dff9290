/**
 * The adhesion stage on a thread team (src/particle/adhesion.ts, the liquid pairs with per-thread sums and lists): on the same state, two
 * threads produce exactly the pair and contact lists of one thread, the same accelerations and
 * kernel sums up to the order of floating-point sums, and forces between liquid particles that
 * still cancel in total; liquid ← object adhesion, whose threads look up their own object cells,
 * gives one thread's accelerations bit for bit, as it does with the object cells hashed.
 */
import { describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { adhesionTables } from '../../src/particle/adhesion-tables.ts';
import { objectAdhesion } from '../../src/particle/object-adhesion.ts';
import { markNearObjects } from '../../src/particle/boundaries.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, threadedSim } from './helpers.ts';

// The scenes here are smaller than the engine's threshold for these stages: run them threaded anyway.
teamWork.minParticles = 2048;

/** A jittered block of ~5 800 particles (above the team's 2 048 threshold) half inside the reach of a ball. */
const SCENE: SceneInput = {
  gravity: [0, 0, 0],
  materials: { honey: liquid(5), steel: { kind: 'solid' } },
  adhesion: [
    { between: ['honey', 'honey'], type: 'lennard-jones', strength: 1 },
    { between: ['honey', 'steel'], type: 'attract', strength: 20, support: 8 },
  ],
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0, 0.034, 0], size: [0.072, 0.036, 0.072] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.012 } },
  ],
  particle: { radius: 0.002 },
};

/**
 * The scene on `workers` threads with its liquid shaken off the lattice (by up to 0.4 r, the same
 * on every run), its cells sorted, the liquid near the ball marked and adhesion computed once.
 */
function adhesionComputed(workers: number): ParticleSimulation {
  const sim: ParticleSimulation = threadedSim(SCENE, workers);
  const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(7);
  for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * 0.8 * ctx.r;
  // Densities from exposed to interior, so that the liquid pairs take every share of cohesion (adhesion.ts).
  for (let i = 0; i < L.count; i++) L.density[i] = 0.8 + 0.25 * rnd();
  ctx.rebuildObjectCells();
  ctx.cells.buildSorted(L);
  markNearObjects(ctx, ctx.objectReach + ctx.ro);
  computeAdhesion(ctx);
  return sim;
}

function adhesionOn(workers: number) {
  const sim = adhesionComputed(workers);
  const ctx = sim.ctx, L = ctx.liquid;
  const n = L.count;
  const out = {
    n,
    near: L.nearObject.slice(0, n).reduce((s, v) => s + v, 0),
    acc: L.acc.slice(0, 3 * n), sumK: L.scalar.slice(0, n), mat: L.material.slice(0, n),
    pairs: ctx.cells.pairs.j.slice(0, ctx.cells.pairs.length), pairStart: ctx.cells.pairs.start.slice(0, n + 1),
    contacts: ctx.contacts.j.slice(0, ctx.contacts.length), contactStart: ctx.contacts.start.slice(0, n + 1),
    threads: ctx.runner.size,
  };
  sim.dispose();
  return out;
}

describe('adhesion on two threads', () => {
  const one = adhesionOn(1), two = adhesionOn(2);

  it('runs on a state with liquid pairs and liquid near the ball', () => {
    expect(one.n).toBeGreaterThan(2048);
    expect(one.pairs.length / one.n).toBeGreaterThan(10);
    expect(one.near).toBeGreaterThan(100);
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
  });

  it('lists exactly the pairs and contacts of one thread, in the same order', () => {
    expect(two.pairStart).toEqual(one.pairStart);
    expect(two.pairs).toEqual(one.pairs);
    expect(two.contactStart).toEqual(one.contactStart);
    expect(two.contacts).toEqual(one.contacts);
  });

  it('gives the accelerations and kernel sums of one thread to round-off', () => {
    let scale = 0, diff = 0, ks = 0;
    for (let o = 0; o < one.acc.length; o++) {
      scale = Math.max(scale, Math.abs(one.acc[o]));
      diff = Math.max(diff, Math.abs(one.acc[o] - two.acc[o]));
    }
    for (let i = 0; i < one.n; i++) ks = Math.max(ks, Math.abs(one.sumK[i] - two.sumK[i]) / one.sumK[i]);
    expect(scale).toBeGreaterThan(1);
    expect(diff / scale).toBeLessThan(1e-12);
    expect(ks).toBeLessThan(1e-12);
  });
});

describe('adhesion on two threads, liquid alone', () => {
  it('still sums liquid–liquid forces to zero (equal masses: Σ a = 0 to round-off)', () => {
    const sim = threadedSim({ ...SCENE, bodies: [SCENE.bodies![0]] }, 2);
    const ctx = sim.ctx, L = ctx.liquid, rnd = lcg(11);
    for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * 0.8 * ctx.r;
    // Densities from exposed to interior: every share of cohesion (adhesion.ts), each pair's symmetric.
    for (let i = 0; i < L.count; i++) L.density[i] = 0.8 + 0.25 * rnd();
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const sum = [0, 0, 0];
    let abs = 0;
    for (let i = 0; i < L.count; i++) {
      for (let k = 0; k < 3; k++) {
        sum[k] += L.acc[3 * i + k];
        abs += Math.abs(L.acc[3 * i + k]);
      }
    }
    sim.dispose();
    expect(abs).toBeGreaterThan(1);
    for (let k = 0; k < 3; k++) expect(Math.abs(sum[k]) / abs).toBeLessThan(1e-12);
  });
});

/**
 * Liquid ← object adhesion alone (object-adhesion.ts: each thread looks up the object cells of its
 * own liquid cells) on `workers` threads, its accelerations from zero; `hashed`: with the object
 * cells looked up through the context's hash (no dense block), which keeps the job on one thread.
 */
function objectAdhesionOn(workers: number, hashed: boolean) {
  const sim = adhesionComputed(workers);
  const ctx = sim.ctx, L = ctx.liquid;
  if (hashed) Object.assign(ctx, { objectBlock: new Int32Array(0) });
  const dense = ctx.objectCellBlock() !== null;
  L.acc.fill(0);
  // The liquid cells' boxes, which the adhesion stage keeps within its own call (adhesion.ts).
  ctx.cells.updateBoxes(L.pos);
  objectAdhesion(ctx, adhesionTables(ctx));
  const acc = L.acc.slice(0, 3 * L.count);
  sim.dispose();
  return { acc, dense };
}

describe('liquid ← object adhesion on two threads', () => {
  const one = objectAdhesionOn(1, false), two = objectAdhesionOn(2, false), hashed = objectAdhesionOn(1, true);

  it('pulls liquid toward the ball, with the object cells in their dense block', () => {
    let pulled = 0;
    for (let i = 0; i < one.acc.length / 3; i++) if (one.acc[3 * i] !== 0 || one.acc[3 * i + 1] !== 0 || one.acc[3 * i + 2] !== 0) pulled++;
    expect(pulled).toBeGreaterThan(100);
    expect(one.dense).toBe(true);
    expect(hashed.dense).toBe(false);
  });

  it('gives one thread\'s accelerations bit for bit (each particle sums only its own)', () => {
    expect(two.acc).toEqual(one.acc);
  });

  it('gives the same accelerations with the object cells hashed', () => {
    expect(hashed.acc).toEqual(one.acc);
  });
});
