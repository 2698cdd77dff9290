/**
 * Neighbour search on the hashed cells of src/spatial/hash-grid.ts (Steele §3): liquid particles
 * are counting-sorted into cells of edge ≥ the largest interaction support and then physically
 * reordered by cell, so the particles of cell c are the index run [start[c], start[c] + count[c]).
 * For each cell we list its occupied neighbour cells c' ≥ c among the 27 around it, so that a pair
 * loop visits every pair within the support exactly once, in a fixed order (deterministic).
 */
import { HashGrid } from '../spatial/hash-grid.ts';
import type { LiquidParticles } from './liquid.ts';

export class CellPairs {
  readonly grid: HashGrid;
  /** Per cell: first entry in `cells`; neighbour cells c' ≥ c of cell c are cells[first[c] .. first[c + 1]). */
  first = new Int32Array(1);
  cells = new Int32Array(0);
  /** Neighbour cells are those within `reach` cells; cells are support / reach wide. */
  readonly reach: number;
  private scratch: Int32Array;

  /**
   * `support`: the largest pair distance to be found. With reach 2 the cells are support/2 wide
   * and a particle meets 125 half-size cells instead of 27 full-size ones (42 % fewer candidates),
   * but on the honey drop the extra cell lookups ate the gain, so the engine uses reach 1.
   */
  constructor(support: number, reach = 1) {
    this.reach = reach;
    this.grid = new HashGrid(support / reach);
    this.scratch = new Int32Array((2 * reach + 1) ** 3);
  }

  /** Sorts the liquid into cells (reordering its arrays) and lists the neighbour cells. */
  buildSorted(liquid: LiquidParticles): void {
    const g = this.grid;
    g.build(liquid.pos, liquid.count);
    liquid.sortByCell(g.order);
    // The grid now describes the reordered particles: slot a holds particle a.
    for (let c = 0; c < g.cellCount; c++) {
      for (let a = g.start[c], end = a + g.count[c]; a < end; a++) {
        g.order[a] = a;
        g.pointCell[a] = c;
      }
    }
    this.listCells();
  }

  /** Builds the cells of arbitrary points without reordering them (use grid.order). */
  build(positions: ArrayLike<number>, n: number): void {
    this.grid.build(positions, n);
    this.listCells();
  }

  private listCells(): void {
    const g = this.grid, nc = g.cellCount;
    if (this.first.length < nc + 1) this.first = new Int32Array(Math.ceil((nc + 1) * 1.5));
    const per = ((2 * this.reach + 1) ** 3 + 1) >> 1;
    if (this.cells.length < per * nc) this.cells = new Int32Array(Math.ceil(per * nc * 1.25));
    let m = 0;
    const out = this.scratch;
    for (let c = 0; c < nc; c++) {
      this.first[c] = m;
      const k = g.neighborCells(c, out, this.reach);
      if (m + k > this.cells.length) {
        const bigger = new Int32Array(Math.ceil((m + out.length * (nc - c)) * 1.2));
        bigger.set(this.cells.subarray(0, m));
        this.cells = bigger;
      }
      for (let q = 0; q < k; q++) if (out[q] >= c) this.cells[m++] = out[q];
    }
    this.first[nc] = m;
  }
}

/**
 * A compressed neighbour list: the neighbours of particle i are j[start[i] .. start[i + 1]).
 * Grows as needed; used for the short-range contact lists of the moves and for density correction.
 */
export class NeighbourList {
  start = new Int32Array(1);
  j = new Int32Array(0);
  length = 0;

  reset(n: number): void {
    if (this.start.length < n + 1) this.start = new Int32Array(Math.ceil((n + 1) * 1.25));
    this.length = 0;
  }

  push(j: number): void {
    if (this.length === this.j.length) {
      const bigger = new Int32Array(Math.max(1024, Math.ceil(this.length * 1.25)));
      bigger.set(this.j);
      this.j = bigger;
    }
    this.j[this.length++] = j;
  }
}
