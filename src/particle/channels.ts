/**
 * Per-particle channels: data a stage keeps for every liquid particle from one sub-timestep to the
 * next (colour-field.ts's fractions of each liquid, temperature.ts's temperatures), carried by
 * LiquidParticles through everything that moves or removes particles:
 *   - `sortByCell` permutes them with the particles (neighbours.ts, every sub-timestep);
 *   - `compact` drops the rows of removed particles (sinks and open faces, emit.ts);
 *   - `add` fills a new particle's row from its material's row of `initial` (bodies and sources,
 *     emit.ts), so an emitter needs to know no channel.
 * A stage registers a channel once, at setup (`LiquidParticles.addChannel`), and owns what it
 * means; the liquid only moves its rows. Struct-of-arrays as the liquid's own fields (STYLE.md 1):
 * one typed array of `width` values a particle, in the liquid's current order, on shared memory
 * once the liquid is (a thread team's jobs read them as they read positions). The sort gathers into
 * scratch and copies back, so a channel's array keeps its identity between growths (jobs bound to
 * it are not handed a new buffer each sub-timestep): into the liquid's sort scratch where the rows
 * fit in it (24 bytes a particle: LiquidParticles.sortByCell), else into a spare array of the
 * channel's own, made at its first sort (a row each, kept).
 */
import { allocFloat32, allocFloat64, allocInt32, allocUint16, allocUint8 } from '../parallel/memory.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';

export type ChannelArray = Float64Array | Float32Array | Int32Array | Uint16Array | Uint8Array;

/** Element type of a channel: 'f64' → Float64Array, 'f32' → Float32Array, … */
export interface ChannelTypes {
  f64: Float64Array;
  f32: Float32Array;
  i32: Int32Array;
  u16: Uint16Array;
  u8: Uint8Array;
}
export type ChannelKind = keyof ChannelTypes;

function alloc<K extends ChannelKind>(kind: K, n: number, shared: boolean): ChannelTypes[K] {
  switch (kind) {
    case 'f64': return allocFloat64(n, shared) as ChannelTypes[K];
    case 'f32': return allocFloat32(n, shared) as ChannelTypes[K];
    case 'i32': return allocInt32(n, shared) as ChannelTypes[K];
    case 'u16': return allocUint16(n, shared) as ChannelTypes[K];
    default: return allocUint8(n, shared) as ChannelTypes[K];
  }
}

/** What a stage asks for: a name (unique; its checkpoint key), an element type, a width, and each material's starting row. */
export interface ChannelSpec<K extends ChannelKind> {
  name: string;
  kind: K;
  /** Values a particle, ≥ 1. */
  width: number;
  /** Per material (scene.materialNames order), the `width` values a new particle of it starts with. */
  initial: ArrayLike<number>;
}

export class ParticleChannel<K extends ChannelKind = ChannelKind> {
  readonly name: string;
  readonly kind: K;
  readonly width: number;
  /** Material m's starting row at [m width, (m + 1) width). */
  readonly initial: Float64Array;
  /** `width` values a particle, the liquid's current order; capacity × width long. */
  array: ChannelTypes[K];
  /** The sort's rows where the liquid's scratch is too small for them (`permute`); empty until then. */
  private spare: ChannelTypes[K];
  private shared: boolean;

  constructor(spec: ChannelSpec<K>, capacity: number, shared: boolean) {
    if (!(Number.isInteger(spec.width) && spec.width >= 1)) throw new Error(`channel '${spec.name}': width ${spec.width} must be a whole number ≥ 1`);
    if (spec.initial.length % spec.width !== 0) throw new Error(`channel '${spec.name}': ${spec.initial.length} initial values are not whole rows of ${spec.width}`);
    this.name = spec.name;
    this.kind = spec.kind;
    this.width = spec.width;
    this.initial = Float64Array.from(spec.initial);
    this.array = alloc(spec.kind, capacity * spec.width, shared);
    this.spare = alloc(spec.kind, 0, shared);
    this.shared = shared;
  }

