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
  }
}

/** The cell structure of the sorted liquid (CellPairs after buildSorted and updateBoxes). */
export interface CellView {
  start: Int32Array;
  count: Int32Array;
  first: Int32Array;
  cells: Int32Array;
  box: Float64Array;
}

/** A growable list written by liquidPairRange: j[start[i] ..) for the particles of the range. */
export interface PairSink {
  start: Int32Array;
  j: Int32Array;
  length: number;
  push(j: number): void;
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
    const g = ctx.cells.grid;
    const cv: CellView = { start: g.start, count: g.count, first: ctx.cells.first, cells: ctx.cells.cells, box: ctx.cells.box };
    const tables = adhesionTables(ctx);
    liquidPairRange(L.pos, L.material, cv, tables, 0, g.cellCount, acc, sumK, pairs, contacts);
    pairs.start[n] = pairs.length;
    contacts.start[n] = contacts.length;
    objectAdhesion(ctx, tables);
  }
}

/** The value of matrix entry e at dr radii (AdhesionMatrix.at over a TableView's arrays). */
function matrixAt(f: Float64Array, ti: Int32Array, nm2: number, xsOff: number, ysOff: number, e: number, dr: number): number {
  const cnt = ti[nm2 + e];
  if (cnt === 0) return 0;
  const o = ti[e];
  if (dr <= f[xsOff + o]) return f[ysOff + o];
  if (dr > f[xsOff + o + cnt - 1]) return 0;
  let b = o + 1;
  while (f[xsOff + b] < dr) b++;
  const x0 = f[xsOff + b - 1], y0 = f[ysOff + b - 1];
  return y0 + ((dr - x0) / (f[xsOff + b] - x0)) * (f[ysOff + b] - y0);
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
  /** Object cells: start, count and particle boxes; object particles in slot order, with materials. */
  ostart: Int32Array;
  ocount: Int32Array;
  obox: Float64Array;
  opos: Float64Array;
  omat: Uint16Array;
  /** The object adhesion reach, squared (m²). */
  reach2: number;
}

/**
 * Liquid ← object adhesion over liquid cells [c0, c1): each liquid particle near a body adds the
 * matrix acceleration of every object particle within support (object particles are immovable:
 * the liquid particle takes A in full). Writes acc of the range's own particles only.
 */
export function objectAdhesionRange(v: ObjectView, T: TableView, c0: number, c1: number, acc: Float64Array): void {
  const { pos, mat, near, start, count, cellObjStart, cellObj, ostart, ocount, obox, opos, omat, reach2 } = v;
  const msize = T.size, nm2 = msize * msize, f = T.f64, ti = T.i32, invR = T.invR;
  const xsOff = 4 * nm2, ysOff = 4 * nm2 + (f.length - 4 * nm2) / 2;
  for (let c = c0; c < c1; c++) {
    const q0 = cellObjStart[c], q1 = cellObjStart[c + 1];
    if (q0 === q1) continue;
    for (let i = start[c], i1 = i + count[c]; i < i1; i++) {
      if (!near[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * msize;
      let ax = 0, ay = 0, az = 0;
      for (let q = q0; q < q1; q++) {
        const oc = cellObj[q];
        // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box).
        if (boxDistance2(obox, 6 * oc, xi, yi, zi) >= reach2) continue;
        for (let s = ostart[oc], s1 = s + ocount[oc]; s < s1; s++) {
          const dx = opos[3 * s] - xi, dy = opos[3 * s + 1] - yi, dz = opos[3 * s + 2] - zi;
          const d2 = dx * dx + dy * dy + dz * dz;
          const e = row + omat[s];
          if (d2 >= f[e] || d2 === 0) continue;
          const d = Math.sqrt(d2);
          const A = matrixAt(f, ti, nm2, xsOff, ysOff, e, d * invR);
          if (A === 0) continue;
          const k = A / d;
          ax -= k * dx; ay -= k * dy; az -= k * dz;
        }
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
    pos: L.pos, mat: L.material, near: L.nearObject, start: g.start, count: g.count,
    cellObjStart: lists.start, cellObj: lists.cells,
    ostart: og.start, ocount: og.count, obox: ctx.objectCells.box, opos: ctx.objectSlotPos, omat: ctx.objectSlotMat,
    reach2: ctx.objectReach * ctx.objectReach,
  };
  objectAdhesionRange(view, tables, 0, g.cellCount, L.acc);
}

