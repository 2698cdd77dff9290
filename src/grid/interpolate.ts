/**
 * Staggered interpolation (Cline §4, Figure 5): u_x(x, y, z) is trilinear in the grid coordinates
 * (x/h, y/h − ½, z/h − ½), u_y in (x/h − ½, y/h, z/h − ½), u_z in (x/h − ½, y/h − ½, z/h), and
 * centre fields in (x/h − ½, y/h − ½, z/h − ½). Terms of cells that do not exist are dropped and
 * the rest renormalised by their weight (the Figure 5 caption).
 */
import type { GridDomain } from './domain.ts';
import type { GridStore } from './store.ts';

const corner = new Int32Array(8);

/** Slots of the 8 cells (i..i+1, j..j+1, k..k+1), −1 where absent, into `corner`. */
function corners(s: GridStore, i: number, j: number, k: number, known = -2): void {
  if (known === -2 && s.denseCorners(i, j, k, corner)) return;
  const nb = s.nb;
  const c0 = known === -2 ? s.find(i, j, k) : known;
  corner[0] = c0;
  if (c0 >= 0) {
    const cx = nb[6 * c0 + 1], cy = nb[6 * c0 + 3], cz = nb[6 * c0 + 5];
    corner[1] = cx;
    corner[2] = cy;
    corner[4] = cz;
    corner[3] = cx >= 0 ? nb[6 * cx + 3] : s.find(i + 1, j + 1, k);
    corner[5] = cx >= 0 ? nb[6 * cx + 5] : s.find(i + 1, j, k + 1);
    corner[6] = cy >= 0 ? nb[6 * cy + 5] : s.find(i, j + 1, k + 1);
    const cxy = corner[3];
    corner[7] = cxy >= 0 ? nb[6 * cxy + 5] : s.find(i + 1, j + 1, k + 1);
  } else {
    corner[1] = s.find(i + 1, j, k);
    corner[2] = s.find(i, j + 1, k);
    corner[3] = s.find(i + 1, j + 1, k);
    corner[4] = s.find(i, j, k + 1);
    corner[5] = s.find(i + 1, j, k + 1);
    corner[6] = s.find(i, j + 1, k + 1);
    corner[7] = s.find(i + 1, j + 1, k + 1);
  }
}

/**
 * Trilinear value of `field` at grid coordinates (gx, gy, gz) where cell (i, j, k)'s sample sits at
 * (i, j, k). Returns `fallback` when none of the 8 cells exists.
 */
export function sampleAt(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number, fallback = 0, base = -2): number {
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const fx = gx - i, fy = gy - j, fz = gz - k;
  corners(s, i, j, k, base);
  let sum = 0, wsum = 0;
  for (let q = 0; q < 8; q++) {
    const c = corner[q];
    if (c < 0) continue;
    const w = (q & 1 ? fx : 1 - fx) * (q & 2 ? fy : 1 - fy) * (q & 4 ? fz : 1 - fz);
    sum += w * field[c];
    wsum += w;
  }
  if (wsum === 0) return fallback;
  return wsum > 0.999999999 ? sum : sum / wsum;
}

/**
 * Trilinear value of a 3-component field stored per cell (xyz interleaved) at grid coordinates
 * (gx, gy, gz) into out; zero where none of the 8 cells exists.
 */
export function sampleVector(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number, out: Float64Array): void {
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const fx = gx - i, fy = gy - j, fz = gz - k;
  corners(s, i, j, k);
  let x = 0, y = 0, z = 0, wsum = 0;
  for (let q = 0; q < 8; q++) {
    const c = corner[q];
    if (c < 0) continue;
    const w = (q & 1 ? fx : 1 - fx) * (q & 2 ? fy : 1 - fy) * (q & 4 ? fz : 1 - fz);
    x += w * field[3 * c]; y += w * field[3 * c + 1]; z += w * field[3 * c + 2];
    wsum += w;
  }
  const inv = wsum > 0.999999999 ? 1 : wsum > 0 ? 1 / wsum : 0;
  out[0] = x * inv; out[1] = y * inv; out[2] = z * inv;
}

