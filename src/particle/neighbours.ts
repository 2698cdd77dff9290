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
  private scratch = new Int32Array(27);

  constructor(cellSize: number) {
    this.grid = new HashGrid(cellSize);
  }

  /** Sorts the liquid into cells (reordering its arrays) and lists the neighbour cells. */
  buildSorted(liquid: LiquidParticles): void {
    const g = this.grid;
    g.build(liquid.pos, liquid.count);
    liquid.sortByCell(g.order);
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
    if (this.cells.length < 14 * nc) this.cells = new Int32Array(Math.ceil(14 * nc * 1.5));
    let m = 0;
    const out = this.scratch;
    for (let c = 0; c < nc; c++) {
      this.first[c] = m;
      const k = g.neighborCells(c, out, 1);
      if (m + k > this.cells.length) {
        const bigger = new Int32Array(Math.ceil((m + 27 * (nc - c)) * 1.2));
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
      const bigger = new Int32Array(Math.max(1024, this.length * 2));
      bigger.set(this.j);
      this.j = bigger;
    }
    this.j[this.length++] = j;
  }
}
