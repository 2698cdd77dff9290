/**
 * Kernel widths per particle: the wide kernel smooths away per-particle bumps but pulls in, and
 * finally cuts, features only a few particles thick (a honey string of radius a vanishes once
 * σ ≳ a / 1.18). Particles with few neighbours — in strings, thin sheets' rims, small drops,
 * sharp edges — get a narrower kernel, blended by neighbour count, so the bulk keeps the wide σ.
 * (A cheap, isotropic stand-in for the anisotropic kernels of Yu & Turk 2013.)
 */
import { HashGrid } from '../spatial/hash-grid.ts';

/** Neighbour-count radius, particle radii. */
export const THIN_REACH = 5;
/**
 * Counts within THIN_REACH r (the particle itself excluded) at and above which σᵢ = σ (a flat
 * surface's particles see about 30 on the rest lattice, a string of radius 2 r about 14), and at
 * and below which σᵢ = σ_thin; linear between.
 */
export const THIN_COUNT_LO = 14;
export const THIN_COUNT_HI = 26;

/** σᵢ per particle (indexed like positions) for the particles members[from .. to). */
export function adaptiveWidths(
  positions: ArrayLike<number>,
  members: Int32Array,
  from: number,
  to: number,
  r: number,
  sigma: number,
  thinSigma: number,
  out: Float64Array,
): void {
  const reach = THIN_REACH * r, reach2 = reach * reach;
  const grid = new HashGrid(reach);
  // The grid holds the region's particles only (local ids), so other regions do not count.
  const n = to - from;
  const local = new Float64Array(3 * n);
  for (let m = 0; m < n; m++) {
    const p = members[from + m];
    local[3 * m] = positions[3 * p];
    local[3 * m + 1] = positions[3 * p + 1];
    local[3 * m + 2] = positions[3 * p + 2];
  }
  grid.build(local, n);
  const cells = new Int32Array(27);
  for (let m = 0; m < n; m++) {
    const x = local[3 * m], y = local[3 * m + 1], z = local[3 * m + 2];
    const k = grid.cellsNear(x, y, z, cells, 1);
    let c = -1;
    for (let q = 0; q < k; q++) {
      const cell = cells[q];
      for (let s = grid.start[cell], e = s + grid.count[cell]; s < e; s++) {
        const o = 3 * grid.order[s];
        const dx = local[o] - x, dy = local[o + 1] - y, dz = local[o + 2] - z;
        if (dx * dx + dy * dy + dz * dz < reach2) c++;
      }
    }
    const t = Math.min(1, Math.max(0, (c - THIN_COUNT_LO) / (THIN_COUNT_HI - THIN_COUNT_LO)));
    out[members[from + m]] = thinSigma + t * (sigma - thinSigma);
  }
}
