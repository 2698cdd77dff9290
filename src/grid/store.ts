/**
 * The hashed MAC grid (Cline et al. §3, §3.1): only cells near the liquid exist. Each cell is keyed
 * by its integer corner (i, j, k) and found through the shared 541/79/31 hash (`hashCell`); every
 * field lives in a flat typed array indexed by the cell's slot, so memory grows with the liquid.
 *
 * Cell c holds the pressure and level set at its centre and ux, uy, uz on its x-, y- and z-min faces
 * (Figure 1). Cells are stored in lexicographic (k, j, i) order after each rebuild so that the −x,
 * −y, −z neighbours of a cell come before it (the MIC(0) preconditioner relies on that).
 */
import { hashCell as hashCell_ } from '../spatial/hash-grid.ts';
import { allocFloat64, allocInt32, allocUint8 } from '../parallel/memory.ts';
import type { JobRunner } from '../parallel/run-job.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const hashCell = hashCell_;

export const AIR = 0;
export const FLUID = 1;
export const SOLID = 2;

/** Neighbour directions in `nb`: −x, +x, −y, +y, −z, +z. */
export const NB_DX = [-1, 1, 0, 0, 0, 0] as const;
export const NB_DY = [0, 0, -1, 1, 0, 0] as const;
export const NB_DZ = [0, 0, 0, 0, -1, 1] as const;

/** Face states per component in `face`: not touching liquid, solved for, or held by a solid. */
export const FACE_FREE = 0;
export const FACE_ACTIVE = 1;
export const FACE_FIXED = 2;

const linkOffsets = new Int32Array(6);

/** What a view of a store (GridStore.adopt) takes over: the arrays the stages read and the find tables. */
/**
 * Cell c's six face neighbours (NB_DX/DY/DZ order) from a dense slot table of dW × dH × dD, the
 * cell at table index (x, y, z); −1 past the table's edge or where the table holds no cell.
 */
export function linkFromDense(nb: Int32Array, dense: Int32Array, c: number, x: number, y: number, z: number, dW: number, dH: number, dD: number): void {
  const WH = dW * dH, b = x + dW * (y + dH * z), o = 6 * c;
  nb[o] = x > 0 ? dense[b - 1] : -1;
  nb[o + 1] = x + 1 < dW ? dense[b + 1] : -1;
  nb[o + 2] = y > 0 ? dense[b - dW] : -1;
  nb[o + 3] = y + 1 < dH ? dense[b + dW] : -1;
  nb[o + 4] = z > 0 ? dense[b - WH] : -1;
  nb[o + 5] = z + 1 < dD ? dense[b + WH] : -1;
}

export interface StoreParts {
  count: number;
  ci: Int32Array; cj: Int32Array; ck: Int32Array;
  type: Uint8Array; layer: Int32Array; nb: Int32Array; face: Uint8Array;
  u: [Float64Array, Float64Array, Float64Array];
  tmp: [Float64Array, Float64Array, Float64Array];
  phi: Float64Array;
  dense: Int32Array | null;
  dOff: number; dW: number; dH: number; dD: number;
  slot: Int32Array; next: Int32Array; tableSize: number;
}

export class GridStore {
  count = 0;
  capacity: number;
  ci: Int32Array;
  cj: Int32Array;
  ck: Int32Array;
  type: Uint8Array;
  layer: Int32Array;
  /** Six neighbour slots per cell (−x, +x, −y, +y, −z, +z), −1 where the neighbour does not exist. */
  nb: Int32Array;
  /** Face velocity components, m/s, on the min faces. */
  u: [Float64Array, Float64Array, Float64Array];
  /** The tutorial's "temporary vector" per cell. */
  tmp: [Float64Array, Float64Array, Float64Array];
  /** FACE_FREE / FACE_ACTIVE / FACE_FIXED per component (3 per cell). */
  face: Uint8Array;
  /** Pressure variable q = p Δt / (ρ h), m/s. */
  pressure: Float64Array;
  /** Level set at the centre, m (negative inside the liquid). */
  phi: Float64Array;
  /** Temperature at the centre, °C (variable viscosity). */
  temperature: Float64Array;
  /** Velocity of the solid in a solid cell, m/s (zero for fixed walls). */
  solidVel: [Float64Array, Float64Array, Float64Array];
  /** Domain face a wall cell lies beyond (1..6 = xmin..zmax), 7 for edges and corners, 0 otherwise. */
  wall: Uint8Array;

