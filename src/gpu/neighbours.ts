/// <reference types="@webgpu/types" />
/**
 * Neighbour search on the GPU by counting sort over hashed cells (Hoetzlein 2014, "Fast Fixed-Radius
 * Nearest Neighbors: Interactive Million-Particle Fluids", GTC: count per cell, prefix sum,
 * scatter), on the hash of src/spatial/hash-grid.ts (541 i + 79 j + 31 k mod table size, a table of
 * about twice the particles) and the CPU engine's cell edge (StepContext.reach). Unlike the CPU's
 * chained table, cells that share a bucket share its run: a query visits the buckets of the 27
 * cells around it once each (a bucket two of them hash to is skipped the second time) and keeps the
 * particles within its support, so a far particle in a shared bucket costs a distance test, never
 * a wrong pair.
 *
 * `build` hashes every particle (its rank within its bucket by an atomic count), scans the counts
 * into bucket starts and scatters positions, velocities and ids into bucket order, puts each
 * bucket's run back in its slots' order before the sort (SETTLE_WGSL: the sort is stable, so a run
 * repeats itself bit for bit), then swaps the two sets of buffers: after it, `pos`, `vel` and `id`
 * are sorted and `start[b] .. start[b + 1]` is bucket b's run. Single precision throughout.
 *
 * Room for static slots past the `capacity` sorting ones (`extraSlots`, and `extraStarts` entries
 * past the table's starts: the step's object particles and their own table, objects.ts):
 * `uploadStatic` writes them into both sets of buffers, and the sort, over the n slots alone,
 * leaves them alone. The count n may change between sorts (`setCount`: sinks and sources, at most
 * `capacity`).
 *
 * Removal (sinks.ts): a slot whose `gone` flag is set is counted into the extra bucket `table`
 * (past every hashed one) instead of its own, so the scatter puts the kept particles first, in
 * bucket order, and the removed ones after them; `start[table]` is then the count kept. `build`
 * clears the flags after a sort that read them.
 */
import { dispatch, Kernels, storageBuffer, uniformBuffer, WORKGROUP } from './device.ts';

/** Buckets one thread of the scan sums in turn. */
const CHUNK = 64;

/** WGSL shared by every kernel that looks cells up: the parameters block and the hash. */
export const HASH_WGSL = /* wgsl */ `
fn cellOf(p: vec3<f32>, invCell: f32) -> vec3<i32> { return vec3<i32>(floor(p * invCell)); }
fn bucketOf(c: vec3<i32>, table: u32) -> u32 {
  let t = i32(table);
  let h = (541 * c.x + 79 * c.y + 31 * c.z) % t;
  return u32(select(h, h + t, h < 0));
}
`;

const GRID_PARAMS = /* wgsl */ `
struct Grid { n: u32, table: u32, invCell: f32, blocks: u32 }
@group(0) @binding(0) var<uniform> grid: Grid;
`;

export const COUNT_WGSL = GRID_PARAMS + HASH_WGSL + /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> hashRank: array<vec2<u32>>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> gone: array<u32>;
@compute @workgroup_size(${WORKGROUP}) fn count(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= grid.n) { return; }
  let b = select(bucketOf(cellOf(pos[i].xyz, grid.invCell), grid.table), grid.table, gone[i] != 0u);
  hashRank[i] = vec2<u32>(b, atomicAdd(&counts[b], 1u));
}
`;

export const SCAN_WGSL = GRID_PARAMS + /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> starts: array<u32>;
@group(0) @binding(3) var<storage, read_write> sums: array<u32>;
// Thread t sums the counts of its chunk [t CHUNK, (t + 1) CHUNK); one thread scans those sums;
// each thread then writes its chunk's exclusive starts. No workgroup barriers (which SwiftShader
// runs 5× slower than the whole scan).
@compute @workgroup_size(${WORKGROUP}) fn chunkSums(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= grid.blocks) { return; }
  let len = grid.table + 1u;
  var s = 0u;
  for (var i = g.x * ${CHUNK}u; i < min(len, (g.x + 1u) * ${CHUNK}u); i++) { s += counts[i]; }
  sums[g.x] = s;
}
@compute @workgroup_size(1) fn scanSums() {
  var s = 0u;
  for (var b = 0u; b < grid.blocks; b++) { let c = sums[b]; sums[b] = s; s = s + c; }
}
@compute @workgroup_size(${WORKGROUP}) fn chunkStarts(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x >= grid.blocks) { return; }
  let len = grid.table + 1u;
  var s = sums[g.x];
  for (var i = g.x * ${CHUNK}u; i < min(len, (g.x + 1u) * ${CHUNK}u); i++) { starts[i] = s; s += counts[i]; }
}
`;

