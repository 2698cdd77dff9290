/**
 * The level set's transport passes (levelset-transport.ts; Cline et al. §10.3–10.4) over a range of
 * its active cells: WENO5's stencils, one upwind Euler stage, and the Runge-Kutta combinations.
 * Each pass writes only the entries of its own cells, so a thread team (transport-job.ts) runs each
 * over its share of the list, bit for bit as one thread does.
 */
import { SOLID as SOLID_ } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const SOLID = SOLID_;

/** What the passes read: the store's links and types, the centre velocities, the active cells and their stencils. */
export interface TransportCells {
  nb: Int32Array;
  type: Uint8Array;
  /** Cell-centre velocities, xyz interleaved. */
  vel: Float64Array;
  /** The cells the stages visit. */
  active: Int32Array;
  /**
   * WENO5's stencil of each active cell along each axis, looked up once per transport (the stages
   * and substeps reuse it): cells i−3 … i−1, i+1 … i+3 at [18 q + 6 a …], [18 q + 6 a] = −1 where
   * one is missing or solid.
   */
  stencil: Int32Array;
}

/** The stencils of active cells [from, to). */
export function stencilsOver(t: TransportCells, from: number, to: number): void {
  const { stencil: st, active, nb, type } = t;
  for (let q = from; q < to; q++) {
    const c = active[q];
    for (let a = 0; a < 3; a++) {
      const b = 18 * q + 6 * a, dl = 2 * a, dh = 2 * a + 1;
      st[b] = -1;
      const m2 = nb[6 * c + dl];
      if (m2 < 0 || type[m2] === SOLID) continue;
      const m1 = nb[6 * m2 + dl];
      if (m1 < 0 || type[m1] === SOLID) continue;
      const m0 = nb[6 * m1 + dl];
      if (m0 < 0 || type[m0] === SOLID) continue;
      const p4 = nb[6 * c + dh];
      if (p4 < 0 || type[p4] === SOLID) continue;
      const p5 = nb[6 * p4 + dh];
      if (p5 < 0 || type[p5] === SOLID) continue;
      const p6 = nb[6 * p5 + dh];
      if (p6 < 0 || type[p6] === SOLID) continue;
      st[b] = m0; st[b + 1] = m1; st[b + 2] = m2; st[b + 3] = p4; st[b + 4] = p5; st[b + 5] = p6;
    }
  }
}

/**
 * out = f − τ u·∇f at the active cells [from, to) of the list with WENO5 / ENO2 upwind differences (cells without all six
 * neighbours keep f; `out` must hold f at the other cells).
 * WENO5 runs only where |φ| < 3h, the cells whose values redistancing keeps or reads (the seeds
 * beside the zero crossing and their neighbours); deeper in the band, where the fast march
 * overwrites φ after every step anyway, a first-order upwind update keeps φ monotone at a fraction
 * of the cost (WENO was ~60 % of the tracking stage on the 64³ dam break).
 */
export function eulerOver(t: TransportCells, f: Float64Array, out: Float64Array, tau: number, h: number, from: number, to: number): void {
  const { nb, type, vel, active, stencil: st } = t;
  const inv = 1 / h;
  const near = 3 * h;
  wenoIo[0] = inv;
  for (let q = from; q < to; q++) {
    const c = active[q];
    const f0 = f[c];
    out[c] = f0;
    if (type[c] === SOLID) continue;
    const o = 6 * c;
    const n0 = nb[o], n1 = nb[o + 1], n2 = nb[o + 2], n3 = nb[o + 3], n4 = nb[o + 4], n5 = nb[o + 5];
    if (n0 < 0 || n1 < 0 || n2 < 0 || n3 < 0 || n4 < 0 || n5 < 0) continue;
    // Inside the clamped part of the band (deep liquid or far air, φ = ±band with all six
    // neighbours equal) φ does not move; skipping it spares most of a large pool's cells.
    if (f[n0] === f0 && f[n1] === f0 && f[n2] === f0 && f[n3] === f0 && f[n4] === f0 && f[n5] === f0) continue;
    let rate = 0;
    if (!(f0 < near && f0 > -near)) {
      // Deep in the band: first-order upwind (the solid and band-edge rules as below).
      for (let a = 0; a < 3; a++) {
        const v = vel[3 * c + a];
        if (v === 0) continue;
        const up = v > 0 ? nb[o + 2 * a] : nb[o + 2 * a + 1];
        if (type[up] === SOLID) continue;
        rate += v > 0 ? v * (f0 - f[up]) * inv : v * (f[up] - f0) * inv;
      }
      out[c] = f0 - tau * rate;
      continue;
    }
    for (let a = 0; a < 3; a++) {
      const v = vel[3 * c + a];
      if (v === 0) continue;
      const lo = nb[o + 2 * a], hi = nb[o + 2 * a + 1];
      const up = v > 0 ? lo : hi;
      if (type[up] === SOLID) continue;
      const fc = f0, fu = f[up];
      const b = 18 * q + 6 * a;
      if (st[b] >= 0) { weno5(f, st, b, c, v > 0, wenoIo); rate += v * wenoIo[1]; continue; }
      let grad = v > 0 ? (fc - fu) * inv : (fu - fc) * inv;
      // ENO2: add the smaller (minmod) of the second differences at c and at the upwind cell.
      const far = nb[6 * up + 2 * a + (v > 0 ? 0 : 1)];
      const other = v > 0 ? hi : lo;
      if (far >= 0 && type[far] !== SOLID && type[other] !== SOLID) {
        const d2c = f[hi] - 2 * fc + f[lo];
        const d2u = v > 0 ? fc - 2 * fu + f[far] : f[far] - 2 * fu + fc;
        const mm = d2c * d2u <= 0 ? 0 : Math.abs(d2c) < Math.abs(d2u) ? d2c : d2u;
        grad += v > 0 ? 0.5 * mm * inv : -0.5 * mm * inv;
      }
      rate += v * grad;
    }
    out[c] = f0 - tau * rate;
  }
}

