/**
 * Staggered interpolation (Cline §4, Figure 5): u_x(x, y, z) is trilinear in the grid coordinates
 * (x/h, y/h − ½, z/h − ½), u_y in (x/h − ½, y/h, z/h − ½), u_z in (x/h − ½, y/h − ½, z/h), and
 * centre fields in (x/h − ½, y/h − ½, z/h − ½). Terms of cells that do not exist are dropped and
 * the rest renormalised by their weight (the Figure 5 caption).
 */
import type { GridDomain } from './domain.ts';
import type { GridStore } from './store.ts';

const corner = new Int32Array(8);

/**
 * The face velocities averaged to the cell centres, xyz interleaved, into out[3 c …] (a cell
 * without its +a face takes its own −a face's value): the field φ's transport, the level-set
 * particles and MacCormack's trace midpoints read. Over cells [from, to) (a thread's share).
 */
export function centreVelocitiesInto(s: GridStore, out: Float64Array, from = 0, to = s.count): void {
  const { nb, u } = s, u0 = u[0], u1 = u[1], u2 = u[2];
  for (let c = from; c < to; c++) {
    const o = 6 * c, up0 = nb[o + 1], up1 = nb[o + 3], up2 = nb[o + 5];
    out[3 * c] = up0 >= 0 ? 0.5 * (u0[c] + u0[up0]) : u0[c];
    out[3 * c + 1] = up1 >= 0 ? 0.5 * (u1[c] + u1[up1]) : u1[c];
    out[3 * c + 2] = up2 >= 0 ? 0.5 * (u2[c] + u2[up2]) : u2[c];
  }
}

/**
 * Index in the store's dense slot table of cell (i, j, k) when the table covers the eight cells
 * (i..i+1, j..j+1, k..k+1), else −1. The samplers below read the eight slots straight from it and,
 * where all eight cells exist (almost everywhere), sum the trilinear terms in one expression, in
 * the same order as the general loop (the same bits).
 */
function denseBase(s: GridStore, i: number, j: number, k: number): number {
  if (s.dense === null) return -1;
  const x = i + s.dOff, y = j + s.dOff, z = k + s.dOff, W = s.dW, H = s.dH;
  if (!(x >= 0 && y >= 0 && z >= 0 && x + 1 < W && y + 1 < H && z + 1 < s.dD)) return -1;
  return x + W * (y + H * z);
}

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
 * The trilinear value of `field` at grid coordinates (g[0], g[1], g[2]) into out[at] where the dense
 * table holds all eight cells; false, with `out` untouched, otherwise. Coordinates come in an array
 * and the value goes to one: doubles passed to or returned from a call that is not inlined are
 * boxed on the heap, and these run millions of times a step (the garbage it made and what the
 * array forms saved: BENCHMARKS.md, grid speed). The `…Into` functions below are those forms.
 */
function denseSample(s: GridStore, field: Float64Array, g: Float64Array, out: Float64Array, at: number): boolean {
  const gx = g[0], gy = g[1], gz = g[2];
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const b = denseBase(s, i, j, k);
  if (b < 0) return false;
  const t = s.dense!, W = s.dW, l = W * s.dH;
  const c0 = t[b], c1 = t[b + 1], c2 = t[b + W], c3 = t[b + W + 1], c4 = t[b + l], c5 = t[b + l + 1], c6 = t[b + l + W], c7 = t[b + l + W + 1];
  if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) < 0) return false;
  const fx = gx - i, fy = gy - j, fz = gz - k;
  const ex = 1 - fx, ey = 1 - fy, ez = 1 - fz;
  out[at] = 0 + ex * ey * ez * field[c0] + fx * ey * ez * field[c1] + ex * fy * ez * field[c2] + fx * fy * ez * field[c3]
    + ex * ey * fz * field[c4] + fx * ey * fz * field[c5] + ex * fy * fz * field[c6] + fx * fy * fz * field[c7];
  return true;
}

/** Grid coordinates (and a fallback in [3]) handed from the double-argument wrappers to the array forms. */
const gp = new Float64Array(4);