export const SCATTER_WGSL = GRID_PARAMS + /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> posOut: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> velOut: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> idOut: array<u32>;
@group(0) @binding(7) var<storage, read_write> hashRank: array<vec2<u32>>;
@group(0) @binding(8) var<storage, read_write> starts: array<u32>;
@compute @workgroup_size(${WORKGROUP}) fn scatter(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= grid.n) { return; }
  let hr = hashRank[i];
  let d = starts[hr.x] + hr.y;
  posOut[d] = pos[i];
  velOut[d] = vel[i];
  idOut[d] = id[i];
}
`;

/**
 * Each bucket's run in the order its slots had before the sort: the atomic ranks of `count` are in
 * whatever order the threads ran (on SwiftShader, not the same from run to run), so the sums over a
 * slot's neighbours, in the order of the runs, were not either. `origin` notes the slot each sorted
 * slot came from, `settle` sorts each run by it (insertion: a run is a bucket's few particles).
 * The sort is then stable: the same slots in, the same order out.
 */
export const SETTLE_WGSL = GRID_PARAMS + /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> hashRank: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> starts: array<u32>;
@group(0) @binding(3) var<storage, read_write> came: array<u32>;
@group(0) @binding(4) var<storage, read_write> posOut: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> velOut: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> idOut: array<u32>;
@compute @workgroup_size(${WORKGROUP}) fn origin(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= grid.n) { return; }
  let hr = hashRank[i];
  came[starts[hr.x] + hr.y] = i;
}
// One thread a bucket (the removed slots' past the table's included: sinks.ts).
@compute @workgroup_size(${WORKGROUP}) fn settle(@builtin(global_invocation_id) g: vec3<u32>) {
  let b = g.x;
  if (b > grid.table) { return; }
  let s = starts[b];
  let e = select(starts[b + 1u], grid.n, b == grid.table);
  for (var i = s + 1u; i < e; i++) {
    let f = came[i];
    if (came[i - 1u] < f) { continue; }
    let p = posOut[i];
    let v = velOut[i];
    let k = idOut[i];
    var j = i;
    while (j > s && came[j - 1u] > f) {
      came[j] = came[j - 1u]; posOut[j] = posOut[j - 1u]; velOut[j] = velOut[j - 1u]; idOut[j] = idOut[j - 1u];
      j--;
    }
    came[j] = f; posOut[j] = p; velOut[j] = v; idOut[j] = k;
  }
}
`;

/**
 * Buckets of the table for `particles`: a power of two at least twice them (and 64), plus one, odd.
 * In steps of powers of two so that a run resumed from a checkpoint with a few particles fewer or
 * more than its start had (sinks, sources: simulation.ts sizes it by the ids handed out and the
 * sources' room) hashes into the same table, and its sums over a bucket's run go in the same order.
 */
export function hashTable(particles: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(64, 2 * particles))) + 1;
}

