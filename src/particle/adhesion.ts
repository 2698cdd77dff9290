/**
 * Stage "adhesion" (Steele §3.1): the adhesion-matrix accelerations between liquid particles and
 * between liquid and object particles, computed once per sub-timestep. The same pair loop sums the
 * viscosity weights Σk each particle needs (§3.2) and records the short-range contact lists that
 * the moves use for inter-penetration prevention (§3.4), so the pairs are visited once; it also
 * records every pair within ctx.reach (plus a round-off margin) in ctx.cells.pairs (neighbours.ts)
 * for the surface test and the viscosity pass. Neighbour cells whose particles' bounding box is out
 * of reach are skipped (exact: see CellPairs.box). The liquid cells are ctx.reach wide (the
 * liquid–liquid supports); liquid ← object adhesion looks up the object cells within
 * ctx.objectReach of each liquid cell, for the particles flagged near a body only.
 * With a thread team both loops are split over the threads (adhesion-parallel.ts); liquidPairRange
 * and objectAdhesionRange are the loops both paths run.
 *
 * Cost (one thread, CPU ms per frame, min of 5 runs on each frame's state, alternating with the
 * previous code in one process, load 2–3 on 2 cores): honey drop frames 3–12, 71 → 55 (liquid
 * pairs 47 → 34, liquid ← object ~24 → ~21); paint drops frames 3–12, 12.9 → 10.3; gel fan
 * frame 2, 537 → 462. A candidate pair costs a distance and a test whose outcome, in a disordered
 * liquid, is a coin toss (honey drop: 101 candidates, 34 within ctx.reach, 17 within the adhesion
 * support per particle): the one-liquid loop can gather without branching (uniformPairRange);
 * liquid ← object adhesion lists, per liquid cell, the object particles within support of its
 * particle box before its particles scan them. Results are bit-identical to the plain loops
 * (same pairs, same order, same arithmetic; tests/particle/pairs.test.ts).
 *
 * Momentum: a pair (i, j) at distance d with matrix acceleration A (positive repels) exchanges the
 * impulse A · m̄ · dt along the line between them, m̄ = 2 mᵢ mⱼ / (mᵢ + mⱼ) (= m for equal masses);
 * i gets −A m̄/mᵢ, j gets +A m̄/mⱼ, so Σ m a = 0 to round-off. Object particles are immovable:
 * the liquid particle receives A in full.
 */
import { CONTACT_REACH, type StepContext } from './context.ts';
import { boxDistance2 } from './neighbours.ts';
import { parallelAdhesion } from './adhesion-parallel.ts';

/**
 * What the liquid pair loop reads besides positions and materials: per material pair (a·size + b)
 * the squared adhesion support (m², 0: no force), the impulse shares m̄/mᵢ and m̄/mⱼ, 1/h² of
 * the viscosity kernel (h the mean of the two supports), the matrix breakpoints, and the reaches.
 * Packed in two typed arrays so that a thread team can share them (adhesion-parallel.ts).
 */
export interface TableView {
  f64: Float64Array;
  i32: Int32Array;
  size: number;
  invR: number;
  reach2: number;
  pairReach2: number;
  contactReach2: number;
  /**
   * The entry every liquid–liquid pair shares when all of them hold the same numbers (one liquid,
   * or liquids alike in mass, kernel and matrix row), else −1: liquidPairRange then reads them once.
   */
  uniform: number;
}

export class AdhesionTables implements TableView {
  /** supp2 | shareI | shareJ | invH2 (size² each) | breakpoint xs | ys. */
  f64: Float64Array = new Float64Array(0);
  /** Breakpoint offset | count per entry (size² each). */
  i32: Int32Array = new Int32Array(0);
  size = 0;
  invR = 0;
  reach2 = 0;
  pairReach2 = 0;
  contactReach2 = 0;
  uniform = -1;

