/**
 * One buffer for the entries of lists whose lives in a sub-timestep do not overlap (step.ts):
 * adhesion's pair list (ctx.cells.pairs: listed by the adhesion stage, read by the surface test,
 * mixing, heat, the pressure stage's rows and viscosity, void once viscosity is over) and the
 * object contact lists (ctx.objectLists: listed after viscosity, read by the moves and the density
 * passes, listed again in the next sub-timestep). Each list takes its entries as a view from the
 * start of the buffer, of the length it asks for (its own growth rule, so its capacity is what it
 * would be on memory of its own); the buffer is as large as the larger of the two rather than
 * their sum (the honey drop at frame 4: 53 and 37 bytes a point, 53 together). The same idea as
 * StepContext.stageScratch, for lists that live across stages, and as `densityPairs`, which takes
 * the liquid contacts' storage once the moves are over.
 *
 * Writing one list clobbers the other: a list is read only between its own listing and the other's.
 * When the buffer grows, the other list's entries are dropped (an empty view): it is void by then.
 */
/** A list that takes its entries from the store (SlotRows, ObjectContactLists). */
export interface StoredList {
  j: Uint16Array | Int32Array;
  length: number;
}

const isSharedBuffer = (b: ArrayBufferLike): boolean => typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer;

export class ListStore {
  private buffer: ArrayBuffer | SharedArrayBuffer = new ArrayBuffer(0);
  private readonly lists: StoredList[] = [];

  /** `release`: lets go of a buffer the jobs' arguments may still view (JobRunner.release). */
  constructor(private readonly release: (buffer: ArrayBufferLike) => void) {}

  /**
   * `size` entries (32-bit where `wide`, else 16-bit) for `list` at the start of the buffer, on a
   * SharedArrayBuffer where `shared`; the list's first `list.length` entries are the caller's to
   * copy (they are in place where the buffer did not move).
   */
  take(list: StoredList, size: number, wide: boolean, shared: boolean): Uint16Array | Int32Array {
    if (!this.lists.includes(list)) this.lists.push(list);
    const bytes = 8 * Math.ceil((size * (wide ? 4 : 2)) / 8);
    let b = this.buffer;
    if (b.byteLength < bytes || (shared && !isSharedBuffer(b))) {
      const old = b;
      b = this.buffer = shared || isSharedBuffer(old) ? new SharedArrayBuffer(Math.max(bytes, old.byteLength)) : new ArrayBuffer(Math.max(bytes, old.byteLength));
      for (const other of this.lists) {
        if (other !== list && other.j.buffer === old) other.j = other.j instanceof Int32Array ? new Int32Array(0) : new Uint16Array(0);
      }
      // The old buffer's views are void (the caller copies its own entries out of its view first).
      this.release(old);
    }
    // A list whose entries were dropped cannot keep them.
    if (list.length > 0 && list.j.length === 0) throw new Error('list store: a list was read after the other list had grown the buffer');
    return wide ? new Int32Array(b, 0, size) : new Uint16Array(b, 0, size);
  }
}
