/**
 * PROTOTYPE: a coarse level for the implicit viscosity's CG (viscosity-weiler-solve.ts): aggregates
 * = the particles of one cube of edge `cell`, piecewise-constant prolongation P per velocity
 * component, the Galerkin operator A_c = Pᵀ Â P (Â: A without the wall ghosts' couplings between
 * particles, so that A_c is SPD and assembled from the rows alone), and the additive two-level
 * preconditioner M⁻¹ = D⁻¹ + P A_c⁻¹ Pᵀ.
 */
import { applyHalf, type Rows } from './viscosity-weiler-product.ts';

export const coarseLevel = {
  /** Edge of an aggregate's cube (m); 0: no coarse level. */
  cell: 0,
  /** Coarse CG: relative tolerance and most iterations. */
  tol: 1e-8, maxIter: 200,
  /** Coarse iterations summed (a bench reads them). */
  coarseIters: 0, applies: 0,
  /** 'add': D⁻¹ r + Q r; 'mult': Q r + D⁻¹ (r − A Q r); 'sym': Q r + (I − Q A) D⁻¹ (I − A Q) r. */
  mode: 'add',
};

const map = new Map<number, number>();
let agg = new Int32Array(0), cxyz = new Int32Array(0), nbr = new Int32Array(0);
let Ac = new Float64Array(0), Dinv = new Float64Array(0), rc = new Float64Array(0), zc = new Float64Array(0);
let pc = new Float64Array(0), qc = new Float64Array(0), wc = new Float64Array(0);
let nc = 0;
export let zbuf = new Float64Array(0);
let t1 = new Float64Array(0), t2 = new Float64Array(0), t3 = new Float64Array(0);

const key = (x: number, y: number, z: number) => ((x + 1024) * 2048 + (y + 1024)) * 2048 + (z + 1024);