  fill(ctx: StepContext, alloc: (n: number) => Float64Array = (n) => new Float64Array(n), allocI: (n: number) => Int32Array = (n) => new Int32Array(n)): void {
    const M = ctx.adhesion, msize = M.size, nm2 = msize * msize, nx = M.xs.length;
    const mass = ctx.mass, ks = ctx.kernelSupport, r = ctx.r;
    if (this.f64.length !== 4 * nm2 + 2 * nx) this.f64 = alloc(4 * nm2 + 2 * nx);
    if (this.i32.length !== 2 * nm2) this.i32 = allocI(2 * nm2);
    const f = this.f64, t = this.i32;
    for (let a = 0; a < msize; a++) {
      for (let b = 0; b < msize; b++) {
        const e = a * msize + b;
        f[e] = M.count[e] > 0 ? (M.support[e] * r) ** 2 : 0;
        const ma = mass[a], mb = mass[b];
        const mbar = ma + mb > 0 ? (2 * ma * mb) / (ma + mb) : 0;
        f[nm2 + e] = ma > 0 ? mbar / ma : 0;
        f[2 * nm2 + e] = mb > 0 ? mbar / mb : 0;
        const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
        f[3 * nm2 + e] = 1 / (h * h);
        t[e] = M.offset[e];
        t[nm2 + e] = M.count[e];
      }
    }
    f.set(M.xs, 4 * nm2);
    f.set(M.ys, 4 * nm2 + nx);
    this.size = msize;
    this.invR = 1 / r;
    this.reach2 = ctx.reach * ctx.reach;
    // ctx.cells.pairs reaches a round-off margin further, so it holds every pair the viscosity kernel
    // can weigh: fl(d² · fl(1/h²)) < 1 with h ≤ reach implies d² < reach² (1 + 4·2⁻⁵³) (viscosity.ts).
    this.pairReach2 = this.reach2 * (1 + 1e-12);
    this.contactReach2 = (CONTACT_REACH * r) ** 2;
    this.uniform = uniformEntry(f, t, msize, ctx.isLiquid);
  }
}

/** The liquid–liquid entry all liquid pairs share bit for bit (TableView.uniform), or −1. */
function uniformEntry(f: Float64Array, t: Int32Array, msize: number, isLiquid: Uint8Array): number {
  const nm2 = msize * msize, xsOff = 4 * nm2, nx = (f.length - xsOff) / 2;
  let e0 = -1;
  for (let a = 0; a < msize; a++) {
    for (let b = 0; b < msize; b++) {
      if (!isLiquid[a] || !isLiquid[b]) continue;
      const e = a * msize + b;
      if (e0 < 0) { e0 = e; continue; }
      for (let k = 0; k < 4; k++) if (!Object.is(f[k * nm2 + e], f[k * nm2 + e0])) return -1;
      const cnt = t[nm2 + e];
      if (cnt !== t[nm2 + e0]) return -1;
      for (let k = 0; k < cnt; k++) {
        if (!Object.is(f[xsOff + t[e] + k], f[xsOff + t[e0] + k]) || !Object.is(f[xsOff + nx + t[e] + k], f[xsOff + nx + t[e0] + k])) return -1;
      }
    }
  }
  return e0;
}

/** The cell structure of the sorted liquid (CellPairs after buildSorted and updateBoxes). */
export interface CellView {
  start: Int32Array;
  count: Int32Array;
  first: Int32Array;
  cells: Int32Array;
  box: Float64Array;
}

/** A CellView of ctx.cells (after updateBoxes). */
export function cellView(ctx: StepContext): CellView {
  const c = ctx.cells, g = c.grid;
  return { start: g.start, count: g.count, first: c.first, cells: c.cells, box: c.box };
}

/** A growable list written by liquidPairRange: j[start[i] ..) for the particles of the range. */
export interface PairSink {
  start: Int32Array;
  j: Int32Array;
  length: number;
  push(j: number): void;
  /** Makes room for `total` entries, keeping the first `length`. */
  reserve(total: number): void;
}

/**
 * The liquid pair loop over cells [c0, c1) of the sorted liquid: adhesion accelerations into
 * `acc` and kernel sums Σk into `sumK` (both ends of every pair i < j: j may lie outside the range,
 * so a thread team gives each thread its own acc and sumK and sums them after), and the pair and
 * contact lists of the range's particles, appended to `pairs` and `contacts` (start[i] is the
 * sink's length when i begins). `acc` and `sumK` must be zeroed by the caller.
 * The one loop both computeAdhesion and its threaded form (adhesion-parallel.ts) run.
 */
