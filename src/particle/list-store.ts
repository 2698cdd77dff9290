/**
 * One buffer for the entries of lists whose lives in a sub-timestep do not overlap (step.ts):
 * adhesion's pair list (ctx.cells.pairs: listed by the adhesion stage, read by the surface test,
 * mixing, heat, the pressure stage's rows and viscosity, void once viscosity is over) and the
 * object contact lists (ctx.objectLists, their clearances and entries: listed after viscosity, read
 * by the moves and the density passes, listed again in the next sub-timestep). Each list takes its
 * entries as a view of the buffer (the pair list's from its start, the object lists' after their
 * clearances), of the length it asks for (its own growth rule, so its capacity is what it would be
 * on memory of its own); the buffer is as large as the larger of the two rather than their sum
 * (the honey drop at frame 4: 53 and 48 bytes a point, 53 together). The same idea as
 * StepContext.stageScratch, for lists that live across stages, and as `densityPairs`, which takes
 * the liquid contacts' storage once the moves are over. On a team, the implicit viscosity's
 * per-pair coefficients also sit after the pair list's entries while it lists its rows (`after`).
 *
 * Writing one list clobbers the other: a list is read only between its own listing and the other's.
 * A grown buffer takes the old one's bytes, and the lists' views move onto it.
 */

/** A list that takes its entries from the store (SlotRows, ObjectContactLists). */
export interface StoredList {
  j: Uint16Array | Int32Array;
  length: number;
  /** Moves the list's views onto a grown buffer (same offsets); without it, `j` alone is moved. */
  rebase?(buffer: ArrayBuffer | SharedArrayBuffer): void;
}

const isSharedBuffer = (b: ArrayBufferLike): boolean => typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;

export class ListStore {
  private buffer: ArrayBuffer | SharedArrayBuffer = new ArrayBuffer(0);
  private readonly lists: StoredList[] = [];
  /** Counts the buffer's growths: a view taken before a growth (a job's argument) is stale after it. */
  grown = 0;

  /** `release`: lets go of a buffer the jobs' arguments may still view (JobRunner.release). */
  constructor(private readonly release: (buffer: ArrayBufferLike) => void) {}

  /**
   * `size` entries (32-bit where `wide`, else 16-bit) for `list` at byte `at` of the buffer (8-byte
   * aligned), on a SharedArrayBuffer where `shared`. The list's entries so far are in place (a grown buffer holds
   * the old one's bytes, and every list's view is moved onto it).
   */
  take(list: StoredList, size: number, wide: boolean, shared: boolean, at = 0): Uint16Array | Int32Array {
    if (!this.lists.includes(list)) this.lists.push(list);
    const b = this.room(at + 8 * Math.ceil((size * (wide ? 4 : 2)) / 8), shared);
    return wide ? new Int32Array(b, at, size) : new Uint16Array(b, at, size);
  }

  /** `count` single-precision numbers at the start of the buffer (the object lists' clearances, before their entries). */
  front(count: number): Float32Array {
    return new Float32Array(this.buffer, 0, count);
  }

  /**
   * `count` single-precision numbers right after `list`'s entries, for scratch that lives while
   * the list is read and no other list is taken (the implicit viscosity's per-pair coefficients on
   * a team, viscosity-weiler-team-rows.ts); void once the store is asked again.
   */
  after(list: StoredList, count: number, shared: boolean): Float32Array {
    const at = 8 * Math.ceil((list.j.byteOffset + list.j.byteLength) / 8), b = this.room(at + 4 * count, shared);
    return new Float32Array(b, at, count);
  }

  /** The buffer, grown to `bytes` (and onto shared memory where asked), its bytes and the lists' views carried over. */
  private room(bytes: number, shared: boolean): ArrayBuffer | SharedArrayBuffer {
    const old = this.buffer;
    if (old.byteLength >= bytes && (!shared || isSharedBuffer(old))) return old;
    const size = Math.max(bytes, old.byteLength), b = shared || isSharedBuffer(old) ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
    new Uint8Array(b).set(new Uint8Array(old));
    for (const l of this.lists) {
      if (l.j.buffer !== old) continue;
      if (l.rebase) l.rebase(b);
      else l.j = l.j instanceof Int32Array ? new Int32Array(b, l.j.byteOffset, l.j.length) : new Uint16Array(b, l.j.byteOffset, l.j.length);
    }
    this.buffer = b;
    this.grown++;
    // The old buffer's views in the jobs' arguments are void (each stage sets its own again).
    this.release(old);
    return b;
  }
}
