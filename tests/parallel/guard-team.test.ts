/**
 * The signed-distance guard inside the contacts' runs (src/particle/guard-team.ts): a shape's code
 * gives its sdf bit for bit; the guard over ranges of particles, in any pieces, is the calling
 * thread's guard (boundaries.ts signedDistanceGuard), pushes included; and a drop falling fast onto
 * a ball and a tilted box ends bit for bit as with the guard on the calling thread, on one thread and
 * on two (where the team's contacts and object-contacts jobs ran).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput, Shape } from '../../src/scene/schema.ts';
import { codedSdf, compileShape } from '../../src/scene/shapes.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { GUARD, markNearObjects, signedDistanceGuard } from '../../src/particle/boundaries.ts';
import { guardRange, GUARD_WORDS } from '../../src/particle/guard-team.ts';
import { teamWork } from '../../src/particle/work.ts';
import { lcg, liquid, teamKernels, threadedSim } from './helpers.ts';

const SCENE: SceneInput = {
  gravity: [0, -9.81, 0],
  materials: { honey: liquid(1), steel: { kind: 'solid', friction: 0.5 } },
  bodies: [
    { material: 'honey', shape: { type: 'sphere', center: [0, 0.035, 0], radius: 0.022 } },
    { material: 'steel', shape: { type: 'sphere', center: [0, -0.01, 0], radius: 0.02 } },
    { material: 'steel', shape: { type: 'box', center: [0.02, -0.03, 0], size: [0.03, 0.01, 0.03], rotation: [0, 30, 10] } },
  ],
  particle: { radius: 0.002, substeps: 2, moves: 4 },
};

const sims: ParticleSimulation[] = [];
const minParticles = teamWork.minParticles;
afterEach(() => {
  for (const s of sims.splice(0)) s.dispose?.();
  teamWork.minParticles = minParticles;
  teamWork.guardInRuns = true;
});

describe('the signed-distance guard in the contacts runs', () => {
  it("codes spheres, boxes, capsules and planes whose sdf is the closure's, bit for bit", () => {
    const shapes: Shape[] = [
      { type: 'sphere', center: [0.01, -0.02, 0.03], radius: 0.04 },
      { type: 'box', center: [0.01, 0, -0.01], size: [0.03, 0.05, 0.02], rotation: [10, 40, -20] },
      { type: 'capsule', a: [0, 0, 0], b: [0.02, 0.05, -0.01], radius: 0.01 },
      { type: 'plane', point: [0, -0.1, 0], normal: [0.1, 1, 0.2], extent: 0.2 },
    ] as Shape[];
    const rnd = lcg(11);
    for (const shape of shapes) {
      const c = compileShape(shape);
      expect(c.code).toBeDefined();
      for (let k = 0; k < 500; k++) {
        const x = 0.1 * (rnd() - 0.5), y = 0.1 * (rnd() - 0.5), z = 0.1 * (rnd() - 0.5);
        expect(Object.is(codedSdf(c.code!, 0, x, y, z), c.sdf(x, y, z))).toBe(true);
      }
    }
    expect(compileShape({ type: 'cylinder', center: [0, 0, 0], axis: [0, 1, 0], radius: 0.01, height: 0.02, wall: 0 } as Shape).code).toBeUndefined();
  });

  it("guards ranges of particles, in any pieces, as the calling thread's guard does", async () => {
    const run = async (pieces: number[] | null) => {
      const sim = threadedSim(SCENE, 1);
      sims.push(sim);
      const ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(3);
      ctx.objects.moveTo(0, 0);
      markNearObjects(ctx, ctx.objectReach + ctx.ro, 6 * ctx.r);
      // The drop pushed down by up to 8 r, some of it into the ball and the box, falling.
      for (let i = 0; i < n; i++) {
        L.pos[3 * i + 1] -= 8 * ctx.r * rnd();
        L.vel[3 * i + 1] = -0.5;
      }
      ctx.counters = {};
      const bodies = ctx.objects.bodies, nb = bodies.length;
      if (pieces === null) signedDistanceGuard(ctx);
      else {
        const gb = new Float64Array(nb * GUARD_WORDS);
        for (let b = 0; b < nb; b++) {
          const o = b * GUARD_WORDS, body = bodies[b];
          gb.set(body.pose.R, o); gb.set(body.pose.t, o + 9); gb.set(body.min, o + 12); gb.set(body.max, o + 15); gb.set(body.compiled.code!, o + 18);
        }
        let pushes = 0;
        for (let k = 0; k + 1 < pieces.length; k++) {
          pushes += guardRange(L.pos, L.vel, gb, nb, ctx.guardList, ctx.guardEnds, n, Math.floor(pieces[k] * n), Math.floor(pieces[k + 1] * n), GUARD * ctx.r, 0.05 * ctx.r);
        }
        if (pushes > 0) ctx.count('guardPushes', pushes);
      }
      return { pushes: ctx.counters.guardPushes ?? 0, pos: Array.from(L.pos.subarray(0, 3 * n)), vel: Array.from(L.vel.subarray(0, 3 * n)) };
    };
    const serial = await run(null);
    expect(serial.pushes).toBeGreaterThan(10);
    for (const pieces of [[0, 1], [0, 0.37, 1], [0, 0.1, 0.5, 0.52, 1]]) {
      const r = await run(pieces);
      expect(r.pushes).toBe(serial.pushes);
      expect(r.pos).toEqual(serial.pos);
      expect(r.vel).toEqual(serial.vel);
    }
  });

  it('ends a fast drop onto a ball and a box as the guard on the calling thread does, on one thread and on two', async () => {
    // Every stage on the team from 256 particles (the drop has about 700), as particle-checksums' `2-small`.
    teamWork.minParticles = 256;
    const frames = async (workers: number, inRuns: boolean) => {
      teamWork.guardInRuns = inRuns;
      const sim = threadedSim({ ...SCENE, particle: { ...SCENE.particle, workers } } as SceneInput, workers);
      sims.push(sim);
      await sim.ready?.();
      const jobs = teamKernels(sim);
      // Thrown down at 3 m/s: the moves carry particles past the object particles, which the guard puts back.
      const L = sim.ctx.liquid;
      for (let i = 0; i < L.count; i++) L.vel[3 * i + 1] = -3;
      let pushes = 0;
      for (let f = 0; f < 1; f++) pushes += sim.stepFrame().counters.guardPushes ?? 0;
      return { jobs, pushes, pos: Array.from(L.pos.subarray(0, 3 * L.count)), vel: Array.from(L.vel.subarray(0, 3 * L.count)) };
    };
    for (const workers of [1, 2]) {
      const serial = await frames(workers, false), inRuns = await frames(workers, true);
      expect(serial.pushes).toBeGreaterThan(0);
      expect(inRuns.pushes).toBe(serial.pushes);
      expect(inRuns.pos).toEqual(serial.pos);
      expect(inRuns.vel).toEqual(serial.vel);
      if (workers === 2) {
        expect(inRuns.jobs.has('contacts')).toBe(true);
        expect(inRuns.jobs.has('object-contacts')).toBe(true);
      }
    }
  });
});
