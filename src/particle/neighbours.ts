/**
 * Neighbour search on the hashed cells of src/spatial/hash-grid.ts (Steele §3): liquid particles
 * are counting-sorted into cells of edge ≥ the largest interaction support and then physically
 * reordered by cell, so the particles of cell c are the index run [start[c], start[c] + count[c]).
 * For each cell we list its occupied neighbour cells c' ≥ c among the 27 around it, so that a pair
 * loop visits every pair within the support exactly once, in a fixed order (deterministic); the
 * lookups go to a dense block of cell indices where one is small enough (listDense), else to the
 * hash. Figures: docs/decisions.md, "Neighbours".
 */
import { HashGrid } from '../spatial/hash-grid.ts';
import { grownRows, type LiquidParticles } from './liquid.ts';
import { allocFloat64, allocInt32, isShared } from '../parallel/memory.ts';
import { SlotRows } from './slot-rows.ts';

/**
 * The gap from x to [lo, hi] (lo ≤ hi), 0 within: max(lo − x, 0) + max(x − hi, 0), each max(a, 0)
 * as (a + |a|) / 2, which is exact (2a or +0), and at most one of the two is above 0, so the sum is
 * the one gap exactly. Without branching: which side of a neighbour's box a point lies on is a coin
 * toss in the pair and contact loops.
 */
export function axisGap(lo: number, hi: number, x: number): number {
  const l = lo - x, h = x - hi;
  return 0.5 * (l + Math.abs(l) + (h + Math.abs(h)));
}

/** The gap between [lo, hi] and [x0, x1] (each lo ≤ hi), 0 where they overlap: as axisGap, of lo − x1 and x0 − hi. */
export function spanGap(lo: number, hi: number, x0: number, x1: number): number {
  const l = lo - x1, h = x0 - hi;
  return 0.5 * (l + Math.abs(l) + (h + Math.abs(h)));
}

/**
 * Squared distance from (x, y, z) to the box at box[b .. b + 6) (min xyz, max xyz; CellPairs.box),
 * 0 inside (axisGap per axis). The pair loops skip a cell whose particles' box is out of reach with it.
 */
export function boxDistance2(box: Float64Array, b: number, x: number, y: number, z: number): number {
  const ex = axisGap(box[b], box[b + 3], x), ey = axisGap(box[b + 1], box[b + 4], y), ez = axisGap(box[b + 2], box[b + 5], z);
  return ex * ex + ey * ey + ez * ez;
}

/**
 * Appends to lj at len the points b of [b0, b1) nearer than √r2 to (x0, y0, z0) (x: 3 per point),
 * in order; returns the new length. Gathered without branching, since whether a candidate is in
 * reach is a coin toss in a disordered liquid: every candidate is written, the length advances
 * over those in reach (lj must have room for all of them). A caller that must leave a point out
 * (a row's own slot) splits the run about it rather than testing b against it in the loop: that
 * test (`&& b !== a`) compiles to a branch, and the solve's row listing took 22–24 % longer with it
 * (docs/decisions.md, "PBF's cost").
 */
export function gatherWithin(
  x: Float64Array, x0: number, y0: number, z0: number, r2: number, b0: number, b1: number, lj: Int32Array, len: number,
): number {
  for (let b = b0; b < b1; b++) {
    const dx = x[3 * b] - x0, dy = x[3 * b + 1] - y0, dz = x[3 * b + 2] - z0;
    lj[len] = b;
    len += +(dx * dx + dy * dy + dz * dz < r2);
  }
  return len;
}

/** listCells looks cells up in a dense block while it holds at most this many entries per occupied cell. */
const DENSE_CELLS_PER_CELL = 8;