  private tableSize: number;
  private slot: Int32Array;
  private next: Int32Array;
  /**
   * Optional dense slot table over a bounded box of cells (see enableDense): `find` and the
   * interpolation (interpolate.ts) read it instead of walking a hash chain. The hash stays
   * authoritative; the table is dropped if a cell outside the box is ever inserted. Read-only
   * outside this class.
   */
  dense: Int32Array | null = null;
  /**
   * The cells' lexicographic keys (domain.ts cellKey) in slot order, as rebuildGrid leaves them
   * (`keysValid`); any other insertion or a reset makes them stale.
   */
  keys = new Int32Array(0);
  keysValid = false;
  /** The dense table's offset and size: cell (i, j, k) is at (i + dOff) + dW ((j + dOff) + dH (k + dOff)). */
  dOff = 0;
  dW = 0;
  dH = 0;
  dD = 0;

  /**
   * Keeps a dense slot table for cells with −off ≤ i < W − off (likewise j < H − off, k < D − off)
   * alongside the hash, for boxes of at most 2^24 cells. Call on an empty store.
   */
  enableDense(off: number, W: number, H: number, D: number): void {
    if (W * H * D > 1 << 24) { this.dense = null; return; }
    if (!this.dense || this.dense.length !== W * H * D) this.dense = allocInt32(W * H * D, this.shared).fill(-1);
    this.dOff = off; this.dW = W; this.dH = H; this.dD = D;
    for (let c = 0; c < this.count; c++) this.denseSet(this.ci[c], this.cj[c], this.ck[c], c);
  }

  private denseSet(i: number, j: number, k: number, c: number): void {
    const x = i + this.dOff, y = j + this.dOff, z = k + this.dOff;
    if (x >= 0 && y >= 0 && z >= 0 && x < this.dW && y < this.dH && z < this.dD) this.dense![x + this.dW * (y + this.dH * z)] = c;
    else this.dense = null;
  }

  /** Whether the arrays live on SharedArrayBuffers (the runner has a thread team). */
  readonly shared: boolean;

  /**
   * `runner`: the simulation's job runner (threads.ts), which the stages that split their passes
   * over a thread team run them through; with a team the arrays live on SharedArrayBuffers, so that
   * its threads read and write them. A store grown or reset keeps it.
   */
  constructor(capacity: number, readonly runner: JobRunner | null = null) {
    this.capacity = Math.max(16, capacity);
    const n = this.capacity, shared = runner !== null && runner.team !== null;
    this.shared = shared;
    const f64 = () => allocFloat64(n, shared);
    this.ci = allocInt32(n, shared);
    this.cj = allocInt32(n, shared);
    this.ck = allocInt32(n, shared);
    this.type = allocUint8(n, shared);
    this.layer = allocInt32(n, shared);
    this.nb = allocInt32(6 * n, shared);
    this.u = [f64(), f64(), f64()];
    this.tmp = [f64(), f64(), f64()];
    this.face = allocUint8(3 * n, shared);
    this.pressure = f64();
    this.phi = f64();
    this.temperature = f64();
    this.solidVel = [f64(), f64(), f64()];
    this.wall = allocUint8(n, shared);
    this.tableSize = (2 * n) | 1;
    this.slot = allocInt32(this.tableSize, shared).fill(-1);
    this.next = allocInt32(n, shared);
  }

  /** The hash table's arrays and size (a thread team's view of the store, jobs.ts, rebuilds `find` from them). */
  hashParts(): { slot: Int32Array; next: Int32Array; tableSize: number } {
    return { slot: this.slot, next: this.next, tableSize: this.tableSize };
  }

  /** Makes this store a view of another thread's store (its arrays, counts and dense table; nothing is copied). */
  adopt(parts: StoreParts): void {
    Object.assign(this, parts);
  }

