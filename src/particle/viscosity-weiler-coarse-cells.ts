/**
 * PROTOTYPE (fast path of viscosity-weiler-coarse.ts, translations only): the aggregates are the
 * liquid's grid cells (CellPairs: cells of edge ctx.reach, their particles contiguous after the
 * sort), E = Zᵀ Â Z stored as symmetric 3×3 blocks (6 entries) on the cell list's upper entries
 * (cells[first[c] .. first[c + 1]), c' ≥ c, c itself among them), assembled in one sweep over the
 * half rows; the coarse solve two block-Jacobi CG steps from 0; M⁻¹ r = D⁻¹ r + Z E⁻¹ Zᵀ r.
 */
import type { Rows } from './viscosity-weiler-product.ts';

export const cellCoarse = { on: false, applies: 0, setups: 0, lost: 0, coarseSteps: 2 };
let start: Int32Array = new Int32Array(0), count: Int32Array = new Int32Array(0), first: Int32Array = new Int32Array(0), cells: Int32Array = new Int32Array(0), nc = 0;
let self = new Int32Array(0);
let agg = new Int32Array(0), E = new Float64Array(0), Dinv = new Float64Array(0);
let rc = new Float64Array(0), zc = new Float64Array(0), pc = new Float64Array(0), qc = new Float64Array(0), wc = new Float64Array(0);
export let zbuf = new Float64Array(0);

/** The grid the stage's pair list was made on (CellPairs after buildSorted). */
export function setCoarseCells(g: { cellCount: number; start: Int32Array; count: Int32Array }, f: Int32Array, c: Int32Array): void {
  nc = g.cellCount; start = g.start; count = g.count; first = f; cells = c;
}

export function cellSetup(a: Rows & { pinv: Float32Array }, n: number): void {
  const pos = a.pos, pinv = a.pinv, m = first[nc];
  if (agg.length < n) agg = new Int32Array(n + (n >> 2));
  if (zbuf.length < 3 * n) zbuf = new Float64Array(3 * n + (n >> 1));
  if (E.length < 6 * m) E = new Float64Array(6 * m + (m >> 1));
  if (Dinv.length < 6 * nc) {
    const k = 6 * nc + (nc >> 1);
    Dinv = new Float64Array(k); rc = new Float64Array(k); zc = new Float64Array(k); pc = new Float64Array(k); qc = new Float64Array(k); wc = new Float64Array(k);
  }
  E.fill(0, 0, 6 * m);
  if (self.length < nc) self = new Int32Array(nc + (nc >> 1));
  for (let c = 0; c < nc; c++) {
    let k = first[c];
    while (cells[k] !== c) k++;
    self[c] = k;
  }
  for (let c = 0; c < nc; c++) {
    const o = 6 * self[c];
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0;
    for (let i = start[c], i1 = i + count[c]; i < i1; i++) {
      agg[i] = c;
      const q = 6 * i;
      s0 += pinv[q]; s1 += pinv[q + 1]; s2 += pinv[q + 2]; s3 += pinv[q + 3]; s4 += pinv[q + 4]; s5 += pinv[q + 5];
    }
    E[o] = s0; E[o + 1] = s1; E[o + 2] = s2; E[o + 3] = s3; E[o + 4] = s4; E[o + 5] = s5;
  }
  const { ls, lj, coef, cdec } = a, ck = cdec[0];
  for (let i = 0; i < n; i++) {
    const I = agg[i], f0 = first[I], f1 = first[I + 1], xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    let cur = f0;
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = lj[e], J = agg[j], ce = coef[e], c = ck * ce * ce;
      const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2];
      const cx = c * dx, cy = c * dy;
      const xx = cx * dx, yy = cy * dy, zz = c * dz * dz, xy = cx * dy, xz = cx * dz, yz = cy * dz;
      if (cells[cur] !== J) {
        // The pairs of a row come in the order of the cell list; else a scan from its start.
        let k = cur + 1;
        while (k < f1 && cells[k] !== J) k++;
        if (k === f1) for (k = f0; k < f1 && cells[k] !== J; k++);
        if (k === f1) {
          // J not listed as I's upper neighbour: the pair leaves Â (E stays the Galerkin operator of an SPD Â).
          const o = 6 * self[I], p = 6 * self[J];
          E[o] -= xx; E[o + 1] -= yy; E[o + 2] -= zz; E[o + 3] -= xy; E[o + 4] -= xz; E[o + 5] -= yz;
          E[p] -= xx; E[p + 1] -= yy; E[p + 2] -= zz; E[p + 3] -= xy; E[p + 4] -= xz; E[p + 5] -= yz;
          cellCoarse.lost++;
          continue;
        }
        cur = k;
      }
      const o = 6 * cur, w = J === I ? 2 : 1;
      E[o] -= w * xx; E[o + 1] -= w * yy; E[o + 2] -= w * zz; E[o + 3] -= w * xy; E[o + 4] -= w * xz; E[o + 5] -= w * yz;
    }
  }
  for (let c = 0; c < nc; c++) {
    const o = 6 * self[c], d = 6 * c;
    const a00 = E[o], a11 = E[o + 1], a22 = E[o + 2], a01 = E[o + 3], a02 = E[o + 4], a12 = E[o + 5];
    const c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
    const inv = 1 / (a00 * c00 + a01 * c01 + a02 * c02);
    Dinv[d] = c00 * inv; Dinv[d + 1] = (a00 * a22 - a02 * a02) * inv; Dinv[d + 2] = (a00 * a11 - a01 * a01) * inv;
    Dinv[d + 3] = c01 * inv; Dinv[d + 4] = c02 * inv; Dinv[d + 5] = (a01 * a02 - a00 * a12) * inv;
  }
  cellCoarse.setups++;
}

