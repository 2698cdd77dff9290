/**
 * The product A v of the implicit viscosity's system (viscosity-weiler-solve.ts states the system:
 * Weiler, Koschier, Brand & Bender 2018, §4, eq. 8–10, backward Euler, per unit volume times the
 * rest volume), matrix-free, and the rows' own terms it shares with the set-up: ρ_i v_i, the object
 * terms on the body's tangent plane, the mirror ghosts of the closed walls and the part of a wall
 * the ghosts leave uncovered (viscosity-weiler-wall-cover.ts).
 *
 * Two layouts of the liquid pairs:
 * - *half rows* (one thread): each pair once, in row min(i, j), as its scalar e_ij (a 16-bit
 *   code within 2.4e-4 of it, decoded by one look-up and one multiplication: viscosity-weiler-coef.ts;
 *   x_ij is read from the positions: 2 bytes a pair rather than the 12 of g = √e x_ij, which cost
 *   the stage buffer 250 bytes a point at 5 % of the stage's time: docs/decisions.md).
 *   One sweep over the rows in order: u = e x_ij · (v_i − v_j) is added as u x_ij to row i and taken from row j > i, so
 *   row i is complete when the sweep leaves it, and a dot product with v is taken in the same sweep
 *   (the CG's p · A p). Two vectors can go through one sweep (applyHalfTwo: the start's A v* and
 *   A x0), reading each pair's e and x_ij once for both.
 * - *half rows and cross rows* (a team, viscosity-weiler-team-rows.ts): each thread sweeps the half
 *   rows of its own range of rows as one thread does, adding a pair to its upper row only where
 *   that row is its own, and gathers into its rows the pairs from the ranges below (the cross
 *   rows); each thread writes only its own rows (applyTeam).
 */
import { cubicSplineSlope } from '../math/kernels.ts';

/**
 * Entries of `red` per thread (viscosity-weiler-solve.ts: p · A p, r · P r, |r|², |b − A v*|², |b|²,
 * the rows' density, the residual's sum, the Jacobi bound); the results follow the threads' blocks.
 */
export const RED_STRIDE = 10;
/** Wall table entries per closed wall: axis, plane, kind (0 slip, 1 no-slip), u_w. */
export const WALL_STRIDE = 6;
/** A ghost list entry is GHOST_WALLS j + wall (viscosity-weiler-walls.ts listGhosts). */
export const GHOST_WALLS = 8;

/**
 * F(r) = −W′(r) / (r (r² + 0.01 h²)) for squared distance r2 < h², W the normalized cubic spline
 * of support h (0 at r = 0, where the pair has no direction). F(r; h) = h⁻⁷ F(r/h; 1).
 */
export function pairFactor(r2: number, h: number): number {
  if (!(r2 > 0)) return 0;
  const r = Math.sqrt(r2), sigma = 8 / (Math.PI * h * h * h);
  return (-sigma * cubicSplineSlope(r / h)) / (h * r * (r2 + 0.01 * h * h));
}

/** The arrays the products read (the job's, viscosity-weiler-solve.ts). */
export interface RowArrays {
  pos: Float64Array; mat: Uint16Array; ls: Int32Array; lj: Int32Array | Uint16Array; bs: Int32Array; bj: Int32Array; opos: Float64Array;
  rho: Float64Array; walls: Float64Array; gs: Int32Array; gj: Int32Array; gc: Float32Array; coef: Uint16Array; cdec: Float64Array;
  bcoef: Float32Array; onrm: Float32Array; wa: Int32Array; wd: Float64Array;
}

/**
 * The job's arrays as fields of one class (a fixed shape the row loops read fast; the binding's
 * argument object is keyed by name), made once a run.
 */
