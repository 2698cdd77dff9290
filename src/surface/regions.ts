/**
 * Grouping particles by region (Steele: regions are polygonized separately). Regions come with the
 * input where a caller has them; otherwise particles are grouped into pieces whose kernels cannot
 * overlap, which gives the same surface as one big lattice for less memory.
 */
import { HashGrid } from '../spatial/hash-grid.ts';

export interface RegionGroups {
  count: number;
  /** Particle indices sorted by region; region r is members[start[r] .. start[r + 1]). */
  members: Int32Array;
  start: Int32Array;
}

/**
 * Pieces of particles no closer than `reach` to each other: cells of size `reach` are joined with
 * their 26 neighbours, so particles in cells that are not joined are more than `reach` apart.
 */
export function separatedRegions(positions: ArrayLike<number>, n: number, reach: number): { regionOf: Int32Array; count: number } {
  const grid = new HashGrid(reach);
  grid.build(positions, n);
  const cells = grid.cellCount;
  const parent = new Int32Array(cells);
  for (let c = 0; c < cells; c++) parent[c] = c;
  const find = (c: number): number => {
    while (parent[c] !== c) {
      parent[c] = parent[parent[c]];
      c = parent[c];
    }
    return c;
  };
  const near = new Int32Array(27);
  for (let c = 0; c < cells; c++) {
    const m = grid.neighborCells(c, near, 1);
    for (let q = 0; q < m; q++) {
      const a = find(c), b = find(near[q]);
      if (a !== b) parent[a] = b;
    }
  }
  const label = new Int32Array(cells).fill(-1);
  let count = 0;
  for (let c = 0; c < cells; c++) {
    const r = find(c);
    if (label[r] < 0) label[r] = count++;
    label[c] = label[r];
  }
  const regionOf = new Int32Array(n);
  for (let p = 0; p < n; p++) regionOf[p] = label[grid.pointCell[p]];
  return { regionOf, count };
}

/** Counting sort of particles by region; particles with a negative region are left out. */
export function groupByRegion(regionOf: Int32Array, n: number, count: number): RegionGroups {
  const start = new Int32Array(count + 1);
  for (let p = 0; p < n; p++) if (regionOf[p] >= 0) start[regionOf[p] + 1]++;
  for (let r = 0; r < count; r++) start[r + 1] += start[r];
  const fill = start.slice(0, count);
  const members = new Int32Array(start[count]);
  for (let p = 0; p < n; p++) {
    const r = regionOf[p];
    if (r >= 0) members[fill[r]++] = p;
  }
  return { count, members, start };
}

let sortKeys = new Float64Array(0);

/**
 * Reorders members[from .. to) by cell of size `cell` (x fastest, then y, then z), the lattice's
 * memory order, so that consecutive particles splat into nearby lattice points (a shuffled order
 * costs about 3× in cache misses).
 */
export function sortSpatially(positions: ArrayLike<number>, members: Int32Array, from: number, to: number, cell: number): void {
  const n = to - from;
  if (n < 2) return;
  let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
  for (let m = from; m < to; m++) {
    const p = members[m];
    x0 = Math.min(x0, positions[3 * p]); x1 = Math.max(x1, positions[3 * p]);
    y0 = Math.min(y0, positions[3 * p + 1]); y1 = Math.max(y1, positions[3 * p + 1]);
    z0 = Math.min(z0, positions[3 * p + 2]); z1 = Math.max(z1, positions[3 * p + 2]);
  }
  let inv = 1 / cell, nx = 0, ny = 0;
  for (;;) {
    nx = Math.floor((x1 - x0) * inv) + 1;
    ny = Math.floor((y1 - y0) * inv) + 1;
    const nz = Math.floor((z1 - z0) * inv) + 1;
    if (nx * ny * nz * n < 2 ** 52) break;
    inv /= 2; // coarser cells until key · n stays exact
  }
  if (sortKeys.length < n) sortKeys = new Float64Array(n);
  const keys = sortKeys.subarray(0, n);
  for (let m = 0; m < n; m++) {
    const p = members[from + m];
    const key = Math.floor((positions[3 * p] - x0) * inv) + nx * (Math.floor((positions[3 * p + 1] - y0) * inv) + ny * Math.floor((positions[3 * p + 2] - z0) * inv));
    // Key and position in one double (exact below 2⁵³), so a numeric sort carries the particle along.
    keys[m] = key * n + m;
  }
  keys.sort();
  const copy = members.slice(from, to);
  for (let m = 0; m < n; m++) members[from + m] = copy[keys[m] % n];
}