/** out = E v over the upper entries (each block once, to both of its cells); returns v · E v. */
function coarseApply(v: Float64Array, out: Float64Array): number {
  out.fill(0, 0, 3 * nc);
  let dot = 0;
  for (let c = 0; c < nc; c++) {
    const vx = v[3 * c], vy = v[3 * c + 1], vz = v[3 * c + 2];
    let sx = 0, sy = 0, sz = 0;
    for (let k = first[c], k1 = first[c + 1]; k < k1; k++) {
      const J = cells[k], o = 6 * k;
      const b0 = E[o], b1 = E[o + 1], b2 = E[o + 2], b3 = E[o + 3], b4 = E[o + 4], b5 = E[o + 5];
      const wx = v[3 * J], wy = v[3 * J + 1], wz = v[3 * J + 2];
      sx += b0 * wx + b3 * wy + b4 * wz; sy += b3 * wx + b1 * wy + b5 * wz; sz += b4 * wx + b5 * wy + b2 * wz;
      if (J !== c) {
        out[3 * J] += b0 * vx + b3 * vy + b4 * vz; out[3 * J + 1] += b3 * vx + b1 * vy + b5 * vz; out[3 * J + 2] += b4 * vx + b5 * vy + b2 * vz;
      }
    }
    out[3 * c] += sx; out[3 * c + 1] += sy; out[3 * c + 2] += sz;
  }
  for (let k = 0; k < 3 * nc; k++) dot += v[k] * out[k];
  return dot;
}

function jac(r: Float64Array, z: Float64Array): number {
  let d = 0;
  for (let c = 0; c < nc; c++) {
    const o = 6 * c, x = r[3 * c], y = r[3 * c + 1], w = r[3 * c + 2];
    const a = Dinv[o] * x + Dinv[o + 3] * y + Dinv[o + 4] * w, b = Dinv[o + 3] * x + Dinv[o + 1] * y + Dinv[o + 5] * w;
    const e = Dinv[o + 4] * x + Dinv[o + 5] * y + Dinv[o + 2] * w;
    z[3 * c] = a; z[3 * c + 1] = b; z[3 * c + 2] = e;
    d += x * a + y * b + w * e;
  }
  return d;
}