export class Rows {
  readonly pos; readonly mat; readonly ls; readonly lj; readonly bs; readonly bj; readonly opos;
  readonly rho; readonly walls; readonly gs; readonly gj; readonly gc; readonly coef; readonly cdec; readonly bcoef; readonly onrm; readonly wa; readonly wd;
  constructor(a: RowArrays) {
    this.pos = a.pos; this.mat = a.mat; this.ls = a.ls; this.lj = a.lj; this.bs = a.bs; this.bj = a.bj;
    this.opos = a.opos; this.rho = a.rho; this.walls = a.walls;
    this.gs = a.gs; this.gj = a.gj; this.gc = a.gc; this.coef = a.coef; this.cdec = a.cdec; this.bcoef = a.bcoef; this.onrm = a.onrm; this.wa = a.wa; this.wd = a.wd;
  }
}

/** What rowExtra adds to row i (module scratch: no allocation). */
const ext = new Float64Array(3);

/**
 * out = A v on one thread from half rows (see the header); returns v · A v.
 */
export function applyHalf(a: Rows, v: Float64Array, out: Float64Array, n: number): number {
  const { pos, ls, lj, coef, cdec, rho, mat, bs, gs } = a, ck = cdec[0];
  out.fill(0, 0, 3 * n);
  let dot = 0;
  for (let i = 0; i < n; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2], rhoi = rho[mat[i]];
    let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = 3 * lj[e], ce = coef[e], dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = ck * ce * ce * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2]));
      const ux = u * dx, uy = u * dy, uz = u * dz;
      sx += ux; sy += uy; sz += uz;
      out[j] -= ux; out[j + 1] -= uy; out[j + 2] -= uz;
    }
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      rowExtra(a, i, v, 3);
      sx += ext[0]; sy += ext[1]; sz += ext[2];
    }
    const ox = out[3 * i] + sx, oy = out[3 * i + 1] + sy, oz = out[3 * i + 2] + sz;
    out[3 * i] = ox; out[3 * i + 1] = oy; out[3 * i + 2] = oz;
    dot += vx * ox + vy * oy + vz * oz;
  }
  return dot;
}

/**
 * applyHalf with the vector and its product in one array, pq: v_k at 6k, (A v)_k at 6k + 3 (the
 * one-thread CG's direction and its product, viscosity-weiler-solve.ts iterateOne), so that a
 * pair's far end is read and written within 48 bytes rather than in two arrays. The same
 * arithmetic in the same order as applyHalf: the same products and v · A v, bit for bit.
 */
export function applyHalfPQ(a: Rows, pq: Float64Array, n: number): number {
  const { pos, ls, lj, coef, cdec, rho, mat, bs, gs } = a, ck = cdec[0];
  for (let i = 0; i < n; i++) {
    pq[6 * i + 3] = 0; pq[6 * i + 4] = 0; pq[6 * i + 5] = 0;
  }
  let dot = 0;
  for (let i = 0; i < n; i++) {
    const b = 6 * i, xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const vx = pq[b], vy = pq[b + 1], vz = pq[b + 2], rhoi = rho[mat[i]];
    let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const k = lj[e], o = 3 * k, j = 6 * k, ce = coef[e], dx = xi - pos[o], dy = yi - pos[o + 1], dz = zi - pos[o + 2];
      const u = ck * ce * ce * (dx * (vx - pq[j]) + dy * (vy - pq[j + 1]) + dz * (vz - pq[j + 2]));
      const ux = u * dx, uy = u * dy, uz = u * dz;
      sx += ux; sy += uy; sz += uz;
      pq[j + 3] -= ux; pq[j + 4] -= uy; pq[j + 5] -= uz;
    }
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      rowExtra(a, i, pq, 6);
      sx += ext[0]; sy += ext[1]; sz += ext[2];
    }
    const ox = pq[b + 3] + sx, oy = pq[b + 4] + sy, oz = pq[b + 5] + sz;
    pq[b + 3] = ox; pq[b + 4] = oy; pq[b + 5] = oz;
    dot += vx * ox + vy * oy + vz * oz;
  }
  return dot;
}

