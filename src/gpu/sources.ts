/// <reference types="@webgpu/types" />
/**
 * Liquid entering the scene on the GPU, as src/particle/emit.ts lets it in: spouts (scene.sources)
 * release one particle at a time as the emitted column grows by a particle's volume over the
 * face's area, and liquid bodies with a start time (blob sources) appear whole. The host runs the
 * CPU engine's own Emitters (their carries, the golden-angle order of the face's points, the
 * bodies' lattices) on the particle engine's liquid the run was seeded from, takes the particles
 * they add, and appends them to the GPU's slots past the count (a buffer of spare capacity sized
 * for every particle the scene can still emit: `capacity`); the next sort takes them in. The
 * spouts' nozzles (Emitters.hold: the liquid within a reach downstream of an active face, and over
 * it, moves at the spout's velocity) are the `hold` kernel, dispatched where step.ts calls hold:
 * after emitting, after viscosity and after density correction.
 */
import { attachAssets, type Scene } from '../scene/scene.ts';
import type { StepContext } from '../particle/context.ts';
import { Emitters } from '../particle/emit.ts';
import { dispatch, Kernels, uniformBuffer, WORKGROUP } from './device.ts';
import type { GpuNeighbours } from './neighbours.ts';
import { liquidIndex, liquidW } from './liquids.ts';

/** Most spouts a scene may have on the GPU (the uniform's room). */
export const MAX_SPOUTS = 8;
/** Per spout: centre and speed, direction and disk flag, u and hu, v and hv. */
const SPOUT_VEC4 = 4;
const SOURCE_BYTES = 16 + 16 * SPOUT_VEC4 * MAX_SPOUTS;

const SOURCE_WGSL = /* wgsl */ `
struct Spouts { n: u32, count: u32, length: f32, r: f32, rec: array<vec4<f32>, ${SPOUT_VEC4 * MAX_SPOUTS}> }
@group(0) @binding(0) var<uniform> S: Spouts;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
// emit.ts hold: within [−r, length] along an active spout's direction from its face and over the
// face grown by r, the velocity is the spout's.
@compute @workgroup_size(${WORKGROUP}) fn hold(@builtin(global_invocation_id) g: vec3<u32>) {
  let i = g.x;
  if (i >= S.n) { return; }
  for (var k = 0u; k < S.count; k++) {
    let o = ${SPOUT_VEC4}u * k;
    let c = S.rec[o];
    let d = S.rec[o + 1u];
    let u = S.rec[o + 2u];
    let v = S.rec[o + 3u];
    let x = pos[i].xyz - c.xyz;
    let a = dot(x, d.xyz);
    if (a < -S.r || a > S.length) { continue; }
    let pu = dot(x, u.xyz);
    let pv = dot(x, v.xyz);
    let hu = u.w + S.r;
    let hv = v.w + S.r;
    var over = abs(pu) <= hu && abs(pv) <= hv;
    if (d.w != 0.0) { over = pu * pu + pv * pv <= hu * hu; }
    if (over) { vel[i] = vec4<f32>(c.w * d.xyz, vel[i].w); }
  }
}
`;

export class GpuSources {
  /** Particles the scene can still add from the seeding time (the spare capacity the step makes). */
  readonly spare: number;
  private readonly emitters: Emitters;
  private readonly kernels: Kernels<'hold'>;
  private readonly params: GPUBuffer;
  private readonly data = new ArrayBuffer(SOURCE_BYTES);
  private active = -1;
  /** Per material, its liquid's index (liquids.ts): pos.w of the particles let in. */
  private readonly liquid: Int32Array;

  /** Null where the scene lets no liquid in after `ctx`'s time (no spout, no liquid body still to come). */
  static of(device: GPUDevice, scene: Scene, ctx: StepContext, state: Float64Array): GpuSources | null {
    if (scene.sources.length === 0 && !scene.bodies.some((b) => b.start > 0 && scene.materials[b.material]?.kind === 'liquid')) return null;
    return new GpuSources(device, scene, ctx, state);
  }