  /** Empties the store for reuse, growing it to hold at least `capacity` cells. */
  reset(capacity: number): void {
    this.keysValid = false;
    if (this.dense) for (let c = 0; c < this.count; c++) this.denseSet(this.ci[c], this.cj[c], this.ck[c], -1);
    if (capacity > this.capacity) {
      // With room to grow: a spreading liquid adds a few cells every step, and a store remade at
      // its exact size each time (every array of ~100 000 cells on the 64³ dam break) kept the
      // garbage collector busy. The dense table (all −1 again) is kept: it spans the whole box.
      const { dense, dOff, dW, dH, dD } = this;
      Object.assign(this, new GridStore(Math.ceil(capacity * 1.25), this.runner));
      Object.assign(this, { dense, dOff, dW, dH, dD });
      return;
    }
    this.count = 0;
    this.slot.fill(-1);
  }

  /**
   * Slots of the 8 cells (i..i+1, j..j+1, k..k+1) into `out` (bit 0 of the index is +i, bit 1 +j,
   * bit 2 +k; −1 where absent) straight from the dense table; false, with `out` untouched, where the
   * table is off or does not cover all eight.
   */
  denseCorners(i: number, j: number, k: number, out: Int32Array): boolean {
    const dense = this.dense;
    if (dense === null) return false;
    const x = i + this.dOff, y = j + this.dOff, z = k + this.dOff, W = this.dW, H = this.dH;
    if (x < 0 || y < 0 || z < 0 || x + 1 >= W || y + 1 >= H || z + 1 >= this.dD) return false;
    const b = x + W * (y + H * z), l = W * H;
    out[0] = dense[b]; out[1] = dense[b + 1]; out[2] = dense[b + W]; out[3] = dense[b + W + 1];
    out[4] = dense[b + l]; out[5] = dense[b + l + 1]; out[6] = dense[b + l + W]; out[7] = dense[b + l + W + 1];
    return true;
  }

  find(i: number, j: number, k: number): number {
    const dense = this.dense;
    if (dense !== null) {
      const x = i + this.dOff, y = j + this.dOff, z = k + this.dOff;
      if (x < 0 || y < 0 || z < 0 || x >= this.dW || y >= this.dH || z >= this.dD) return -1;
      return dense[x + this.dW * (y + this.dH * z)];
    }
    for (let c = this.slot[hashCell(i, j, k, this.tableSize)]; c >= 0; c = this.next[c]) {
      if (this.ci[c] === i && this.cj[c] === j && this.ck[c] === k) return c;
    }
    return -1;
  }

  /** Slot of cell (i, j, k), created (as air, layer −1) when absent. */
  insert(i: number, j: number, k: number): number {
    this.keysValid = false;
    const h = hashCell(i, j, k, this.tableSize);
    for (let c = this.slot[h]; c >= 0; c = this.next[c]) {
      if (this.ci[c] === i && this.cj[c] === j && this.ck[c] === k) return c;
    }
    return this.append(i, j, k);
  }

  /**
   * Slot of cell (i, j, k), which must be absent (a store being filled from a sorted list): as
   * `insert` without the walk along the hash chain.
   */
  append(i: number, j: number, k: number): number {
    if (this.count === this.capacity) this.grow();
    const h = hashCell(i, j, k, this.tableSize);
    const c = this.count++;
    this.ci[c] = i;
    this.cj[c] = j;
    this.ck[c] = k;
    this.layer[c] = -1;
    this.next[c] = this.slot[h];
    this.slot[h] = c;
    if (this.dense !== null) this.denseSet(i, j, k, c);
    return c;
  }

  /**
   * Takes cells 0..n − 1, already written (indices, dense table) into an emptied store, as its
   * cells: the hash chains as n `append`s in slot order leave them.
   */
  linkListed(n: number): void {
    if (n > this.capacity) throw new Error(`linkListed: ${n} cells in a store of ${this.capacity}`);
    const { ci, cj, ck, slot, next } = this, size = this.tableSize;
    for (let c = 0; c < n; c++) {
      const h = hashCell(ci[c], cj[c], ck[c], size);
      next[c] = slot[h];
      slot[h] = c;
    }
    this.count = n;
  }

