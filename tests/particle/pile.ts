/**
 * The pile a particle pour lays on the domain's floor, on the same 2 mm raster and with the same
 * measures as the grid's (tests/grid/pile.ts, pileOfMap): each column's height is the top of the
 * run of particles that stands on the floor in it, going up. A particle covers the columns within
 * FOOTPRINT r of its centre (the widest gap between a layer's particles, 2r apart, is r √2 on a
 * square lattice, so a flat pool's top layer covers every column and reads flat) and the heights
 * y ± r (the drawn surface lies about r beyond the centres); two covered spans closer than r join,
 * so a gap of more than r under a fold ends the column at the fold's underside, as the grid's first
 * zero of φ does. A column counts only when its run starts within r of the floor. The radius so
 * read is about r/2 wider than the drawn surface's.
 */
import type { FluidPoints } from '../../src/types/geometry.ts';
import { pileOfMap, type Pile } from '../grid/pile.ts';

/** The columns a particle covers: within this many radii of its centre. */
export const FOOTPRINT = 1.5;

export function measureParticlePile(
  points: FluidPoints, r: number, min: readonly number[], max: readonly number[], core = 0.02, step = 0.002,
): Pile {
  const [x0, y0, z0] = min, reach = FOOTPRINT * r;
  const nx = Math.floor((max[0] - x0) / step), nz = Math.floor((max[2] - z0) / step);
  // Per column the particles over it (their heights above the floor), as lists in one array.
  const count = new Int32Array(nx * nz + 1);
  const each = (fn: (c: number, y: number) => void): void => {
    for (let p = 0; p < points.count; p++) {
      const px = points.positions[3 * p], py = points.positions[3 * p + 1] - y0, pz = points.positions[3 * p + 2];
      const i0 = Math.max(0, Math.ceil((px - reach - x0) / step - 0.5)), i1 = Math.min(nx - 1, Math.floor((px + reach - x0) / step - 0.5));
      const k0 = Math.max(0, Math.ceil((pz - reach - z0) / step - 0.5)), k1 = Math.min(nz - 1, Math.floor((pz + reach - z0) / step - 0.5));
      for (let i = i0; i <= i1; i++) for (let k = k0; k <= k1; k++) {
        if (Math.hypot(x0 + (i + 0.5) * step - px, z0 + (k + 0.5) * step - pz) <= reach) fn(i * nz + k, py);
      }
    }
  };
  each((c) => count[c + 1]++);
  for (let c = 0; c < nx * nz; c++) count[c + 1] += count[c];
  const ys = new Float64Array(count[nx * nz]), fill = count.slice(0, nx * nz);
  each((c, y) => { ys[fill[c]++] = y; });
  const map = new Float64Array(nx * nz);
  for (let c = 0; c < nx * nz; c++) {
    const col = ys.subarray(count[c], count[c + 1]).sort();
    if (col.length === 0 || col[0] - r > r) continue;
    let top = col[0] + r;
    for (let j = 1; j < col.length && col[j] - r <= top + r; j++) top = Math.max(top, col[j] + r);
    map[c] = top;
  }
  return pileOfMap(map, nx, nz, x0, z0, step, core);
}
