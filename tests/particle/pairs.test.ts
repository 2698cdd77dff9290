/**
 * The neighbour structures of the pair stages (neighbours.ts, adhesion.ts): the pair list that
 * adhesion records and the contact lists hold exactly the pairs a brute-force O(n²) search finds
 * (the cell-box culling must never drop one), and the hashed cells find every occupied cell,
 * negative coordinates included.
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { CONTACT_REACH } from '../../src/particle/context.ts';
import { HashGrid, hashCell } from '../../src/spatial/hash-grid.ts';
import { lcg, liquid, particleSim } from './helpers.ts';

function jitteredBlob() {
  const sim = particleSim({
    gravity: [0, 0, 0],
    materials: { a: liquid(3), b: { ...liquid(8), density: 1600 } },
    bodies: [
      { material: 'a', shape: { type: 'sphere', center: [-0.01, 0.02, -0.03], radius: 0.03 } },
      { material: 'b', shape: { type: 'sphere', center: [0.035, -0.005, -0.03], radius: 0.02 } },
    ],
    particle: { radius: 0.003 },
  });
  const L = sim.ctx.liquid, rnd = lcg(11);
  // Strong jitter (up to 2.5 r): pairs at every distance, cells of irregular extent.
  for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * 0.015;
  sim.ctx.cells.buildSorted(L);
  return sim;
}

/** Sorted keys min·n + max of the pairs closer than `reach` (brute force). */
function brutePairs(pos: Float64Array, n: number, reach: number): number[] {
  const keys: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
      if (dx * dx + dy * dy + dz * dz < reach * reach) keys.push(i * n + j);
    }
  }
  return keys.sort((a, b) => a - b);
}

function listed(start: Int32Array, js: Int32Array, n: number): number[] {
  const keys: number[] = [];
  for (let i = 0; i < n; i++) for (let q = start[i]; q < start[i + 1]; q++) keys.push(Math.min(i, js[q]) * n + Math.max(i, js[q]));
  return keys.sort((a, b) => a - b);
}

describe('neighbour pairs', () => {
  it('adhesion records exactly the pairs within reach, and the contacts within CONTACT_REACH radii', () => {
    const sim = jitteredBlob(), ctx = sim.ctx, L = ctx.liquid, n = L.count;
    expect(n).toBeGreaterThan(300);
    computeAdhesion(ctx);
    const pairs = ctx.cells.pairs;
    const want = brutePairs(L.pos, n, ctx.reach);
    expect(want.length).toBeGreaterThan(10 * n);
    expect(pairs.start[n]).toBe(pairs.length);
    expect(listed(pairs.start, pairs.j, n)).toEqual(want);
    expect(listed(ctx.contacts.start, ctx.contacts.j, n)).toEqual(brutePairs(L.pos, n, CONTACT_REACH * ctx.r));
  });

  it('the cell boxes bound their particles', () => {
    const sim = jitteredBlob(), ctx = sim.ctx, g = ctx.cells.grid, pos = ctx.liquid.pos;
    ctx.cells.updateBoxes(pos);
    const box = ctx.cells.box;
    for (let c = 0; c < g.cellCount; c++) {
      for (let a = g.start[c]; a < g.start[c] + g.count[c]; a++) {
        for (let k = 0; k < 3; k++) {
          expect(pos[3 * a + k]).toBeGreaterThanOrEqual(box[6 * c + k]);
          expect(pos[3 * a + k]).toBeLessThanOrEqual(box[6 * c + 3 + k]);
        }
      }
    }
  });
});

describe('HashGrid', () => {
  it('finds every occupied cell (negative corners too) and no empty one', () => {
    const rnd = lcg(5), n = 2000, size = 0.1;
    const pos = new Float64Array(3 * n);
    for (let o = 0; o < 3 * n; o++) pos[o] = (rnd() - 0.5) * 40 * size;
    const g = new HashGrid(size);
    g.build(pos, n);
    const seen = new Set<string>();
    for (let p = 0; p < n; p++) {
      const i = Math.floor(pos[3 * p] / size), j = Math.floor(pos[3 * p + 1] / size), k = Math.floor(pos[3 * p + 2] / size);
      seen.add(`${i},${j},${k}`);
      const c = g.find(i, j, k);
      expect(c).toBe(g.pointCell[p]);
    }
    expect(g.cellCount).toBe(seen.size);
    let empty = 0;
    for (let i = -22; i < 22; i++) for (let j = -22; j < 22; j += 5) if (!seen.has(`${i},${j},3`)) { empty++; expect(g.find(i, j, 3)).toBe(-1); }
    expect(empty).toBeGreaterThan(0);
  });

  it('hashCell is 541 i + 79 j + 31 k mod the table size, in [0, size)', () => {
    for (const [i, j, k] of [[0, 0, 0], [-1, 0, 0], [5, -7, 3], [-1000, -2000, -3000], [123456, -654321, 99]]) {
      const h = hashCell(i, j, k, 1021);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(1021);
      expect(Math.abs((h - (541 * i + 79 * j + 31 * k)) % 1021)).toBe(0);
    }
  });
});
