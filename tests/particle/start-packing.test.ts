/**
 * A liquid body's start within closed walls (src/particle/start-packing.ts; issue 26, "Rest at any
 * size"): a box that is a whole number of 2r cells keeps the plain lattice and the walls keep r; a
 * box off the lattice spans its walls with N or N + 1 columns per axis, whichever keeps the lattice
 * nearer cubic, its rows next to each wall at half their spacing (where the wall's mirror image
 * continues the lattice), and the walls' clamp keeps the liquid that far from those faces, not r,
 * so the first move does not lift the floor row onto the next (docs/decisions.md "Pools off the
 * lattice").
 */
import { describe, expect, it } from 'vitest';
import { poolScene, sim } from './physics-cases.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

const R = 0.004;

const pool = (width: number, depth: number): ParticleSimulation => sim(poolScene({ r: R, depth, width, nu: 1e-6, adhesion: 'default', duration: 1 }));

/** The sorted distinct values of one coordinate (rows or columns), to 1e-9 m. */
function levels(s: ParticleSimulation, axis: number): number[] {
  const L = s.ctx.liquid, out: number[] = [];
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i + axis];
    if (!out.some((y) => Math.abs(y - x) < 1e-9)) out.push(x);
  }
  return out.sort((a, b) => a - b);
}

describe('a liquid body fitted to its walls', () => {
  it('a 9.6 cm square pool 4.8 cm deep (12 × 6 × 12 cells) keeps the 2r lattice, and the walls keep r', () => {
    const s = pool(0.096, 0.048);
    for (const axis of [0, 1, 2]) {
      const v = levels(s, axis);
      expect(v.length).toBe(axis === 1 ? 6 : 12);
      v.forEach((x, k) => expect(x).toBeCloseTo(R + 2 * R * k, 12));
    }
    expect(Array.from(s.ctx.wallClearance)).toEqual(new Array(6).fill(R));
    expect(s.ctx.restSpacing).toBe(2 * R);
  });

  it('a 10 cm square pool 12 cm deep (12.5 cells across): 13 by 13 columns drawn together, rows 1.08 · 2r, each at half its spacing from its walls', () => {
    const s = pool(0.1, 0.12), L = s.ctx.liquid;
    const x = levels(s, 0), y = levels(s, 1), z = levels(s, 2);
    // Nearer cubic than 12 by 12 (bodyAxes): rows 1.0816 · 2r against 0.9216 · 2r.
    expect([x.length, z.length]).toEqual([13, 13]);
    const sx = 0.1 / 13, sy = (2 * R) ** 3 / (sx * sx);
    expect(sy / (2 * R)).toBeCloseTo(1.0816, 4);
    for (const v of [x, z]) {
      expect(v[0]).toBeCloseTo(sx / 2, 9);
      expect(0.1 - v[v.length - 1]).toBeCloseTo(sx / 2, 9);
      for (let k = 1; k < v.length; k++) expect(v[k] - v[k - 1]).toBeCloseTo(sx, 9);
    }
    expect(y[0]).toBeCloseTo(sy / 2, 9);
    for (let k = 1; k < y.length; k++) expect(y[k] - y[k - 1]).toBeCloseTo(sy, 9);
    // The rows spread beyond the body's 12 cm are dropped: 14 rows, 12.1 cm.
    expect(y.length).toBe(14);
    expect(L.count).toBe(13 * 13 * 14);
    // Each particle holds (2r)³: the columns' area times the rows' height over the count.
    expect((0.1 * 0.1 * y.length * sy) / (L.count * (2 * R) ** 3)).toBeCloseTo(1, 9);
    // The clamp keeps the columns where they start: half their spacing on the faces across.
    const c = Array.from(s.ctx.wallClearance).map((v) => v / R);
    [sx / (2 * R), sx / (2 * R), 1, 1, sx / (2 * R), sx / (2 * R)].forEach((v, k) => expect(c[k]).toBeCloseTo(v, 12));
    expect(s.ctx.restSpacing).toBeCloseTo(sx, 12);
  });

  it('a 5 cm square pool 12 cm deep (6.25 cells): 6 by 6 columns spread 1.0417×, rows 0.92 · 2r from the floor at half their spacing', () => {
    const s = pool(0.05, 0.12);
    const x = levels(s, 0), y = levels(s, 1), z = levels(s, 2);
    expect([x.length, z.length]).toEqual([6, 6]);
    const sx = 0.05 / 6, sy = (2 * R) ** 3 / (sx * sx);
    expect(y[0]).toBeCloseTo(sy / 2, 9);
    expect(s.ctx.wallClearance[2]).toBeCloseTo(sy / 2, 12);
    expect(s.ctx.restSpacing).toBeCloseTo(sy, 12);
    // The first frame leaves the floor row where it starts, 0.92 r up (the clamp at r lifted it
    // 0.31 mm onto the next row, which then read ρ/ρ0 1.02).
    const L = s.ctx.liquid;
    s.stepFrame();
    let low = Infinity;
    for (let i = 0; i < L.count; i++) low = Math.min(low, L.pos[3 * i + 1]);
    expect(low / R).toBeCloseTo(sy / (2 * R), 3);
  });
});
