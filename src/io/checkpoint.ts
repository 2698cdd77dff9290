/**
 * The checkpoint container shared by both engines: a small header (magic, version, engine, scene
 * JSON and the scene's hash) followed by named scalar values and typed arrays, and a CRC-32 of all
 * of it. Bytes are little-endian; arrays are stored raw so that a restore is bit for bit.
 *
 *   "VSCD" u32 version | str engine | str sceneJson | str sceneHash | u32 nScalars (str name, f64 value)* |
 *   u32 nArrays (str name, u8 type, u32 length, bytes, pad to 8)* | u32 crc32 of everything before | u32 0
 *
 * Version 1 (no scene hash, no checksum) is refused: nothing in it can be checked.
 *
 * The CRC-32 (and the SHA-256 a run's manifest records) catch accidents — a torn write, a flipped
 * bit, a file copied short — not forgery: anyone who can write the file can write matching sums.
 * So every value read back is validated as input (`count`, `index`, `finite`, `array` with its
 * expected length): a damaged or crafted checkpoint is refused with a message, never run.
 */
import { crc32 } from './crc32.ts';

const MAGIC = 0x44435356; // "VSCD" little-endian
const VERSION = 2;

/** A checkpoint that cannot be read: damaged, truncated, or not a checkpoint. */
export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

type AnyArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Uint16Array
  | Uint8Array
  | Int8Array
  | Int16Array;

const TYPES = [Float64Array, Float32Array, Int32Array, Uint32Array, Uint16Array, Uint8Array, Int8Array, Int16Array] as const;

export class CheckpointWriter {
  private scalars = new Map<string, number>();
  private arrays = new Map<string, AnyArray>();
  /** `sceneHash`: the scene's hash (src/scene/hash.ts), so a reader can tell which scene it holds. */
  constructor(
    readonly engine: string,
    readonly sceneJson: string,
    readonly sceneHash = '',
  ) {}

  scalar(name: string, value: number): this {
    this.scalars.set(name, value);
    return this;
  }

  array(name: string, value: AnyArray): this {
    this.arrays.set(name, value);
    return this;
  }

  finish(): Uint8Array {
    const enc = new TextEncoder();
    const strs: Uint8Array[] = [];
    const str = (s: string) => {
      const b = enc.encode(s);
      strs.push(b);
      return 4 + b.length;
    };
    let size = 8 + str(this.engine) + str(this.sceneJson) + str(this.sceneHash) + 4;
    for (const [name] of this.scalars) size += str(name) + 8;
    size += 4;
    for (const [name, a] of this.arrays) {
      size += str(name) + 1 + 4;
      size = align8(size) + a.byteLength;
    }
    const body = align8(size);
    const out = new Uint8Array(body + 8);
    const view = new DataView(out.buffer);
    let o = 0;
    let si = 0;
    const putStr = () => {
      const b = strs[si++];
      view.setUint32(o, b.length, true);
      out.set(b, o + 4);
      o += 4 + b.length;
    };
    view.setUint32(o, MAGIC, true);
    view.setUint32(o + 4, VERSION, true);
    o += 8;
    putStr();
    putStr();
    putStr();
    view.setUint32(o, this.scalars.size, true);
    o += 4;
    for (const [, v] of this.scalars) {
      putStr();
      view.setFloat64(o, v, true);
      o += 8;
    }
    view.setUint32(o, this.arrays.size, true);
    o += 4;
    for (const [, a] of this.arrays) {
      putStr();
      view.setUint8(o, TYPES.findIndex((T) => a instanceof T));
      view.setUint32(o + 1, a.length, true);
      o = align8(o + 5);
      out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), o);
      o += a.byteLength;
    }
    view.setUint32(body, crc32(out.subarray(0, body)), true);
    return out;
  }
}

export class CheckpointReader {
  readonly engine: string;
  readonly sceneJson: string;
  /** The hash of the scene it holds ('' in a version-1 checkpoint). */
  readonly sceneHash: string;
  private scalars = new Map<string, number>();
  private arrays = new Map<string, AnyArray>();

  constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const dec = new TextDecoder();
    let o = 0;
    let end = bytes.byteLength;
    const need = (n: number) => {
      if (o + n > end) throw new CheckpointError('checkpoint is truncated');
    };
    const getStr = () => {
      need(4);
      const n = view.getUint32(o, true);
      need(4 + n);
      const s = dec.decode(bytes.subarray(o + 4, o + 4 + n));
      o += 4 + n;
      return s;
    };
    need(8);
    if (view.getUint32(0, true) !== MAGIC) throw new CheckpointError('not a viscid checkpoint (bad magic)');
    const version = view.getUint32(4, true);
    if (version === 1) throw new CheckpointError('checkpoint version 1 has neither a checksum nor the scene\'s hash, so it cannot be checked; start the run again');
    if (version !== VERSION) throw new CheckpointError(`checkpoint version ${version} is not supported (expected ${VERSION})`);
    {
      if (end < 16 || end % 8 !== 0) throw new CheckpointError(`checkpoint is truncated (${end} bytes)`);
      end -= 8;
      const stored = view.getUint32(end, true), actual = crc32(bytes.subarray(0, end));
      if (stored !== actual || view.getUint32(end + 4, true) !== 0) throw new CheckpointError(`checkpoint is damaged: its checksum does not match (stored ${hex8(stored)}, computed ${hex8(actual)})`);
    }
    o = 8;
    this.engine = getStr();
    this.sceneJson = getStr();
    this.sceneHash = getStr();
    need(4);
    const ns = view.getUint32(o, true);
    o += 4;
    for (let i = 0; i < ns; i++) {
      const name = getStr();
      need(8);
      this.scalars.set(name, view.getFloat64(o, true));
      o += 8;
    }
    need(4);
    const na = view.getUint32(o, true);
    o += 4;
    for (let i = 0; i < na; i++) {
      const name = getStr();
      need(5);
      const T = TYPES[view.getUint8(o)];
      if (!T) throw new CheckpointError(`checkpoint array '${name}' has an unknown type`);
      const length = view.getUint32(o + 1, true);
      o = align8(o + 5);
      const byteLength = length * T.BYTES_PER_ELEMENT;
      need(byteLength);
      // Copy so the arrays own aligned buffers independent of the input.
      const copy = new Uint8Array(byteLength);
      copy.set(bytes.subarray(o, o + byteLength));
      this.arrays.set(name, new T(copy.buffer));
      o += byteLength;
    }
  }

  scalar(name: string): number {
    const v = this.scalars.get(name);
    if (v === undefined) throw new CheckpointError(`checkpoint has no value '${name}'`);
    return v;
  }

  /** A scalar that must be a finite number, at least `min`. */
  finite(name: string, min = -Infinity): number {
    const v = this.scalar(name);
    if (!Number.isFinite(v) || v < min) throw new CheckpointError(`checkpoint value '${name}' is ${v}; expected a finite number${min > -Infinity ? ` ≥ ${min}` : ''}`);
    return v;
  }

  /** A scalar that must be a whole number from `min` to `max` (a count, a frame, an index). */
  index(name: string, min = 0, max = 2 ** 31 - 1): number {
    const v = this.scalar(name);
    if (!Number.isSafeInteger(v) || v < min || v > max) throw new CheckpointError(`checkpoint value '${name}' is ${v}; expected a whole number from ${min} to ${max}`);
    return v;
  }

  has(name: string): boolean {
    return this.scalars.has(name) || this.arrays.has(name);
  }

  /**
   * A stored array of `type`; with `length`, refused unless it has exactly that many elements.
   */
  array<T extends AnyArray>(name: string, type: { new (buffer: ArrayBuffer): T }, length?: number): T {
    const a = this.arrays.get(name);
    if (!a) throw new CheckpointError(`checkpoint has no array '${name}'`);
    if (!(a instanceof (type as unknown as typeof Float64Array))) throw new CheckpointError(`checkpoint array '${name}' has another type`);
    if (length !== undefined && a.length !== length) throw new CheckpointError(`checkpoint array '${name}' has ${a.length} elements; its counts say ${length}`);
    return a as T;
  }

  /** `array`, refused if it holds a NaN or an infinity (positions, velocities). */
  finiteArray<T extends Float64Array | Float32Array>(name: string, type: { new (buffer: ArrayBuffer): T }, length: number): T {
    const a = this.array(name, type, length);
    for (let i = 0; i < a.length; i++) {
      if (!Number.isFinite(a[i])) throw new CheckpointError(`checkpoint array '${name}' holds ${a[i]} at ${i}; expected finite numbers`);
    }
    return a;
  }

  /** A stored integer array whose every element lies in [min, max]. */
  indices<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array>(name: string, type: { new (buffer: ArrayBuffer): T }, length: number | undefined, min: number, max: number): T {
    const a = this.array(name, type, length);
    for (let i = 0; i < a.length; i++) {
      if (a[i] < min || a[i] > max) throw new CheckpointError(`checkpoint array '${name}' holds ${a[i]} at ${i}; expected ${min} to ${max}`);
    }
    return a;
  }
}

function align8(n: number): number {
  return (n + 7) & ~7;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
