/**
 * The particle level set's per-cell particle count (src/grid/trackers/pls-quota.ts): the full count
 * where the surface is under-resolved (a sheet thinner than the grid: a kink of φ at its middle;
 * cells beside an object), half of it beside a flat surface.
 */
import { describe, expect, it } from 'vitest';
import { SOLID } from '../../../src/grid/store.ts';
import { SeedQuota } from '../../../src/grid/trackers/pls-quota.ts';
import { trackingSim } from './rotation.ts';

const n = 32, h = 1 / n;

/** The quota of the non-solid cells within one cell of the surface, by value. */
function quotasNearSurface(sdf: (x: number, y: number, z: number) => number): Map<number, number> {
  const sim = trackingSim('levelset', n, false, sdf);
  const s = sim.store;
  const q = new SeedQuota().compute(s, sim.d.kind, h, 3 * h, 16, 8);
  const seen = new Map<number, number>();
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID || Math.abs(s.phi[c]) >= h) continue;
    // The cells are seeded over the shapes' box (rotation.ts: 0.18–0.52 on each axis) and a few
    // beyond, where φ bends round the edge of the liquid (rough, rightly): only the middle of the
    // surface, 0.25–0.45 in x and z, counts.
    const inner = [s.ci[c], s.ck[c]].every((i) => i >= 0.25 * n && i < 0.45 * n);
    if (inner) seen.set(q[c], (seen.get(q[c]) ?? 0) + 1);
  }
  return seen;
}

describe('particle level set: particles per cell', () => {
  it('keeps half the count beside a flat surface', () => {
    const seen = quotasNearSurface((_x, y) => y - 0.35 - 0.3 * h);
    expect(seen.get(8)).toBeGreaterThan(50);
    expect(seen.get(16) ?? 0).toBe(0);
  });

  it('keeps the full count in a sheet thinner than a cell, where φ has a kink', () => {
    const seen = quotasNearSurface((_x, y) => Math.abs(y - 0.35) - 0.4 * h);
    expect(seen.get(16)).toBeGreaterThan(50);
    expect(seen.get(8) ?? 0).toBe(0);
  });
});
