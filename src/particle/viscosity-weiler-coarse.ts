/**
 * PROTOTYPE: a coarse level for the implicit viscosity's CG (viscosity-weiler-solve.ts): aggregates
 * = the particles of one cube of edge `cell`; prolongation Z per aggregate: its translations
 * (nd 3) or its rigid motions (nd 6: v_i = t + ω × (x_i − x̄_I)), the Galerkin operator
 * E = Zᵀ Â Z (Â: A without the wall ghosts' couplings between particles, so that E is SPD and
 * assembled from the rows alone: the pair terms vanish on a rigid motion, so only the pairs between
 * two aggregates and the rows' own terms ρ, objects, walls enter), and the two-level preconditioner.
 */
import { applyHalf, type Rows } from './viscosity-weiler-product.ts';

export const coarseLevel = {
  /** Edge of an aggregate's cube (m); 0: no coarse level. */
  cell: 0,
  /** Coarse CG: relative tolerance and most iterations. */
  tol: 1e-8, maxIter: 200,
  coarseIters: 0, applies: 0, setups: 0, aggregates: 0, pairs: 0, cross: 0, setupMs: 0, applyMs: 0,
  /** 'add': D⁻¹ r + Q r; 'mult': Q r + D⁻¹ (r − A Q r); 'sym': Q r + (I − Q A) D⁻¹ (I − A Q) r. */
  mode: 'add',
  /** 3: translations; 6: rigid motions. */
  nd: 3,
};

const map = new Map<number, number>();
let agg = new Int32Array(0), cxyz = new Int32Array(0), nbr = new Int32Array(0), cen = new Float64Array(0), cnt = new Int32Array(0);
let Ac = new Float64Array(0), Dinv = new Float64Array(0), rc = new Float64Array(0), zc = new Float64Array(0);
let pc = new Float64Array(0), qc = new Float64Array(0), wc = new Float64Array(0);
let nc = 0, ND = 3, BB = 9;
export let zbuf = new Float64Array(0);
export let rowOwn = new Float32Array(0);
let t1 = new Float64Array(0), t2 = new Float64Array(0), t3 = new Float64Array(0);
const u6 = new Float64Array(6), w6 = new Float64Array(6), Z = new Float64Array(18), DZ = new Float64Array(18);

const key = (x: number, y: number, z: number) => ((x + 1024) * 2048 + (y + 1024)) * 2048 + (z + 1024);

/** pinv before the rows' own terms are added (the pair blocks alone): a bench snapshot. */
export function snapshotPairBlocks(pinv: Float32Array, n: number): void {
  if (rowOwn.length < 6 * n) rowOwn = new Float32Array(12 * n);
  rowOwn.set(pinv.subarray(0, 6 * n));
}

/** u = Zᵀ x for a particle at offset d from its aggregate's centre: [x; d × x]. */
function zt(x: number, y: number, z: number, dx: number, dy: number, dz: number, u: Float64Array): void {
  u[0] = x; u[1] = y; u[2] = z;
  u[3] = dy * z - dz * y; u[4] = dz * x - dx * z; u[5] = dx * y - dy * x;
}

