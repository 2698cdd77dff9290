/**
 * A static no-slip wall's net drag on a body may slow it, not push it
 * (src/particle/viscosity-weiler-wall-hold.ts): the implicit viscosity's wall terms on a liquid
 * block whose bottom layer moves one way and the rest the other (no net motion) leave its momentum
 * as it was, while still braking the layer next to the wall; a block sliding over the floor is
 * braked and not reversed. The same for the collide stage's face friction
 * (src/particle/wall-friction-hold.ts). The shipped jelly-block stands on its floor.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { applyImplicitViscosity } from '../../src/particle/viscosity-weiler.ts';
import { domainWalls } from '../../src/particle/boundaries.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { particleSim } from './helpers.ts';
import * as layers from './block-on-floor.ts';
import { blockOnFloor, r } from './block-on-floor.ts';

const LONG = process.env.VISCID_LONG === '1';

/** The shared block's set-ups and readings on this simulation's liquid (block-on-floor.ts). */
const on = <T>(f: (pos: Float64Array, vel: Float64Array, n: number) => T) => (sim: ParticleSimulation): T => f(sim.ctx.liquid.pos, sim.ctx.liquid.vel, sim.ctx.liquid.count);
const splitLayer = on(layers.splitLayer), counterTurn = on(layers.counterTurn), xMotion = on(layers.xMotion), spinY = on(layers.spinY);

describe('a static wall holds a body, it does not push it', () => {
  it('a block whose bottom layer moves +x and the rest −x (no net motion) keeps no net motion, while the floor brakes the layer', () => {
    const sim = blockOnFloor();
    try {
      // The internal push a split step leaves in the layer on the floor (adhesion and pressure before the gel's springs).
      splitLayer(sim);
      const before = xMotion(sim);
      applyImplicitViscosity(sim.ctx, 1 / 120);
      const after = xMotion(sim);
      expect(Math.abs(before.all)).toBeLessThan(1e-12);
      // Measured (125 particles, 25 in the layer): without the hold the floor's drag on the layer
      // moved the whole block at −3.5 mm/s; with it 2e-18 m/s. The layer's speed over the rest's,
      // 62.5 mm/s before, is 33.0 mm/s after the solve with the hold and without it alike.
      expect(Math.abs(after.all)).toBeLessThan(1e-9);
      expect(after.shear).toBeLessThan(0.6 * before.shear);
      expect(after.shear).toBeGreaterThan(0);
      expect(sim.ctx.counters.wallHolds).toBe(1);
    } finally {
      sim.dispose();
    }
  });

  it('a block whose bottom layer turns about the vertical one way and the rest the other (no net spin) keeps no net spin through the solve', () => {
    const sim = blockOnFloor();
    try {
      counterTurn(sim);
      const before = spinY(sim);
      applyImplicitViscosity(sim.ctx, 1 / 120);
      const after = spinY(sim);
      // Measured (125 particles, 25 in the layer): the net spin after the solve −4e-16 of the layer's
      // angular momentum before (without the turn's hold −0.35: the floor's drag turned the block);
      // the layer's 0.54 of before (0.47 without).
      console.log(`the solve on a counter-turning block: net spin ${(after.all / before.layer).toExponential(2)} of the layer's, the layer's ${(after.layer / before.layer).toFixed(3)} of before`);
      expect(Math.abs(after.all)).toBeLessThan(1e-9 * Math.abs(before.layer));
      // The solve still brakes the layer's turn against the rest.
      expect(Math.abs(after.layer)).toBeLessThan(0.9 * Math.abs(before.layer));
    } finally {
      sim.dispose();
    }
  });

  it('a block sliding over the floor at 5 cm/s is braked, not stopped in one step nor reversed', () => {
    const sim = blockOnFloor();
    try {
      const L = sim.ctx.liquid, n = L.count;
      for (let i = 0; i < n; i++) L.vel[3 * i] = 0.05;
      applyImplicitViscosity(sim.ctx, 1 / 120);
      const after = xMotion(sim);
      expect(after.all).toBeGreaterThan(0);
      expect(after.all).toBeLessThan(0.05);
    } finally {
      sim.dispose();
    }
  });
});