export class CellPairs {
  readonly grid: HashGrid;
  /** Per cell: first entry in `cells`; neighbour cells c' ≥ c of cell c are cells[first[c] .. first[c + 1]). */
  first = new Int32Array(1);
  cells = new Int32Array(0);
  /** Neighbour cells are those within `reach` cells; cells are support / reach wide. */
  readonly reach: number;
  /**
   * After `updateBoxes` (which needs `buildSorted`): per cell, the bounding box of its particles (minX, minY, minZ, maxX,
   * maxY, maxZ at 6c). Pair loops skip a neighbour cell whose box is out of reach of a particle:
   * floating-point rounding is monotone, so no pair within reach is ever skipped and the pairs
   * that remain are visited in the same order (results are bit-identical with or without it).
   */
  box = new Float64Array(0);
  /**
   * The pairs within reach, filled by the adhesion stage (adhesion.ts) for the sorted liquid:
   * j of pair (i, j), i < j in cell order, at pairs.j[pairs.start[i] .. pairs.start[i + 1]), in the
   * exact order the cell loops visit them. A later stage of the same sub-timestep (positions
   * unchanged, e.g. viscosity) can iterate these instead of re-filtering the 27-cell candidates
   * (honey drop: 35 pairs within reach instead of 101 candidates per particle). Entries 16-bit while
   * the liquid fits (slot-rows.ts: 2 bytes a pair on the honey drop, 4 beyond 65 536 particles).
   * The exchange viscosity compacts it in place to the pairs within its kernel (viscosity.ts).
   */
  readonly pairs = new SlotRows();
  /**
   * With a thread team: the cell boxes, the neighbour cells and the grid's order, starts and counts
   * on shared memory, which the jobs read in place rather than through copies of their own (set by
   * `share`).
   */
  shared = false;
  private scratch: Int32Array;
  /** The dense block of cell indices (fillBlock), its lowest occupied corner and strides, and whether the last build made it. */
  private block: Int32Array = new Int32Array(0);
  private blockLo = new Int32Array(3);
  private blockSi = 0;
  private blockSj = 0;
  private blockValid = false;

  /**
   * `support`: the largest pair distance to be found. With reach 2 the cells are support/2 wide
   * and a particle meets 125 half-size cells instead of 27 full-size ones; the engine uses reach 1
   * (docs/decisions.md, "Neighbours").
   */
  constructor(support: number, reach = 1) {
    this.reach = reach;
    this.grid = new HashGrid(support / reach);
    this.scratch = new Int32Array((2 * reach + 1) ** 3);
  }

  /** Allocates what the team's jobs read on shared memory from here on (see `shared`). */
  share(): void {
    this.shared = true;
    this.grid.shared = true;
  }

  /**
   * Sorts the liquid into cells (reordering its arrays) and lists the neighbour cells. `pointCells`:
   * keep the cell of every particle (grid.pointCell: gel.ts reads it); without, the build takes the
   * particles' cells in LiquidParticles.scalar, which holds nothing until the adhesion stage writes
   * its Σk (the sort does not carry it), and the grid keeps no array for them. `sort`: what
   * reorders the liquid by the grid's order (liquid-sort.ts sortLiquid, on a thread team), else
   * LiquidParticles.sortByCell.
   */
  buildSorted(liquid: LiquidParticles, pointCells = true, sort: ((order: Int32Array) => void) | null = null): void {
    const g = this.grid, n = liquid.count;
    g.build(liquid.pos, n, pointCells ? null : new Int32Array(liquid.scalar.buffer, liquid.scalar.byteOffset, n));
    if (sort) sort(g.order);
    else liquid.sortByCell(g.order);
    // The grid now describes the reordered particles: slot a holds particle a.
    for (let c = 0; c < g.cellCount; c++) {
      for (let a = g.start[c], end = a + g.count[c]; a < end; a++) {
        g.order[a] = a;
        if (pointCells) g.pointCell[a] = c;
      }
    }
    this.listCells();
  }

  /** Fills `box` from the current positions of the (sorted) particles. */
  updateBoxes(pos: Float64Array): void {
    const g = this.grid, nc = g.cellCount, start = g.start, count = g.count;
    if (this.box.length < 6 * nc || (this.shared && !isShared(this.box))) this.box = allocFloat64(Math.ceil(6 * nc * 1.5), this.shared);
    const box = this.box;
    for (let c = 0; c < nc; c++) {
      const a0 = start[c], a1 = a0 + count[c];
      let x0 = pos[3 * a0], y0 = pos[3 * a0 + 1], z0 = pos[3 * a0 + 2];
      let x1 = x0, y1 = y0, z1 = z0;
      for (let a = a0 + 1; a < a1; a++) {
        const x = pos[3 * a], y = pos[3 * a + 1], z = pos[3 * a + 2];
        if (x < x0) x0 = x; else if (x > x1) x1 = x;
        if (y < y0) y0 = y; else if (y > y1) y1 = y;
        if (z < z0) z0 = z; else if (z > z1) z1 = z;
      }
      const b = 6 * c;
      box[b] = x0; box[b + 1] = y0; box[b + 2] = z0; box[b + 3] = x1; box[b + 4] = y1; box[b + 5] = z1;
    }
  }

  /**
   * Builds the cells of arbitrary points without reordering them (use grid.order). `half`: also
   * the lists of neighbour cells c' ≥ c (`first`, `cells`); without, only what `around` reads.
   * `cellOf`: scratch for the points' cells (HashGrid.build), which the grid then does not keep.
   */
  build(positions: ArrayLike<number>, n: number, half = true, cellOf: Int32Array | null = null): void {
    this.grid.build(positions, n, cellOf);
    if (half) this.listCells();
    else this.fillBlock();
  }