/** Builds the aggregates and E; pinv holds the diagonal blocks D_i (not yet inverted); rowOwn the pair blocks. */
export function coarseSetup(a: Rows & { pinv: Float32Array }, n: number): void {
  const t0 = performance.now();
  const H = coarseLevel.cell, pos = a.pos, pinv = a.pinv;
  ND = coarseLevel.nd; BB = ND * ND;
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
    cxyz = new Int32Array(3 * m); nbr = new Int32Array(27 * m); Ac = new Float64Array(27 * 36 * m); Dinv = new Float64Array(36 * m);
    cen = new Float64Array(3 * m); cnt = new Int32Array(m);
    rc = new Float64Array(6 * m); zc = new Float64Array(6 * m); pc = new Float64Array(6 * m); qc = new Float64Array(6 * m); wc = new Float64Array(6 * m);
  }
  cxyz.set(tmp);
  for (let I = 0; I < nc; I++) {
    const x = cxyz[3 * I], y = cxyz[3 * I + 1], z = cxyz[3 * I + 2];
    for (let o = 0; o < 27; o++) {
      const id = map.get(key(x + ((o / 9) | 0) - 1, y + (((o / 3) | 0) % 3) - 1, z + (o % 3) - 1));
      nbr[27 * I + o] = id ?? -1;
    }
  }
  cen.fill(0, 0, 3 * nc); cnt.fill(0, 0, nc);
  for (let i = 0; i < n; i++) {
    const I = agg[i];
    cen[3 * I] += pos[3 * i]; cen[3 * I + 1] += pos[3 * i + 1]; cen[3 * I + 2] += pos[3 * i + 2]; cnt[I]++;
  }
  for (let I = 0; I < nc; I++) for (let c = 0; c < 3; c++) cen[3 * I + c] /= cnt[I];
  Ac.fill(0, 0, 27 * BB * nc);
  for (let i = 0; i < n; i++) {
    const I = agg[i], o = 27 * BB * I + BB * 13, m = 6 * i;
    // The row's own terms: D_i less its pair blocks where rigid (they vanish on a rigid motion
    // within the aggregate and enter through the pairs below); D_i whole for translations with the
    // intra pairs taken off below.
    const rig = ND === 6;
    const dxx = pinv[m] - (rig ? rowOwn[m] : 0), dyy = pinv[m + 1] - (rig ? rowOwn[m + 1] : 0), dzz = pinv[m + 2] - (rig ? rowOwn[m + 2] : 0);
    const dxy = pinv[m + 3] - (rig ? rowOwn[m + 3] : 0), dxz = pinv[m + 4] - (rig ? rowOwn[m + 4] : 0), dyz = pinv[m + 5] - (rig ? rowOwn[m + 5] : 0);
    if (!rig) {
      Ac[o] += dxx; Ac[o + 4] += dyy; Ac[o + 8] += dzz;
      Ac[o + 1] += dxy; Ac[o + 3] += dxy; Ac[o + 2] += dxz; Ac[o + 6] += dxz; Ac[o + 5] += dyz; Ac[o + 7] += dyz;
      continue;
    }
    // Z_i (3×6) = [I, −[d]×]; D Z; Zᵀ D Z.
    const dx = pos[3 * i] - cen[3 * I], dy = pos[3 * i + 1] - cen[3 * I + 1], dz = pos[3 * i + 2] - cen[3 * I + 2];
    // columns 3..5 of Z: ω_x → (0, dz, −dy)... ω × d = (ωy dz − ωz dy, ωz dx − ωx dz, ωx dy − ωy dx)
    Z.fill(0);
    Z[0] = 1; Z[7] = 1; Z[14] = 1;
    Z[3] = 0; Z[4] = dz; Z[5] = -dy;
    Z[9] = -dz; Z[10] = 0; Z[11] = dx;
    Z[15] = dy; Z[16] = -dx; Z[17] = 0;
    const D = [dxx, dxy, dxz, dxy, dyy, dyz, dxz, dyz, dzz];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 6; c++) DZ[6 * r + c] = D[3 * r] * Z[c] + D[3 * r + 1] * Z[6 + c] + D[3 * r + 2] * Z[12 + c];
    for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) Ac[o + 6 * r + c] += Z[r] * DZ[c] + Z[6 + r] * DZ[6 + c] + Z[12 + r] * DZ[12 + c];
  }
  const { ls, lj, coef, cdec } = a, ck = cdec[0];
  for (let i = 0; i < n; i++) {
    const I = agg[i], xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = lj[e], J = agg[j], ce = coef[e], c = ck * ce * ce;
      const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      coarseLevel.pairs++;
      if (I !== J) coarseLevel.cross++;
      if (I === J) {
        if (ND === 6) continue;
        const o = 27 * BB * I + BB * 13;
        const xx = c * dx * dx, yy = c * dy * dy, zz = c * dz * dz, xy = c * dx * dy, xz = c * dx * dz, yz = c * dy * dz;
        Ac[o] -= 2 * xx; Ac[o + 4] -= 2 * yy; Ac[o + 8] -= 2 * zz;
        Ac[o + 1] -= 2 * xy; Ac[o + 3] -= 2 * xy; Ac[o + 2] -= 2 * xz; Ac[o + 6] -= 2 * xz; Ac[o + 5] -= 2 * yz; Ac[o + 7] -= 2 * yz;
        continue;
      }
      const ox = cxyz[3 * J] - cxyz[3 * I] + 1, oy = cxyz[3 * J + 1] - cxyz[3 * I + 1] + 1, oz = cxyz[3 * J + 2] - cxyz[3 * I + 2] + 1;
      if (ox < 0 || ox > 2 || oy < 0 || oy > 2 || oz < 0 || oz > 2) throw new Error('coarse: pair beyond the neighbouring aggregates');
      const s = 9 * ox + 3 * oy + oz;
      if (ND === 3) {
        const xx = c * dx * dx, yy = c * dy * dy, zz = c * dz * dz, xy = c * dx * dy, xz = c * dx * dz, yz = c * dy * dz;
        for (const o of [27 * BB * I + BB * s, 27 * BB * J + BB * (26 - s)]) {
          Ac[o] -= xx; Ac[o + 4] -= yy; Ac[o + 8] -= zz;
          Ac[o + 1] -= xy; Ac[o + 3] -= xy; Ac[o + 2] -= xz; Ac[o + 6] -= xz; Ac[o + 5] -= yz; Ac[o + 7] -= yz;
        }
        continue;
      }
      zt(dx, dy, dz, xi - cen[3 * I], yi - cen[3 * I + 1], zi - cen[3 * I + 2], u6);
      zt(dx, dy, dz, pos[3 * j] - cen[3 * J], pos[3 * j + 1] - cen[3 * J + 1], pos[3 * j + 2] - cen[3 * J + 2], w6);
      const oII = 27 * 36 * I + 36 * 13, oJJ = 27 * 36 * J + 36 * 13, oIJ = 27 * 36 * I + 36 * s, oJI = 27 * 36 * J + 36 * (26 - s);
      for (let r = 0; r < 6; r++) {
        const ur = c * u6[r], wr = c * w6[r];
        for (let q = 0; q < 6; q++) {
          Ac[oII + 6 * r + q] += ur * u6[q];
          Ac[oJJ + 6 * r + q] += wr * w6[q];
          Ac[oIJ + 6 * r + q] -= ur * w6[q];
          Ac[oJI + 6 * r + q] -= wr * u6[q];
        }
      }
    }
  }
  // Inverse diagonal blocks (Gauss–Jordan).
  const M = new Float64Array(2 * BB);
  for (let I = 0; I < nc; I++) {
    const o = 27 * BB * I + BB * 13;
    if (ND === 6) {
      // An aggregate of one or two particles (or on a line) has rotations no term sees: a small
      // multiple of its translational stiffness × H² on the rotations keeps E positive definite.
      const d = 1e-3 * (Ac[o] + Ac[o + 7] + Ac[o + 14]) / 3 * H * H;
      Ac[o + 21] += d; Ac[o + 28] += d; Ac[o + 35] += d;
    }
    for (let r = 0; r < ND; r++) for (let c = 0; c < ND; c++) { M[2 * ND * r + c] = Ac[o + ND * r + c]; M[2 * ND * r + ND + c] = r === c ? 1 : 0; }
    for (let c = 0; c < ND; c++) {
      const piv = M[2 * ND * c + c];
      for (let k = 0; k < 2 * ND; k++) M[2 * ND * c + k] /= piv;
      for (let r = 0; r < ND; r++) {
        if (r === c) continue;
        const f = M[2 * ND * r + c];
        if (f !== 0) for (let k = 0; k < 2 * ND; k++) M[2 * ND * r + k] -= f * M[2 * ND * c + k];
      }
    }
    for (let r = 0; r < ND; r++) for (let c = 0; c < ND; c++) Dinv[BB * I + ND * r + c] = M[2 * ND * r + ND + c];
  }
  coarseLevel.setups++; coarseLevel.aggregates += nc; coarseLevel.setupMs += performance.now() - t0;
}

