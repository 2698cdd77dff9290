/** Shared helpers of the geometry tests (shapes, meshes, sampling; also the particle region and surface tests). */
import type { Mesh, TriMesh } from '../../src/index.ts';

/** Deterministic uniform numbers in [0, 1) (Park–Miller). */
export function rng(seed = 12345): () => number {
  let s = seed % 2147483647;
  if (s <= 0) s += 2147483646;
  return () => {
    s = (s * 16807) % 2147483647;
    return (s - 1) / 2147483646;
  };
}

/** A Mesh as a TriMesh with Float64 positions. */
export function toTriMesh(m: Mesh): TriMesh {
  return { positions: Float64Array.from(m.positions), indices: m.indices };
}

/** Indices with vertices at identical positions merged (the first one wins). */
export function weldIndices(positions: ArrayLike<number>, indices: ArrayLike<number>): Uint32Array {
  const first = new Map<string, number>();
  const canon = new Uint32Array(positions.length / 3);
  for (let v = 0; v < canon.length; v++) {
    const key = `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
    const f = first.get(key);
    if (f === undefined) {
      first.set(key, v);
      canon[v] = v;
    } else canon[v] = f;
  }
  return Uint32Array.from(indices, (i) => canon[i]);
}

/**
 * Problems of a closed, consistently oriented surface: every directed edge must appear once and its
 * reverse once. Returns the number of directed edges without a reverse partner or duplicated.
 */
export function openEdges(indices: ArrayLike<number>): number {
  const count = new Map<string, number>();
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e], b = indices[t + ((e + 1) % 3)];
      const key = `${a},${b}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  let bad = 0;
  for (const [key, n] of count) {
    const [a, b] = key.split(',');
    if (n !== 1 || count.get(`${b},${a}`) !== 1) bad++;
  }
  return bad;
}

/** Signed volume by the divergence theorem (positive for an outward-oriented closed mesh). */
export function signedVolume(p: ArrayLike<number>, ix: ArrayLike<number>): number {
  let v = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    v += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6;
  }
  return v;
}

/** Distance from (x, y, z) to the nearest of `n` points (brute force). */
export function nearestDistance(P: ArrayLike<number>, n: number, x: number, y: number, z: number, skip = -1): number {
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    if (i === skip) continue;
    const d = (P[3 * i] - x) ** 2 + (P[3 * i + 1] - y) ** 2 + (P[3 * i + 2] - z) ** 2;
    if (d < best) best = d;
  }
  return Math.sqrt(best);
}
