/**
 * The sheet shift (src/particle/sheet-shift.ts): its thin-feature test on lattices (a one-particle
 * sheet is thin with its plane as tangents, a thread with its axis; a block, its faces, edges and
 * corners and a sheet two particles thick are not), and the shift itself: a one-particle sheet
 * with a sparse band across it evens out within its plane without moving a particle off the plane or
 * spreading its rim, and a block is left bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { sheetAxesOf, shiftSheets } from '../../src/particle/sheet-shift.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { cubicSpline } from '../../src/math/kernels.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

const r = 0.002, s = 2 * r, h = 4 * r;

/** Offsets of the lattice sites (spacing s) i, j, k in the ranges, but the origin. */
function offsets(ri: number[], rj: number[], rk: number[]): number[] {
  const o: number[] = [];
  for (let i = ri[0]; i <= ri[1]; i++) for (let j = rj[0]; j <= rj[1]; j++) for (let k = rk[0]; k <= rk[1]; k++) if (i || j || k) o.push(i * s, j * s, k * s);
  return o;
}

describe('the sheet test', () => {
  it('a one-particle sheet is thin, its plane the tangents; a thread thin along its axis', () => {
    const sheet = sheetAxesOf(offsets([-3, 3], [0, 0], [-3, 3]), h);
    expect(sheet.thin).toBe(true);
    expect(sheet.values[1]).toBeGreaterThan(0.1 * sheet.values[0]);
    expect(Math.abs(sheet.axes[7])).toBeCloseTo(1, 6); // the thin axis is y
    const thread = sheetAxesOf(offsets([0, 0], [-3, 3], [0, 0]), h);
    expect(thread.thin).toBe(true);
    expect(thread.values[1]).toBeLessThan(0.1 * thread.values[0]);
    expect(Math.abs(thread.axes[1])).toBeCloseTo(1, 6); // the axis is y
  });
  it('a block, its face, edge and corner, and a sheet two particles thick are not thin', () => {
    for (const [name, o] of [
      ['bulk', offsets([-3, 3], [-3, 3], [-3, 3])],
      ['face', offsets([-3, 3], [-3, 0], [-3, 3])],
      ['edge', offsets([-3, 0], [-3, 0], [-3, 3])],
      ['corner', offsets([0, 3], [0, 3], [0, 3])],
      ['two rows', offsets([-3, 3], [0, 1], [-3, 3])],
    ] as const) expect(sheetAxesOf(o, h).thin, name).toBe(false);
  });
});

/** A simulation holding the particles at `positions`, its pair list listed, sheetShift 100 /s. */
function sim(positions: number[]) {
  const input: SceneInput = {
    gravity: [0, 0, 0],
    materials: { w: liquid(1) },
    bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [s, s, s] } }],
    particle: { radius: r, sheetShift: 20 },
  };
  const p = particleSim(input), ctx = p.ctx, L = ctx.liquid;
  L.count = 0;
  for (let k = 0; k < positions.length; k += 3) L.add(positions[k], positions[k + 1], positions[k + 2], 0, 0, 0, 0);
  return ctx;
}