  /** `state`: the seeding simulation's Emitters.state() (which bodies were added, the spouts' carries). */
  private constructor(private readonly device: GPUDevice, scene: Scene, private readonly ctx: StepContext, state: Float64Array) {
    if (scene.sources.length > MAX_SPOUTS) throw new Error(`${scene.sources.length} sources: the WebGPU backend holds ${MAX_SPOUTS}`);
    // Sinks and open faces are sinks.ts's: these emitters only add.
    this.emitters = new Emitters(attachAssets({ ...scene, sinks: [], particle: { ...scene.particle, walls: false } }, scene.assets));
    this.emitters.restore(state);
    this.liquid = liquidIndex(scene);
    const t = ctx.time;
    let spare = 0;
    for (const s of this.emitters.spouts) spare += Math.ceil((Math.max(0, s.end - Math.max(s.start, t)) * s.speed) / s.step) + 2;
    for (const b of this.emitters.bodies) if (!b.added) spare += b.positions.length / 3;
    this.spare = spare;
    this.kernels = new Kernels(device, 'sources', SOURCE_WGSL, ['hold'], 3, 0);
    this.params = uniformBuffer(device, SOURCE_BYTES, 'spouts');
    const f = new Float32Array(this.data);
    f[2] = ctx.reach; f[3] = ctx.r;
  }

  /**
   * Lets in the liquid of the sub-timestep [t, t + dt) (Emitters.apply on the seeding liquid,
   * which is left as it was) and appends it to the GPU's slots from `grid.n`; returns how many.
   */
  emit(grid: GpuNeighbours, t: number, dt: number, nextId: number): number {
    const before = this.ctx.liquid.count;
    this.emitters.apply(this.ctx, t, dt);
    return this.append(grid, before, nextId);
  }

  /**
   * At a frame's end: lets out the column the spouts let out during the frame's last piece
   * (Emitters.letOutColumn, as the CPU engine's step.ts does), so that a frame holds area × speed ×
   * time; appends it as `emit` does and returns how many.
   */
  letOutColumn(grid: GpuNeighbours, nextId: number): number {
    const before = this.ctx.liquid.count;
    this.emitters.letOutColumn(this.ctx);
    return this.append(grid, before, nextId);
  }

  /** Appends the seeding liquid's particles from `before` to the GPU's slots and takes them off it again. */
  private append(grid: GpuNeighbours, before: number, nextId: number): number {
    const L = this.ctx.liquid;
    const k = L.count - before;
    if (k > 0) {
      const n = grid.n;
      if (n + k > grid.capacity) throw new Error(`the WebGPU backend made room for ${grid.capacity} particles and the sources let in more (${n + k})`);
      const p = new Float32Array(4 * k), v = new Float32Array(4 * k), id = new Uint32Array(k);
      for (let i = 0; i < k; i++) {
        for (let c = 0; c < 3; c++) { p[4 * i + c] = L.pos[3 * (before + i) + c]; v[4 * i + c] = L.vel[3 * (before + i) + c]; }
        p[4 * i + 3] = liquidW(this.liquid[L.material[before + i]]);
        id[i] = nextId + i;
      }
      grid.append(p, v, id);
    }
    L.count = before;
    return k;
  }

  /** Records the nozzles' hold at time t into `pass` (a no-op where no spout is active). */
  hold(pass: GPUComputePassEncoder, grid: GpuNeighbours, t: number): void {
    const on = this.emitters.spouts.filter((s) => t >= s.start && t < s.end);
    if (on.length === 0) return;
    const u = new Uint32Array(this.data), f = new Float32Array(this.data);
    const key = this.emitters.spouts.reduce((m, s, k) => m | (on.includes(s) ? 1 << k : 0), 0);
    if (key !== this.active || u[0] !== grid.n) {
      this.active = key;
      u[0] = grid.n; u[1] = on.length;
      on.forEach((s, j) => {
        const o = 4 * (1 + SPOUT_VEC4 * j);
        f.set([...s.center, s.speed, ...s.direction, s.disk ? 1 : 0, ...s.u, s.hu, ...s.v, s.hv], o);
      });
      this.device.queue.writeBuffer(this.params, 0, this.data);
    }
    dispatch(pass, this.kernels.pipelines.hold, this.kernels.bind(this.device, [this.params, grid.pos, grid.vel]), grid.n);
  }

  /** The emitters' state (Emitters.state: bodies added, carries, next points), for the host copy's checkpoint. */
  state(): Float64Array {
    return this.emitters.state();
  }

  destroy(): void {
    this.params.destroy();
  }
}