export class GpuNeighbours {
  /** Sorted after `build` (vec4 per particle, w free for the step's own use). */
  pos: GPUBuffer;
  vel: GPUBuffer;
  /** The particle each slot holds (its index at upload). */
  id: GPUBuffer;
  /** Bucket starts (table + 1 entries). */
  readonly start: GPUBuffer;
  readonly table: number;
  readonly cellSize: number;
  /** Per slot, 1 to drop it at the next sort (sinks.ts); cleared by that sort. */
  readonly gone: GPUBuffer;
  /** Particles sorted now (at most `capacity`). */
  get n(): number {
    return this.count;
  }
  private posOut: GPUBuffer;
  private velOut: GPUBuffer;
  private idOut: GPUBuffer;
  private readonly counts: GPUBuffer;
  private readonly hashRank: GPUBuffer;
  private readonly sums: GPUBuffer;
  private readonly params: GPUBuffer;
  private readonly countK: Kernels<'count'>;
  private readonly scanK: Kernels<'chunkSums' | 'scanSums' | 'chunkStarts'>;
  private readonly scatterK: Kernels<'scatter'>;
  /** Each bucket's run in its slots' order before the sort (SETTLE_WGSL). */
  readonly stable: boolean;
  private readonly settleK: Kernels<'origin' | 'settle'>;
  /** Per sorted slot, the slot it came from (the scatter's; settle orders each bucket's run by it). */
  private readonly from: GPUBuffer;
  private readonly blocks: number;

  /**
   * For `n` particles in cells `cellSize` wide (m), and room for static slots after them (see the
   * header). `options.stable` false: the runs in the atomic ranks' order (SETTLE_WGSL; for A/B).
   * `options.tableFor`: the particles the table is sized for (the capacity where not given; hashTable).
   */
  constructor(
    private readonly device: GPUDevice, private count: number, cellSize: number, readonly extraSlots = 0, readonly extraStarts = 0,
    readonly capacity = count, options: { stable?: boolean; tableFor?: number } = {},
  ) {
    if (!(cellSize > 0)) throw new Error(`cell size must be positive, got ${cellSize}`);
    if (!(capacity >= count)) throw new Error(`capacity ${capacity} below the count ${count}`);
    const cap = capacity;
    this.cellSize = cellSize;
    this.stable = options.stable !== false;
    this.table = hashTable(Math.max(cap, options.tableFor ?? 0));
    this.blocks = Math.ceil((this.table + 1) / CHUNK);
    const v4 = 16 * Math.max(1, cap + extraSlots);
    this.pos = storageBuffer(device, v4, 'pos');
    this.vel = storageBuffer(device, v4, 'vel');
    this.id = storageBuffer(device, 4 * cap, 'id');
    this.posOut = storageBuffer(device, v4, 'pos sorted');
    this.velOut = storageBuffer(device, v4, 'vel sorted');
    this.idOut = storageBuffer(device, 4 * cap, 'id sorted');
    this.counts = storageBuffer(device, 4 * (this.table + 1), 'bucket counts');
    this.start = storageBuffer(device, 4 * (this.table + 1 + extraStarts), 'bucket starts');
    this.hashRank = storageBuffer(device, 8 * cap, 'bucket and rank');
    this.from = storageBuffer(device, 4 * cap, 'slot before the sort');
    this.gone = storageBuffer(device, 4 * cap, 'removal flags');
    this.sums = storageBuffer(device, 4 * this.blocks, 'block sums');
    this.params = uniformBuffer(device, 16, 'grid');
    this.cellInv = 1 / cellSize;
    this.writeParams();
    this.countK = new Kernels(device, 'count', COUNT_WGSL, ['count'], 5, 0);
    this.scanK = new Kernels(device, 'scan', SCAN_WGSL, ['chunkSums', 'scanSums', 'chunkStarts'], 4, 0);
    this.scatterK = new Kernels(device, 'scatter', SCATTER_WGSL, ['scatter'], 9, 0);
    this.settleK = new Kernels(device, 'settle', SETTLE_WGSL, ['origin', 'settle'], 7, 0);
  }

  private readonly cellInv: number;

  private writeParams(): void {
    const p = new ArrayBuffer(16), u = new Uint32Array(p), f = new Float32Array(p);
    u[0] = this.count; u[1] = this.table; f[2] = this.cellInv; u[3] = this.blocks;
    this.device.queue.writeBuffer(this.params, 0, p);
  }

  /** The particles the next sort takes (the first n slots; at most `capacity`). */
  setCount(n: number): void {
    if (!(n >= 0 && n <= this.capacity)) throw new Error(`particle count ${n} outside 0 .. ${this.capacity}`);
    this.count = n;
    this.writeParams();
  }