describe('the sheet shift', () => {
  it('evens a sparse band across a one-particle sheet within its plane, its rim not spread', () => {
    // A 14 × 12 sheet in x–z, jittered in-plane, whose rows z 5–7 hold every other particle: a neck across it.
    const rnd = lcg(3), P: number[] = [];
    for (let i = 0; i < 14; i++) for (let k = 0; k < 12; k++) if (k < 5 || k > 7 || i % 2 === 0) P.push(i * s + 0.2 * s * (rnd() - 0.5), 0.01, k * s + 0.2 * s * (rnd() - 0.5));
    const ctx = sim(P), L = ctx.liquid, n = L.count;
    /** The coefficient of variation of the spline sums C_a = Σ W(d / h) (self included) over the particles 2 spacings in from the rim. */
    const inner = Array.from({ length: n }, (_, a) => a).filter((a) => L.pos[3 * a] > 1.5 * s && L.pos[3 * a] < 11.5 * s && L.pos[3 * a + 2] > 1.5 * s && L.pos[3 * a + 2] < 9.5 * s);
    const cvConcentration = (): number => {
      const c = inner.map((a) => {
        let sum = 0;
        for (let b = 0; b < n; b++) { const q = Math.hypot(L.pos[3 * a] - L.pos[3 * b], L.pos[3 * a + 2] - L.pos[3 * b + 2]) / h; sum += q < 1 ? cubicSpline(q) : 0; }
        return sum;
      });
      const mean = c.reduce((x, y) => x + y, 0) / c.length;
      return Math.sqrt(c.reduce((x, y) => x + (y - mean) ** 2, 0) / c.length) / mean;
    };
    // The rim: the particles of the outer columns (x) and rows (z), by id; their mean distance out from the sheet's middle.
    const mid = [6.5 * s, 5.5 * s], rim = [0, 2].map((axis) => Array.from({ length: n }, (_, a) => a).filter((a) => Math.abs(L.pos[3 * a + axis] - mid[axis / 2]) > (axis ? 5 : 6) * s).map((a) => L.id[a]));
    const spread = (axis: number): number => {
      const ids = new Set(rim[axis / 2]);
      let sum = 0, m = 0;
      for (let a = 0; a < n; a++) if (ids.has(L.id[a])) { sum += Math.abs(L.pos[3 * a + axis] - mid[axis / 2]); m++; }
      return sum / m;
    };
    const cv0 = cvConcentration(), wx0 = spread(0), wz0 = spread(2);
    let moved = 0;
    for (let step = 0; step < 30; step++) {
      ctx.cells.buildSorted(L);
      computeAdhesion(ctx);
      moved += shiftSheets(ctx, 1 / 120);
    }
    expect(moved).toBeGreaterThan(0);
    expect(cvConcentration()).toBeLessThan(0.7 * cv0);
    for (let a = 0; a < n; a++) expect(L.pos[3 * a + 1]).toBe(0.01); // never off the plane
    expect(spread(0)).toBeLessThan(wx0 + 0.2 * s);
    expect(spread(2)).toBeLessThan(wz0 + 0.2 * s);
  });
  it('leaves a block bit for bit', () => {
    const P: number[] = [], rnd = lcg(5);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) for (let k = 0; k < 6; k++) P.push(i * s + 0.1 * s * (rnd() - 0.5), j * s + 0.1 * s * (rnd() - 0.5), k * s + 0.1 * s * (rnd() - 0.5));
    const ctx = sim(P), L = ctx.liquid, before = L.pos.slice(0, 3 * L.count);
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const was = L.pos.slice(0, 3 * L.count);
    expect(shiftSheets(ctx, 1 / 120)).toBe(0);
    expect(Array.from(L.pos.slice(0, 3 * L.count))).toEqual(Array.from(was));
    expect(before.length).toBe(was.length);
  });
  it('reads only what it writes in its own call of the stage buffer (filled with 0xff or zeros: the same bits)', () => {
    const rnd = lcg(7), P: number[] = [];
    for (let i = 0; i < 10; i++) for (let k = 0; k < 10; k++) if (k !== 4 || i % 2 === 0) P.push(i * s + 0.2 * s * (rnd() - 0.5), 0.3 * s * (rnd() - 0.5) * (k < 8 ? 0 : 1), k * s + 0.2 * s * (rnd() - 0.5));
    let moved = 0;
    const run = (poison: number): number[] => {
      const ctx = sim(P);
      ctx.stageScratchPoison = poison;
      for (let step = 0; step < 4; step++) {
        ctx.cells.buildSorted(ctx.liquid);
        computeAdhesion(ctx);
        moved += shiftSheets(ctx, 1 / 120);
      }
      return Array.from(ctx.liquid.pos.slice(0, 3 * ctx.liquid.count));
    };
    const clean = run(-1);
    expect(moved).toBeGreaterThan(100);
    expect(clean.every(Number.isFinite)).toBe(true);
    expect(run(0xff)).toEqual(clean);
    expect(run(0)).toEqual(clean);
  });
});