export function liquidPairRange(
  pos: Float64Array, mat: Uint16Array, cv: CellView, T: TableView, c0: number, c1: number,
  acc: Float64Array, sumK: Float64Array, pairs: PairSink, contacts: PairSink,
): void {
  if (T.uniform >= 0) {
    uniformPairRange(pos, cv, T, c0, c1, acc, sumK, pairs, contacts);
    return;
  }
  const start = cv.start, cnt = cv.count, first = cv.first, cells = cv.cells, box = cv.box;
  const msize = T.size, nm2 = msize * msize, invR = T.invR, f = T.f64, ti = T.i32;
  const reach2 = T.reach2, pairReach2 = T.pairReach2, contactReach2 = T.contactReach2;
  const shareOff = nm2, shareJOff = 2 * nm2, invHOff = 3 * nm2, xsOff = 4 * nm2, ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2;
  const cstart = contacts.start, pstart = pairs.start;
  let cj = contacts.j, clen = contacts.length;
  let pj = pairs.j, plen = pairs.length;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    const q0 = first[c], q1 = first[c + 1];
    for (let i = i0; i < i1; i++) {
      cstart[i] = clen;
      pstart[i] = plen;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * msize;
      let ax = 0, ay = 0, az = 0, si = 0;
      for (let q = q0; q < q1; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box).
          if (boxDistance2(box, 6 * c2, xi, yi, zi) >= pairReach2) continue;
        }
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
            const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= pairReach2) continue;
          if (plen === pj.length) {
            pairs.length = plen;
            pairs.push(j);
            pj = pairs.j;
            plen = pairs.length;
          } else pj[plen++] = j;
          if (d2 >= reach2) continue;
          if (d2 < contactReach2) {
            if (clen === cj.length) {
              contacts.length = clen;
              contacts.push(j);
              cj = contacts.j;
              clen = contacts.length;
            } else cj[clen++] = j;
          }
          const e = row + mat[j];
          // gaussLike2(d2, 1/h²), inlined (math/kernels.ts).
          const q2 = d2 * f[invHOff + e];
          if (q2 < 1) {
            const s = 1 - q2;
            const k = s * s * s;
            si += k;
            sumK[j] += k;
          }
          if (d2 >= f[e] || d2 === 0) continue;
          const d = Math.sqrt(d2);
          // M.at(mi, mj, d / r), inlined (adhesion-matrix.ts): the count is > 0 (supp2 > 0).
          const dr = d * invR, o = ti[e];
          let A: number;
          if (dr <= f[xsOff + o]) A = f[ysOff + o];
          else if (dr > f[xsOff + o + ti[nm2 + e] - 1]) A = 0;
          else {
            let b = o + 1;
            while (f[xsOff + b] < dr) b++;
            const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
            const t = (dr - x0) / (f[xsOff + b] - x0);
            A = y0 + t * (f[ysOff + b] - y0);
          }
          if (A === 0) continue;
          const fi = (A * f[shareOff + e]) / d, fj = (A * f[shareJOff + e]) / d;
          ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
          acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
      sumK[i] += si;
    }
  }
  contacts.length = clen;
  pairs.length = plen;
}

/**
 * The two forms of the liquid pair loop for TableView.uniform give bit-identical results; which is
 * faster depends on how predictable its tests are. Where the particles sit on a lattice (gel fan,
 * first frames) the one-pass form's branches are predicted and it is ~20 % faster; where they are
 * disordered (honey drop) they are coin tosses and the three-pass form is ~20 % faster. So in every
 * CHOOSE_EVERY calls, calls TRIAL .. TRIAL + 3 run the forms in turn, timed per particle, and the
 * faster (sum of its two) runs until the next trials; before the first trials the forms alternate,
 * so that both are compiled when timed. Per thread (module state). Timing picks a form, never a
 * result.
 */
const CHOOSE_EVERY = 32, TRIAL = 6;
const chooser = { calls: 0, branchyMs: 0, branchlessMs: 0, branchless: true };