/** Builds the aggregates and A_c; pinv holds the diagonal blocks D_i (not yet inverted). */
export function coarseSetup(a: Rows & { pinv: Float32Array }, n: number): void {
  const H = coarseLevel.cell, pos = a.pos, pinv = a.pinv;
  if (agg.length < n) agg = new Int32Array(2 * n);
  if (zbuf.length < 3 * n) {
    zbuf = new Float64Array(6 * n); t1 = new Float64Array(6 * n); t2 = new Float64Array(6 * n); t3 = new Float64Array(6 * n);
  }
  map.clear();
  nc = 0;
  const tmp: number[] = [];
  for (let i = 0; i < n; i++) {
    const ix = Math.floor(pos[3 * i] / H), iy = Math.floor(pos[3 * i + 1] / H), iz = Math.floor(pos[3 * i + 2] / H);
    const k = key(ix, iy, iz);
    let id = map.get(k);
    if (id === undefined) {
      id = nc++;
      map.set(k, id);
      tmp.push(ix, iy, iz);
    }
    agg[i] = id;
  }
  if (cxyz.length < 3 * nc) {
    const m = 2 * nc;
    cxyz = new Int32Array(3 * m); nbr = new Int32Array(27 * m); Ac = new Float64Array(243 * m); Dinv = new Float64Array(9 * m);
    rc = new Float64Array(3 * m); zc = new Float64Array(3 * m); pc = new Float64Array(3 * m); qc = new Float64Array(3 * m); wc = new Float64Array(3 * m);
  }
  cxyz.set(tmp);
  for (let I = 0; I < nc; I++) {
    const x = cxyz[3 * I], y = cxyz[3 * I + 1], z = cxyz[3 * I + 2];
    for (let o = 0; o < 27; o++) {
      const id = map.get(key(x + ((o / 9) | 0) - 1, y + (((o / 3) | 0) % 3) - 1, z + (o % 3) - 1));
      nbr[27 * I + o] = id ?? -1;
    }
  }
  Ac.fill(0, 0, 243 * nc);
  for (let i = 0; i < n; i++) {
    const o = 243 * agg[i] + 9 * 13, m = 6 * i;
    Ac[o] += pinv[m]; Ac[o + 4] += pinv[m + 1]; Ac[o + 8] += pinv[m + 2];
    Ac[o + 1] += pinv[m + 3]; Ac[o + 3] += pinv[m + 3];
    Ac[o + 2] += pinv[m + 4]; Ac[o + 6] += pinv[m + 4];
    Ac[o + 5] += pinv[m + 5]; Ac[o + 7] += pinv[m + 5];
  }
  const { ls, lj, coef, cdec } = a, ck = cdec[0];
  for (let i = 0; i < n; i++) {
    const I = agg[i], xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = lj[e], J = agg[j], ce = coef[e], c = ck * ce * ce;
      const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      const xx = c * dx * dx, yy = c * dy * dy, zz = c * dz * dz, xy = c * dx * dy, xz = c * dx * dz, yz = c * dy * dz;
      if (I === J) {
        const o = 243 * I + 9 * 13;
        Ac[o] -= 2 * xx; Ac[o + 4] -= 2 * yy; Ac[o + 8] -= 2 * zz;
        Ac[o + 1] -= 2 * xy; Ac[o + 3] -= 2 * xy; Ac[o + 2] -= 2 * xz; Ac[o + 6] -= 2 * xz; Ac[o + 5] -= 2 * yz; Ac[o + 7] -= 2 * yz;
      } else {
        const ox = cxyz[3 * J] - cxyz[3 * I] + 1, oy = cxyz[3 * J + 1] - cxyz[3 * I + 1] + 1, oz = cxyz[3 * J + 2] - cxyz[3 * I + 2] + 1;
        const s = 9 * ox + 3 * oy + oz;
        if (s < 0 || s > 26 || ox < 0 || ox > 2 || oy < 0 || oy > 2 || oz < 0 || oz > 2) throw new Error('coarse: pair beyond the neighbouring aggregates');
        for (const [o, w] of [[243 * I + 9 * s, 1], [243 * J + 9 * (26 - s), 1]]) {
          Ac[o] -= w * xx; Ac[o + 4] -= w * yy; Ac[o + 8] -= w * zz;
          Ac[o + 1] -= xy; Ac[o + 3] -= xy; Ac[o + 2] -= xz; Ac[o + 6] -= xz; Ac[o + 5] -= yz; Ac[o + 7] -= yz;
        }
      }
    }
  }
  for (let I = 0; I < nc; I++) {
    const o = 243 * I + 9 * 13, d = 9 * I;
    const a00 = Ac[o], a01 = Ac[o + 1], a02 = Ac[o + 2], a11 = Ac[o + 4], a12 = Ac[o + 5], a22 = Ac[o + 8];
    const c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    const det = a00 * c00 + a01 * c01 + a02 * c02, inv = 1 / det;
    Dinv[d] = c00 * inv; Dinv[d + 1] = c01 * inv; Dinv[d + 2] = c02 * inv;
    Dinv[d + 3] = c01 * inv; Dinv[d + 4] = (a00 * a22 - a02 * a02) * inv; Dinv[d + 5] = (a01 * a02 - a00 * a12) * inv;
    Dinv[d + 6] = c02 * inv; Dinv[d + 7] = Dinv[d + 5]; Dinv[d + 8] = (a00 * a11 - a01 * a01) * inv;
  }
}

function coarseApply(v: Float64Array, out: Float64Array): number {
  let dot = 0;
  for (let I = 0; I < nc; I++) {
    let sx = 0, sy = 0, sz = 0;
    for (let o = 0; o < 27; o++) {
      const J = nbr[27 * I + o];
      if (J < 0) continue;
      const b = 243 * I + 9 * o, vx = v[3 * J], vy = v[3 * J + 1], vz = v[3 * J + 2];
      sx += Ac[b] * vx + Ac[b + 1] * vy + Ac[b + 2] * vz;
      sy += Ac[b + 3] * vx + Ac[b + 4] * vy + Ac[b + 5] * vz;
      sz += Ac[b + 6] * vx + Ac[b + 7] * vy + Ac[b + 8] * vz;
    }
    out[3 * I] = sx; out[3 * I + 1] = sy; out[3 * I + 2] = sz;
    dot += v[3 * I] * sx + v[3 * I + 1] * sy + v[3 * I + 2] * sz;
  }
  return dot;
}

