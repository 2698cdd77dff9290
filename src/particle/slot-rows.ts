/**
 * The storage of the solves' liquid rows (solve-setup.ts prepareSolve: the pressure stage's and
 * PBF's gather rows, DFSPH's neighbourhoods, Bender & Koschier 2017 §4): row a is
 * j[start[a] .. start[a + 1]), the slots within h of slot a. An entry names a slot, which is below
 * the liquid count n, so while n fits in 16 bits the entries are 16-bit (half the bytes: on the
 * honey drop, 9 328 liquid particles and 32.5 entries each, 94 → 47 bytes a point), else 32-bit.
 * The kind is chosen at each reset; every reader takes `j` as it is (a kernel sees one kind for as
 * long as the liquid stays on one side of 65 536).
 */
import type { ListSink } from '../parallel/job.ts';
import { allocInt32, allocUint16 } from '../parallel/memory.ts';
import { grownRows } from './liquid.ts';
import type { ListStore } from './list-store.ts';

/**
 * Growth of `j` beyond what is asked: a list in a store (list-store.ts) as neighbours.ts
 * NeighbourList's; rows of their own by half that, an eighth being 1.7 bytes a point of the honey
 * drop's solve rows at its impact, where they are the largest they get (their room follows them
 * down: `shrinks`).
 */
const GROWTH = 1.125, OWN_GROWTH = 1.0625;
/** `shrinks`: listings between looks (about two frames of the honey drop's solve rows), and how far below `j` they must have stayed. */
const SHRINK_AFTER = 24, SHRINK_BELOW = 1.5;

export class SlotRows implements ListSink<Uint16Array | Int32Array> {
  start = new Int32Array(1);
  j: Uint16Array | Int32Array = new Uint16Array(0);
  length = 0;
  /** Allocate on SharedArrayBuffers (a thread team reads the rows), from the next growth on. */
  shared = false;
  /** Counts resets: what a stage derived from the rows is stale once this has changed. */
  version = 0;
  /**
   * The version whose rows the adhesion stage filled, where it did (adhesion.ts: the pressure
   * stage's rows from its pair list, upper parts alone, as solve-pair-rows.ts upperRowsFromPairs
   * lists them), else −1.
   */
  filled = -1;
  /** Where the entries live when they share memory with a list of other lifetime (list-store.ts), else null: their own. */
  store: ListStore | null = null;
  /**
   * Lets `j` shrink once the rows have stayed far below it (SHRINK_AFTER listings under
   * 1/SHRINK_BELOW of it): the solve's rows grow at an impact, where the liquid is compressed next
   * to a body, and keep that size for the rest of the run otherwise. Only for rows of their own
   * (no store) that nothing views between listings.
   */
  shrinks = false;
  /** The longest of the listings since the last look (`shrinks`), and how many there were. */
  private peak = 0;
  private listings = 0;

  /** Empties the rows for n slots; the entries become 16-bit while n ≤ 65 536, else 32-bit. */
  reset(n: number): void {
    this.version++;
    if (this.start.length < n + 1 || (this.shared && !isShared(this.start))) this.start = allocInt32(grownRows(n + 1, this.start.length), this.shared);
    const wide = n > 0x10000;
    if (this.shrinks && this.store === null) this.shrinkAfter(this.length);
    this.length = 0;
    if (wide !== this.j instanceof Int32Array || (this.shared && !isShared(this.j))) this.j = this.make(Math.max(1024, this.j.length), wide);
  }

  /** Counts the listing that held `length` entries; every SHRINK_AFTER listings, shrinks `j` to their longest and its growth where it is SHRINK_BELOW times that or more. */
  private shrinkAfter(length: number): void {
    this.peak = Math.max(this.peak, length);
    if (++this.listings < SHRINK_AFTER) return;
    const size = Math.max(1024, Math.ceil(this.peak * this.growth()));
    if (this.j.length >= SHRINK_BELOW * size) this.j = this.make(size, this.j instanceof Int32Array);
    this.peak = 0;
    this.listings = 0;
  }

  /**
   * Empties the rows for n slots over memory the caller lends (`start`: n + 1 entries; `j`: 16-bit
   * while n ≤ 65 536, else 32-bit), for rows read only within the caller's stage call (the half rows
   * of solve-setup.ts, in the stage buffer); a reserve beyond `j` moves the entries to memory of
   * their own. `unlend` lets the loan go, so that the rows hold no view of it after the call.
   */
  lend(start: Int32Array<ArrayBuffer>, j: Uint16Array<ArrayBuffer> | Int32Array<ArrayBuffer>): void {
    this.version++;
    this.length = 0;
    this.start = start;
    this.j = j;
  }

  unlend(): void {
    this.start = NO_START;
    this.j = NO_ENTRIES;
  }

  /** Makes room for `total` entries, keeping the first `length`. */
  reserve(total: number): void {
    if (this.j.length >= total && (!this.shared || isShared(this.j))) return;
    const bigger = this.make(Math.max(1024, Math.ceil(total * this.growth())), this.j instanceof Int32Array);
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }

  private growth(): number {
    return this.store ? GROWTH : OWN_GROWTH;
  }

  private make(size: number, wide: boolean): Uint16Array | Int32Array {
    if (this.store) return this.store.take(this, size, wide, this.shared);
    return wide ? allocInt32(size, this.shared) : allocUint16(size, this.shared);
  }
}

const NO_START = new Int32Array(1), NO_ENTRIES = new Uint16Array(0);

const isShared = (a: Int32Array | Uint16Array): boolean => typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