function uniformPairRange(
  pos: Float64Array, cv: CellView, T: TableView, c0: number, c1: number,
  acc: Float64Array, sumK: Float64Array, pairs: PairSink, contacts: PairSink,
): void {
  const calls = chooser.calls++, k = (calls % CHOOSE_EVERY) - TRIAL;
  if (k < 0 || k > 3) {
    if (calls < TRIAL ? (calls & 1) === 1 : chooser.branchless) branchlessPairRange(pos, cv, T, c0, c1, acc, sumK, pairs, contacts);
    else branchyPairRange(pos, cv, T, c0, c1, acc, sumK, pairs, contacts);
    return;
  }
  const n = c1 > c0 ? cv.start[c1 - 1] + cv.count[c1 - 1] - cv.start[c0] : 0;
  const t0 = performance.now();
  if ((k & 1) === 0) branchyPairRange(pos, cv, T, c0, c1, acc, sumK, pairs, contacts);
  else branchlessPairRange(pos, cv, T, c0, c1, acc, sumK, pairs, contacts);
  const ms = (performance.now() - t0) / Math.max(1, n);
  if (k === 0) chooser.branchyMs = ms;
  else if (k === 1) chooser.branchlessMs = ms;
  else if (k === 2) chooser.branchyMs += ms;
  else {
    chooser.branchlessMs += ms;
    chooser.branchless = chooser.branchlessMs <= chooser.branchyMs;
  }
}

/**
 * liquidPairRange for TableView.uniform in one pass, as the general loop but with the entry's
 * numbers in locals and room for a particle's pairs made once per particle.
 */
export function branchyPairRange(
  pos: Float64Array, cv: CellView, T: TableView, c0: number, c1: number,
  acc: Float64Array, sumK: Float64Array, pairs: PairSink, contacts: PairSink,
): void {
  const start = cv.start, cnt = cv.count, first = cv.first, cells = cv.cells, box = cv.box;
  const msize = T.size, nm2 = msize * msize, invR = T.invR, f = T.f64, ti = T.i32, e = T.uniform;
  const reach2 = T.reach2, pairReach2 = T.pairReach2, contactReach2 = T.contactReach2;
  const xsOff = 4 * nm2 + ti[e], ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2 + ti[e], nb = ti[nm2 + e];
  const supp2 = f[e], shareI = f[nm2 + e], shareJ = f[2 * nm2 + e], invH2 = f[3 * nm2 + e], sameShare = shareI === shareJ;
  const xFirst = nb > 0 ? f[xsOff] : 0, yFirst = nb > 0 ? f[ysOff] : 0, xLast = nb > 0 ? f[xsOff + nb - 1] : 0;
  const cstart = contacts.start, pstart = pairs.start;
  let cj = contacts.j, clen = contacts.length;
  let pj = pairs.j, plen = pairs.length;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    const q0 = first[c], q1 = first[c + 1];
    let room = 0;
    for (let q = q0; q < q1; q++) room += cnt[cells[q]];
    for (let i = i0; i < i1; i++) {
      if (plen + room > pj.length) {
        pairs.length = plen;
        pairs.reserve(plen + room);
        pj = pairs.j;
      }
      if (clen + room > cj.length) {
        contacts.length = clen;
        contacts.reserve(clen + room);
        cj = contacts.j;
      }
      cstart[i] = clen;
      pstart[i] = plen;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      let ax = 0, ay = 0, az = 0, si = 0;
      for (let q = q0; q < q1; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          if (boxDistance2(box, 6 * c2, xi, yi, zi) >= pairReach2) continue;
        }
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= pairReach2) continue;
          pj[plen++] = j;
          if (d2 >= reach2) continue;
          if (d2 < contactReach2) cj[clen++] = j;
          const q2 = d2 * invH2;
          if (q2 < 1) {
            const s = 1 - q2;
            const k = s * s * s;
            si += k;
            sumK[j] += k;
          }
          if (d2 >= supp2 || d2 === 0) continue;
          const d = Math.sqrt(d2);
          const dr = d * invR;
          let A: number;
          if (dr <= xFirst) A = yFirst;
          else if (dr > xLast) A = 0;
          else {
            let b = 1;
            while (f[xsOff + b] < dr) b++;
            const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
            const t = (dr - x0) / (f[xsOff + b] - x0);
            A = y0 + t * (f[ysOff + b] - y0);
          }
          if (A === 0) continue;
          const fi = (A * shareI) / d, fj = sameShare ? fi : (A * shareJ) / d;
          ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
          acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
        }
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
      sumK[i] += si;
    }
  }
  contacts.length = clen;
  pairs.length = plen;
}

