/**
 * A footprint shadow: the liquid seen from straight above, as the highest liquid height over each
 * cell of a grid across the framed region, so that a solid point with liquid above it is darkened.
 * It is the shadow of a light overhead, softened over a few cells (percentage-closer filtering,
 * Reeves et al. 1987), and tells at a glance whether liquid rests on a floor (it meets its shadow)
 * or hangs above it (a gap).
 */
import type { Mesh } from '../types/geometry.ts';
import type { Box } from './camera.ts';

/** Cells of the shadow grid along its longer side. */
const RESOLUTION = 256;
/** Half-width of the softening window, cells. */
const SOFT = 2;

export class FootprintShadow {
  private readonly nx: number;
  private readonly nz: number;
  private readonly cell: number;
  private readonly x0: number;
  private readonly z0: number;
  /** Highest liquid y over each cell (−∞ where there is none). */
  private readonly top: Float32Array;
  /** Liquid counts as above a point when it is higher by more than this, m (about a cell). */
  private readonly clearance: number;
  private empty = true;

  constructor(region: Box) {
    const sx = Math.max(1e-6, region.max[0] - region.min[0]), sz = Math.max(1e-6, region.max[2] - region.min[2]);
    this.cell = Math.max(sx, sz) / RESOLUTION;
    this.nx = Math.max(1, Math.ceil(sx / this.cell));
    this.nz = Math.max(1, Math.ceil(sz / this.cell));
    this.x0 = region.min[0];
    this.z0 = region.min[2];
    this.top = new Float32Array(this.nx * this.nz).fill(-Infinity);
    this.clearance = 1.5 * this.cell;
  }

  /** Forgets the liquid, then takes the triangles of `mesh`: each raises the cells under its x–z extent to its highest corner. */
  cast(mesh: Mesh | undefined): void {
    this.top.fill(-Infinity);
    this.empty = true;
    if (!mesh || mesh.indices.length < 3) return;
    const P = mesh.positions, I = mesh.indices, inv = 1 / this.cell;
    for (let t = 0; t + 2 < I.length; t += 3) {
      const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2];
      const i0 = Math.max(0, Math.floor((Math.min(P[a], P[b], P[c]) - this.x0) * inv));
      const i1 = Math.min(this.nx - 1, Math.floor((Math.max(P[a], P[b], P[c]) - this.x0) * inv));
      const k0 = Math.max(0, Math.floor((Math.min(P[a + 2], P[b + 2], P[c + 2]) - this.z0) * inv));
      const k1 = Math.min(this.nz - 1, Math.floor((Math.max(P[a + 2], P[b + 2], P[c + 2]) - this.z0) * inv));
      if (!(i0 <= i1 && k0 <= k1)) continue;
      const y = Math.max(P[a + 1], P[b + 1], P[c + 1]);
      for (let k = k0; k <= k1; k++) {
        for (let i = i0, q = k * this.nx + i0; i <= i1; i++, q++) if (y > this.top[q]) this.top[q] = y;
      }
      this.empty = false;
    }
  }

  /** The fraction (0–1) of the softening window around (x, z) where liquid lies above height y. */
  cover(x: number, y: number, z: number): number {
    if (this.empty) return 0;
    const ci = Math.floor((x - this.x0) / this.cell), ck = Math.floor((z - this.z0) / this.cell);
    if (ci < -SOFT || ck < -SOFT || ci >= this.nx + SOFT || ck >= this.nz + SOFT) return 0;
    const above = y + this.clearance;
    let hits = 0;
    for (let k = ck - SOFT; k <= ck + SOFT; k++) {
      if (k < 0 || k >= this.nz) continue;
      for (let i = ci - SOFT; i <= ci + SOFT; i++) if (i >= 0 && i < this.nx && this.top[k * this.nx + i] > above) hits++;
    }
    return hits / ((2 * SOFT + 1) * (2 * SOFT + 1));
  }
}
