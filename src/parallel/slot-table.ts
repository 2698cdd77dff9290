/**
 * The typed arrays a thread team's jobs use, as the spawned threads see them (team.ts, worker.ts):
 * numbered slots described in a shared table, SLOT_WORDS Int32 words a slot (a buffer id, −1 for
 * none; the element type, memory.ts slotTypeCode; the byte offset; the length). The buffers are
 * posted to the spawned threads once each, under their id; a slot that moves to another offset or
 * length, or back to a buffer the threads hold, is a change to the table alone, which a spawned
 * thread reads at its next job (ctrl TABLE, its version) and turns into views for the entries that
 * changed. Only a buffer the threads lack (or a grown table) needs a message they must have before
 * the job. On the honey drop the pressure solve's arrays are carved from the stage scratch at new
 * offsets every sub-timestep and several jobs alternate between buffers: posting every slot at
 * every change was ~50 messages a frame, each sending the spawned thread to its event loop
 * (docs/decisions.md, "Why the two threads' halves looked uneven").
 */
import { slotTypeCode, slotTypeOfCode, slotView, type SlotArray } from './memory.ts';

/** Int32 words per slot in the shared table. */
export const SLOT_WORDS = 4;

/**
 * Table changes a buffer no slot names is kept by the spawned threads before it is dropped: a job
 * whose arrays alternate between buffers finds them still there (the honey drop changes the table
 * about 50 times a frame).
 */
const KEEP_UNUSED = 256;

/** Buffers the spawned threads lack (`add`), ids they may let go (`drop`), and the table when it is new. */
export interface SlotsMessage {
  kind: 'slots';
  gen: number;
  add: { id: number; buffer: SharedArrayBuffer }[];
  drop: number[];
  table: SharedArrayBuffer | null;
}

/** What SlotTable.update changed: the message's parts, and whether the spawned threads need it before the next job. */
export interface SlotUpdate {
  add: { id: number; buffer: SharedArrayBuffer }[];
  drop: number[];
  table: SharedArrayBuffer | null;
  /** Buffers or a table the threads lack: a new generation. Drops alone may wait in their queue. */
  needed: boolean;
}

/** The calling thread's side: the slots, the shared table and the buffers the spawned threads hold. */
export class SlotTable {
  readonly slots: (SlotArray | null)[] = [];
  /** The table's version (ctrl TABLE): one more at every update that changed an entry. */
  version = 0;
  /** The array each entry was last written from (an unchanged slot is the same object: one comparison). */
  private readonly written: (SlotArray | null)[] = [];
  private table: Int32Array<ArrayBufferLike> = new Int32Array(0);
  /**
   * Buffers the spawned threads hold, by id and back (weakly: this thread keeps no buffer alive
   * that its owner let go, and Metrics.memoryBytes counts none); how many entries name each; since
   * which version none has.
   */
  private readonly bufferIds = new WeakMap<ArrayBufferLike, number>();
  private readonly idBuffers = new Map<number, WeakRef<ArrayBufferLike>>();
  private readonly refs = new Map<number, number>();
  private readonly unusedSince = new Map<number, number>();
  private nextBufferId = 0;
  /** Entries written outside update (drop): the next update makes a new version. */
  private dirty = false;
  private readonly dropIds: number[] = [];

  /**
   * The entries set since the last update (each once: `isPending`), the only ones update compares:
   * a team run sets its job's few slots of the table's hundreds (honey drop: about 160 runs a frame).
   */
  private pending = new Int32Array(64);
  private pendingCount = 0;
  private isPending = new Uint8Array(64);

  set(index: number, array: SlotArray): void {
    while (this.slots.length <= index) this.slots.push(null);
    this.slots[index] = array;
    if (this.isPending.length <= index) {
      const grown = new Uint8Array(Math.max(2 * this.isPending.length, index + 1));
      grown.set(this.isPending);
      this.isPending = grown;
    }
    if (this.isPending[index]) return;
    this.isPending[index] = 1;
    if (this.pendingCount === this.pending.length) {
      const grown = new Int32Array(2 * this.pending.length);
      grown.set(this.pending);
      this.pending = grown;
    }
    this.pending[this.pendingCount++] = index;
  }

  /** Empties the slots that view `buffer` (memory its owner replaced) and lets the spawned threads drop it. */
  drop(buffer: ArrayBufferLike): void {
    for (let k = 0; k < this.slots.length; k++) {
      if (this.slots[k]?.buffer === buffer) this.slots[k] = null;
      if (this.written[k]?.buffer === buffer) {
        this.written[k] = null;
        this.unref(this.table[SLOT_WORDS * k], this.version);
        this.table[SLOT_WORDS * k] = -1;
        this.dirty = true;
      }
    }
    const id = this.bufferIds.get(buffer);
    if (id !== undefined) this.forget(id);
  }