  /** Fills `nb` from the dense table (the same as linkSorted); false, untouched, where it is off. */
  linkDense(): boolean {
    const dense = this.dense;
    if (dense === null) return false;
    const { nb, ci, cj, ck, dOff, dW, dH, dD } = this;
    for (let c = 0; c < this.count; c++) linkFromDense(nb, dense, c, ci[c] + dOff, cj[c] + dOff, ck[c] + dOff, dW, dH, dD);
    return true;
  }

  /** Fills `nb` from the hash. */
  linkNeighbors(): void {
    const { nb, ci, cj, ck } = this;
    for (let c = 0; c < this.count; c++) {
      const i = ci[c], j = cj[c], k = ck[c];
      // Cells are in lexicographic order, so an x neighbour, when it exists, is the next slot.
      nb[6 * c] = c > 0 && ci[c - 1] === i - 1 && cj[c - 1] === j && ck[c - 1] === k ? c - 1 : this.find(i - 1, j, k);
      nb[6 * c + 1] = c + 1 < this.count && ci[c + 1] === i + 1 && cj[c + 1] === j && ck[c + 1] === k ? c + 1 : this.find(i + 1, j, k);
      nb[6 * c + 2] = this.find(i, j - 1, k);
      nb[6 * c + 3] = this.find(i, j + 1, k);
      nb[6 * c + 4] = this.find(i, j, k - 1);
      nb[6 * c + 5] = this.find(i, j, k + 1);
    }
  }

  /**
   * Fills `nb` for cells stored in increasing `keys` order (lexicographic keys with row length W and
   * layer size WH): each direction's neighbour key grows with the cell's, so six pointers walk the
   * sorted keys once instead of hashing.
   */
  linkSorted(keys: Int32Array, W: number, WH: number): void {
    const n = this.count, nb = this.nb;
    const offsets = linkOffsets;
    offsets[0] = -1; offsets[1] = 1; offsets[2] = -W; offsets[3] = W; offsets[4] = -WH; offsets[5] = WH;
    for (let d = 0; d < 6; d++) {
      const delta = offsets[d];
      let p = 0;
      for (let c = 0; c < n; c++) {
        const target = keys[c] + delta;
        while (p < n && keys[p] < target) p++;
        // The coordinate check rejects a key that wrapped into the next row or layer.
        nb[6 * c + d] = p < n && keys[p] === target && this.ci[p] - this.ci[c] === NB_DX[d] && this.cj[p] - this.cj[c] === NB_DY[d] ? p : -1;
      }
    }
  }

  private grow(): void {
    const old = this;
    const bigger = new GridStore(Math.ceil(old.capacity * 1.6), this.runner);
    const n = old.count;
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(dst: T, src: T, m = n) => dst.set(src.subarray(0, m));
    copy(bigger.ci, old.ci); copy(bigger.cj, old.cj); copy(bigger.ck, old.ck);
    copy(bigger.type, old.type); copy(bigger.layer, old.layer); copy(bigger.wall, old.wall);
    copy(bigger.nb, old.nb, 6 * n); copy(bigger.face, old.face, 3 * n);
    copy(bigger.pressure, old.pressure); copy(bigger.phi, old.phi); copy(bigger.temperature, old.temperature);
    for (let a = 0; a < 3; a++) {
      copy(bigger.u[a], old.u[a]);
      copy(bigger.tmp[a], old.tmp[a]);
      copy(bigger.solidVel[a], old.solidVel[a]);
    }
    this.capacity = bigger.capacity;
    this.ci = bigger.ci; this.cj = bigger.cj; this.ck = bigger.ck;
    this.type = bigger.type; this.layer = bigger.layer; this.wall = bigger.wall;
    this.nb = bigger.nb; this.face = bigger.face;
    this.pressure = bigger.pressure; this.phi = bigger.phi; this.temperature = bigger.temperature;
    this.u = bigger.u; this.tmp = bigger.tmp; this.solidVel = bigger.solidVel;
    this.tableSize = bigger.tableSize;
    this.slot = bigger.slot;
    this.next = bigger.next;
    for (let c = 0; c < n; c++) {
      const h = hashCell(this.ci[c], this.cj[c], this.ck[c], this.tableSize);
      this.next[c] = this.slot[h];
      this.slot[h] = c;
    }
  }
}