/**
 * sampleAt in array form: `field` at grid coordinates (g[0], g[1], g[2]) into out[at], g[3] where
 * none of the 8 cells exists.
 */
export function sampleInto(s: GridStore, field: Float64Array, g: Float64Array, out: Float64Array, at: number): void {
  if (!denseSample(s, field, g, out, at)) out[at] = sampleAtGeneral(s, field, g[0], g[1], g[2], g[3], -2);
}

const result = new Float64Array(1);

/**
 * Trilinear value of `field` at grid coordinates (gx, gy, gz) where cell (i, j, k)'s sample sits at
 * (i, j, k). Returns `fallback` when none of the 8 cells exists.
 */
export function sampleAt(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number, fallback = 0, base = -2): number {
  gp[0] = gx; gp[1] = gy; gp[2] = gz;
  if (denseSample(s, field, gp, result, 0)) return result[0];
  return sampleAtGeneral(s, field, gx, gy, gz, fallback, base);
}

/** sampleAt through the corner slots, dropping the missing cells' terms (Figure 5's caption). */
function sampleAtGeneral(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number, fallback: number, base: number): number {
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
  gp[0] = gx; gp[1] = gy; gp[2] = gz;
  sampleVectorInto(s, field, gp, out);
}

/** sampleVector in array form: at grid coordinates (g[0], g[1], g[2]). */
export function sampleVectorInto(s: GridStore, field: Float64Array, g: Float64Array, out: Float64Array): void {
  const gx = g[0], gy = g[1], gz = g[2];
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const fx = gx - i, fy = gy - j, fz = gz - k;
  const b = denseBase(s, i, j, k);
  if (b >= 0) {
    const t = s.dense!, W = s.dW, l = W * s.dH;
    const c0 = t[b], c1 = t[b + 1], c2 = t[b + W], c3 = t[b + W + 1], c4 = t[b + l], c5 = t[b + l + 1], c6 = t[b + l + W], c7 = t[b + l + W + 1];
    if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) >= 0) {
      const ex = 1 - fx, ey = 1 - fy, ez = 1 - fz;
      const w0 = ex * ey * ez, w1 = fx * ey * ez, w2 = ex * fy * ez, w3 = fx * fy * ez, w4 = ex * ey * fz, w5 = fx * ey * fz, w6 = ex * fy * fz, w7 = fx * fy * fz;
      const q0 = 3 * c0, q1 = 3 * c1, q2 = 3 * c2, q3 = 3 * c3, q4 = 3 * c4, q5 = 3 * c5, q6 = 3 * c6, q7 = 3 * c7;
      out[0] = 0 + w0 * field[q0] + w1 * field[q1] + w2 * field[q2] + w3 * field[q3] + w4 * field[q4] + w5 * field[q5] + w6 * field[q6] + w7 * field[q7];
      out[1] = 0 + w0 * field[q0 + 1] + w1 * field[q1 + 1] + w2 * field[q2 + 1] + w3 * field[q3 + 1] + w4 * field[q4 + 1] + w5 * field[q5 + 1] + w6 * field[q6 + 1] + w7 * field[q7 + 1];
      out[2] = 0 + w0 * field[q0 + 2] + w1 * field[q1 + 2] + w2 * field[q2 + 2] + w3 * field[q3 + 2] + w4 * field[q4 + 2] + w5 * field[q5 + 2] + w6 * field[q6 + 2] + w7 * field[q7 + 2];
      return;
    }
  }
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
const boundedResult = new Float64Array(1);

/** sampleAt that also leaves the extremes of the existing corner values in `sampleBounds` (limiters). */
export function sampleAtBounded(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number): number {
  gp[0] = gx; gp[1] = gy; gp[2] = gz;
  sampleBoundedInto(s, field, gp, boundedResult, 0);
  return boundedResult[0];
}

/** sampleAtBounded in array form: at grid coordinates (g[0], g[1], g[2]) into out[at]. */
export function sampleBoundedInto(s: GridStore, field: Float64Array, g: Float64Array, out: Float64Array, at: number): void {
  if (!denseSampleBounded(s, field, g, out, at)) out[at] = sampleAtBoundedGeneral(s, field, g[0], g[1], g[2]);
}

