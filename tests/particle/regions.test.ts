import { describe, expect, it } from 'vitest';
import { findRegions } from '../../src/particle/regions.ts';
import { HashGrid } from '../../src/spatial/hash-grid.ts';
import { rng } from '../scene/geometry-helpers.ts';

function regions(positions: Float64Array, link: number, cell: number) {
  const count = positions.length / 3;
  const grid = new HashGrid(cell);
  grid.build(positions, count);
  const region = new Int32Array(count);
  const n = findRegions(grid, positions, count, link, region);
  return { n, region };
}

/** Reference: O(n²) flood fill, regions numbered by their smallest particle index. */
function bruteRegions(p: Float64Array, link: number): Int32Array {
  const count = p.length / 3;
  const out = new Int32Array(count).fill(-1);
  let next = 0;
  for (let s = 0; s < count; s++) {
    if (out[s] >= 0) continue;
    const stack = [s];
    out[s] = next;
    while (stack.length) {
      const a = stack.pop()!;
      for (let b = 0; b < count; b++) {
        if (out[b] >= 0) continue;
        const d = Math.hypot(p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]);
        if (d < link) { out[b] = next; stack.push(b); }
      }
    }
    next++;
  }
  return out;
}

/** A jittered ball of particles (spacing 0.01) around c. */
function blob(c: number[], radius: number, seed: number): number[] {
  const rand = rng(seed), out: number[] = [];
  const m = Math.ceil(radius / 0.01);
  for (let i = -m; i <= m; i++) for (let j = -m; j <= m; j++) for (let k = -m; k <= m; k++) {
    if (Math.hypot(i, j, k) * 0.01 > radius) continue;
    out.push(c[0] + 0.01 * i + 0.002 * (rand() - 0.5), c[1] + 0.01 * j + 0.002 * (rand() - 0.5), c[2] + 0.01 * k + 0.002 * (rand() - 0.5));
  }
  return out;
}

describe('findRegions (Steele "Rendering": regions by an inter-region distance)', () => {
  it('two separated blobs are two regions; joined by a chain they are one', () => {
    const a = blob([0, 0, 0], 0.05, 1), b = blob([0.2, 0, 0], 0.04, 2);
    const two = new Float64Array([...a, ...b]);
    const r = regions(two, 0.015, 0.015);
    expect(r.n).toBe(2);
    const na = a.length / 3;
    for (let q = 0; q < two.length / 3; q++) expect(r.region[q]).toBe(q < na ? 0 : 1);
    // A chain of particles 0.01 apart from one blob to the other.
    const chain: number[] = [];
    for (let x = 0.05; x <= 0.16; x += 0.01) chain.push(x, 0, 0);
    const joined = regions(new Float64Array([...b, ...chain, ...a]), 0.015, 0.015);
    expect(joined.n).toBe(1);
    expect(joined.region.every((v) => v === 0)).toBe(true);
  });

  it('matches brute force on random points, for several cell sizes (ids dense, by first particle)', () => {
    const rand = rng(17);
    const p = new Float64Array(3 * 600);
    for (let i = 0; i < p.length; i++) p[i] = rand() * 0.3 - 0.1;
    const link = 0.025;
    const ref = bruteRegions(p, link);
    const refCount = Math.max(...ref) + 1;
    expect(refCount).toBeGreaterThan(5); // a fragmented cloud, so the test means something
    for (const cell of [0.01, 0.025, 0.06]) {
      const r = regions(p, link, cell);
      expect(r.n).toBe(refCount);
      expect(r.region).toEqual(ref);
    }
  });

  it('links strictly closer than the distance', () => {
    const p = new Float64Array([0, 0, 0, 0.5, 0, 0, 1.5, 0, 0]);
    expect(regions(p, 1, 1).n).toBe(2);
    expect(regions(p, 1.0000001, 1).n).toBe(1);
  });
});
