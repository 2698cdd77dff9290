/**
 * Typed arrays a thread team can share (SharedArrayBuffer where asked, ordinary memory otherwise),
 * and the small helpers the job runner (run-job.ts) combines per-thread results with.
 */

/** The element types a job's arrays may have (job.ts ArrayKind). */
export type SlotArray = Float64Array | Float32Array | Int32Array | Uint16Array | Uint8Array;

const TYPES = ['f64', 'f32', 'i32', 'u16', 'u8'] as const;
export type SlotType = (typeof TYPES)[number];

export function slotType(a: SlotArray): SlotType {
  if (a instanceof Float64Array) return 'f64';
  if (a instanceof Float32Array) return 'f32';
  if (a instanceof Int32Array) return 'i32';
  if (a instanceof Uint16Array) return 'u16';
  return 'u8';
}

/** A slot's element type as a small integer (the team's shared slot table, team.ts), and back. */
export function slotTypeCode(a: SlotArray): number {
  return TYPES.indexOf(slotType(a));
}
export function slotTypeOfCode(code: number): SlotType {
  return TYPES[code];
}

export function slotView(type: SlotType, buffer: SharedArrayBuffer, byteOffset: number, length: number): SlotArray {
  switch (type) {
    case 'f64': return new Float64Array(buffer, byteOffset, length);
    case 'f32': return new Float32Array(buffer, byteOffset, length);
    case 'i32': return new Int32Array(buffer, byteOffset, length);
    case 'u16': return new Uint16Array(buffer, byteOffset, length);
    default: return new Uint8Array(buffer, byteOffset, length);
  }
}

/** True when `a` lives on a SharedArrayBuffer (a thread team can read and write it). */
export function isShared(a: ArrayBufferView): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
}

/**
 * Typed arrays on a SharedArrayBuffer (regular ones where `shared` is false). Typed as over an
 * ArrayBuffer so that they drop into the engine's existing fields; nothing transfers these buffers
 * (copies are made with slice/from), which is the one thing a SharedArrayBuffer cannot do.
 */
export function allocFloat64(n: number, shared: boolean): Float64Array<ArrayBuffer> {
  return shared ? (new Float64Array(new SharedArrayBuffer(8 * n)) as unknown as Float64Array<ArrayBuffer>) : new Float64Array(n);
}
export function allocFloat32(n: number, shared: boolean): Float32Array<ArrayBuffer> {
  return shared ? (new Float32Array(new SharedArrayBuffer(4 * n)) as unknown as Float32Array<ArrayBuffer>) : new Float32Array(n);
}
export function allocInt32(n: number, shared: boolean): Int32Array<ArrayBuffer> {
  return shared ? (new Int32Array(new SharedArrayBuffer(4 * n)) as unknown as Int32Array<ArrayBuffer>) : new Int32Array(n);
}
export function allocUint16(n: number, shared: boolean): Uint16Array<ArrayBuffer> {
  return shared ? (new Uint16Array(new SharedArrayBuffer(2 * n)) as unknown as Uint16Array<ArrayBuffer>) : new Uint16Array(n);
}
export function allocUint8(n: number, shared: boolean): Uint8Array<ArrayBuffer> {
  return shared ? (new Uint8Array(new SharedArrayBuffer(n)) as unknown as Uint8Array<ArrayBuffer>) : new Uint8Array(n);
}

/** A new array of `like`'s element type and length n (on shared memory where asked). */
export function allocLike<A extends SlotArray>(like: A, n: number, shared: boolean): A {
  switch (slotType(like)) {
    case 'f64': return allocFloat64(n, shared) as SlotArray as A;
    case 'f32': return allocFloat32(n, shared) as SlotArray as A;
    case 'i32': return allocInt32(n, shared) as SlotArray as A;
    case 'u16': return allocUint16(n, shared) as SlotArray as A;
    default: return allocUint8(n, shared) as SlotArray as A;
  }
}

/** Rank's even share [from, to) of n items split over `size` threads. */
export function shareOf(rank: number, size: number, n: number): [number, number] {
  return [Math.floor((n * rank) / size), Math.floor((n * (rank + 1)) / size)];
}

/**
 * Cuts `nc` cells holding `count[c]` items each (n in all) into `size` runs of consecutive cells
 * of about n/size items: run t is cells [bounds[at + t], bounds[at + t + 1]). For stages whose
 * items are sorted by cell, so that a run of cells is a run of items. Two runs: the first of about
 * `share` of the items (a job that balances: share.ts ShareCut; n · ½ is n / 2 exactly).
 */
export function cutCellRuns(bounds: Int32Array, at: number, count: ArrayLike<number>, nc: number, n: number, size: number, share = 0.5): void {
  bounds[at] = 0;
  for (let t = 1, c = 0, seen = 0; t < size; t++) {
    const target = size === 2 ? n * share : (n * t) / size;
    while (c < nc && seen + count[c] <= target) seen += count[c++];
    bounds[at + t] = c;
  }
  bounds[at + size] = nc;
}

/**
 * Adds the other threads' blocks of `others` ((size − 1) consecutive blocks of `block` entries;
 * thread u > 0 summed into block u − 1) into `own` over [from, to). The sums differ from one
 * thread's only in the order of additions.
 */
export function addShares(own: Float64Array | Int32Array, others: Float64Array | Int32Array, block: number, size: number, from: number, to: number): void {
  for (let u = 1; u < size; u++) {
    const o = block * (u - 1);
    for (let k = from; k < to; k++) own[k] += others[o + k];
  }
}
