/**
 * The object slots near one cell of liquid, found once for the cell and then tested per particle:
 * the implicit viscosity's object rows (viscosity-weiler-boundary.ts) and the solves' boundary rows
 * (solve-boundary-rows.ts) list, for each liquid particle (or slot) flagged near a body, the object
 * slots within h of it. The object cells within reach of the cell's box are looked up once
 * (object-cells.ts objectCellsNearBoxAt); cellCandidates copies out the slots of those cells that
 * lie within h of the box itself, in the order the cells list them, and gatherCandidates tests
 * each particle against those alone, as object-adhesion.ts does for the adhesion's reach.
 *
 * The lists are those of the scan per particle it replaces (each object cell whose particle box
 * lies within h of the particle, then each of its slots: tests/particle/object-candidates.test.ts),
 * entry for entry: a slot within h of a particle lies within h of the box that holds the particle,
 * since each coordinate's distance to the box is at most its distance to the particle and rounding
 * is monotone (a − b, a², a + b), so the box's test passes every slot the particle's test would; the
 * slots it drops are out of reach of every particle of the cell, and the order is the cells' (a
 * cell whose box is beyond h of a particle holds no slot within h of it, so the scan's test of the
 * cells' boxes dropped no entry either). No length or coordinate is passed to a call as a double (V8 boxes a double
 * argument of a call it does not inline): the reach is read from `h2`.
 */
import { axisGap } from './neighbours.ts';

/** A thread's candidates of one cell: slot ranks and their positions (grown as a cell needs). */
export class SlotCandidates {
  slot = new Int32Array(64);
  pos = new Float64Array(3 * 64);
  /** The squared reach of the box's test (the largest h² of the particles it serves), set by each run. */
  readonly h2 = new Float64Array(1);
}

let ofThread: SlotCandidates | null = null;
/**
 * This thread's candidates, one for both listings (each module instance is a thread's): they live
 * within one cell of one run, and a thread runs one job at a time.
 */
export function threadCandidates(): SlotCandidates {
  return (ofThread ??= new SlotCandidates());
}

/**
 * Into `c`, the slots of the object cells oc[0 … m) (ostart, ocount; positions opos) whose squared
 * distance from the box at box[b .. b + 6) (min xyz, max xyz) is below c.h2[0], in the cells' order;
 * returns how many.
 */
export function cellCandidates(
  c: SlotCandidates, box: Float64Array, b: number, oc: Int32Array, m: number, ostart: Int32Array, ocount: Int32Array, opos: Float64Array,
): number {
  const h2 = c.h2[0], bx0 = box[b], by0 = box[b + 1], bz0 = box[b + 2], bx1 = box[b + 3], by1 = box[b + 4], bz1 = box[b + 5];
  let cs = c.slot, cp = c.pos, k = 0;
  for (let q = 0; q < m; q++) {
    const cc = oc[q], s0 = ostart[cc], s1 = s0 + ocount[cc];
    if (k + (s1 - s0) > cs.length) {
      const m2 = Math.ceil((k + s1 - s0) * 1.5), s2 = new Int32Array(m2), p2 = new Float64Array(3 * m2);
      s2.set(cs.subarray(0, k));
      p2.set(cp.subarray(0, 3 * k));
      c.slot = cs = s2;
      c.pos = cp = p2;
    }
    for (let s = s0; s < s1; s++) {
      const x = opos[3 * s], y = opos[3 * s + 1], z = opos[3 * s + 2];
      // The slot's distance from the box (as object-adhesion.ts), branch-free in the count.
      const ex = axisGap(bx0, bx1, x), ey = axisGap(by0, by1, y), ez = axisGap(bz0, bz1, z);
      cs[k] = s;
      cp[3 * k] = x; cp[3 * k + 1] = y; cp[3 * k + 2] = z;
      k += +(ex * ex + ey * ey + ez * ez < h2);
    }
  }
  return k;
}

/**
 * Appends to lj at len the candidates c[0 … n) within √h2 of pos[3i .. 3i + 3), h2 = h2s[k], in
 * order (branch-free: every candidate written, the length advanced over those in reach, as
 * neighbours.ts gatherWithin); returns the new length.
 */
export function gatherCandidates(
  pos: Float64Array, i: number, h2s: Float64Array, k: number, c: SlotCandidates, n: number, lj: Int32Array, len: number,
): number {
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], h2 = h2s[k], cs = c.slot, cp = c.pos;
  for (let u = 0; u < n; u++) {
    const dx = cp[3 * u] - xi, dy = cp[3 * u + 1] - yi, dz = cp[3 * u + 2] - zi;
    lj[len] = cs[u];
    len += +(dx * dx + dy * dy + dz * dz < h2);
  }
  return len;
}