  /** Uploads positions and velocities (3 per particle, any float array), vel.w and pos.w (1 per particle; zero where not given); ids become 0 .. n − 1. */
  upload(pos: ArrayLike<number>, vel: ArrayLike<number>, velW?: ArrayLike<number>, posW?: ArrayLike<number>): void {
    const n = this.n, p = new Float32Array(4 * n), v = new Float32Array(4 * n), id = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) { p[4 * i + k] = pos[3 * i + k]; v[4 * i + k] = vel[3 * i + k]; }
      if (velW) v[4 * i + 3] = velW[i];
      if (posW) p[4 * i + 3] = posW[i];
      id[i] = i;
    }
    this.device.queue.writeBuffer(this.pos, 0, p);
    this.device.queue.writeBuffer(this.vel, 0, v);
    this.device.queue.writeBuffer(this.id, 0, id);
  }

  /** Appends particles (vec4 positions and velocities, their ids) after the n sorted now, for the next sort (sources.ts). */
  append(pos4: Float32Array<ArrayBuffer>, vel4: Float32Array<ArrayBuffer>, ids: Uint32Array<ArrayBuffer>): void {
    const n = this.count, k = ids.length, d = this.device;
    if (n + k > this.capacity) throw new Error(`${n + k} particles: room was made for ${this.capacity}`);
    d.queue.writeBuffer(this.pos, 16 * n, pos4);
    d.queue.writeBuffer(this.vel, 16 * n, vel4);
    d.queue.writeBuffer(this.id, 4 * n, ids);
    this.setCount(n + k);
  }

  /** The static slots (vec4 each, at most extraSlots) into both buffer sets, and their starts after the table's. */
  uploadStatic(pos4: Float32Array<ArrayBuffer>, vel4: Float32Array<ArrayBuffer>, starts: Uint32Array<ArrayBuffer>): void {
    if (pos4.length > 4 * this.extraSlots || starts.length > this.extraStarts) throw new Error('more static slots than the room made for them');
    const d = this.device, at = 16 * this.capacity;
    for (const b of [this.pos, this.posOut]) d.queue.writeBuffer(b, at, pos4);
    for (const b of [this.vel, this.velOut]) d.queue.writeBuffer(b, at, vel4);
    d.queue.writeBuffer(this.start, 4 * (this.table + 1), starts);
  }

  /**
   * Records the sort into `enc` (see the header); pos, vel and id name the sorted buffers once it
   * runs. `drop`: the `gone` flags were set for this sort (removed slots go last; cleared after).
   */
  build(enc: GPUCommandEncoder, drop = false): void {
    const d = this.device, n = this.n;
    enc.clearBuffer(this.counts);
    const pass = enc.beginComputePass();
    dispatch(pass, this.countK.pipelines.count, this.countK.bind(d, [this.params, this.pos, this.hashRank, this.counts, this.gone]), n);
    const scan = this.scanK.bind(d, [this.params, this.counts, this.start, this.sums]);
    dispatch(pass, this.scanK.pipelines.chunkSums, scan, this.blocks);
    dispatch(pass, this.scanK.pipelines.scanSums, scan, 1, 1);
    dispatch(pass, this.scanK.pipelines.chunkStarts, scan, this.blocks);
    dispatch(pass, this.scatterK.pipelines.scatter, this.scatterK.bind(d, [
      this.params, this.pos, this.vel, this.id, this.posOut, this.velOut, this.idOut, this.hashRank, this.start,
    ]), n);
    if (this.stable) {
      const settle = this.settleK.bind(d, [this.params, this.hashRank, this.start, this.from, this.posOut, this.velOut, this.idOut]);
      dispatch(pass, this.settleK.pipelines.origin, settle, n);
      dispatch(pass, this.settleK.pipelines.settle, settle, this.table + 1);
    }
    pass.end();
    if (drop) enc.clearBuffer(this.gone);
    [this.pos, this.posOut] = [this.posOut, this.pos];
    [this.vel, this.velOut] = [this.velOut, this.vel];
    [this.id, this.idOut] = [this.idOut, this.id];
  }

  destroy(): void {
    for (const b of [this.pos, this.vel, this.id, this.posOut, this.velOut, this.idOut, this.counts, this.start, this.hashRank, this.from, this.gone, this.sums, this.params]) b.destroy();
  }
}