/** out = A v and out2 = A v2 in one sweep of the half rows (each pair's coefficient and offset read once for both). */
export function applyHalfTwo(a: Rows, v: Float64Array, out: Float64Array, v2: Float64Array, out2: Float64Array, n: number): void {
  const { pos, ls, lj, coef, cdec, rho, mat, bs, gs } = a, ck = cdec[0];
  out.fill(0, 0, 3 * n);
  out2.fill(0, 0, 3 * n);
  for (let i = 0; i < n; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2], rhoi = rho[mat[i]];
    const wx = v2[3 * i], wy = v2[3 * i + 1], wz = v2[3 * i + 2];
    let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz, tx = rhoi * wx, ty = rhoi * wy, tz = rhoi * wz;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = 3 * lj[e], ce = coef[e], c = ck * ce * ce, dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = c * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2])), ux = u * dx, uy = u * dy, uz = u * dz;
      const w = c * (dx * (wx - v2[j]) + dy * (wy - v2[j + 1]) + dz * (wz - v2[j + 2])), w1 = w * dx, w2 = w * dy, w3 = w * dz;
      sx += ux; sy += uy; sz += uz;
      tx += w1; ty += w2; tz += w3;
      out[j] -= ux; out[j + 1] -= uy; out[j + 2] -= uz;
      out2[j] -= w1; out2[j + 1] -= w2; out2[j + 2] -= w3;
    }
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      rowExtra(a, i, v, 3);
      sx += ext[0]; sy += ext[1]; sz += ext[2];
      rowExtra(a, i, v2, 3);
      tx += ext[0]; ty += ext[1]; tz += ext[2];
    }
    out[3 * i] += sx; out[3 * i + 1] += sy; out[3 * i + 2] += sz;
    out2[3 * i] += tx; out2[3 * i + 1] += ty; out2[3 * i + 2] += tz;
  }
}

/** A team's cross rows (viscosity-weiler-team-rows.ts): row i's pairs (k, i) with k below i's range, and their coefficients' codes. */
export interface CrossRows {
  xs: Int32Array;
  xj: Int32Array | Uint16Array;
  xc: Uint16Array;
}

/**
 * out = A v over the rows from..to on a team: the half rows (each pair once, in its lower row) as
 * applyHalf takes them, where a pair's upper end lies in from..to, and a pair whose upper end lies
 * beyond `to` added to the lower row only (the upper end's thread gathers it from its cross rows);
 * the cross rows' pairs, whose lower ends lie below `from`, gathered into their upper rows. The
 * thread writes only its own rows. Returns v · A v over the range (v · out, where `add` adds A v to
 * what out holds in the range rather than writing it: the team's CG, viscosity-weiler-solve.ts).
 */
export function applyTeam(a: Rows, c: CrossRows, v: Float64Array, out: Float64Array, from: number, to: number, add = false): number {
  const { pos, ls, lj, coef, cdec, rho, mat, bs, gs } = a, { xs, xj, xc } = c, ck = cdec[0];
  if (!add) out.fill(0, 3 * from, 3 * to);
  let dot = 0;
  for (let i = from; i < to; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2], rhoi = rho[mat[i]];
    let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz;
    for (let e = xs[i], e1 = xs[i + 1]; e < e1; e++) {
      const j = 3 * xj[e], ce = xc[e], dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = ck * ce * ce * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2]));
      sx += u * dx; sy += u * dy; sz += u * dz;
    }
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const k = lj[e], j = 3 * k, ce = coef[e], dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = ck * ce * ce * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2]));
      const ux = u * dx, uy = u * dy, uz = u * dz;
      sx += ux; sy += uy; sz += uz;
      if (k < to) {
        out[j] -= ux; out[j + 1] -= uy; out[j + 2] -= uz;
      }
    }
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      rowExtra(a, i, v, 3);
      sx += ext[0]; sy += ext[1]; sz += ext[2];
    }
    const ox = out[3 * i] + sx, oy = out[3 * i + 1] + sy, oz = out[3 * i + 2] + sz;
    out[3 * i] = ox; out[3 * i + 1] = oy; out[3 * i + 2] = oz;
    dot += vx * ox + vy * oy + vz * oz;
  }
  return dot;
}