/** sampleAtBounded's dense path (see denseSample). */
function denseSampleBounded(s: GridStore, field: Float64Array, g: Float64Array, out: Float64Array, at: number): boolean {
  const gx = g[0], gy = g[1], gz = g[2];
  const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz);
  const b = denseBase(s, i, j, k);
  if (b < 0) return false;
  const t = s.dense!, W = s.dW, l = W * s.dH;
  const c0 = t[b], c1 = t[b + 1], c2 = t[b + W], c3 = t[b + W + 1], c4 = t[b + l], c5 = t[b + l + 1], c6 = t[b + l + W], c7 = t[b + l + W + 1];
  if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) < 0) return false;
  const v0 = field[c0], v1 = field[c1], v2 = field[c2], v3 = field[c3], v4 = field[c4], v5 = field[c5], v6 = field[c6], v7 = field[c7];
  let lo = Infinity, hi = -Infinity;
  if (v0 < lo) lo = v0; if (v0 > hi) hi = v0;
  if (v1 < lo) lo = v1; if (v1 > hi) hi = v1;
  if (v2 < lo) lo = v2; if (v2 > hi) hi = v2;
  if (v3 < lo) lo = v3; if (v3 > hi) hi = v3;
  if (v4 < lo) lo = v4; if (v4 > hi) hi = v4;
  if (v5 < lo) lo = v5; if (v5 > hi) hi = v5;
  if (v6 < lo) lo = v6; if (v6 > hi) hi = v6;
  if (v7 < lo) lo = v7; if (v7 > hi) hi = v7;
  sampleBounds[0] = lo;
  sampleBounds[1] = hi;
  const fx = gx - i, fy = gy - j, fz = gz - k;
  const ex = 1 - fx, ey = 1 - fy, ez = 1 - fz;
  out[at] = 0 + ex * ey * ez * v0 + fx * ey * ez * v1 + ex * fy * ez * v2 + fx * fy * ez * v3 + ex * ey * fz * v4 + fx * ey * fz * v5 + ex * fy * fz * v6 + fx * fy * fz * v7;
  return true;
}

function sampleAtBoundedGeneral(s: GridStore, field: Float64Array, gx: number, gy: number, gz: number): number {
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
export function velocityAtPoint(s: GridStore, d: GridDomain, x: number, y: number, z: number, out: Float64Array): void {
  wp[0] = x; wp[1] = y; wp[2] = z;
  velocityInto(s, d, wp, out);
}

const wp = new Float64Array(3);
const gv = new Float64Array(4);

/** velocityAtPoint in array form: at the world point (p[0], p[1], p[2]). */
export function velocityInto(s: GridStore, d: GridDomain, p: Float64Array, out: Float64Array): void {
  const inv = 1 / d.h, o = d.origin;
  const gx = (p[0] - o[0]) * inv, gy = (p[1] - o[1]) * inv, gz = (p[2] - o[2]) * inv;
  if (s.dense !== null) {
    const u = s.u, g = gv;
    g[0] = gx; g[1] = gy - 0.5; g[2] = gz - 0.5; g[3] = 0;
    sampleInto(s, u[0], g, out, 0);
    g[0] = gx - 0.5; g[1] = gy;
    sampleInto(s, u[1], g, out, 1);
    g[1] = gy - 0.5; g[2] = gz;
    sampleInto(s, u[2], g, out, 2);
    return;
  }
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
const tp = new Float64Array(3);

/** RK2 trace (equation 12) from (x, y, z) for time t into out. */
export function tracePoint(s: GridStore, d: GridDomain, x: number, y: number, z: number, t: number, out: Float64Array): void {
  tp[0] = x; tp[1] = y; tp[2] = z;
  velocityInto(s, d, tp, v);
  tp[0] = x + 0.5 * t * v[0]; tp[1] = y + 0.5 * t * v[1]; tp[2] = z + 0.5 * t * v[2];
  velocityInto(s, d, tp, v);
  out[0] = x + t * v[0];
  out[1] = y + t * v[1];
  out[2] = z + t * v[2];
}
