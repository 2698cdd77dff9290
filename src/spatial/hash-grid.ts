/**
 * Hashed spatial cells (Steele et al. 2004 §3): cells keyed by their integer corner (i, j, k),
 * hashed `541 i + 79 j + 31 k mod tableSize` (the mod taken so negative coordinates work). Only
 * occupied cells exist, so space is unbounded. Points are counting-sorted by cell, so the points of
 * a cell are the contiguous run `order[start[c] .. start[c] + count[c])`.
 *
 * Shared by the particle engine, the surface builder and the grid engine's sparse storage.
 */
import { allocInt32, isShared } from '../parallel/memory.ts';

export function hashCell(i: number, j: number, k: number, tableSize: number): number {
  const h = (541 * i + 79 * j + 31 * k) % tableSize;
  return h < 0 ? h + tableSize : h;
}

/**
 * `hashCell` in int32 arithmetic (no floating-point modulo; the hot path of `find` and `build`):
 * the same value whenever 541 i + 79 j + 31 k fits in an int32 (|i|, |j|, |k| < 2^21, i.e. any
 * scene within two million cells of the origin); beyond that a different, still valid, hash.
 */
function fastHash(i: number, j: number, k: number, tableSize: number): number {
  const h = ((541 * i + 79 * j + 31 * k) | 0) % tableSize | 0;
  return h < 0 ? h + tableSize : h;
}

export class HashGrid {
  cellSize: number;
  /** Number of occupied cells after `build`. */
  cellCount = 0;
  /** Integer corner of each cell. */
  cellI = new Int32Array(0);
  cellJ = new Int32Array(0);
  cellK = new Int32Array(0);
  /** First index into `order` and number of points of each cell. */
  start = new Int32Array(0);
  count = new Int32Array(0);
  /** Point indices sorted by cell (memory of the grid's own, or lent: lendOrder). */
  order: Int32Array = new Int32Array(0);
  /** Cell of each point (not kept by a build given scratch for it: `build`'s cellOf). */
  pointCell = new Int32Array(0);

  /** Allocate order, start, count and the cells' corners on SharedArrayBuffers (a thread team's jobs read them in place), from the next growth on. */
  shared = false;
  private tableSize = 0;
  private slot = new Int32Array(0);
  private next = new Int32Array(0);

  constructor(cellSize: number) {
    if (!(cellSize > 0)) throw new Error(`cell size must be positive, got ${cellSize}`);
    this.cellSize = cellSize;
  }

  /** Cell index of integer corner (i, j, k), or −1 when no point lies there. */
  find(i: number, j: number, k: number): number {
    const ts = this.tableSize;
    if (ts === 0) return -1;
    for (let c = this.slot[fastHash(i, j, k, ts)]; c >= 0; c = this.next[c]) {
      if (this.cellI[c] === i && this.cellJ[c] === j && this.cellK[c] === k) return c;
    }
    return -1;
  }

  /**
   * Takes `order` as the point order of the builds from here on: memory a caller lends while it
   * holds nothing else (a build with more points than it holds, or on shared memory where it is
   * not, allocates its own as before). null: the lent memory back (the next build allocates).
   */
  lendOrder(order: Int32Array | null): void {
    this.order = order ?? new Int32Array(0);
  }

