/**
 * Spatial slabs for the two-phase Gauss–Seidel of a thread team (viscosity-parallel.ts). The sorted liquid is cut into T slabs by planes normal to a unit vector
 * near its longest axis (tilted a little, so that the planes of a lattice-filled body do not fall
 * into one histogram bin), at equal shares of a per-particle weight, with every interior slab at
 * least `minWidth` wide: with minWidth ≥ 2 × the longest pair of a list, a particle's partners lie
 * in its own slab and at most one neighbouring slab, and no pair spans two boundaries. The cut
 * depends on the state only (a restored run cuts the same). O(n), on the calling thread.
 *
 * Output, on shared memory for the team: owner[i] (slab of particle i); plist, the particles
 * grouped by slab, each group in index (cell) order; offsets: pOff[t] = offsets[t] (group t is
 * plist[pOff[t] .. pOff[t+1])) and rOff[t] = offsets[MAX_SLABS + 1 + t], the start of slab t's
 * region in a pair list laid out like `rowStart` (a CSR start array): the sum of the rows of the
 * slabs before it, so that each slab can rewrite its rows into a region of its own.
 */
import { allocInt32, allocUint8 } from '../parallel/legacy.ts';

export const MAX_SLABS = 64;
export const R_OFF = MAX_SLABS + 1;
const BINS = 512;

/** Slab normals near x, y, z (unit length, so |d·u| ≤ |d| and the width rule holds along them). */
const TILT = [[1, 0.13, 0.07], [0.07, 1, 0.13], [0.13, 0.07, 1]].map((v) => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
});

export class SlabCut {
  owner = allocUint8(0, true);
  plist = allocInt32(0, true);
  offsets = allocInt32(2 * (MAX_SLABS + 1), true);
  /** Per-particle weight, filled by the caller before `cut` (length ≥ n). */
  weight = new Float64Array(0);
  private proj = new Float64Array(0);
  private hist = new Float64Array(BINS);
  private count = new Int32Array(MAX_SLABS + 1);
  private rows = new Float64Array(MAX_SLABS + 1);
  private cuts = new Float64Array(MAX_SLABS + 1);

  reserve(n: number): void {
    if (this.owner.length >= n) return;
    const cap = Math.ceil(n * 1.25) + 64;
    this.owner = allocUint8(cap, true);
    this.plist = allocInt32(cap, true);
    this.proj = new Float64Array(cap);
    const w = new Float64Array(cap);
    w.set(this.weight);
    this.weight = w;
  }

  /** Cuts particles 0..n of `pos` into T slabs (T ≤ MAX_SLABS) by `weight`; `rowStart` sizes the pair regions. */
  cut(pos: Float64Array, n: number, T: number, minWidth: number, rowStart: Int32Array): void {
    this.reserve(n);
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
      if (x < x0) x0 = x; if (x > x1) x1 = x;
      if (y < y0) y0 = y; if (y > y1) y1 = y;
      if (z < z0) z0 = z; if (z > z1) z1 = z;
    }
    let axis = 0;
    if (y1 - y0 > x1 - x0) axis = 1;
    if (z1 - z0 > Math.max(x1 - x0, y1 - y0)) axis = 2;
    const u = TILT[axis], ux = u[0], uy = u[1], uz = u[2];
    const proj = this.proj, weight = this.weight;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const p = ux * pos[3 * i] + uy * pos[3 * i + 1] + uz * pos[3 * i + 2];
      proj[i] = p;
      if (p < lo) lo = p;
      if (p > hi) hi = p;
    }
    const ext = hi - lo;
    const hist = this.hist;
    hist.fill(0);
    const binW = ext > 0 ? ext / BINS : 1;
    let total = 0;
    for (let i = 0; i < n; i++) {
      let b = Math.floor((proj[i] - lo) / binW);
      if (b >= BINS) b = BINS - 1;
      hist[b] += weight[i];
      total += weight[i];
    }
    const cuts = this.cuts;
    let acc = 0, b = 0;
    for (let t = 1; t < T; t++) {
      const target = (total * t) / T;
      while (b < BINS && acc + hist[b] <= target) acc += hist[b++];
      let x = lo + b * binW;
      if (t >= 2 && x < cuts[t - 1] + minWidth) x = cuts[t - 1] + minWidth;
      cuts[t] = x;
    }
    const owner = this.owner, plist = this.plist, off = this.offsets, count = this.count, rows = this.rows;
    count.fill(0);
    rows.fill(0);
    for (let i = 0; i < n; i++) {
      const x = proj[i];
      let t = 0;
      while (t < T - 1 && x >= cuts[t + 1]) t++;
      owner[i] = t;
      count[t]++;
      rows[t] += rowStart[i + 1] - rowStart[i];
    }
    off[0] = 0;
    off[R_OFF] = rowStart[0];
    for (let t = 0; t < T; t++) {
      off[t + 1] = off[t] + count[t];
      off[R_OFF + t + 1] = off[R_OFF + t] + rows[t];
      count[t] = off[t];
    }
    for (let i = 0; i < n; i++) plist[count[owner[i]]++] = i;
  }
}
