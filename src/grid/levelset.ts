/**
 * Level-set surface tracking (Cline §10; Foster & Fedkiw 2001): φ at cell centres, negative in the
 * liquid, kept as a signed distance in a narrow band that lives in the same hashed cells as the MAC
 * grid (the band is the buffer zone: cells further out do not exist and read as +band).
 *
 *  - Advection (§10.3, §10.4, equation 30): upwind differences, second-order ENO in space and
 *    second-order TVD Runge-Kutta in time (§10.4: higher-order upwinding; the first-order "fast"
 *    update of §10.8.2 relies on particles to repair it, which this tracker does not have),
 *    substepped so each substep moves the surface at most half a cell; the outer ring of the band
 *    is not updated.
 *  - Redistancing (§10.5): the fast marching method. Cells beside the zero crossing are initialised
 *    with their distance to the plane through the crossings found along each axis (exact for a
 *    planar surface, so a resting surface does not move), then distances march outwards on both
 *    sides with the first-order upwind Eikonal update, up to the band width.
 *
 * Solid cells take no part; afterwards they get the mean φ of their non-solid neighbours so that
 * interpolation near walls stays smooth.
 */
import type { GridDomain } from './domain.ts';
import { FLUID as FLUID_, SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const FLUID = FLUID_, SOLID = SOLID_;

const upwind = new Float64Array(3);
const MODE = Number((globalThis as any).process?.env?.SEEDMODE ?? 1);

export class LevelSet {
  private dist = new Float64Array(0);
  private state = new Uint8Array(0);
  private heapCell = new Int32Array(0);
  private heapKey = new Float64Array(0);
  private heapSize = 0;
  private scratch = new Float64Array(0);
  private vel = new Float64Array(0);

  private ensure(n: number): void {
    if (this.dist.length >= n) return;
    const m = Math.ceil(n * 1.3);
    this.dist = new Float64Array(m);
    this.state = new Uint8Array(m);
    this.scratch = new Float64Array(m);
    this.vel = new Float64Array(3 * m);
  }

  /**
   * Rebuilds φ as a signed distance up to `band` (m) by fast marching. Cells flagged in `exact`
   * keep their |φ| as the initial distances instead of the linear crossing estimate.
   */
  redistance(s: GridStore, h: number, band: number, exact?: Uint8Array): void {
    const n = s.count;
    this.ensure(n);
    const { phi, nb, type } = s;
    const dist = this.dist, state = this.state;
    this.heapSize = 0;
    state.fill(0, 0, n);
    for (let c = 0; c < n; c++) {
      dist[c] = band;
      if (type[c] === SOLID) { state[c] = 3; continue; }
      const pc = phi[c], inside = pc < 0;
      if (exact && exact[c]) {
        // Distances already known exactly (from a shape, see GridSimulation.writePending).
        dist[c] = Math.min(band, Math.abs(pc));
        state[c] = 2;
        continue;
      }
      let inv2 = 0, g2 = 0;
      for (let a = 0; a < 3; a++) {
        let theta = Infinity;
        const m0 = nb[6 * c + 2 * a], m1 = nb[6 * c + 2 * a + 1];
        const ok0 = m0 >= 0 && type[m0] !== SOLID, ok1 = m1 >= 0 && type[m1] !== SOLID;
        for (let e = 0; e < 2; e++) {
          const m = e === 0 ? m0 : m1;
          if (!(e === 0 ? ok0 : ok1)) continue;
          const pm = phi[m];
          if ((pm < 0) === inside) continue;
          let t = pc / (pc - pm);
          if (MODE === 3) {
            // Quadratic through c, m and the minmod second difference at c or m (Chopp 2001).
            const other = e === 0 ? m1 : m0;
            const mfar = nb[6 * m + 2 * a + e];
            const d2c = (e === 0 ? ok1 : ok0) ? phi[other] - 2 * pc + pm : 0;
            const d2m = mfar >= 0 && type[mfar] !== SOLID ? phi[mfar] - 2 * pm + pc : 0;
            const d2 = d2c * d2m <= 0 || !(e === 0 ? ok1 : ok0) ? 0 : Math.abs(d2c) < Math.abs(d2m) ? d2c : d2m;
            if (Math.abs(d2) > 1e-12 * h) {
              const A = 0.5 * d2, B = pm - pc - 0.5 * d2, C = pc;
              const disc = B * B - 4 * A * C;
              if (disc >= 0) {
                const sq = Math.sqrt(disc);
                const r1 = (-B - sq) / (2 * A), r2 = (-B + sq) / (2 * A);
                if (r1 >= 0 && r1 <= 1) t = r1;
                else if (r2 >= 0 && r2 <= 1) t = r2;
              }
            }
          }
          theta = Math.min(theta, Math.max(1e-6 * h, h * t));
        }
        if (theta < Infinity) inv2 += 1 / (theta * theta);
        // ∂φ/∂x_a: central where both neighbours take part, else one-sided.
        const g = ok0 && ok1 ? (phi[m1] - phi[m0]) / (2 * h) : ok1 ? (phi[m1] - pc) / h : ok0 ? (pc - phi[m0]) / h : 0;
        g2 += g * g;
      }
      if (inv2 > 0) {
        // The distance to the plane through the axis crossings is biased towards the liquid on a
        // convex surface (a chord crosses zero inside the true root) and, applied every step, shrinks
        // the liquid by a fixed fraction per step. |φ| / |∇φ| keeps the zero set where advection left
        // it (to second order) while restoring |∇φ| = 1; the crossing estimate serves only where φ
        // is far from a distance (|∇φ| outside [0.5, 2]).
        const gm = Math.sqrt(g2);
        const plane = 1 / Math.sqrt(inv2);
        dist[c] = Math.min(band, MODE === 1 && gm > 0.5 && gm < 2 ? Math.abs(pc) / gm : MODE === 2 ? Math.abs(pc) : plane);
        state[c] = 2;
      }
    }
    for (let c = 0; c < n; c++) {
      if (state[c] !== 2) continue;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && state[m] === 0) this.consider(s, m, h);
      }
    }
    while (this.heapSize > 0) {
      const c = this.pop();
      if (state[c] === 2) continue;
      if (dist[c] >= band) break;
      state[c] = 2;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && state[m] < 2) this.consider(s, m, h);
      }
    }
    for (let c = 0; c < n; c++) {
      if (type[c] === SOLID) continue;
      const dc = state[c] === 2 ? Math.min(dist[c], band) : band;
      phi[c] = phi[c] < 0 ? -dc : dc;
    }
    for (let c = 0; c < n; c++) {
      if (type[c] !== SOLID) continue;
      let sum = 0, cnt = 0;
      for (let d = 0; d < 6; d++) {
        const m = nb[6 * c + d];
        if (m >= 0 && type[m] !== SOLID) { sum += phi[m]; cnt++; }
      }
      phi[c] = cnt > 0 ? sum / cnt : band;
    }
  }

  private consider(s: GridStore, c: number, h: number): void {
    const { nb } = s;
    const dist = this.dist, state = this.state;
    const v = upwind;
    v[0] = v[1] = v[2] = Infinity;
    for (let a = 0; a < 3; a++) {
      for (let e = 0; e < 2; e++) {
        const m = nb[6 * c + 2 * a + e];
        if (m >= 0 && state[m] === 2 && dist[m] < v[a]) v[a] = dist[m];
      }
    }
    // Sort the three upwind values.
    let t: number;
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
    if (v[1] > v[2]) { t = v[1]; v[1] = v[2]; v[2] = t; }
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
    let d = v[0] + h;
    if (d > v[1]) {
      const disc = 2 * h * h - (v[0] - v[1]) ** 2;
      d = 0.5 * (v[0] + v[1] + Math.sqrt(Math.max(0, disc)));
      if (d > v[2]) {
        const sum = v[0] + v[1] + v[2];
        const sq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        d = (sum + Math.sqrt(Math.max(0, sum * sum - 3 * (sq - h * h)))) / 3;
      }
    }
    if (state[c] === 1 && d >= dist[c]) return;
    dist[c] = d;
    state[c] = 1;
    this.push(c, d);
  }

  private push(c: number, key: number): void {
    if (this.heapSize === this.heapCell.length) {
      const cells = new Int32Array(Math.max(64, 2 * this.heapSize));
      const keys = new Float64Array(cells.length);
      cells.set(this.heapCell);
      keys.set(this.heapKey);
      this.heapCell = cells;
      this.heapKey = keys;
    }
    const hc = this.heapCell, hk = this.heapKey;
    let i = this.heapSize++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (hk[p] <= key) break;
      hc[i] = hc[p];
      hk[i] = hk[p];
      i = p;
    }
    hc[i] = c;
    hk[i] = key;
  }

  private pop(): number {
    const hc = this.heapCell, hk = this.heapKey;
    const top = hc[0];
    const n = --this.heapSize;
    const lc = hc[n], lk = hk[n];
    let i = 0;
    for (;;) {
      let ch = 2 * i + 1;
      if (ch >= n) break;
      if (ch + 1 < n && hk[ch + 1] < hk[ch]) ch++;
      if (hk[ch] >= lk) break;
      hc[i] = hc[ch];
      hk[i] = hk[ch];
      i = ch;
    }
    hc[i] = lc;
    hk[i] = lk;
    return top;
  }

  /**
   * Moves φ through the velocity field for Δt: second-order ENO upwind differences in space and
   * second-order TVD Runge-Kutta (Heun) in time, substepped so each substep moves the surface at
   * most half a cell; where the ENO stencil leaves the band or meets a solid the difference drops
   * to first-order upwind. Returns the number of substeps.
   */
  advect(s: GridStore, d: GridDomain, dt: number): number {
    const n = s.count;
    this.ensure(n);
    const { nb, u, type, phi } = s;
    const vel = this.vel;
    const h = d.h;
    let vmax = 0;
    for (let c = 0; c < n; c++) {
      for (let a = 0; a < 3; a++) {
        const up = nb[6 * c + 2 * a + 1];
        const v = up >= 0 ? 0.5 * (u[a][c] + u[a][up]) : u[a][c];
        vel[3 * c + a] = v;
        if (type[c] !== SOLID && Math.abs(v) > vmax) vmax = Math.abs(v);
      }
    }
    if (this.stage.length < n) {
      this.stage = new Float64Array(this.scratch.length);
      this.start = new Float64Array(this.scratch.length);
    }
    const sub = Math.max(1, Math.ceil((vmax * dt) / (0.5 * h)));
    const tau = dt / sub;
    const start = this.start, stage = this.stage;
    for (let it = 0; it < sub; it++) {
      start.set(phi.subarray(0, n));
      this.eulerStep(s, phi, stage, tau, h);   // φ1 = φ − τ L(φ)
      this.eulerStep(s, stage, phi, tau, h);   // φ2 = φ1 − τ L(φ1)
      for (let c = 0; c < n; c++) phi[c] = 0.5 * (start[c] + phi[c]);
    }
    return sub;
  }

  private stage = new Float64Array(0);
  private start = new Float64Array(0);

  /** out = f − τ u·∇f with ENO2 upwind differences (cells without all six neighbours keep f). */
  private eulerStep(s: GridStore, f: Float64Array, out: Float64Array, tau: number, h: number): void {
    const { nb, type } = s;
    const vel = this.vel;
    const inv = 1 / h;
    for (let c = 0; c < s.count; c++) {
      out[c] = f[c];
      if (type[c] === SOLID) continue;
      let interior = true;
      for (let e = 0; e < 6; e++) if (nb[6 * c + e] < 0) { interior = false; break; }
      if (!interior) continue;
      let rate = 0;
      for (let a = 0; a < 3; a++) {
        const v = vel[3 * c + a];
        if (v === 0) continue;
        const lo = nb[6 * c + 2 * a], hi = nb[6 * c + 2 * a + 1];
        const up = v > 0 ? lo : hi;
        if (type[up] === SOLID) continue;
        const fc = f[c], fu = f[up];
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
      out[c] = f[c] - tau * rate;
    }
  }
}

/** Liquid volume from φ: each cell counts clamp(½ − φ/h, 0, 1) h³. */
export function levelSetVolume(s: GridStore, h: number): number {
  let v = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    v += Math.min(1, Math.max(0, 0.5 - s.phi[c] / h));
  }
  return v * h * h * h;
}

/** Number of liquid cells (φ < 0 at the centre, or fluid type). */
export function fluidCellCount(s: GridStore): number {
  let n = 0;
  for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID) n++;
  return n;
}