/** Smallest and largest of the values `sampleAtBounded` interpolated from. */
export const sampleBounds = new Float64Array(2);

/** sampleAt that also leaves the extremes of the existing corner values in `sampleBounds` (limiters). */
export function sampleAtBounded(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number): number {
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const fx = gx - i, fy = gy - j, fz = gz - k;
  corners(s, i, j, k);
  let sum = 0, wsum = 0, lo = Infinity, hi = -Infinity;
  for (let q = 0; q < 8; q++) {
    const c = corner[q];
    if (c < 0) continue;
    const v = field[c];
    const w = (q & 1 ? fx : 1 - fx) * (q & 2 ? fy : 1 - fy) * (q & 4 ? fz : 1 - fz);
    sum += w * v;
    wsum += w;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  sampleBounds[0] = lo;
  sampleBounds[1] = hi;
  if (wsum === 0) return 0;
  return wsum > 0.999999999 ? sum : sum / wsum;
}

/** Velocity component a at world point (x, y, z). */
export function sampleVelocity(s: GridStore, d: GridDomain, a: number, x: number, y: number, z: number): number {
  const inv = 1 / d.h;
  const gx = (x - d.origin[0]) * inv - (a === 0 ? 0 : 0.5);
  const gy = (y - d.origin[1]) * inv - (a === 1 ? 0 : 0.5);
  const gz = (z - d.origin[2]) * inv - (a === 2 ? 0 : 0.5);
  return sampleAt(s, s.u[a], gx, gy, gz);
}

/**
 * Full velocity at a world point into out[0..2]. One hash lookup finds the cell holding the point;
 * the base cell of each component's interpolation is that cell or its −x/−y/−z neighbour.
 */
export function velocityAtPoint(s: GridStore, d: GridDomain, x: number, y: number, z: number, out: Float64Array | number[]): void {
  const inv = 1 / d.h;
  const gx = (x - d.origin[0]) * inv, gy = (y - d.origin[1]) * inv, gz = (z - d.origin[2]) * inv;
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const c = s.find(i, j, k);
  const lowX = gx - i < 0.5, lowY = gy - j < 0.5, lowZ = gz - k < 0.5;
  const nb = s.nb;
  for (let a = 0; a < 3; a++) {
    // Base cell (i, j, k) shifted by −1 along the axes where this component's sample sits higher.
    let b = c;
    if (b >= 0 && a !== 0 && lowX) b = nb[6 * b];
    if (b >= 0 && a !== 1 && lowY) b = nb[6 * b + 2];
    if (b >= 0 && a !== 2 && lowZ) b = nb[6 * b + 4];
    const sx = a === 0 ? gx : gx - 0.5, sy = a === 1 ? gy : gy - 0.5, sz = a === 2 ? gz : gz - 0.5;
    out[a] = sampleAt(s, s.u[a], sx, sy, sz, 0, b >= 0 ? b : -2);
  }
}

/** A centre field at a world point. */
export function sampleCentre(s: GridStore, d: GridDomain, field: Float64Array, x: number, y: number, z: number, fallback = 0): number {
  const inv = 1 / d.h;
  return sampleAt(s, field, (x - d.origin[0]) * inv - 0.5, (y - d.origin[1]) * inv - 0.5, (z - d.origin[2]) * inv - 0.5, fallback);
}

const v = new Float64Array(3);

/** RK2 trace (equation 12) from (x, y, z) for time t into out. */
export function tracePoint(s: GridStore, d: GridDomain, x: number, y: number, z: number, t: number, out: Float64Array): void {
  velocityAtPoint(s, d, x, y, z, v);
  const mx = x + 0.5 * t * v[0], my = y + 0.5 * t * v[1], mz = z + 0.5 * t * v[2];
  velocityAtPoint(s, d, mx, my, mz, v);
  out[0] = x + t * v[0];
  out[1] = y + t * v[1];
  out[2] = z + t * v[2];
}