/** z = D⁻¹ r + Z E⁻¹ Zᵀ r (E⁻¹ by coarseSteps block-Jacobi CG steps from 0; pinv inverted); returns r · z. */
export function cellTwoLevel(pinv: Float32Array, r: Float64Array, z: Float64Array, n: number): number {
  const m = 3 * nc;
  rc.fill(0, 0, m);
  for (let i = 0; i < n; i++) {
    const I = 3 * agg[i];
    rc[I] += r[3 * i]; rc[I + 1] += r[3 * i + 1]; rc[I + 2] += r[3 * i + 2];
  }
  zc.fill(0, 0, m);
  let rz = jac(rc, pc);
  for (let it = 0; it < cellCoarse.coarseSteps; it++) {
    const al = rz / coarseApply(pc, qc);
    for (let k = 0; k < m; k++) {
      zc[k] += al * pc[k]; rc[k] -= al * qc[k];
    }
    if (it + 1 === cellCoarse.coarseSteps) break;
    const rz1 = jac(rc, wc), be = rz1 / rz;
    rz = rz1;
    for (let k = 0; k < m; k++) pc[k] = wc[k] + be * pc[k];
  }
  let d = 0;
  for (let i = 0; i < n; i++) {
    const q = 6 * i, k = 3 * i, I = 3 * agg[i], rx = r[k], ry = r[k + 1], rw = r[k + 2];
    const zx = pinv[q] * rx + pinv[q + 3] * ry + pinv[q + 4] * rw + zc[I];
    const zy = pinv[q + 3] * rx + pinv[q + 1] * ry + pinv[q + 5] * rw + zc[I + 1];
    const zz = pinv[q + 4] * rx + pinv[q + 5] * ry + pinv[q + 2] * rw + zc[I + 2];
    z[k] = zx; z[k + 1] = zy; z[k + 2] = zz;
    d += rx * zx + ry * zy + rw * zz;
  }
  cellCoarse.applies++;
  return d;
}

let t1 = new Float64Array(0), t2 = new Float64Array(0);
/** Where set, the coarse level corrects only the start: x += Z E⁻¹ Zᵀ r (startSteps coarse CG steps), r −= A Z E⁻¹ Zᵀ r. */
export const coarseStartOnly = { on: false, steps: 20 };
/** The start's coarse correction; z = D⁻¹ r into p; returns [r · z, |r|²] in out2. */
export function cellStart(a: Rows, pinv: Float32Array, r: Float64Array, x: Float64Array, p: Float64Array, n: number, apply: (a: Rows, v: Float64Array, out: Float64Array, n: number) => number, out2: Float64Array): void {
  if (t1.length < 3 * n) { t1 = new Float64Array(3 * n + (n >> 1)); t2 = new Float64Array(3 * n + (n >> 1)); }
  const m = 3 * nc, steps = coarseStartOnly.steps;
  rc.fill(0, 0, m);
  for (let i = 0; i < n; i++) {
    const I = 3 * agg[i];
    rc[I] += r[3 * i]; rc[I + 1] += r[3 * i + 1]; rc[I + 2] += r[3 * i + 2];
  }
  zc.fill(0, 0, m);
  let rz = jac(rc, pc);
  for (let it = 0; it < steps; it++) {
    const al = rz / coarseApply(pc, qc);
    for (let k = 0; k < m; k++) { zc[k] += al * pc[k]; rc[k] -= al * qc[k]; }
    if (it + 1 === steps) break;
    const rz1 = jac(rc, wc), be = rz1 / rz;
    rz = rz1;
    for (let k = 0; k < m; k++) pc[k] = wc[k] + be * pc[k];
  }
  for (let i = 0; i < n; i++) {
    const I = 3 * agg[i];
    t1[3 * i] = zc[I]; t1[3 * i + 1] = zc[I + 1]; t1[3 * i + 2] = zc[I + 2];
  }
  apply(a, t1, t2, n);
  let rzs = 0, rr = 0;
  for (let i = 0; i < n; i++) {
    const k = 3 * i, q = 6 * i;
    x[k] += t1[k]; x[k + 1] += t1[k + 1]; x[k + 2] += t1[k + 2];
    const rx = r[k] - t2[k], ry = r[k + 1] - t2[k + 1], rw = r[k + 2] - t2[k + 2];
    r[k] = rx; r[k + 1] = ry; r[k + 2] = rw;
    const zx = pinv[q] * rx + pinv[q + 3] * ry + pinv[q + 4] * rw, zy = pinv[q + 3] * rx + pinv[q + 1] * ry + pinv[q + 5] * rw;
    const zz = pinv[q + 4] * rx + pinv[q + 5] * ry + pinv[q + 2] * rw;
    p[k] = zx; p[k + 1] = zy; p[k + 2] = zz;
    rzs += rx * zx + ry * zy + rw * zz; rr += rx * rx + ry * ry + rw * rw;
  }
  out2[0] = rzs; out2[1] = rr;
}