/**
 * One particle's pairs within adhesion support, between passes 2 and 3 of uniformPairRange: a
 * temporary of one call (a few hundred entries; module state is per thread).
 */
let withinScratch = new Int32Array(512);

/**
 * liquidPairRange when every liquid pair reads the same table entry (TableView.uniform): the same
 * arithmetic on the same numbers, each sum taken in the same order (bit-identical), in three passes
 * per particle i so that the tests whose outcome is a coin toss (is j within reach, within contact
 * reach, within adhesion support) do not branch: (1) the candidates j within reach are appended to
 * the pair list, (2) over those, the contact list, Σk, and the j within adhesion support, into a
 * scratch list, (3) over those, the forces. Mispredicted branches were
 * most of the cost of the single pass (honey drop: 101 candidates per particle, 34 pairs within
 * reach, 17 within support). The entry's numbers are held in locals, and room for a particle's
 * pairs is made once per particle instead of being checked per pair.
 */
export function branchlessPairRange(
  pos: Float64Array, cv: CellView, T: TableView, c0: number, c1: number,
  acc: Float64Array, sumK: Float64Array, pairs: PairSink, contacts: PairSink,
): void {
  const start = cv.start, cnt = cv.count, first = cv.first, cells = cv.cells, box = cv.box;
  const msize = T.size, nm2 = msize * msize, invR = T.invR, f = T.f64, ti = T.i32, e = T.uniform;
  const reach2 = T.reach2, pairReach2 = T.pairReach2, contactReach2 = T.contactReach2;
  const xsOff = 4 * nm2 + ti[e], ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2 + ti[e], nb = ti[nm2 + e];
  const supp2 = f[e], shareI = f[nm2 + e], shareJ = f[2 * nm2 + e], invH2 = f[3 * nm2 + e], sameShare = shareI === shareJ;
  const xFirst = nb > 0 ? f[xsOff] : 0, yFirst = nb > 0 ? f[ysOff] : 0, xLast = nb > 0 ? f[xsOff + nb - 1] : 0;
  const cstart = contacts.start, pstart = pairs.start;
  let cj = contacts.j, clen = contacts.length;
  let pj = pairs.j, plen = pairs.length, w = withinScratch;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    const q0 = first[c], q1 = first[c + 1];
    // At most this many pairs per particle of the cell.
    let room = 0;
    for (let q = q0; q < q1; q++) room += cnt[cells[q]];
    if (w.length < room) withinScratch = w = new Int32Array(Math.ceil(room * 1.5));
    for (let i = i0; i < i1; i++) {
      if (plen + room > pj.length) {
        pairs.length = plen;
        pairs.reserve(plen + room);
        pj = pairs.j;
      }
      if (clen + room > cj.length) {
        contacts.length = clen;
        contacts.reserve(clen + room);
        cj = contacts.j;
      }
      cstart[i] = clen;
      const p0 = plen;
      pstart[i] = p0;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      // 1: the pairs within reach (pairReach2), in cell order.
      for (let q = q0; q < q1; q++) {
        const c2 = cells[q];
        if (c2 !== c) {
          // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box;
          // boxDistance2 in Math.max form, which does not branch on the box's side).
          if (boxDistance2(box, 6 * c2, xi, yi, zi) >= pairReach2) continue;
        }
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          pj[plen] = j;
          plen += +!(dx * dx + dy * dy + dz * dz >= pairReach2);
        }
      }
      // 2: contacts, Σk, and the pairs within adhesion support (at w[0 .. t)).
      let si = 0, t = 0;
      for (let p = p0; p < plen; p++) {
        const j = pj[p];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= reach2) continue;
        cj[clen] = j;
        clen += +(d2 < contactReach2);
        // gaussLike2(d2, 1/h²), inlined (math/kernels.ts).
        const q2 = d2 * invH2;
        if (q2 < 1) {
          const s = 1 - q2;
          const k = s * s * s;
          si += k;
          sumK[j] += k;
        }
        w[t] = j;
        t += +!(d2 >= supp2) & +(d2 !== 0);
      }
      sumK[i] += si;
      // 3: adhesion, A = M.at(mi, mj, d / r) inlined (adhesion-matrix.ts).
      let ax = 0, ay = 0, az = 0;
      for (let p = 0; p < t; p++) {
        const j = w[p];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        const dr = d * invR;
        let A: number;
        if (dr <= xFirst) A = yFirst;
        else if (dr > xLast) A = 0;
        else {
          // The first breakpoint b ≥ 1 with xs[b] ≥ dr (xs increase; xs[nb − 1] ≥ dr), counted.
          let b = 1;
          for (let k = 1; k < nb - 1; k++) b += +(f[xsOff + k] < dr);
          const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
          const tt = (dr - x0) / (f[xsOff + b] - x0);
          A = y0 + tt * (f[ysOff + b] - y0);
        }
        if (A === 0) continue;
        // Equal masses: the same share at both ends, one division.
        const fi = (A * shareI) / d, fj = sameShare ? fi : (A * shareJ) / d;
        ax -= fi * dx; ay -= fi * dy; az -= fi * dz;
        acc[3 * j] += fj * dx; acc[3 * j + 1] += fj * dy; acc[3 * j + 2] += fj * dz;
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
    }
  }
  contacts.length = clen;
  pairs.length = plen;
}