  /**
   * Sorts `n` points (xyz in `positions`) into cells. O(n); reuses its arrays between calls.
   * `cellOf`: at least n entries of scratch, free during the call, that take the cell of each point
   * in place of `pointCell` (which is then neither allocated nor written: a caller that reads no
   * point's cell after the build keeps no array for it).
   */
  build(positions: ArrayLike<number>, n: number, cellOf: Int32Array | null = null): void {
    const inv = 1 / this.cellSize;
    // An eighth to spare for points added later (emitters).
    const rows = Math.max(16, Math.ceil(n * 1.125));
    if (this.order.length < n || (this.shared && !isShared(this.order))) this.order = allocInt32(rows, this.shared);
    if (cellOf === null && this.pointCell.length < n) this.pointCell = new Int32Array(rows);
    const pointCell = cellOf ?? this.pointCell;
    if (this.shared && !isShared(this.start)) this.growCells(Math.max(this.cellI.length, 1));
    // A table of about half the points: a cell holds a point or more (the particle engine's cells
    // several: honey drop, 8 to 20 in the liquid's cells), so it is at most half full where cells
    // hold two points, and chains stay short; odd sizes spread the hash. (Twice the points held
    // 8 bytes a point in each grid, the particle engine's largest single array of its three grids.)
    const wanted = Math.max(64, n >> 1) | 1;
    if (this.tableSize < wanted || this.tableSize > 8 * wanted) {
      this.tableSize = wanted;
      this.slot = new Int32Array(wanted);
    }
    this.slot.fill(-1);
    this.cellCount = 0;
    for (let p = 0; p < n; p++) {
      const i = Math.floor(positions[3 * p] * inv);
      const j = Math.floor(positions[3 * p + 1] * inv);
      const k = Math.floor(positions[3 * p + 2] * inv);
      const h = fastHash(i, j, k, this.tableSize);
      let c = this.slot[h];
      while (c >= 0 && !(this.cellI[c] === i && this.cellJ[c] === j && this.cellK[c] === k)) c = this.next[c];
      if (c < 0) {
        c = this.cellCount++;
        if (c >= this.cellI.length) this.growCells(grow(c + 1));
        this.cellI[c] = i;
        this.cellJ[c] = j;
        this.cellK[c] = k;
        this.count[c] = 0;
        this.next[c] = this.slot[h];
        this.slot[h] = c;
      }
      this.count[c]++;
      pointCell[p] = c;
    }
    let s = 0;
    for (let c = 0; c < this.cellCount; c++) {
      this.start[c] = s;
      s += this.count[c];
      this.count[c] = 0;
    }
    for (let p = 0; p < n; p++) {
      const c = pointCell[p];
      this.order[this.start[c] + this.count[c]++] = p;
    }
  }

  /**
   * Writes the indices of the occupied cells within `reach` cells of cell c (itself included) into
   * `out` and returns how many. `out` needs (2 reach + 1)³ entries.
   */
  neighborCells(c: number, out: Int32Array, reach = 1): number {
    return this.cellsAround(this.cellI[c], this.cellJ[c], this.cellK[c], out, reach);
  }

  /** Like `neighborCells`, around an arbitrary point. */
  cellsNear(x: number, y: number, z: number, out: Int32Array, reach = 1): number {
    const inv = 1 / this.cellSize;
    return this.cellsAround(Math.floor(x * inv), Math.floor(y * inv), Math.floor(z * inv), out, reach);
  }

  /** Occupied cells in the block of (2 reach + 1)³ cells centred on integer corner (ci, cj, ck). */
  cellsAround(ci: number, cj: number, ck: number, out: Int32Array, reach = 1): number {
    let m = 0;
    for (let di = -reach; di <= reach; di++) {
      for (let dj = -reach; dj <= reach; dj++) {
        for (let dk = -reach; dk <= reach; dk++) {
          const nc = this.find(ci + di, cj + dj, ck + dk);
          if (nc >= 0) out[m++] = nc;
        }
      }
    }
    return m;
  }

  private growCells(size: number): void {
    const copy = (a: Int32Array, shared = false) => {
      const b = allocInt32(size, shared);
      b.set(a.subarray(0, Math.min(a.length, size)));
      return b;
    };
    this.cellI = copy(this.cellI, this.shared);
    this.cellJ = copy(this.cellJ, this.shared);
    this.cellK = copy(this.cellK, this.shared);
    this.start = copy(this.start, this.shared);
    this.count = copy(this.count, this.shared);
    this.next = copy(this.next);
  }
}

function grow(n: number): number {
  return Math.max(16, Math.ceil(n * 1.5));
}