/** out = A v and out2 = A v2 over the rows from..to as applyTeam, in one sweep (as applyHalfTwo). */
export function applyTeamTwo(
  a: Rows, c: CrossRows, v: Float64Array, out: Float64Array, v2: Float64Array, out2: Float64Array, from: number, to: number,
): void {
  const { pos, ls, lj, coef, cdec, rho, mat, bs, gs } = a, { xs, xj, xc } = c, ck = cdec[0];
  out.fill(0, 3 * from, 3 * to);
  out2.fill(0, 3 * from, 3 * to);
  for (let i = from; i < to; i++) {
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2], rhoi = rho[mat[i]];
    const wx = v2[3 * i], wy = v2[3 * i + 1], wz = v2[3 * i + 2];
    let sx = rhoi * vx, sy = rhoi * vy, sz = rhoi * vz, tx = rhoi * wx, ty = rhoi * wy, tz = rhoi * wz;
    for (let e = xs[i], e1 = xs[i + 1]; e < e1; e++) {
      const j = 3 * xj[e], ce = xc[e], c = ck * ce * ce, dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = c * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2]));
      const w = c * (dx * (wx - v2[j]) + dy * (wy - v2[j + 1]) + dz * (wz - v2[j + 2]));
      sx += u * dx; sy += u * dy; sz += u * dz;
      tx += w * dx; ty += w * dy; tz += w * dz;
    }
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const k = lj[e], j = 3 * k, ce = coef[e], c = ck * ce * ce, dx = xi - pos[j], dy = yi - pos[j + 1], dz = zi - pos[j + 2];
      const u = c * (dx * (vx - v[j]) + dy * (vy - v[j + 1]) + dz * (vz - v[j + 2])), ux = u * dx, uy = u * dy, uz = u * dz;
      const w = c * (dx * (wx - v2[j]) + dy * (wy - v2[j + 1]) + dz * (wz - v2[j + 2])), w1 = w * dx, w2 = w * dy, w3 = w * dz;
      sx += ux; sy += uy; sz += uz;
      tx += w1; ty += w2; tz += w3;
      if (k < to) {
        out[j] -= ux; out[j + 1] -= uy; out[j + 2] -= uz;
        out2[j] -= w1; out2[j + 1] -= w2; out2[j + 2] -= w3;
      }
    }
    if (bs[i] < bs[i + 1] || gs[i] < gs[i + 1]) {
      rowExtra(a, i, v, 3);
      sx += ext[0]; sy += ext[1]; sz += ext[2];
      rowExtra(a, i, v2, 3);
      tx += ext[0]; ty += ext[1]; tz += ext[2];
    }
    out[3 * i] += sx; out[3 * i + 1] += sy; out[3 * i + 2] += sz;
    out2[3 * i] += tx; out2[3 * i + 1] += ty; out2[3 * i + 2] += tz;
  }
}

/** Row i's object and wall terms of (A v)_i (rowExtra), in module scratch valid until the next call. */
export function rowTerms(a: Rows, i: number, v: Float64Array): Float64Array {
  rowExtra(a, i, v, 3);
  return ext;
}

/**
 * Row i's object and wall terms of (A v)_i (the ghosts and the wall they leave uncovered), into `ext`;
 * v_k at v[sv k] (sv 3, or 6 where v shares its array with the product: applyHalfPQ).
 */
