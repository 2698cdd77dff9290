/**
 * Spatial slabs for the two-phase Gauss–Seidel of the stages that update both ends of a pair in
 * place (viscosity.ts, liquid-contacts.ts), so that T threads can sweep at once. The sorted liquid
 * is cut into T slabs by planes normal to a unit vector near its longest axis (tilted a little, so
 * that the planes of a lattice-filled body do not fall into one histogram bin), at equal shares of
 * a per-particle weight, with every interior slab at least `minWidth` wide: with minWidth ≥ 2 × the
 * longest pair of a list, a particle's partners lie in its own slab and at most one neighbouring
 * slab, and no pair spans two boundaries. The cut depends on the state only (a restored run cuts
 * the same). O(n), on the calling thread; one slab (T = 1) is every particle in index order.
 *
 * A sweep is then (slabRows, a job's kernel): each thread partitions the pair rows of its slab's
 * particles in place, the pairs inside the slab first (in list order), those across a boundary
 * after them (in reverse list order); barrier; phase 1: each thread updates its slab's own pairs,
 * in index order as on one thread; barrier; phase 2: thread t updates the pairs across boundary
 * t | t+1, slab t's rows then slab t+1's. Boundaries share no particle, so no two threads touch the
 * same particle at once. Every pair update stays equal and opposite, and the order of updates
 * depends only on the state and T: runs repeat bit for bit for a given T, and T = 1 is the plain
 * sweep in list order.
 */
import { MAX_THREADS } from '../parallel/team.ts';

export const MAX_SLABS = MAX_THREADS;
const BINS = 512;

/** Slab normals near x, y, z (unit length, so |d·u| ≤ |d| and the width rule holds along them). */
const TILT = [[1, 0.13, 0.07], [0.07, 1, 0.13], [0.13, 0.07, 1]].map((v) => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
});

/** Where a cut goes: owner[i] (slab of particle i), plist (particles grouped by slab, each group in index order), offsets (group t is plist[offsets[t] .. offsets[t + 1])). */
export interface SlabLayout {
  owner: Uint8Array;
  plist: Int32Array;
  offsets: Int32Array;
}

export class SlabCut {
  /** Per-particle weight, filled by the caller before `cut` with T > 1 (reserve first). */
  weight = new Float64Array(0);
  private proj = new Float64Array(0);
  private hist = new Float64Array(BINS);
  private count = new Int32Array(MAX_SLABS + 1);
  private cuts = new Float64Array(MAX_SLABS + 1);

  /**
   * Takes the weights' and the projections' room from the caller (scratch that lives while the cut
   * is made: liquid-contacts.ts, the stage buffer) rather than arrays of its own.
   */
  carve(weight: Float64Array<ArrayBuffer>, proj: Float64Array<ArrayBuffer>): void {
    this.weight = weight;
    this.proj = proj;
  }

  /** Room for the weights of n particles. */
  reserve(n: number): void {
    if (this.weight.length >= n) return;
    const cap = Math.ceil(n * 1.25) + 64;
    this.proj = new Float64Array(cap);
    const w = new Float64Array(cap);
    w.set(this.weight);
    this.weight = w;
  }

  /** Cuts particles 0..n of `pos` into T slabs (T ≤ MAX_SLABS) by `weight`, into `out`. */
  cut(pos: Float64Array, n: number, T: number, minWidth: number, out: SlabLayout): void {
    const { owner, plist, offsets: off } = out;
    if (T === 1) {
      owner.fill(0, 0, n);
      for (let i = 0; i < n; i++) plist[i] = i;
      off[0] = 0;
      off[1] = n;
      return;
    }
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
    const count = this.count;
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const x = proj[i];
      let t = 0;
      while (t < T - 1 && x >= cuts[t + 1]) t++;
      owner[i] = t;
      count[t]++;
    }
    off[0] = 0;
    for (let t = 0; t < T; t++) {
      off[t + 1] = off[t] + count[t];
      count[t] = off[t];
    }
    for (let i = 0; i < n; i++) plist[count[owner[i]]++] = i;
  }
}

/**
 * A slab job's bookkeeping (Int32, shared): per slab t, the end of its rows with partners in slab
 * t + 1 (xslots[offsets[t] .. up[t])) and the start of those with partners in slab t − 1
 * (xslots[down[t] .. offsets[t + 1])); and a flag set when a row has partners in two other slabs.
 */
export const ROWS_UP = 0, ROWS_DOWN = ROWS_UP + MAX_SLABS, ROWS_ERR = ROWS_DOWN + MAX_SLABS, ROWS_META = ROWS_ERR + 1;
