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
 * Fractions of the region's bulk count (the 90th percentile of the counts within THIN_REACH r) at
 * and above which σᵢ = σ, and at and below which σᵢ = σ_thin; linear between. On the rest lattice
 * the bulk sees 65, particles one radius under a flat surface about 40 (0.6), a string of radius
 * 2 r about 14 (0.22) and one of 3 r about 28 (0.43). (A 4 r reach halves the cost but its
 * counts are noisier: a 10 r drop's face tilt rose from 4.9° to 7.7°.) Relative
 * to the bulk, so that a simulation running below rest density is not taken for thin everywhere.
 */
export const THIN_FRACTION_LO = 0.22;
export const THIN_FRACTION_HI = 0.4;

/**
 * The positions of the region's particles members[from .. to) as one packed array (local ids), so
 * that a hash grid built on it holds that region alone.
 */
export function regionPositions(positions: ArrayLike<number>, members: Int32Array, from: number, to: number): Float64Array {
  const n = to - from;
  const local = new Float64Array(3 * n);
  for (let m = 0; m < n; m++) {
    const p = members[from + m];
    local[3 * m] = positions[3 * p];
    local[3 * m + 1] = positions[3 * p + 1];
    local[3 * m + 2] = positions[3 * p + 2];
  }
  return local;
}

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
  surface?: ArrayLike<number> | null,
): void {
  const reach = THIN_REACH * r, reach2 = reach * reach;
  const grid = new HashGrid(reach);
  // The grid holds the region's particles only (local ids), so other regions do not count.
  const n = to - from;
  const local = regionPositions(positions, members, from, to);
  grid.build(local, n);
  const cells = new Int32Array(27);
  // With surface flags, interior particles (never in a thin feature) keep σ; only surface
  // particles and every 8th interior one (for the bulk count) are counted.
  const counts = new Float64Array(n);
  const bulkSample: number[] = [];
  // Cell by cell, so that the 27 neighbour cells are looked up once per cell, not per particle.
  for (let cell = 0; cell < grid.cellCount; cell++) {
    const k = grid.neighborCells(cell, cells, 1);
    for (let s0 = grid.start[cell], e0 = s0 + grid.count[cell]; s0 < e0; s0++) {
      const m = grid.order[s0];
      const inner = surface ? !surface[members[from + m]] : false;
      if (inner && m % 8 !== 0) {
        counts[m] = Infinity;
        continue;
      }
      const x = local[3 * m], y = local[3 * m + 1], z = local[3 * m + 2];
      let c = -1;
      for (let q = 0; q < k; q++) {
        const nc = cells[q];
        for (let s = grid.start[nc], e = s + grid.count[nc]; s < e; s++) {
          const o = 3 * grid.order[s];
          const dx = local[o] - x, dy = local[o + 1] - y, dz = local[o + 2] - z;
          if (dx * dx + dy * dy + dz * dz < reach2) c++;
        }
      }
      counts[m] = inner ? Infinity : c;
      if (inner) bulkSample.push(c);
    }
  }
  // Bulk count: the median of the sampled interior particles, else the region's 90th percentile,
  // but never below what a rest-lattice string of radius 3 r sees, so that a region that is all
  // string or all spray still counts as thin.
  let bulk: number;
  if (bulkSample.length >= 8) {
    bulkSample.sort((a, b) => a - b);
    bulk = bulkSample[bulkSample.length >> 1];
  } else {
    const sorted = counts.slice().sort();
    let top = n - 1;
    while (top > 0 && sorted[top] === Infinity) top--;
    bulk = sorted[Math.floor(0.9 * top)];
  }
  bulk = Math.max(bulk, 40);
  const lo = THIN_FRACTION_LO * bulk, hi = THIN_FRACTION_HI * bulk;
  for (let m = 0; m < n; m++) {
    const t = Math.min(1, Math.max(0, (counts[m] - lo) / (hi - lo)));
    out[members[from + m]] = thinSigma + t * (sigma - thinSigma);
  }
}