  /**
   * Takes `block` as the dense block's memory from here on: memory a caller lends while it holds
   * nothing else (a block larger than it, or on shared memory where it is not, is allocated as
   * before). null: the lent memory back, and no block until the next build makes one (the look-ups
   * go to the hashed cells, in the same order).
   */
  lendBlock(block: Int32Array | null): void {
    this.block = this.blockView.block = block ?? new Int32Array(0);
    if (block === null) this.blockValid = false;
  }

  /**
   * The occupied cells within `reach` cells of cell c (itself included) into `out`, in the order
   * of HashGrid.neighborCells (di, then dj, then dk); returns how many. Looked up in the dense
   * block where the last build made one, else hashed.
   */
  around(c: number, out: Int32Array): number {
    if (!this.blockValid) return this.grid.neighborCells(c, out, this.reach);
    const g = this.grid, R = this.reach, block = this.block, sj = this.blockSj, si = this.blockSi;
    const b = (g.cellI[c] - this.blockLo[0] + R) * si + (g.cellJ[c] - this.blockLo[1] + R) * sj + (g.cellK[c] - this.blockLo[2] + R);
    return cellsAroundInBlock(block, b, R, si, sj, out);
  }

  /**
   * The dense block `around` reads (for a job that looks neighbour cells up itself: its cells'
   * indices, lowest corner and strides), or null where the last build hashed them.
   */
  denseBlock(): { readonly block: Int32Array; readonly lo: Int32Array; readonly si: number; readonly sj: number } | null {
    if (!this.blockValid) return null;
    const v = this.blockView;
    v.block = this.block; v.si = this.blockSi; v.sj = this.blockSj;
    return v;
  }
  private readonly blockView = { block: this.block, lo: this.blockLo, si: 0, sj: 0 };

  private listCells(): void {
    const g = this.grid, nc = g.cellCount;
    const sh = this.shared;
    if (this.first.length < nc + 1 || (sh && !isShared(this.first))) this.first = allocInt32(Math.ceil((nc + 1) * 1.5), sh);
    const per = ((2 * this.reach + 1) ** 3 + 1) >> 1;
    if (this.cells.length < per * nc || (sh && !isShared(this.cells))) this.cells = allocInt32(Math.ceil(per * nc * 1.25), sh);
    if (this.listDense()) return;
    let m = 0;
    const out = this.scratch;
    for (let c = 0; c < nc; c++) {
      this.first[c] = m;
      const k = g.neighborCells(c, out, this.reach);
      if (m + k > this.cells.length) {
        const bigger = allocInt32(Math.ceil((m + out.length * (nc - c)) * 1.2), sh);
        bigger.set(this.cells.subarray(0, m));
        this.cells = bigger;
      }
      for (let q = 0; q < k; q++) if (out[q] >= c) this.cells[m++] = out[q];
    }
    this.first[nc] = m;
  }

  /**
   * listCells over a dense block of cell indices (−1: empty) spanning the occupied cells plus a
   * border of `reach`, looked up instead of hashed (the same cells in the same order as
   * HashGrid.cellsAround: di, then dj, then dk). Only while the block holds at most
   * DENSE_CELLS_PER_CELL entries per occupied cell; returns false otherwise.
   */
  private listDense(): boolean {
    if (!this.fillBlock()) return false;
    const g = this.grid, nc = g.cellCount, R = this.reach, gi = g.cellI, gj = g.cellJ, gk = g.cellK;
    const block = this.block, sj = this.blockSj, si = this.blockSi, i0 = this.blockLo[0], j0 = this.blockLo[1], k0 = this.blockLo[2];
    const at = (c: number) => (gi[c] - i0 + R) * si + (gj[c] - j0 + R) * sj + (gk[c] - k0 + R);
    const first = this.first, cells = this.cells;
    let m = 0;
    for (let c = 0; c < nc; c++) {
      first[c] = m;
      const b = at(c);
      for (let di = -R; di <= R; di++) {
        for (let dj = -R; dj <= R; dj++) {
          const row = b + di * si + dj * sj;
          for (let dk = -R; dk <= R; dk++) {
            const o = block[row + dk];
            // Cells c' ≥ c only (empty entries are −1).
            if (o >= c) cells[m++] = o;
          }
        }
      }
    }
    first[nc] = m;
    return true;
  }