function coarseApply(v: Float64Array, out: Float64Array): number {
  let dot = 0;
  for (let I = 0; I < nc; I++) {
    for (let r = 0; r < ND; r++) out[ND * I + r] = 0;
    for (let o = 0; o < 27; o++) {
      const J = nbr[27 * I + o];
      if (J < 0) continue;
      const b = 27 * BB * I + BB * o;
      for (let r = 0; r < ND; r++) {
        let s = 0;
        for (let c = 0; c < ND; c++) s += Ac[b + ND * r + c] * v[ND * J + c];
        out[ND * I + r] += s;
      }
    }
    for (let r = 0; r < ND; r++) dot += v[ND * I + r] * out[ND * I + r];
  }
  return dot;
}

function jac(r: Float64Array, z: Float64Array): number {
  let d = 0;
  for (let I = 0; I < nc; I++) {
    for (let a = 0; a < ND; a++) {
      let s = 0;
      for (let c = 0; c < ND; c++) s += Dinv[BB * I + ND * a + c] * r[ND * I + c];
      z[ND * I + a] = s;
      d += r[ND * I + a] * s;
    }
  }
  return d;
}

/** E zc = rc by block-Jacobi CG from 0. */
function coarseSolve(): void {
  const m = ND * nc;
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

function restrictSolve(r: Float64Array, n: number, pos: Float64Array): void {
  rc.fill(0, 0, ND * nc);
  for (let i = 0; i < n; i++) {
    const I = agg[i], o = ND * I, x = r[3 * i], y = r[3 * i + 1], z = r[3 * i + 2];
    rc[o] += x; rc[o + 1] += y; rc[o + 2] += z;
    if (ND === 6) {
      zt(x, y, z, pos[3 * i] - cen[3 * I], pos[3 * i + 1] - cen[3 * I + 1], pos[3 * i + 2] - cen[3 * I + 2], u6);
      rc[o + 3] += u6[3]; rc[o + 4] += u6[4]; rc[o + 5] += u6[5];
    }
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

function prolong(z: Float64Array, n: number, add: boolean, pos: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const k = 3 * i, I = agg[i], o = ND * I;
    let vx = zc[o], vy = zc[o + 1], vz = zc[o + 2];
    if (ND === 6) {
      const dx = pos[k] - cen[3 * I], dy = pos[k + 1] - cen[3 * I + 1], dz = pos[k + 2] - cen[3 * I + 2];
      const wx = zc[o + 3], wy = zc[o + 4], wz = zc[o + 5];
      vx += wy * dz - wz * dy; vy += wz * dx - wx * dz; vz += wx * dy - wy * dx;
    }
    if (add) { z[k] += vx; z[k + 1] += vy; z[k + 2] += vz; } else { z[k] = vx; z[k + 1] = vy; z[k + 2] = vz; }
  }
}

/** z = M⁻¹ r (coarseLevel.mode; pinv inverted); returns r · z. */
export function twoLevel(a: Rows, pinv: Float32Array, r: Float64Array, z: Float64Array, n: number): number {
  const mode = coarseLevel.mode, pos = a.pos, t0 = performance.now();
  if (mode === 'add') {
    restrictSolve(r, n, pos);
    jacobiAdd(pinv, r, z, n, false);
    prolong(z, n, true, pos);
  } else {
    restrictSolve(r, n, pos);
    prolong(t1, n, false, pos);
    applyHalf(a, t1, t2, n);
    for (let k = 0; k < 3 * n; k++) t3[k] = r[k] - t2[k];
    for (let k = 0; k < 3 * n; k++) z[k] = t1[k];
    jacobiAdd(pinv, t3, z, n, true);
    if (mode === 'sym') {
      applyHalf(a, z, t2, n);
      for (let k = 0; k < 3 * n; k++) t3[k] = r[k] - t2[k];
      restrictSolve(t3, n, pos);
      prolong(z, n, true, pos);
    }
  }
  let rz = 0;
  for (let k = 0; k < 3 * n; k++) rz += r[k] * z[k];
  coarseLevel.applyMs += performance.now() - t0;
  return rz;
}