  /** New arrays of `capacity` rows keeping the first `count` (LiquidParticles.reallocate). */
  reallocate(capacity: number, count: number, shared: boolean): void {
    const a = alloc(this.kind, capacity * this.width, shared);
    a.set(this.array.subarray(0, count * this.width) as never);
    this.array = a;
    this.spare = alloc(this.kind, 0, shared);
    this.shared = shared;
  }

  /** Row i from material m's initial row. */
  fill(i: number, material: number): void {
    const w = this.width, a = this.array, init = this.initial, o = material * w;
    if (o + w > init.length) throw new Error(`channel '${this.name}': no initial row for material ${material} (${init.length / w} rows)`);
    for (let k = 0; k < w; k++) a[w * i + k] = init[o + k];
  }

  /** Row `to` ← row `from` (to < from: compaction). */
  move(to: number, from: number): void {
    const w = this.width;
    if (w === 1) this.array[to] = this.array[from];
    else this.array.copyWithin(w * to, w * from, w * from + w);
  }

  /**
   * Rows reordered by `order` (new index → old index) over n particles, gathered into `bytes` bytes
   * of `scratch` from byte `at` (8-byte aligned) where they fit, else into the channel's spare.
   */
  permute(order: Int32Array, n: number, scratch?: ArrayBufferLike, at = 0, bytes = 0): void {
    const w = this.width, src = this.array;
    let dst: ChannelArray;
    if (scratch && w * n * src.BYTES_PER_ELEMENT <= bytes) dst = view(this.kind, scratch, at, w * n);
    else {
      if (this.spare.length < w * n) this.spare = alloc(this.kind, src.length, this.shared);
      dst = this.spare;
    }
    if (w === 1) {
      for (let i = 0; i < n; i++) dst[i] = src[order[i]];
    } else {
      for (let i = 0; i < n; i++) {
        const o = w * order[i], d = w * i;
        for (let k = 0; k < w; k++) dst[d + k] = src[o + k];
      }
    }
    src.set(dst.subarray(0, w * n) as never);
  }

  /** Bytes held (array and spare). */
  get bytes(): number {
    return this.array.byteLength + this.spare.byteLength;
  }
}

/** A view of `length` elements of a kind over `buffer` from byte `at`. */
function view(kind: ChannelKind, buffer: ArrayBufferLike, at: number, length: number): ChannelArray {
  switch (kind) {
    case 'f64': return new Float64Array(buffer, at, length);
    case 'f32': return new Float32Array(buffer, at, length);
    case 'i32': return new Int32Array(buffer, at, length);
    case 'u16': return new Uint16Array(buffer, at, length);
    default: return new Uint8Array(buffer, at, length);
  }
}

/** A channel's checkpoint key: `channel.<name>`, its rows over the first n particles. */
export function channelKey(name: string): string {
  return `channel.${name}`;
}

/** Every channel's first n rows into a checkpoint (simulation.ts save). */
export function saveChannels(channels: readonly ParticleChannel[], n: number, w: CheckpointWriter): void {
  for (const ch of channels) w.array(channelKey(ch.name), ch.array.slice(0, n * ch.width));
}

/**
 * After the particles are restored: each channel's rows from the checkpoint, or, where it has none
 * (written before the channel existed), its material's initial row for every particle; a stage
 * whose data had another form before channels reads that itself afterwards.
 */
export function restoreChannels(channels: readonly ParticleChannel[], n: number, material: Uint16Array, r: CheckpointReader): void {
  for (const ch of channels) {
    const key = channelKey(ch.name);
    if (!r.has(key)) {
      for (let i = 0; i < n; i++) ch.fill(i, material[i]);
      continue;
    }
    ch.array.set(readRows(r, key, ch.kind, n * ch.width) as never);
  }
}

function readRows(r: CheckpointReader, key: string, kind: ChannelKind, length: number): ChannelArray {
  switch (kind) {
    case 'f64': return r.finiteArray(key, Float64Array, length);
    case 'f32': return r.finiteArray(key, Float32Array, length);
    case 'i32': return r.array(key, Int32Array, length);
    case 'u16': return r.array(key, Uint16Array, length);
    default: return r.array(key, Uint8Array, length);
  }
}