/** RK3's first stage (Shu & Osher 1988) over active cells [from, to): start = φ, stage = φ − τ L(φ). */
export function rkFirst(t: TransportCells, phi: Float64Array, stage: Float64Array, start: Float64Array, tau: number, h: number, from: number, to: number): void {
  const active = t.active;
  for (let q = from; q < to; q++) { const c = active[q]; start[c] = phi[c]; }
  eulerOver(t, phi, stage, tau, h, from, to);
}

/** RK3's second stage: φ = ¾ start + ¼ (stage − τ L(stage)). */
export function rkSecond(t: TransportCells, phi: Float64Array, stage: Float64Array, start: Float64Array, tau: number, h: number, from: number, to: number): void {
  const active = t.active;
  eulerOver(t, stage, phi, tau, h, from, to);
  for (let q = from; q < to; q++) { const c = active[q]; phi[c] = 0.75 * start[c] + 0.25 * phi[c]; }
}

/** RK3's last combination: φ = start / 3 + ⅔ stage (after stage = φ − τ L(φ), eulerOver). */
export function rkLast(t: TransportCells, phi: Float64Array, stage: Float64Array, start: Float64Array, from: number, to: number): void {
  const active = t.active;
  for (let q = from; q < to; q++) { const c = active[q]; phi[c] = start[c] / 3 + (2 / 3) * stage[c]; }
}

/** weno5's input (1/h in [0]) and result ([1]): an array, not a double argument and return value, which are boxed on the heap when the call is not inlined. */
const wenoIo = new Float64Array(2);

/**
 * ∂φ/∂x_a at c by fifth-order Hamilton-Jacobi WENO (Jiang & Peng 2000; Osher & Fedkiw §3.4), the
 * upwind side chosen by `fromLow` (velocity > 0), into io[1] (1/h in io[0]); the stencil's six
 * other cells (three on each side, none solid) at st[b …].
 */
function weno5(f: Float64Array, st: Int32Array, b: number, c: number, fromLow: boolean, io: Float64Array): void {
  const inv = io[0];
  const w0 = f[st[b]], w1 = f[st[b + 1]], w2 = f[st[b + 2]], w3 = f[c], w4 = f[st[b + 3]], w5 = f[st[b + 4]], w6 = f[st[b + 5]];
  let v1: number, v2: number, v3: number, v4: number, v5: number;
  if (fromLow) {
    // D⁻φ at i−2 … i+2.
    v1 = (w1 - w0) * inv; v2 = (w2 - w1) * inv; v3 = (w3 - w2) * inv; v4 = (w4 - w3) * inv; v5 = (w5 - w4) * inv;
  } else {
    // D⁺φ at i+2 … i−2.
    v1 = (w6 - w5) * inv; v2 = (w5 - w4) * inv; v3 = (w4 - w3) * inv; v4 = (w3 - w2) * inv; v5 = (w2 - w1) * inv;
  }
  const p1 = v1 / 3 - (7 * v2) / 6 + (11 * v3) / 6;
  const p2 = -v2 / 6 + (5 * v3) / 6 + v4 / 3;
  const p3 = v3 / 3 + (5 * v4) / 6 - v5 / 6;
  const t1 = v1 - 2 * v2 + v3, u1 = v1 - 4 * v2 + 3 * v3;
  const t2 = v2 - 2 * v3 + v4, u2 = v2 - v4;
  const t3 = v3 - 2 * v4 + v5, u3 = 3 * v3 - 4 * v4 + v5;
  const s1 = (13 / 12) * t1 * t1 + 0.25 * u1 * u1;
  const s2 = (13 / 12) * t2 * t2 + 0.25 * u2 * u2;
  const s3 = (13 / 12) * t3 * t3 + 0.25 * u3 * u3;
  const eps = 1e-6 * Math.max(v1 * v1, v2 * v2, v3 * v3, v4 * v4, v5 * v5) + 1e-99;
  const e1 = s1 + eps, e2 = s2 + eps, e3 = s3 + eps;
  const a1 = 0.1 / (e1 * e1), a2 = 0.6 / (e2 * e2), a3 = 0.3 / (e3 * e3);
  io[1] = (a1 * p1 + a2 * p2 + a3 * p3) / (a1 + a2 + a3);
}
