/**
 * What the moves skip without changing what they do (issue 28):
 *  - the object contact lists' clearance A (object-lists.ts): every entry of a list, near and far,
 *    is at least A from the list's point c, on the honey drop's kind of contact (liquid draped on a
 *    ball, sorted by the moves); the object contacts and friction skip the particles within A − d of
 *    c, and they are many;
 *  - the domain walls without a friction hold (boundaries.ts wallsAtOnce): one pass, each particle
 *    meeting the faces in turn, the same bits as a pass a face (written out here).
 */
import { describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import { FACES } from '../../src/scene/schema.ts';
import { CLEAR_STRIDE, clearOf, clearOfAll, objectListsOf, TOUCH } from '../../src/particle/object-lists.ts';
import { domainWalls, faceBoundary } from '../../src/particle/boundaries.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

const DRAPE: SceneInput = {
  gravity: [0, -9.81, 0],
  fps: 30,
  materials: { honey: liquid(5), steel: { kind: 'solid', friction: 0.8 } },
  bodies: [
    { material: 'steel', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } },
    { material: 'honey', shape: { type: 'sphere', center: [0, 0.03, 0], radius: 0.012 } },
  ],
  particle: { radius: 0.002, substeps: 2, moves: 4 },
};

describe('the moves skip what they would not find', () => {
  it("keeps every object list entry at least A from c (A ≤ D), and the skip covers particles of the drape", () => {
    const sim = particleSim(DRAPE);
    try {
      const ctx = sim.ctx;
      let checked = 0, skipped = 0, listed = 0;
      for (let f = 0; f < 6; f++) {
        sim.stepFrame();
        const L = ctx.liquid, n = L.count, list = objectListsOf(ctx), clear = list.clear, opos = ctx.objects.pos, far = list.far;
        const touch = TOUCH * (ctx.r + ctx.ro);
        for (let i = 0; i < n; i++) {
          const q0 = list.start[i], q1 = list.start[i + 1];
          if (q0 === q1) continue;
          listed++;
          const o = CLEAR_STRIDE * i, A = clear[o + 4], D = clear[o + 3];
          expect(A).toBeLessThanOrEqual(D);
          for (let q = q0; q < q1; q++) {
            const e = list.j[q], s = e >= far ? e - far : e, k = 3 * list.index[s];
            const d = Math.hypot(opos[k] - clear[o], opos[k + 1] - clear[o + 1], opos[k + 2] - clear[o + 2]);
            expect(d).toBeGreaterThanOrEqual(A);
            if (e >= far) expect(d).toBeGreaterThanOrEqual(D);
            checked++;
          }
          const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
          if (clearOfAll(clear, i, x, y, z, touch)) {
            // Skipped: then the far entries' own test agrees, and no entry is within the touch.
            expect(clearOf(clear, i, x, y, z, touch)).toBe(true);
            for (let q = q0; q < q1; q++) {
              const e = list.j[q], s = e >= far ? e - far : e, k = 3 * list.index[s];
              expect(Math.hypot(opos[k] - x, opos[k + 1] - y, opos[k + 2] - z)).toBeGreaterThan(touch);
            }
            skipped++;
          }
        }
      }
      // Measured: 6 frames, 816 lists and 14 358 entries checked, 341 lists (42 %) skipped at the touch.
      console.log(`object lists: ${listed} lists, ${checked} entries checked, ${skipped} skipped at the touch`);
      expect(checked).toBeGreaterThan(1000);
      expect(skipped).toBeGreaterThan(0.1 * listed);
    } finally {
      sim.dispose();
    }
  });

  it('moves the liquid to the walls in one pass as a pass a face does, bit for bit', () => {
    const sim = particleSim({
      gravity: [0, -9.81, 0],
      materials: { water: liquid(0.001) },
      domain: {
        min: [0, 0, 0], max: [0.05, 0.05, 0.05], boundary: 'slip',
        faces: { xmax: 'open', ymax: { type: 'moving', velocity: [0.3, 0, 0.1] }, zmin: 'noslip' },
      },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.025, 0.02, 0.025], size: [0.04, 0.03, 0.04] } }],
      particle: { radius: 0.002, walls: true },
    });
    try {
      const ctx = sim.ctx, L = ctx.liquid, n = L.count, d = ctx.scene.domain!, rnd = lcg(7);
      // Scattered over and beyond every face, with random velocities.
      for (let o = 0; o < 3 * n; o++) {
        L.pos[o] = -0.01 + 0.07 * rnd();
        L.vel[o] = rnd() - 0.5;
      }
      const pos = L.pos.slice(0, 3 * n), vel = L.vel.slice(0, 3 * n);
      // dt = 0 (the density passes' call): no friction hold even with a no-slip face, so one pass.
      domainWalls(ctx, 0);
      // A pass a face, as domainWalls does it with a hold.
      for (let f = 0; f < 6; f++) {
        const bnd = faceBoundary(ctx, FACES[f]);
        if (bnd === 'open') continue;
        const axis = f >> 1, upper = (f & 1) === 1, c = ctx.wallClearance[f], limit = upper ? d.max[axis] - c : d.min[axis] + c;
        const wall = typeof bnd === 'object' ? bnd.velocity : null, sticky = bnd === 'noslip' || wall !== null;
        for (let i = 0; i < n; i++) {
          const o = 3 * i + axis;
          if (upper ? pos[o] <= limit : pos[o] >= limit) continue;
          pos[o] = limit;
          if (upper ? vel[o] > 0 : vel[o] < 0) vel[o] = 0;
          if (sticky) for (let k = 0; k < 3; k++) if (k !== axis) vel[3 * i + k] = (wall ? wall[k] : 0) + (vel[3 * i + k] - (wall ? wall[k] : 0)) * 1;
        }
      }
      expect(Array.from(L.pos.subarray(0, 3 * n))).toEqual(Array.from(pos));
      expect(Array.from(L.vel.subarray(0, 3 * n))).toEqual(Array.from(vel));
    } finally {
      sim.dispose();
    }
  });
});
