/**
 * The signed-distance guard over each body's own list (src/particle/boundaries.ts markNearObjects,
 * signedDistanceGuard): with the guard's margin narrower than the near flags' (step.ts), the lists
 * hold only the particles within that margin of each body, in ascending order (as runs of
 * consecutive indices), and the guard,
 * after the liquid has moved by less than the margin, puts back and stops exactly the particles,
 * bit for bit, that it does over the lists at the near flags' full margin.
 */
import { describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { GUARD, markNearObjects, signedDistanceGuard } from '../../src/particle/boundaries.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

const SCENE: SceneInput = {
  gravity: [0, -9.81, 0],
  materials: { honey: liquid(5), steel: { kind: 'solid', friction: 0.5 } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0, 0.03, 0], size: [0.08, 0.03, 0.08] } },
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } },
    { material: 'steel', shape: { type: 'box', center: [0.03, 0.01, 0], size: [0.01, 0.02, 0.01], rotation: [0, 30, 10] } },
  ],
  particle: { radius: 0.002 },
};

/** The liquid after one guard, the guard's lists marked at `guardMargin` (undefined: the near flags' margin). */
function guarded(guardMargin: number | undefined) {
  const sim = particleSim(SCENE), ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(3);
  ctx.objects.moveTo(0, 0);
  const margin = ctx.objectReach + ctx.ro, move = 1.5 * ctx.r;
  markNearObjects(ctx, margin, guardMargin);
  const nb = ctx.objects.bodies.length, lists: number[][] = [];
  for (let b = 0; b < nb; b++) {
    const list: number[] = [];
    for (let q = ctx.guardEnds[b]; q < ctx.guardEnds[b + 1]; q++) {
      expect(ctx.guardList[2 * q + 1]).toBeGreaterThan(ctx.guardList[2 * q]);
      for (let i = ctx.guardList[2 * q]; i < ctx.guardList[2 * q + 1]; i++) list.push(i);
    }
    lists.push(list);
  }
  const listed = lists.reduce((k, l) => k + l.length, 0);
  let near = 0;
  for (let i = 0; i < n; i++) near += L.nearObject[i];
  const mark = L.pos.slice(0, 3 * n);
  // The liquid falls by up to 1.5 r (less than the guard's margin) with a downward velocity: some of it into the bodies.
  for (let i = 0; i < n; i++) {
    L.pos[3 * i + 1] -= move * rnd();
    L.vel[3 * i + 1] = -0.2;
  }
  ctx.counters = {};
  signedDistanceGuard(ctx);
  return { ctx, n, listed, near, lists, mark, pushes: ctx.counters.guardPushes ?? 0, pos: Array.from(L.pos.subarray(0, 3 * n)), vel: Array.from(L.vel.subarray(0, 3 * n)) };
}

describe("the signed-distance guard's lists", () => {
  it("list each body's particles within the margin, and guard them as the near flags' margin does", () => {
    const wide = guarded(undefined), margin = 4 * 0.002, narrow = guarded(margin);
    const ctx = narrow.ctx, target = GUARD * ctx.r, bodies = ctx.objects.bodies;
    expect(narrow.listed).toBeGreaterThan(0);
    expect(narrow.listed).toBeLessThan(0.7 * wide.listed);
    expect(wide.listed).toBeLessThanOrEqual(bodies.length * wide.near);
    // Each body's list: ascending, and exactly the particles within the margin of it at the mark.
    for (let b = 0; b < bodies.length; b++) {
      const body = bodies[b], R = body.pose.R, t = body.pose.t, want: number[] = [];
      for (let i = 0; i < narrow.n; i++) {
        const dx = narrow.mark[3 * i] - t[0], dy = narrow.mark[3 * i + 1] - t[1], dz = narrow.mark[3 * i + 2] - t[2];
        const x = R[0] * dx + R[3] * dy + R[6] * dz, y = R[1] * dx + R[4] * dy + R[7] * dz, z = R[2] * dx + R[5] * dy + R[8] * dz;
        const inside = x > body.min[0] - margin && x < body.max[0] + margin && y > body.min[1] - margin && y < body.max[1] + margin &&
          z > body.min[2] - margin && z < body.max[2] + margin;
        if (inside && body.compiled.sdf(x, y, z) < target + margin) want.push(i);
      }
      expect(narrow.lists[b]).toEqual(want);
    }
    // Particles were pushed out and stopped: the same ones, bit for bit.
    expect(narrow.pushes).toBeGreaterThan(20);
    expect(narrow.pushes).toBe(wide.pushes);
    expect(narrow.pos).toEqual(wide.pos);
    expect(narrow.vel).toEqual(wide.vel);
  });
});