/** The context's adhesion tables, refreshed (cheap: size² entries). */
export function adhesionTables(ctx: StepContext): AdhesionTables {
  const t = ctx.keep('adhesion.tables', () => new AdhesionTables());
  t.fill(ctx);
  return t;
}

/**
 * Adhesion accelerations (L.acc), Σk (L.scalar), ctx.cells.pairs and ctx.contacts for the sorted
 * liquid, then liquid ← object adhesion. With a thread team (adhesion-parallel.ts) the liquid
 * pair loop is split over the threads.
 */
export function computeAdhesion(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count;
  ctx.cells.updateBoxes(L.pos);
  if (!parallelAdhesion(ctx)) {
    const acc = L.acc, sumK = L.scalar;
    acc.fill(0, 0, 3 * n);
    sumK.fill(0, 0, n);
    const pairs = ctx.cells.pairs, contacts = ctx.contacts;
    pairs.reset(n);
    contacts.reset(n);
    const tables = adhesionTables(ctx);
    liquidPairRange(L.pos, L.material, cellView(ctx), tables, 0, ctx.cells.grid.cellCount, acc, sumK, pairs, contacts);
    pairs.start[n] = pairs.length;
    contacts.start[n] = contacts.length;
    objectAdhesion(ctx, tables);
  }
}

/** What liquid ← object adhesion reads (objectAdhesionRange). */
export interface ObjectView {
  pos: Float64Array;
  mat: Uint16Array;
  /** L.nearObject: only flagged particles can feel a body (markNearObjects covers the adhesion support). */
  near: Uint8Array;
  /** Liquid cells: start, count. */
  start: Int32Array;
  count: Int32Array;
  /** Per liquid cell c: the object cells within reach, cellObj[cellObjStart[c] .. cellObjStart[c + 1]). */
  cellObjStart: Int32Array;
  cellObj: Int32Array;
  /** Liquid cells' particle boxes (CellPairs.box). */
  box: Float64Array;
  /** Object cells: start, count; object particles in slot order, with materials. */
  ostart: Int32Array;
  ocount: Int32Array;
  opos: Float64Array;
  omat: Uint16Array;
}