describe("a static face's friction in the collide stage holds a body, it does not push it", () => {
  /** The block on its floor with its bottom layer (y < 2r) just inside the clamp (at r − 1 µm), so that the face's friction acts on it. */
  function clamped(): ParticleSimulation {
    const sim = blockOnFloor();
    const L = sim.ctx.liquid;
    for (let i = 0; i < L.count; i++) if (L.pos[3 * i + 1] < 2 * r) L.pos[3 * i + 1] = r - 1e-6;
    return sim;
  }

  it('a block whose bottom layer moves +x and the rest −x (no net motion) keeps no net motion, while the friction brakes the layer', () => {
    const sim = clamped();
    try {
      splitLayer(sim);
      const before = xMotion(sim);
      sim.ctx.counters = {};
      // One move of the shipped jelly-block's (1/30 s, 4 sub-timesteps, 6 moves).
      domainWalls(sim.ctx, 1 / 720);
      const after = xMotion(sim);
      // Measured (125 particles, 25 in the layer): the friction takes 2.8 % (1.42 mm/s) of the layer's
      // 50 mm/s, which without the hold moves the whole block at −0.28 mm/s; with it 1e-17 m/s. The
      // layer's speed over the rest's is 62.5 mm/s before, 61.1 after (a uniform velocity leaves it).
      expect(Math.abs(after.all)).toBeLessThan(1e-9);
      expect(after.shear).toBeLessThan(0.99 * before.shear);
      expect(after.shear).toBeGreaterThan(0.95 * before.shear);
      expect(sim.ctx.counters.frictionHolds).toBe(1);
    } finally {
      sim.dispose();
    }
  });

  it('a block whose bottom layer turns about the vertical one way and the rest the other (no net spin) keeps no net spin', () => {
    const sim = clamped();
    try {
      counterTurn(sim);
      const before = spinY(sim);
      sim.ctx.counters = {};
      domainWalls(sim.ctx, 1 / 720);
      const after = spinY(sim);
      // The friction takes 1 − 0.5^(1/24) = 2.8 % of the layer's turn; without the turn's hold the whole
      // block would turn by that much of the layer's angular momentum.
      expect(Math.abs(before.all)).toBeLessThan(1e-12 * Math.abs(before.layer));
      expect(Math.abs(after.all)).toBeLessThan(1e-9 * Math.abs(before.layer));
      expect(sim.ctx.counters.frictionHolds).toBe(1);
    } finally {
      sim.dispose();
    }
  });

  it('a block sliding over the floor at 5 cm/s is braked by the friction as before (not held)', () => {
    const sim = clamped();
    try {
      const L = sim.ctx.liquid, n = L.count;
      for (let i = 0; i < n; i++) L.vel[3 * i] = 0.05;
      sim.ctx.counters = {};
      domainWalls(sim.ctx, 1 / 720);
      const after = xMotion(sim);
      // Measured: the layer (a fifth of the block) loses 2.8 % of its speed, the block 0.57 % (49.72 mm/s).
      expect(after.all).toBeLessThan(0.05 * (1 - 0.004));
      expect(after.all).toBeGreaterThan(0.05 * (1 - 0.008));
    } finally {
      sim.dispose();
    }
  });
});

describe('scenes/jelly-block.json (particle) stands on its floor', () => {
  const jelly = JSON.parse(readFileSync(new URL('../../scenes/jelly-block.json', import.meta.url), 'utf8')) as SceneInput;
  /** The block's centre of mass over `frames` frames at particle radius `radius`: its sideways drift from 1 s on (mm) and its height over the rest height at the end. */
  function stand(radius: number, frames: number): { drift: number; height: number } {
    const input = structuredClone(jelly);
    input.particle = { ...input.particle, radius };
    input.duration = frames / 30;
    const sim = particleSim(input);
    try {
      let at1: number[] = [0, 0, 0], c: number[] = [0, 0, 0];
      for (let f = 1; f <= frames; f++) {
        sim.stepFrame();
        c = [...sim.metrics().centerOfMass];
        if (f === 30) at1 = c;
      }
      return { drift: 1000 * Math.hypot(c[0] - at1[0], c[2] - at1[2]), height: c[1] / 0.03 };
    } finally {
      sim.dispose();
    }
  }

  // Measured (4 mm particles, 512 of them): under 0.001 mm from 1 s to 2 s with the face friction held too
  // (wall-friction-hold.ts), height 0.619 of rest at 2 s. The solve's walls held alone: 0.54 mm (with the
  // mirror ghosts' pair sums, pressure-ghost-pairs.ts; 0.05 before them): the collide stage's face
  // friction crept (docs/decisions.md "jelly-block stands", stop 46's merge, "jelly-block's creep from
  // the face friction"). Before either hold (main e65aa5d) 1.84 mm. Horizontal momentum has no other
  // source here (the walls' pressure and the clamp act across the floor), so the bound is tight.
  it('4 mm particles: it moves under 0.05 mm from 1 s to 2 s (1.84 without the holds)', () => {
    const { drift, height } = stand(0.004, 60);
    console.log(`jelly-block (particle, 4 mm): drift ${drift.toFixed(2)} mm from 1 s to 2 s, height ${height.toFixed(3)} of rest`);
    expect(drift).toBeLessThan(0.05);
    expect(height).toBeGreaterThan(0.5);
    expect(height).toBeLessThan(0.75);
  });

  // Measured (2 mm, as shipped, 5 s): under 0.001 mm from 1 s to 5 s with both holds, height 0.586
  // (BENCHMARKS.md "jelly-block's creep from the face friction"); the solve's walls held alone 0.18 mm
  // (0.14 mm/s in z at 5 s); neither held 12.5 mm (2.6 / 1.5 mm/s in x / z).
  it.runIf(LONG)('as shipped (2 mm particles): it moves under 0.05 mm from 1 s to 5 s', () => {
    const { drift, height } = stand(0.002, 150);
    console.log(`jelly-block (particle, 2 mm): drift ${drift.toFixed(2)} mm from 1 s to 5 s, height ${height.toFixed(3)} of rest`);
    expect(drift).toBeLessThan(0.05);
    expect(height).toBeGreaterThan(0.5);
    expect(height).toBeLessThan(0.7);
  }, 1_200_000);
});