  /**
   * The dense block of cell indices (−1: empty) over the occupied cells plus a border of `reach`,
   * while it holds at most DENSE_CELLS_PER_CELL entries per occupied cell (blockValid); returns
   * whether it made one.
   */
  private fillBlock(): boolean {
    const g = this.grid, nc = g.cellCount, R = this.reach, gi = g.cellI, gj = g.cellJ, gk = g.cellK;
    this.blockValid = false;
    if (nc === 0) return false;
    let i0 = gi[0], i1 = i0, j0 = gj[0], j1 = j0, k0 = gk[0], k1 = k0;
    for (let c = 1; c < nc; c++) {
      const i = gi[c], j = gj[c], k = gk[c];
      if (i < i0) i0 = i; else if (i > i1) i1 = i;
      if (j < j0) j0 = j; else if (j > j1) j1 = j;
      if (k < k0) k0 = k; else if (k > k1) k1 = k;
    }
    const ni = i1 - i0 + 1 + 2 * R, nj = j1 - j0 + 1 + 2 * R, nk = k1 - k0 + 1 + 2 * R;
    const size = ni * nj * nk;
    if (!(size <= DENSE_CELLS_PER_CELL * nc)) return false;
    // (On shared memory with a team: the row listing's job reads it, solve-setup.ts.)
    if (this.block.length < size || (this.shared && !isShared(this.block))) this.block = allocInt32(Math.ceil(size * 1.25), this.shared);
    const block = this.block, sj = nk, si = nj * nk;
    block.fill(-1, 0, size);
    for (let c = 0; c < nc; c++) block[(gi[c] - i0 + R) * si + (gj[c] - j0 + R) * sj + (gk[c] - k0 + R)] = c;
    this.blockLo[0] = i0; this.blockLo[1] = j0; this.blockLo[2] = k0;
    this.blockSi = si; this.blockSj = sj;
    this.blockValid = true;
    return true;
  }
}

/**
 * Growth factor of a NeighbourList's entries: the pair lists are the largest arrays of the engine
 * (4 bytes a pair; honey drop: ~33 pairs a particle), so they keep at most 1/8 spare.
 */
const LIST_GROWTH = 1.125;

/**
 * A compressed neighbour list: the neighbours of particle i are j[start[i] .. start[i + 1]).
 * Grows as needed; used for the short-range contact lists of the moves and for density correction.
 */
export class NeighbourList {
  start = new Int32Array(1);
  j = new Int32Array(0);
  length = 0;
  /** Allocate on SharedArrayBuffers (a thread team reads the list), from the next growth on. */
  shared = false;
  /** Counts resets: what a stage derived from the list is stale once this has changed. */
  version = 0;

  reset(n: number): void {
    this.version++;
    if (this.start.length < n + 1 || (this.shared && !(this.start.buffer instanceof SharedArrayBuffer))) {
      this.start = allocInt32(grownRows(n + 1, this.start.length), this.shared);
    }
    if (this.shared && !(this.j.buffer instanceof SharedArrayBuffer)) this.j = allocInt32(Math.max(1024, this.j.length), true);
    this.length = 0;
  }

  /** Makes room for `total` entries, keeping the first `length`. */
  reserve(total: number): void {
    if (this.j.length >= total && (!this.shared || this.j.buffer instanceof SharedArrayBuffer)) return;
    const bigger = allocInt32(Math.max(1024, Math.ceil(total * LIST_GROWTH)), this.shared);
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }

  /**
   * Lays out rows 0…n−1 from their entry counts `cnt` (a count pass before a fill pass): start[i] is
   * the running sum, cnt[i] becomes row i's fill cursor (start[i]), and the list holds the total.
   * Returns the total.
   */
  openCounted(cnt: Int32Array, n: number): number {
    const start = this.start;
    let total = 0;
    for (let i = 0; i < n; i++) {
      start[i] = total;
      total += cnt[i];
      cnt[i] = start[i];
    }
    start[n] = total;
    this.reserve(total);
    this.length = total;
    return total;
  }

  push(j: number): void {
    if (this.length === this.j.length) {
      const bigger = allocInt32(Math.max(1024, Math.ceil(this.length * LIST_GROWTH)), this.shared);
      bigger.set(this.j);
      this.j = bigger;
    }
    this.j[this.length++] = j;
  }
}

/**
 * The occupied cells of a dense block (cell numbers, −1 where empty; strides si, sj and 1) within R
 * cells of the block entry b, into `out` in di, dj, dk order; returns how many. CellPairs.around's
 * lookup, also for a thread that holds the block without its CellPairs (solve-setup.ts).
 */
export function cellsAroundInBlock(block: Int32Array, b: number, R: number, si: number, sj: number, out: Int32Array): number {
  let m = 0;
  for (let di = -R; di <= R; di++) {
    for (let dj = -R; dj <= R; dj++) {
      const row = b + di * si + dj * sj;
      for (let dk = -R; dk <= R; dk++) {
        const o = block[row + dk];
        if (o >= 0) out[m++] = o;
      }
    }
  }
  return m;
}
