/** Look-ups of the object cells (StepContext.objectCells) in their dense block. */

/**
 * StepContext.objectCellsNear over a dense block of object cells (cell or −1 at
 * (i − li) + ni ((j − lj) + nj (k − lk))), into `into.nearObjectCells` (grown as needed): the
 * object cells whose particle box (obox, 6 per cell) lies within `reach` of the box
 * [x0, x1] × [y0, y1] × [z0, z1], in (k, j, i) order; returns how many. Shared by the context and
 * the contact listing (object-lists.ts), which reads a copy of the block on a thread team.
 */
export function denseCellsNear(
  into: { nearObjectCells: Int32Array }, block: Int32Array, li: number, lj: number, lk: number, ni: number, nj: number, nk: number,
  obox: Float64Array, inv: number, nc: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, reach: number,
): number {
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
 * the box [x0, x1] × [y0, y1] × [z0, z1]; 0 where they overlap.
 */
export function boxGap2(obox: Float64Array, oc: number, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): number {
  const q = 6 * oc;
  const ex = Math.max(0, obox[q] - x1, x0 - obox[q + 3]);
  const ey = Math.max(0, obox[q + 1] - y1, y0 - obox[q + 4]);
  const ez = Math.max(0, obox[q + 2] - z1, z0 - obox[q + 5]);
  return ex * ex + ey * ey + ez * ez;
}
