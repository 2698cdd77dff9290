/**
 * The cells of a HashGrid numbered along the Z-order (Morton) curve of their integer corners, in
 * place of their order of first appearance among the points: a cell's 26 neighbours then lie
 * mostly within a few hundred cells of it in index, where by first appearance (the seeding
 * lattice's order, kept from one sort to the next) the neighbours across the slowest axis lie a
 * whole slab of cells away. The particle engine sorts the liquid by its cells (neighbours.ts
 * CellPairs.buildSorted), so this is the liquid's order in memory, and every pair loop reads the
 * far ends of its pairs from nearer memory. SPlisHSPlasH's neighbour search (CompactNSearch,
 * Band et al.'s z-sort) orders its particles so. Figures: docs/decisions.md, branch dam10.
 *
 * The key interleaves the bits of (i − i0, j − j0, k − k0) (i the highest of each triple), ten
 * bits an axis; a block wider than 1 024 cells has its offsets shifted down to fit, the cells that
 * then share a key keeping their order of first appearance (the sort is stable), so any extent
 * gives a valid order. A sort of cell number and key packed into one double, at most 2²³ cells.
 */

/** Ten low bits of v spread to every third bit (bit b to bit 3 b). */
function spread3(v: number): number {
  let x = v & 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x;
}

const CELL_BITS = 23, CELL_SCALE = 2 ** CELL_BITS;

/** The numbering's scratch, kept between calls (the sort's keys and the two directions of the permutation). */
export class ZOrder {
  /** newOf[old cell] after `number`. */
  newOf = new Int32Array(0);
  /** oldOf[new cell] after `number`. */
  oldOf = new Int32Array(0);
  private keys = new Float64Array(0);

  /**
   * Numbers `nc` cells of corners (ci, cj, ck) along the curve: fills newOf and oldOf and returns
   * true, or false where the cells already come in that order or are too many to pack (nothing to
   * renumber).
   */
  number(ci: Int32Array, cj: Int32Array, ck: Int32Array, nc: number): boolean {
    if (nc < 2 || nc > CELL_SCALE) return false;
    let i0 = ci[0], i1 = i0, j0 = cj[0], j1 = j0, k0 = ck[0], k1 = k0;
    for (let c = 1; c < nc; c++) {
      const i = ci[c], j = cj[c], k = ck[c];
      if (i < i0) i0 = i; else if (i > i1) i1 = i;
      if (j < j0) j0 = j; else if (j > j1) j1 = j;
      if (k < k0) k0 = k; else if (k > k1) k1 = k;
    }
    let span = Math.max(i1 - i0, j1 - j0, k1 - k0), shift = 0;
    while (span >= 1024) { span >>= 1; shift++; }
    if (this.keys.length < nc) {
      const size = Math.ceil(nc * 1.25);
      this.keys = new Float64Array(size);
      this.newOf = new Int32Array(size);
      this.oldOf = new Int32Array(size);
    }
    const keys = this.keys;
    let sorted = true, last = -1;
    for (let c = 0; c < nc; c++) {
      const key = ((spread3((ci[c] - i0) >> shift) << 2) | (spread3((cj[c] - j0) >> shift) << 1) | spread3((ck[c] - k0) >> shift)) >>> 0;
      if (key < last) sorted = false;
      last = key;
      keys[c] = key * CELL_SCALE + c;
    }
    if (sorted) return false;
    const view = keys.subarray(0, nc);
    view.sort();
    const newOf = this.newOf, oldOf = this.oldOf;
    for (let c = 0; c < nc; c++) {
      const v = view[c], old = v - Math.floor(v / CELL_SCALE) * CELL_SCALE;
      oldOf[c] = old;
      newOf[old] = c;
    }
    return true;
  }
}