function jac(r: Float64Array, z: Float64Array): number {
  let d = 0;
  for (let I = 0; I < nc; I++) {
    const o = 9 * I, x = r[3 * I], y = r[3 * I + 1], w = r[3 * I + 2];
    const a = Dinv[o] * x + Dinv[o + 1] * y + Dinv[o + 2] * w, b = Dinv[o + 3] * x + Dinv[o + 4] * y + Dinv[o + 5] * w, c = Dinv[o + 6] * x + Dinv[o + 7] * y + Dinv[o + 8] * w;
    z[3 * I] = a; z[3 * I + 1] = b; z[3 * I + 2] = c;
    d += x * a + y * b + w * c;
  }
  return d;
}

/** A_c zc = rc by block-Jacobi CG from 0. */
function coarseSolve(): void {
  const m = 3 * nc;
  zc.fill(0, 0, m);
  let rr0 = 0;
  for (let k = 0; k < m; k++) rr0 += rc[k] * rc[k];
  let rz = jac(rc, pc), rr = rr0, it = 0;
  const goal = coarseLevel.tol * coarseLevel.tol * rr0;
  while (rr > goal && it < coarseLevel.maxIter) {
    const pq = coarseApply(pc, qc);
    const al = rz / pq;
    rr = 0;
    for (let k = 0; k < m; k++) {
      zc[k] += al * pc[k]; rc[k] -= al * qc[k]; rr += rc[k] * rc[k];
    }
    it++;
    if (rr <= goal) break;
    const rz1 = jac(rc, wc), be = rz1 / rz;
    rz = rz1;
    for (let k = 0; k < m; k++) pc[k] = wc[k] + be * pc[k];
  }
  coarseLevel.coarseIters += it;
  coarseLevel.applies++;
}

function restrictSolve(r: Float64Array, n: number): void {
  rc.fill(0, 0, 3 * nc);
  for (let i = 0; i < n; i++) {
    const I = 3 * agg[i];
    rc[I] += r[3 * i]; rc[I + 1] += r[3 * i + 1]; rc[I + 2] += r[3 * i + 2];
  }
  coarseSolve();
}

function jacobiAdd(pinv: Float32Array, r: Float64Array, z: Float64Array, n: number, add: boolean): void {
  for (let i = 0; i < n; i++) {
    const m = 6 * i, k = 3 * i, rx = r[k], ry = r[k + 1], rw = r[k + 2];
    const zx = pinv[m] * rx + pinv[m + 3] * ry + pinv[m + 4] * rw;
    const zy = pinv[m + 3] * rx + pinv[m + 1] * ry + pinv[m + 5] * rw;
    const zz = pinv[m + 4] * rx + pinv[m + 5] * ry + pinv[m + 2] * rw;
    if (add) { z[k] += zx; z[k + 1] += zy; z[k + 2] += zz; } else { z[k] = zx; z[k + 1] = zy; z[k + 2] = zz; }
  }
}

function prolong(z: Float64Array, n: number, add: boolean): void {
  for (let i = 0; i < n; i++) {
    const k = 3 * i, I = 3 * agg[i];
    if (add) { z[k] += zc[I]; z[k + 1] += zc[I + 1]; z[k + 2] += zc[I + 2]; } else { z[k] = zc[I]; z[k + 1] = zc[I + 1]; z[k + 2] = zc[I + 2]; }
  }
}

/** z = M⁻¹ r (coarseLevel.mode; pinv inverted); returns r · z. */
export function twoLevel(a: Rows, pinv: Float32Array, r: Float64Array, z: Float64Array, n: number): number {
  const mode = coarseLevel.mode;
  if (mode === 'add') {
    restrictSolve(r, n);
    jacobiAdd(pinv, r, z, n, false);
    prolong(z, n, true);
  } else {
    // c = Q r; t1 = Z c; t2 = A t1; t3 = r − t2; z = t1 + D⁻¹ t3.
    restrictSolve(r, n);
    prolong(t1, n, false);
    applyHalf(a, t1, t2, n);
    for (let k = 0; k < 3 * n; k++) t3[k] = r[k] - t2[k];
    for (let k = 0; k < 3 * n; k++) z[k] = t1[k];
    jacobiAdd(pinv, t3, z, n, true);
    if (mode === 'sym') {
      // z += Q (r − A z)
      applyHalf(a, z, t2, n);
      for (let k = 0; k < 3 * n; k++) t3[k] = r[k] - t2[k];
      restrictSolve(t3, n);
      prolong(z, n, true);
    }
  }
  let rz = 0;
  for (let k = 0; k < 3 * n; k++) rz += r[k] * z[k];
  return rz;
}