/** Per-thread scratch of objectAdhesionRange: one liquid cell's object candidates (positions, materials). */
export class ObjectCandidates {
  pos = new Float64Array(3 * 256);
  mat = new Int32Array(256);
  /** One liquid particle's candidates within support (indices into pos and mat). */
  within = new Int32Array(256);
  /** Per object material: the largest squared support of any liquid with it (m²). */
  supp2 = new Float64Array(0);
}

/**
 * Liquid ← object adhesion over liquid cells [c0, c1): each liquid particle near a body adds the
 * matrix acceleration of every object particle within support (object particles are immovable:
 * the liquid particle takes A in full). Writes acc of the range's own particles only.
 * Per liquid cell, the object particles of its listed cells that lie within the largest support of
 * their material from the cell's particle box are copied out first, in the order the cells list
 * them (the others are out of support for every particle of the cell: rounding is monotone), so
 * each liquid particle visits the same pairs in the same order as a scan of the listed cells
 * (bit-identical), with no per-particle box tests and about 20 % fewer candidates (honey drop).
 */
export function objectAdhesionRange(v: ObjectView, T: TableView, c0: number, c1: number, acc: Float64Array, cand: ObjectCandidates): void {
  const { pos, mat, near, start, count, box, cellObjStart, cellObj, ostart, ocount, opos, omat } = v;
  const msize = T.size, nm2 = msize * msize, f = T.f64, ti = T.i32, invR = T.invR;
  const xsOff = 4 * nm2, ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2;
  if (cand.supp2.length !== msize) cand.supp2 = new Float64Array(msize);
  const supp2 = cand.supp2;
  for (let m = 0; m < msize; m++) {
    let s2 = 0;
    for (let a = 0; a < msize; a++) s2 = Math.max(s2, f[a * msize + m]);
    supp2[m] = s2;
  }
  for (let c = c0; c < c1; c++) {
    const q0 = cellObjStart[c], q1 = cellObjStart[c + 1];
    if (q0 === q1) continue;
    const i0 = start[c], i1 = i0 + count[c];
    let any = false;
    for (let i = i0; i < i1 && !any; i++) any = near[i] === 1;
    if (!any) continue;
    // The cell's candidates, in listed order.
    const b = 6 * c, bx0 = box[b], by0 = box[b + 1], bz0 = box[b + 2], bx1 = box[b + 3], by1 = box[b + 4], bz1 = box[b + 5];
    let cp = cand.pos, cm = cand.mat, k = 0;
    for (let q = q0; q < q1; q++) {
      const oc = cellObj[q];
      const s1 = ostart[oc] + ocount[oc];
      if (k + (s1 - ostart[oc]) > cm.length) {
        const m2 = Math.ceil((k + s1 - ostart[oc]) * 1.5);
        const p2 = new Float64Array(3 * m2), mm = new Int32Array(m2);
        p2.set(cp.subarray(0, 3 * k));
        mm.set(cm.subarray(0, k));
        cand.pos = cp = p2;
        cand.mat = cm = mm;
      }
      for (let s = ostart[oc]; s < s1; s++) {
        const x = opos[3 * s], y = opos[3 * s + 1], z = opos[3 * s + 2], om = omat[s];
        // Distance from the cell's particle box (as boxDistance2).
        let ex = bx0 - x, ey = by0 - y, ez = bz0 - z;
        if (ex < 0) { ex = x - bx1; if (ex < 0) ex = 0; }
        if (ey < 0) { ey = y - by1; if (ey < 0) ey = 0; }
        if (ez < 0) { ez = z - bz1; if (ez < 0) ez = 0; }
        if (ex * ex + ey * ey + ez * ez >= supp2[om]) continue;
        cp[3 * k] = x; cp[3 * k + 1] = y; cp[3 * k + 2] = z;
        cm[k++] = om;
      }
    }
    if (k === 0) continue;
    if (cand.within.length < k) cand.within = new Int32Array(Math.ceil(k * 1.5));
    const w = cand.within;
    for (let i = i0; i < i1; i++) {
      if (!near[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * msize;
      // The candidates within support, gathered without branching on the (coin-toss) test.
      let m = 0;
      for (let u = 0; u < k; u++) {
        const dx = cp[3 * u] - xi, dy = cp[3 * u + 1] - yi, dz = cp[3 * u + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz;
        w[m] = u;
        m += +!(d2 >= f[row + cm[u]]) & +(d2 !== 0);
      }
      let ax = 0, ay = 0, az = 0;
      for (let p = 0; p < m; p++) {
        const u = w[p];
        const dx = cp[3 * u] - xi, dy = cp[3 * u + 1] - yi, dz = cp[3 * u + 2] - zi;
        const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
        const e = row + cm[u];
        // M.at(mi, mj, d / r), inlined (adhesion-matrix.ts): the count is > 0 (supp2 > 0).
        const dr = d * invR, o = ti[e];
        let A: number;
        if (dr <= f[xsOff + o]) A = f[ysOff + o];
        else if (dr > f[xsOff + o + ti[nm2 + e] - 1]) A = 0;
        else {
          // The first breakpoint b > o with xs[b] ≥ dr (xs increase), counted.
          let bb = o + 1;
          for (let q = o + 1, q1 = o + ti[nm2 + e] - 1; q < q1; q++) bb += +(f[xsOff + q] < dr);
          const x0 = f[xsOff + bb - 1], y0 = f[ysOff + bb - 1];
          A = y0 + ((dr - x0) / (f[xsOff + bb] - x0)) * (f[ysOff + bb] - y0);
        }
        if (A === 0) continue;
        const kk = A / d;
        ax -= kk * dx; ay -= kk * dy; az -= kk * dz;
      }
      acc[3 * i] += ax; acc[3 * i + 1] += ay; acc[3 * i + 2] += az;
    }
  }
}

/**
 * Per liquid cell with a particle near a body, the object cells within the object adhesion reach
 * of its particles (ctx.objectCellsNear), as a compressed list into `out` (grown with `alloc`).
 * Returns the list; empty for cells with no particle near a body.
 */
export function listCellObjects(
  ctx: StepContext, out: { start: Int32Array; cells: Int32Array }, alloc: (n: number) => Int32Array = (n) => new Int32Array(n),
): { start: Int32Array; cells: Int32Array } {
  const L = ctx.liquid, g = ctx.cells.grid, nc = g.cellCount, start = g.start, cnt = g.count, box = ctx.cells.box;
  const near = L.nearObject, reach = ctx.objectReach;
  if (out.start.length < nc + 1) out.start = alloc(Math.ceil((nc + 1) * 1.25));
  let len = 0;
  for (let c = 0; c < nc; c++) {
    out.start[c] = len;
    const i0 = start[c], i1 = i0 + cnt[c];
    let any = false;
    for (let i = i0; i < i1 && !any; i++) any = near[i] === 1;
    if (!any) continue;
    const b = 6 * c;
    const m = ctx.objectCellsNear(box[b], box[b + 1], box[b + 2], box[b + 3], box[b + 4], box[b + 5], reach);
    if (len + m > out.cells.length) {
      const bigger = alloc(Math.ceil((len + m) * 1.5) + 256);
      bigger.set(out.cells.subarray(0, len));
      out.cells = bigger;
    }
    out.cells.set(ctx.nearObjectCells.subarray(0, m), len);
    len += m;
  }
  out.start[nc] = len;
  return out;
}

/** Liquid ← object adhesion on one thread. */
function objectAdhesion(ctx: StepContext, tables: TableView): void {
  const L = ctx.liquid;
  if (ctx.objects.count === 0) return;
  const lists = listCellObjects(ctx, ctx.keep('adhesion.cellObjects', () => ({ start: new Int32Array(0), cells: new Int32Array(0) })));
  const g = ctx.cells.grid, og = ctx.objectCells.grid;
  const view: ObjectView = {
    pos: L.pos, mat: L.material, near: L.nearObject, start: g.start, count: g.count, box: ctx.cells.box,
    cellObjStart: lists.start, cellObj: lists.cells,
    ostart: og.start, ocount: og.count, opos: ctx.objectSlotPos, omat: ctx.objectSlotMat,
  };
  objectAdhesionRange(view, tables, 0, g.cellCount, L.acc, ctx.keep('adhesion.objectCandidates', () => new ObjectCandidates()));
}

