/// <reference types="@webgpu/types" />
/**
 * Liquid leaving the scene on the GPU, as src/particle/emit.ts removes it: inside an active sink
 * (its shape's signed distance below 0; its bounds first, but for a plane), or beyond an open
 * domain face by more than the liquid's reach (emit.ts outflowFaces: not a face that looks up
 * against gravity). The `mark` kernel sets the removal flag of each such slot (shapes-wgsl.ts for
 * the distance), and the next sort (neighbours.ts) is the compaction: flagged slots are counted
 * into a bucket past the table, so the scatter's prefix sum puts the kept particles first and the
 * count kept is that bucket's start, read back once, after which the step takes the new count.
 * The survivors keep their order within their buckets (the sort's), as LiquidParticles.compact
 * keeps theirs; removal runs at the start of a sub-timestep, before its sort, as emit.ts runs in
 * step.ts.
 */
import type { Scene } from '../scene/scene.ts';
import { compileShape } from '../scene/shapes.ts';
import { Emitters } from '../particle/emit.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer, WORKGROUP } from './device.ts';
import type { GpuNeighbours } from './neighbours.ts';
import { SHAPE_VEC4, shapesWgsl, writeShape } from './shapes-wgsl.ts';

/** Most sinks a scene may have on the GPU (the uniform's room). */
export const MAX_SINKS = 8;
/** Bytes of the sinks' uniform: the header, six outflow faces, the shapes. */
const SINK_BYTES = 16 + 6 * 16 + 16 * SHAPE_VEC4 * MAX_SINKS;

const SINK_WGSL = /* wgsl */ `
struct Sinks {
  n: u32, count: u32, faces: u32, reach: f32,
  // Per open face: axis, side (+1 upper, −1 lower), plane.
  face: array<vec4<f32>, 6>,
  rec: array<vec4<f32>, ${SHAPE_VEC4 * MAX_SINKS}>,
}
@group(0) @binding(0) var<uniform> S: Sinks;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> gone: array<u32>;
${shapesWgsl('S.rec')}
@compute @workgroup_size(${WORKGROUP}) fn mark(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= S.n) { return; }
  let x = pos[i].xyz;
  var out = false;
  for (var f = 0u; f < S.faces; f++) {
    let o = S.face[f];
    if (o.y * (x[u32(o.x)] - o.z) > S.reach) { out = true; }
  }
  for (var k = 0u; k < S.count; k++) {
    if (shapeBounded(k, x, 0.0) && shapeSdf(k, x) < 0.0) { out = true; }
  }
  gone[i] = select(0u, 1u, out);
}
`;

/** A sink as the GPU runs it: its active interval. */
interface SinkTime {
  start: number;
  end: number;
}

export class GpuSinks {
  private readonly kernels: Kernels<'mark'>;
  private readonly params: GPUBuffer;
  private readonly data = new ArrayBuffer(SINK_BYTES);
  private readonly times: SinkTime[];
  /** Every sink's shape record (shapes-wgsl.ts), in scene order. */
  private readonly records: Float32Array;
  private readonly faces: number;
  private readonly result: GPUBuffer;
  private active = -1;

  /** Null where the scene removes no liquid (no sink, no open face that drains). */
  static of(device: GPUDevice, scene: Scene, reach: number): GpuSinks | null {
    const outflow = new Emitters({ ...scene, bodies: [], sources: [], sinks: [] }).outflow;
    return scene.sinks.length > 0 || outflow.length > 0 ? new GpuSinks(device, scene, reach, outflow) : null;
  }

  private constructor(private readonly device: GPUDevice, scene: Scene, reach: number, outflow: { axis: number; side: number; plane: number }[]) {
    if (scene.sinks.length > MAX_SINKS) throw new Error(`${scene.sinks.length} sinks: the WebGPU backend holds ${MAX_SINKS}`);
    this.kernels = new Kernels(device, 'sinks', SINK_WGSL, ['mark'], 3, 0);
    this.params = uniformBuffer(device, SINK_BYTES, 'sinks');
    this.result = storageBuffer(device, 16, 'count kept');
    const u = new Uint32Array(this.data), f = new Float32Array(this.data);
    this.faces = outflow.length;
    u[2] = outflow.length; f[3] = reach;
    outflow.forEach((o, k) => { f[4 + 4 * k] = o.axis; f[5 + 4 * k] = o.side; f[6 + 4 * k] = o.plane; });
    this.times = scene.sinks.map((s) => ({ start: s.start, end: s.end ?? Infinity }));
    this.records = new Float32Array(4 * SHAPE_VEC4 * scene.sinks.length);
    scene.sinks.forEach((s, k) => {
      if (s.shape.type === 'mesh') throw new Error(`sinks[${k}]: a mesh sink is not ported to the WebGPU backend`);
      // emit.ts tests a sink's bounds first, but a plane's.
      writeShape(this.records, SHAPE_VEC4 * k, s.shape, s.shape.type === 'plane' ? null : compileShape(s.shape).bounds, null);
    });
  }

  /**
   * Records the removal for the sub-timestep starting at `t` of length `dt` (emit.ts's test of
   * which sinks are active) into `enc`: the flags, then the sort that drops them; returns false
   * (nothing recorded) where no sink is active and no face drains.
   */
  record(enc: GPUCommandEncoder, grid: GpuNeighbours, t: number, dt: number): boolean {
    const eps = 1e-9 * Math.max(1, dt);
    const on = this.times.map((s, k) => (t + eps >= s.start && t < s.end ? k : -1)).filter((k) => k >= 0);
    if (on.length === 0 && this.faces === 0) return false;
    // The active sinks' records, in order, at the front (most scenes: all of them, written once).
    const key = on.reduce((m, k) => m | (1 << k), 0);
    const u = new Uint32Array(this.data), f = new Float32Array(this.data);
    u[0] = grid.n; u[1] = on.length;
    if (key !== this.active) {
      this.active = key;
      on.forEach((k, j) => f.set(this.records.subarray(4 * SHAPE_VEC4 * k, 4 * SHAPE_VEC4 * (k + 1)), 4 * (7 + SHAPE_VEC4 * j)));
      this.device.queue.writeBuffer(this.params, 0, this.data);
    } else this.device.queue.writeBuffer(this.params, 0, this.data, 0, 16);
    const pass = enc.beginComputePass();
    dispatch(pass, this.kernels.pipelines.mark, this.kernels.bind(this.device, [this.params, grid.pos, grid.gone]), grid.n);
    pass.end();
    grid.build(enc, true);
    enc.copyBufferToBuffer(grid.start, 4 * grid.table, this.result, 0, 4);
    return true;
  }

  /**
   * The removal for the sub-timestep [t, t + dt) of the `count` slots (record), submitted, and the
   * count kept read back (`count` where nothing was recorded).
   */
  async remove(grid: GpuNeighbours, t: number, dt: number, count: number): Promise<number> {
    const enc = this.device.createCommandEncoder();
    if (!this.record(enc, grid, t, dt)) return count;
    this.device.queue.submit([enc.finish()]);
    return new Uint32Array(await readBuffer(this.device, this.result, 4))[0];
  }

  destroy(): void {
    this.params.destroy();
    this.result.destroy();
  }
}
