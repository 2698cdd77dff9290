/**
 * The stage buffer (StepContext.stageScratch) holds only what a stage writes in its own call: a
 * small scene that exercises its users (the surface test, the liquid contacts' slab split, the
 * implicit viscosity, the pressure solve's and PBF's slot arrays, adhesion, a ball, closed walls,
 * two liquids mixing) steps, on one thread and on a team of two that takes every stage, to the
 * same bits with the buffer filled with 0xff (NaN in its float views, -1 in its int views) or with
 * zeros at every call as without: no stage reads what an earlier one left, or what a buffer just
 * grown holds, so a result does not depend on when the buffer grows. The same bits, too, with the
 * buffer remade at every call (its shrink, StepContext.stageScratch, looking at every call and
 * taking any room over the request) and the implicit viscosity's coefficient room set to each
 * call's pairs (ImplicitViscosityState.coefRoom): a result does not depend on when they shrink.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { teamWork } from '../../src/particle/work.ts';
import { stageShrink } from '../../src/particle/context.ts';
import { coefShrink } from '../../src/particle/viscosity-weiler.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { liquid, threadedSim } from './helpers.ts';

const SCENE: SceneInput = {
  fps: 60,
  materials: {
    red: liquid(10, { density: 1300 }),
    blue: liquid(10, { density: 1300 }),
    ball: { kind: 'solid', friction: 0.3 },
  },
  adhesion: [
    { between: ['red', 'red'], type: 'lennard-jones', strength: 1 },
    { between: ['blue', 'blue'], type: 'lennard-jones', strength: 1 },
    { between: ['red', 'blue'], type: 'lennard-jones', strength: 1 },
    { between: ['red', 'ball'], type: 'attract', strength: 15 },
    { between: ['blue', 'ball'], type: 'attract', strength: 15 },
  ],
  domain: { min: [-0.04, -0.02, -0.04], max: [0.04, 0.06, 0.04], boundary: 'noslip' },
  bodies: [
    { material: 'ball', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } },
    { material: 'red', shape: { type: 'sphere', center: [0.006, 0.032, 0], radius: 0.011 } },
    { material: 'blue', shape: { type: 'sphere', center: [-0.008, 0.031, 0.004], radius: 0.009 } },
  ],
  particle: { radius: 0.0012, substeps: 2, moves: 3, viscositySolver: 'implicit', mixingDiffusivity: 1e-6 },
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

async function run(workers: number, poison: number): Promise<{ pos: Float64Array; vel: Float64Array }> {
  const sim = threadedSim(SCENE, workers);
  open.push(sim);
  await sim.ready();
  sim.ctx.stageScratchPoison = poison;
  for (let f = 0; f < 2; f++) sim.stepFrame();
  const L = sim.ctx.liquid;
  return { pos: L.pos.slice(0, 3 * L.count), vel: L.vel.slice(0, 3 * L.count) };
}

describe('stage buffer filled at every call', () => {
  for (const workers of [1, 2]) {
    it(`gives the same bits as without, on ${workers} thread${workers > 1 ? 's' : ''}`, async () => {
      const saved = teamWork.minParticles, shrinkWas = { ...stageShrink }, coefWas = { ...coefShrink };
      teamWork.minParticles = 256;
      try {
        const clean = await run(workers, -1);
        expect(clean.pos.length).toBeGreaterThan(3 * 500);
        expect(clean.pos.every(Number.isFinite) && clean.vel.every(Number.isFinite)).toBe(true);
        // The liquid has moved: onto the ball, pulled by adhesion.
        expect(clean.vel.some((v) => Math.abs(v) > 0.05)).toBe(true);
        for (const poison of [0xff, 0]) {
          const got = await run(workers, poison);
          expect(got.pos.every(Number.isFinite) && got.vel.every(Number.isFinite), `poison ${poison}: finite`).toBe(true);
          expect(Buffer.from(got.pos.buffer).equals(Buffer.from(clean.pos.buffer)), `poison ${poison}: positions`).toBe(true);
          expect(Buffer.from(got.vel.buffer).equals(Buffer.from(clean.vel.buffer)), `poison ${poison}: velocities`).toBe(true);
        }
        // Remade at every call, and the coefficients' room at each call's pairs.
        Object.assign(stageShrink, { after: 1, below: 1 });
        Object.assign(coefShrink, { after: 1, below: 1 });
        const remade = await run(workers, -1);
        expect(Buffer.from(remade.pos.buffer).equals(Buffer.from(clean.pos.buffer)), 'remade: positions').toBe(true);
        expect(Buffer.from(remade.vel.buffer).equals(Buffer.from(clean.vel.buffer)), 'remade: velocities').toBe(true);
      } finally {
        teamWork.minParticles = saved;
        Object.assign(stageShrink, shrinkWas);
        Object.assign(coefShrink, coefWas);
      }
    });
  }
});
