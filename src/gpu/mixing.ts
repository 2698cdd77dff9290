/// <reference types="@webgpu/types" />
/**
 * The liquids mixing on the GPU (particle.mixingDiffusivity D > 0), as src/particle/colour-field.ts
 * mixes them: each particle carries the fraction of every liquid in it, and the fractions diffuse
 * between neighbours by the SPH Laplacian of Cleary & Monaghan (1999, J. Comput. Phys. 148, eq. 8):
 *   dc_i/dt = Σ_j k_ij (c_j − c_i),   k_ij = D · scale · (−q W′(q)) / (q² + η²/h²),  q = |x_ij| / h,
 * over the cubic spline on the density kernel's support h, `scale` fixed on the rest lattice
 * (ColourField.scale), Jacobi and sub-cycled so that no particle exchanges more than half of what
 * it holds in a cycle (the largest Σ_j k_ij read back once a sub-timestep: the cycles and their
 * step as colour-field.ts takes them). Each pair moves equal and opposite amounts, so every
 * liquid's total is kept to single-precision round-off.
 *
 * The fractions are kept by particle id (GpuParticles.id; below the step's capacity), two vec4 a
 * particle (liquid l at component l: liquids.ts), in two buffers the cycles swap; a row of zeros
 * is a particle never mixed (let in by a source), read as all its own liquid (pos.w:
 * liquids-wgsl.ts), as the CPU's channel starts it. The mixing runs where step.ts runs it: after
 * the sort at the start of the sub-timestep, over the positions the adhesion loop sees.
 *
 * Bindings (withBindings, wgsl.ts): 0 the step's parameters, 1 pos, 2 vel, 3 id, 4 the fractions
 * read, 5 those written, 6 wall, 7 start, 8 state (atomics: [0] the largest Σ k's bits, [1] the
 * cycle's step τ's bits, [2] k0 = D · scale's bits).
 */
import type { StepContext } from '../particle/context.ts';
import { MAX_MIXING_CYCLES } from '../particle/colour-field.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, WORKGROUP } from './device.ts';
import { around, withBindings } from './wgsl.ts';
import { liquidMaterials } from './liquids.ts';
import type { ViscosityBuffers } from './viscosity-solve.ts';

/** Largest share of its fractions a particle may exchange in one sub-cycle (colour-field.ts MAX_SHARE). */
const MAX_SHARE = 0.5;
/** η² / h² (colour-field.ts ETA2). */
const ETA2 = 0.01;

const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> fracIn: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> fracOut: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
@group(0) @binding(8) var<storage, read_write> ms: array<atomic<u32>, 4>;
`;

const KERNELS = /* wgsl */ `
fn pairShape(q: f32) -> f32 { return (-q * dW(q)) / (q * q + ${ETA2}); }
// k_ij of a pair at squared distance d2 (0 beyond h).
fn mixWeight(d2: f32) -> f32 {
  let q2 = d2 / (P.h * P.h);
  if (q2 >= 1.0) { return 0.0; }
  return bitcast<f32>(atomicLoad(&ms[2])) * pairShape(sqrt(q2));
}
// One half (k = 0: liquids 0–3, 1: 4–7) of slot a's fractions; a row never set is all its own liquid.
fn fracHalf(a: u32, k: u32) -> vec4<f32> {
  let i = id[a];
  let lo = fracIn[2u * i];
  let hi = fracIn[2u * i + 1u];
  if (any(lo != vec4<f32>(0.0)) || any(hi != vec4<f32>(0.0))) { return select(lo, hi, k == 1u); }
  let l = liquidOf(a);
  var v = vec4<f32>(0.0);
  if ((l >> 2u) == k) { v[l & 3u] = 1.0; }
  return v;
}

// Σ_j k_ij of slot a, its largest over the slots into ms[0] (positive floats order as their bits).
@compute @workgroup_size(${WORKGROUP}) fn mixRate(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  var s = 0.0;
  ${around('P.h', 's += mixWeight(d2);')}
  atomicMax(&ms[0], bitcast<u32>(s));
}