  /**
   * Writes the slots that changed since the last update into the table (a new version); null when
   * none did and nothing is to be dropped.
   */
  update(): SlotUpdate | null {
    const n = this.slots.length, pending = this.pending, np = this.pendingCount;
    let changed = this.dirty;
    // (An entry not set since the last update is as written: drop empties both sides of an entry together.)
    for (let p = 0; p < np && !changed; p++) {
      const k = pending[p];
      if (this.slots[k] !== (this.written[k] ?? null)) changed = true;
    }
    for (let p = 0; p < np; p++) this.isPending[pending[p]] = 0;
    this.pendingCount = 0;
    if (!changed && this.dropIds.length === 0) return null;
    this.dirty = false;
    const version = ++this.version;
    let table: SharedArrayBuffer | null = null;
    if (this.table.length < SLOT_WORDS * n) {
      const t = new Int32Array(new SharedArrayBuffer(4 * SLOT_WORDS * Math.max(n, 2 * (this.table.length / SLOT_WORDS))));
      t.set(this.table);
      t.fill(-1, this.table.length);
      this.table = t;
      table = t.buffer as SharedArrayBuffer;
    }
    const add: { id: number; buffer: SharedArrayBuffer }[] = [];
    const T = this.table;
    while (this.written.length < n) this.written.push(null);
    // Every entry when the table is new, else those set since the last update.
    const all = table !== null, m = all ? n : np;
    for (let p = 0; p < m; p++) {
      const k = all ? p : pending[p];
      const a = this.slots[k];
      if (a === this.written[k] && table === null) continue;
      this.written[k] = a;
      const at = SLOT_WORDS * k;
      this.unref(T[at], version);
      if (a === null) {
        T[at] = -1;
        continue;
      }
      if (!(a.buffer instanceof SharedArrayBuffer)) throw new Error('thread team slot is not on a SharedArrayBuffer');
      let id = this.bufferIds.get(a.buffer);
      if (id === undefined) {
        id = this.nextBufferId++;
        this.bufferIds.set(a.buffer, id);
        this.idBuffers.set(id, new WeakRef(a.buffer));
        add.push({ id, buffer: a.buffer });
      }
      this.refs.set(id, (this.refs.get(id) ?? 0) + 1);
      this.unusedSince.delete(id);
      T[at] = id;
      T[at + 1] = slotTypeCode(a);
      T[at + 2] = a.byteOffset;
      T[at + 3] = a.length;
    }
    // Buffers no entry has named for KEEP_UNUSED versions go.
    for (const [id, since] of this.unusedSince) if (version - since > KEEP_UNUSED) this.forget(id);
    return { add, drop: this.dropIds.splice(0), table, needed: add.length > 0 || table !== null };
  }

  private forget(id: number): void {
    const buffer = this.idBuffers.get(id)?.deref();
    if (buffer !== undefined) this.bufferIds.delete(buffer);
    this.idBuffers.delete(id);
    this.refs.delete(id);
    this.unusedSince.delete(id);
    this.dropIds.push(id);
  }

  /** One entry fewer names buffer `id` (−1: none) as of `version`. */
  private unref(id: number, version: number): void {
    const r = this.refs.get(id);
    if (r === undefined) return;
    if (r > 1) this.refs.set(id, r - 1);
    else {
      this.refs.set(id, 0);
      this.unusedSince.set(id, version);
    }
  }
}

/** A spawned thread's side: the buffers it was sent, and views of the table's entries. */
export class SlotReader {
  /** The views by slot (a new array whenever any changed, so that each job rebinds: worker.ts). */
  slots: SlotArray[] = [];
  private readonly buffers = new Map<number, SharedArrayBuffer>();
  private table: Int32Array = new Int32Array(0);
  /** The entries read from the table, and its version then. */
  private read: Int32Array = new Int32Array(0);
  private seen = -1;

  receive(msg: SlotsMessage): void {
    for (const id of msg.drop) this.buffers.delete(id);
    for (const b of msg.add) this.buffers.set(b.id, b.buffer);
    if (msg.table !== null) {
      this.table = new Int32Array(msg.table);
      this.seen = -1;
    }
  }

  /** Makes views of the entries that changed since the last read, where the table's version is not `version`. */
  refresh(version: number): void {
    if (version === this.seen) return;
    this.seen = version;
    const table = this.table;
    if (this.read.length !== table.length) {
      this.read = new Int32Array(table.length).fill(-2);
      this.slots = new Array<SlotArray>(table.length / SLOT_WORDS).fill(null as unknown as SlotArray);
    } else this.slots = this.slots.slice();
    const read = this.read, slots = this.slots;
    for (let at = 0, k = 0; at < table.length; at += SLOT_WORDS, k++) {
      const id = table[at], type = table[at + 1], off = table[at + 2], len = table[at + 3];
      if (id === read[at] && type === read[at + 1] && off === read[at + 2] && len === read[at + 3]) continue;
      read[at] = id;
      read[at + 1] = type;
      read[at + 2] = off;
      read[at + 3] = len;
      if (id < 0) {
        slots[k] = null as unknown as SlotArray;
        continue;
      }
      const buffer = this.buffers.get(id);
      if (buffer === undefined) throw new Error(`slot ${k} names buffer ${id}, which this thread was not sent`);
      slots[k] = slotView(slotTypeOfCode(type), buffer, off, len);
    }
  }
}