function rowExtra(a: Rows, i: number, v: Float64Array, sv: number): void {
  const { pos, bs, bj, opos, bcoef, walls, gs, gj, gc } = a;
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
  const vx = v[sv * i], vy = v[sv * i + 1], vz = v[sv * i + 2];
  let sx = 0, sy = 0, sz = 0;
  const e0 = bs[i], e1 = bs[i + 1];
  if (e0 < e1) {
    // T X T v (viscosity-weiler-solve.ts setupRow): v on the tangent plane, X, and the result on the tangent plane.
    const onrm = a.onrm, nx = onrm[3 * i], ny = onrm[3 * i + 1], nz = onrm[3 * i + 2], vn = vx * nx + vy * ny + vz * nz;
    const tx = vx - vn * nx, ty = vy - vn * ny, tz = vz - vn * nz;
    let ox = 0, oy = 0, oz = 0;
    for (let e = e0; e < e1; e++) {
      const s = bj[e];
      const dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
      const u = bcoef[e] * (dx * tx + dy * ty + dz * tz);
      ox += u * dx; oy += u * dy; oz += u * dz;
    }
    const on = ox * nx + oy * ny + oz * nz;
    sx += ox - on * nx; sy += oy - on * ny; sz += oz - on * nz;
  }
  const g0 = gs[i], g1 = gs[i + 1];
  const w = g0 < g1 ? 3 * a.wa[i] : -1;
  if (w >= 0) {
    // The wall its ghosts leave uncovered (viscosity-weiler-wall-cover.ts): diagonal, only in rows
    // with ghosts, and only in those it covers (an uncovered row's 0 · v would leave sx as it is:
    // sx starts at +0 and so is never −0).
    const wd = a.wd;
    sx += wd[w] * vx; sy += wd[w + 1] * vy; sz += wd[w + 2] * vz;
  }
  for (let e = g0; e < g1; e++) {
    const code = gj[e], j = (code / GHOST_WALLS) | 0, wo = WALL_STRIDE * (code - GHOST_WALLS * j);
    const axis = walls[wo], c = gc[e], g = ghost(pos, i, j, walls, wo), gx = g.x, gy = g.y, gz = g.z;
    // The ghost velocity: M v_j (slip) or −v_j (no-slip; u_w is in b).
    const wx = v[sv * j], wy = v[sv * j + 1], wz = v[sv * j + 2];
    if (walls[wo + 2] === 1) {
      const tx = vx + wx, ty = vy + wy, tz = vz + wz;
      // B t = ½ (x′ (x′·t) + M x′ ((M x′)·t)).
      const d1 = gx * tx + gy * ty + gz * tz;
      const mx = axis === 0 ? -gx : gx, my = axis === 1 ? -gy : gy, mz = axis === 2 ? -gz : gz;
      const d2 = mx * tx + my * ty + mz * tz;
      sx += 0.5 * c * (gx * d1 + mx * d2); sy += 0.5 * c * (gy * d1 + my * d2); sz += 0.5 * c * (gz * d1 + mz * d2);
    } else {
      const mwx = axis === 0 ? -wx : wx, mwy = axis === 1 ? -wy : wy, mwz = axis === 2 ? -wz : wz;
      const u = c * (gx * (vx - mwx) + gy * (vy - mwy) + gz * (vz - mwz));
      sx += u * gx; sy += u * gy; sz += u * gz;
    }
  }
  ext[0] = sx; ext[1] = sy; ext[2] = sz;
}

const g0 = { x: 0, y: 0, z: 0, r2: 0 };
/**
 * x′ = x_i − M x_j for the wall at walls[wo] (axis, plane: wallTable), into module scratch (no
 * allocation; the wall is named by its offset so that no double is passed to a call V8 may not inline).
 */
export function ghost(pos: Float64Array, i: number, j: number, walls: Float64Array, wo: number): typeof g0 {
  const axis = walls[wo];
  let gx = pos[3 * i] - pos[3 * j], gy = pos[3 * i + 1] - pos[3 * j + 1], gz = pos[3 * i + 2] - pos[3 * j + 2];
  const s = pos[3 * i + axis] + pos[3 * j + axis] - 2 * walls[wo + 1];
  if (axis === 0) gx = s; else if (axis === 1) gy = s; else gz = s;
  g0.x = gx; g0.y = gy; g0.z = gz; g0.r2 = gx * gx + gy * gy + gz * gz;
  return g0;
}