// One Jacobi cycle: c_a + τ Σ_j k_ij (c_j − c_a), from fracIn into fracOut, by particle id.
@compute @workgroup_size(${WORKGROUP}) fn mixStep(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let tau = bitcast<f32>(atomicLoad(&ms[1]));
  let lo = fracHalf(a, 0u);
  let hi = fracHalf(a, 1u);
  var dlo = vec4<f32>(0.0);
  var dhi = vec4<f32>(0.0);
  ${around('P.h', `
    let k = tau * mixWeight(d2);
    if (k != 0.0) { dlo += k * (fracHalf(b, 0u) - lo); dhi += k * (fracHalf(b, 1u) - hi); }`)}
  let i = id[a];
  fracOut[2u * i] = lo + dlo;
  fracOut[2u * i + 1u] = hi + dhi;
}
`;

export const MIXING_WGSL = withBindings(BINDINGS) + KERNELS;

export class GpuMixing {
  private readonly kernels: Kernels<'mixRate' | 'mixStep'>;
  /** The fractions by particle id: [cur] holds them between sub-timesteps. */
  private readonly frac: [GPUBuffer, GPUBuffer];
  private cur = 0;
  private readonly state: GPUBuffer;
  /** D · scale, 1/s (colour-field.ts). */
  private readonly k0: number;

  /** Null where the liquids of `ctx` do not mix (ctx.mixing null). */
  static of(device: GPUDevice, ctx: StepContext, capacity: number): GpuMixing | null {
    return ctx.mixing ? new GpuMixing(device, ctx, capacity) : null;
  }

  /** The fractions of the liquid of `ctx` (its channel, rows by slot = the GPU's ids at upload), for ids below `capacity`. */
  private constructor(private readonly device: GPUDevice, ctx: StepContext, capacity: number) {
    const mix = ctx.mixing!;
    this.k0 = mix.diffusivity * mix.scale;
    this.kernels = new Kernels(device, 'mixing', MIXING_WGSL, ['mixRate', 'mixStep'], 9, 0);
    this.frac = [storageBuffer(device, 32 * capacity, 'fractions'), storageBuffer(device, 32 * capacity, 'fractions (next)')];
    this.state = storageBuffer(device, 16, 'mixing state');
    const L = ctx.liquid, n = L.count, w = mix.width, c = mix.fractions.array, mats = liquidMaterials(ctx.scene);
    const rows = new Float32Array(8 * n);
    for (let i = 0; i < n; i++) mats.forEach((m, l) => { rows[8 * i + l] = c[w * i + m]; });
    device.queue.writeBuffer(this.frac[0], 0, rows);
  }

  /**
   * The sub-timestep's mixing over dt on the n slots of `b` (sorted: it is encoded after the sort in
   * `enc`): submits `enc` with the rates, reads the largest back, and returns a new encoder with the
   * cycles in it, the number of cycles counted in counters.mixingCycles.
   */
  async run(enc: GPUCommandEncoder, b: ViscosityBuffers, n: number, dt: number, counters: Record<string, number>): Promise<GPUCommandEncoder> {
    const d = this.device, K = this.kernels.pipelines, st = new Uint32Array(4), sf = new Float32Array(st.buffer);
    sf[2] = this.k0;
    d.queue.writeBuffer(this.state, 0, st);
    const group = (k: number): GPUBindGroup => this.kernels.bind(d, [b.params, b.pos, b.vel, b.id, this.frac[k], this.frac[1 - k], b.wall, b.start, this.state]);
    let pass = enc.beginComputePass();
    dispatch(pass, K.mixRate, group(this.cur), n);
    pass.end();
    d.queue.submit([enc.finish()]);
    const most = new Float32Array(await readBuffer(d, this.state, 4))[0];
    const cycles = Math.min(MAX_MIXING_CYCLES, Math.max(1, Math.ceil((most * dt) / MAX_SHARE)));
    sf[1] = Math.min(dt / cycles, most > 0 ? MAX_SHARE / most : dt);
    d.queue.writeBuffer(this.state, 4, st, 1, 2);
    const next = d.createCommandEncoder();
    pass = next.beginComputePass();
    for (let c = 0; c < cycles; c++) {
      dispatch(pass, K.mixStep, group(this.cur), n);
      this.cur = 1 - this.cur;
    }
    pass.end();
    counters.mixingCycles = (counters.mixingCycles ?? 0) + cycles;
    return next;
  }

  /** The fractions by particle id (8 an id: liquid l at 8 id + l; a row of zeros: never mixed, all its own liquid). */
  async read(capacity: number): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.frac[this.cur], 32 * capacity));
  }

  destroy(): void {
    for (const b of [...this.frac, this.state]) b.destroy();
  }
}
