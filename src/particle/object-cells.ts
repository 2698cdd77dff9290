/** Look-ups of the object cells (StepContext.objectCells) in their dense block. */
import { spanGap } from './neighbours.ts';

/**
 * StepContext.objectCellsNearAt over a dense block of object cells (cell or −1 at
 * (i − li) + ni ((j − lj) + nj (k − lk))), into `into.nearObjectCells` (grown as needed): the
 * object cells whose particle box (obox, 6 per cell) lies within reach = query[1] of the box at
 * box[b .. b + 6) (min xyz, max xyz; query[0]: the inverse cell size), in (k, j, i) order;
 * returns how many. Shared by the context and the jobs that look object cells up
 * (object-lists.ts, object-adhesion.ts, solve-boundary-rows.ts), which read a copy of the block on
 * a thread team. The box and the two lengths are passed in arrays, as V8 boxes a double passed to
 * a call it does not inline (an allocation each: about 27 kB a call of the contact listing or of
 * object adhesion on the honey drop).
 */
export function denseCellsNearAt(
  into: { nearObjectCells: Int32Array }, block: Int32Array, li: number, lj: number, lk: number, ni: number, nj: number, nk: number,
  obox: Float64Array, nc: number, box: Float64Array, b: number, query: Float64Array,
): number {
  const inv = query[0], reach = query[1];
  const x0 = box[b], y0 = box[b + 1], z0 = box[b + 2], x1 = box[b + 3], y1 = box[b + 4], z1 = box[b + 5];
  const ia = Math.max(Math.floor((x0 - reach) * inv), li), ib = Math.min(Math.floor((x1 + reach) * inv), li + ni - 1);
  const ja = Math.max(Math.floor((y0 - reach) * inv), lj), jb = Math.min(Math.floor((y1 + reach) * inv), lj + nj - 1);
  const ka = Math.max(Math.floor((z0 - reach) * inv), lk), kb = Math.min(Math.floor((z1 + reach) * inv), lk + nk - 1);
  if (ia > ib || ja > jb || ka > kb) return 0;
  const span = (ib - ia + 1) * (jb - ja + 1) * (kb - ka + 1);
  if (Math.min(span, nc) > into.nearObjectCells.length) into.nearObjectCells = new Int32Array(Math.min(span, nc));
  const out = into.nearObjectCells, reach2 = reach * reach;
  let m = 0;
  for (let k = ka; k <= kb; k++) {
    for (let j = ja; j <= jb; j++) {
      const row = ni * (j - lj + nj * (k - lk)) - li;
      for (let i = ia; i <= ib; i++) {
        const oc = block[row + i];
        if (oc < 0) continue;
        if (boxGap2(obox, oc, x0, y0, z0, x1, y1, z1) < reach2) out[m++] = oc;
      }
    }
  }
  return m;
}

/**
 * The squared distance between object cell oc's particle box (obox, 6 per cell: min then max) and
 * the box [x0, x1] × [y0, y1] × [z0, z1] (both boxes of points: min ≤ max); 0 where they overlap
 * (neighbours.ts spanGap per axis: max(0, lo − x1, x0 − hi) without branching).
 */
export function boxGap2(obox: Float64Array, oc: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const q = 6 * oc;
  const ex = spanGap(obox[q], obox[q + 3], x0, x1), ey = spanGap(obox[q + 1], obox[q + 4], y0, y1), ez = spanGap(obox[q + 2], obox[q + 5], z0, z1);
  return ex * ex + ey * ey + ez * ez;
}

/** The scalars of a job that looks object cells up in their dense block (objectCellLookup fills them). */
export interface ObjectCellScalars {
  inv: number; nc: number; lo0: number; lo1: number; lo2: number; n0: number; n1: number; n2: number;
}

/** What objectCellsNear needs where the object cells are hashed: the context (calling thread only). */
export interface HashedObjectCells {
  /** StepContext.objectCellsNearAt: reach = query[1]. */
  objectCellsNearAt(box: Float64Array, b: number, query: Float64Array): number;
  nearObjectCells: Int32Array;
}

/**
 * A job thread's scratch of the look-ups: the cells found, the context where the cells are
 * hashed, and the look-up's lengths (`query`: the inverse cell size, set by objectCellsNearBoxAt,
 * and the reach, set by the caller before it).
 */
export interface ObjectCellScratch {
  nearObjectCells: Int32Array;
  hashed: HashedObjectCells | null;
  readonly query: Float64Array;
}

/**
 * Hands a job the object cells' dense block (`a.block`, `a.obox`, the scalars of `s`), or, where
 * they are hashed (`dense` null), the context in the scratch, and then the job must run inline
 * (only the calling thread can reach the context). Returns whether the job may go to the team.
 */
export function objectCellLookup(
  dense: { block: Int32Array; lo: readonly number[]; n: readonly number[] } | null, obox: Float64Array, cellSize: number, cellCount: number,
  a: { block: Int32Array; obox: Float64Array }, s: ObjectCellScalars, scratch: ObjectCellScratch, hashed: HashedObjectCells,
): boolean {
  a.obox = obox;
  s.inv = 1 / cellSize;
  s.nc = cellCount;
  if (dense !== null) {
    a.block = dense.block;
    s.lo0 = dense.lo[0]; s.lo1 = dense.lo[1]; s.lo2 = dense.lo[2];
    s.n0 = dense.n[0]; s.n1 = dense.n[1]; s.n2 = dense.n[2];
  } else a.block = new Int32Array(0);
  scratch.hashed = dense === null ? hashed : null;
  return dense !== null;
}

/**
 * The object cells within reach = sc.query[1] of the box at box[b .. b + 6) (min xyz, max xyz;
 * StepContext.objectCellsNear) into sc.nearObjectCells, inside a job: from the dense block, or
 * through the context where the cells are hashed; returns how many (the same cells in the same
 * order either way). The box and the reach are handed on in arrays (denseCellsNearAt).
 */
export function objectCellsNearBoxAt(
  a: { block: Int32Array; obox: Float64Array }, s: ObjectCellScalars, sc: ObjectCellScratch, box: Float64Array, b: number,
): number {
  if (sc.hashed !== null) {
    const m = sc.hashed.objectCellsNearAt(box, b, sc.query);
    sc.nearObjectCells = sc.hashed.nearObjectCells;
    return m;
  }
  // (Each thread's own scratch: the inverse cell size comes with the job's scalars.)
  sc.query[0] = s.inv;
  return denseCellsNearAt(sc, a.block, s.lo0, s.lo1, s.lo2, s.n0, s.n1, s.n2, a.obox, s.nc, box, b, sc.query);
}
