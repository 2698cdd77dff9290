/** The grid rebuild's store (src/grid/store.ts, update-grid.ts): neighbours, kept keys, carried values. */
import { describe, expect, it } from 'vitest';
import { cellKey, NOSLIP, OPEN, type GridDomain } from '../../src/grid/domain.ts';
import { GridStore } from '../../src/grid/store.ts';
import { rebuildGrid, type RebuildInput } from '../../src/grid/update-grid.ts';

const domain = (n: [number, number, number], open: boolean): GridDomain => ({
  origin: [0, 0, 0], h: 0.01, n,
  kind: new Int32Array(6).fill(open ? OPEN : NOSLIP), wallVelocity: new Float64Array(18),
});

/** Liquid cells of a ball of radius r cells centred at c, shifted by `dx` cells along x. */
function ball(d: GridDomain, c: [number, number, number], r: number, dx: number): RebuildInput {
  const keys: number[] = [];
  for (let k = 0; k < d.n[2]; k++) for (let j = 0; j < d.n[1]; j++) for (let i = 0; i < d.n[0]; i++) {
    if (Math.hypot(i - c[0] - dx, j - c[1], k - c[2]) < r) keys.push(cellKey(d, i, j, k));
  }
  return { liquid: Int32Array.from(keys), liquidCount: keys.length, layers: 2, solidAt: (i) => (i === 5 ? 0 : -1), outsidePhi: 0.03, ambientTemperature: 20 };
}

/** The same cells, values and neighbours in the same slots. */
function expectSameStore(a: GridStore, b: GridStore): void {
  expect(b.count).toBe(a.count);
  const n = a.count;
  expect(Array.from(b.ci.subarray(0, n))).toEqual(Array.from(a.ci.subarray(0, n)));
  expect(Array.from(b.cj.subarray(0, n))).toEqual(Array.from(a.cj.subarray(0, n)));
  expect(Array.from(b.ck.subarray(0, n))).toEqual(Array.from(a.ck.subarray(0, n)));
  expect(Array.from(b.type.subarray(0, n))).toEqual(Array.from(a.type.subarray(0, n)));
  expect(Array.from(b.nb.subarray(0, 6 * n))).toEqual(Array.from(a.nb.subarray(0, 6 * n)));
  for (let x = 0; x < 3; x++) expect(Array.from(b.u[x].subarray(0, n))).toEqual(Array.from(a.u[x].subarray(0, n)));
  expect(Array.from(b.phi.subarray(0, n))).toEqual(Array.from(a.phi.subarray(0, n)));
}

describe('grid rebuild', () => {
  for (const open of [false, true]) {
    it(`links the same neighbours through the dense table as through the sorted keys and the hash (${open ? 'open' : 'closed'} walls)`, () => {
      const d = domain([20, 16, 12], open);
      // Touching the x = 0 wall and the floor, so that wall cells of the margin exist.
      const s = rebuildGrid(null, d, ball(d, [3, 2, 6], 5, 0));
      expect(s.dense).not.toBeNull();
      const n = s.count;
      const dense = s.nb.slice(0, 6 * n);
      expect(dense.some((m) => m < 0)).toBe(true);
      s.linkNeighbors();
      expect(Array.from(s.nb.subarray(0, 6 * n))).toEqual(Array.from(dense));
      s.nb.fill(-7);
      const W = d.n[0] + 24, WH = W * (d.n[1] + 24);
      s.linkSorted(s.keys, W, WH);
      expect(Array.from(s.nb.subarray(0, 6 * n))).toEqual(Array.from(dense));
      s.nb.fill(-7);
      expect(s.linkDense()).toBe(true);
      expect(Array.from(s.nb.subarray(0, 6 * n))).toEqual(Array.from(dense));
    });
  }

  it('keeps each store\'s keys for the next rebuild, and carries the values as from a store without them', () => {
    const d = domain([24, 16, 16], false);
    const a = rebuildGrid(null, d, ball(d, [8, 6, 8], 4, 0));
    expect(a.keysValid).toBe(true);
    for (let c = 0; c < a.count; c++) {
      expect(a.keys[c]).toBe(cellKey(d, a.ci[c], a.cj[c], a.ck[c]));
      a.u[0][c] = 0.001 * c;
      a.phi[c] = Math.sin(c);
    }
    // A copy inserted cell by cell (as a checkpoint restores one): its keys are stale.
    const b = new GridStore(a.count);
    for (let c = 0; c < a.count; c++) b.insert(a.ci[c], a.cj[c], a.ck[c]);
    expect(b.keysValid).toBe(false);
    b.u[0].set(a.u[0].subarray(0, a.count));
    b.phi.set(a.phi.subarray(0, a.count));
    // The ball moves two cells: some cells stay, some go, some are new.
    const next = ball(d, [8, 6, 8], 4, 2);
    const fromKept = rebuildGrid(a, d, next, new GridStore(16));
    const fromStale = rebuildGrid(b, d, next, new GridStore(16));
    expectSameStore(fromKept, fromStale);
    let carried = 0;
    for (let c = 0; c < fromKept.count; c++) if (fromKept.u[0][c] !== 0) carried++;
    expect(carried).toBeGreaterThan(0.3 * fromKept.count);
    // A store's keys go stale once anything else inserts into it.
    fromKept.insert(-3, 0, 0);
    expect(fromKept.keysValid).toBe(false);
  });
});
