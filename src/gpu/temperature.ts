/// <reference types="@webgpu/types" />
/**
 * The temperature of variable-viscosity liquids on the GPU, as src/particle/temperature.ts keeps it:
 * each particle carries its temperature, heat is conducted between neighbours by Cleary &
 * Monaghan's Laplacian (1999, J. Comput. Phys. 148, with the harmonic mean of the two thermal
 * diffusivities, closed walls insulating through mirror images):
 *   dT_i/dt = Σ_j c_ij (T_j − T_i),   c_ij = N α_ij (−w′(q) r) / (h (r² + 0.01 h²)),  q = r/h,
 * explicit and sub-cycled so that δt Σ_j c_ij ≤ HEAT_STEP_LIMIT for every particle (the largest Σ
 * read back once a sub-timestep; at most MAX_HEAT_STEPS steps), and each particle's viscosity
 * factor f = exp(−k (T − T0)) (|k (T − T0)| ≤ 40) scales the implicit viscosity's coefficients,
 * a pair by the harmonic mean of its two factors (viscosity-wgsl.ts `factorOf`; temperature.ts
 * pairFactorMean). h is the viscosity support (P.hv: several liquids share one, liquids.ts).
 *
 * The temperatures are kept by particle id (GpuParticles.id; below the step's capacity), one f32
 * an id; an id not yet seeded (a particle a source lets in) holds UNSET and reads as its liquid's
 * initial temperature (liquids-wgsl.ts heat[l].w), as the CPU's channel starts it. The conduction
 * runs at the start of each implicit viscosity solve (viscosity-solve.ts), whose positions are
 * those the CPU engine conducts at (the sort at the start of the sub-timestep: the pressure before
 * it changes velocities only), so each solve reads the factors of the sub-timestep's temperatures.
 *
 * Bindings (withBindings, wgsl.ts): 0 the step's parameters, 1 pos, 2 vel, 3 id, 4 temp (by id),
 * 5 dT (by id), 6 wall, 7 start, 8 state (atomics: [0] the largest Σ c's bits, [1] the step's bits,
 * [2] N's bits).
 */
import type { StepContext } from '../particle/context.ts';
import { HEAT_STEP_LIMIT, MAX_HEAT_STEPS } from '../particle/temperature.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, WORKGROUP } from './device.ts';
import { around, withBindings } from './wgsl.ts';
import type { ViscosityBuffers } from './viscosity-solve.ts';

/** The temperature of an id not yet seeded (below any temperature a law takes). */
export const UNSET = -1e30;

/** The WGSL of a particle's temperature and viscosity factor (over a `temp` binding by id; viscosity-wgsl.ts too). */
export const FACTOR_WGSL = /* wgsl */ `
fn tempAt(a: u32) -> f32 { let t = temp[id[a]]; return select(t, P.heat[liquidOf(a)].w, t < ${UNSET / 10}); }
// ν(T)/ν0 of slot a (temperature.ts updateFactors): 1 for a liquid without a law.
fn factorOf(a: u32) -> f32 {
  let law = P.heat[liquidOf(a)];
  if (law.x == 0.0) { return 1.0; }
  return exp(clamp(-law.x * (tempAt(a) - law.y), -40.0, 40.0));
}
fn factorMean(fa: f32, fb: f32) -> f32 { return 2.0 * fa * fb / (fa + fb); }
`;

const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> temp: array<f32>;
@group(0) @binding(5) var<storage, read_write> dT: array<f32>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
@group(0) @binding(8) var<storage, read_write> hs: array<atomic<u32>, 4>;
`;

const KERNELS = /* wgsl */ `
${FACTOR_WGSL}
// Cleary & Monaghan's pair shape at squared distance d2 < h² (without N).
fn heatShape(d2: f32, h: f32) -> f32 {
  let r = sqrt(d2);
  return (-dW(r / h) * r / h) / (d2 + 0.01 * h * h);
}
// c_ab of slot a and neighbour b at squared distance d2 (temperature.ts heatPairsJob): the pair and
// its ghosts across the closed walls within h of a.
fn heatCoef(a: u32, b: u32, d2: f32) -> f32 {
  let h = P.hv;
  if (d2 >= h * h) { return 0.0; }
  let aa = P.heat[liquidOf(a)].z;
  let ab = P.heat[liquidOf(b)].z;
  if (!(aa > 0.0 && ab > 0.0)) { return 0.0; }
  var c = heatShape(d2, h);
  let xa = pos[a].xyz;
  let xb = pos[b].xyz;
  for (var f = 0u; f < 6u; f++) {
    if ((P.walls & (1u << f)) == 0u) { continue; }
    let axis = f >> 1u;
    let upper = (f & 1u) == 1u;
    var plane = P.lo[axis];
    var side = -1.0;
    if (upper) { plane = P.hi[axis]; side = 1.0; }
    let ni = max(0.0, side * (plane - xa[axis]));
    if (ni >= h) { continue; }
    let nj = max(0.0, side * (plane - xb[axis]));
    let dn = xb[axis] - xa[axis];
    let g2 = d2 - dn * dn + (ni + nj) * (ni + nj);
    if (g2 < h * h) { c += heatShape(g2, h); }
  }
  return bitcast<f32>(atomicLoad(&hs[2])) * (2.0 * aa * ab / (aa + ab)) * c;
}

@compute @workgroup_size(${WORKGROUP}) fn heatRate(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  var s = 0.0;
  ${around('P.hv', 's += heatCoef(a, b, d2);')}
  atomicMax(&hs[0], bitcast<u32>(s));
}
// One explicit step's rate Σ_b c_ab (T_b − T_a) into dT (by id), then T += step · dT.
@compute @workgroup_size(${WORKGROUP}) fn heatFlux(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let ta = tempAt(a);
  var s = 0.0;
  ${around('P.hv', 's += heatCoef(a, b, d2) * (tempAt(b) - ta);')}
  dT[id[a]] = s;
}
@compute @workgroup_size(${WORKGROUP}) fn heatApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  temp[id[a]] = tempAt(a) + bitcast<f32>(atomicLoad(&hs[1])) * dT[id[a]];
}
`;

export const TEMPERATURE_WGSL = withBindings(BINDINGS) + KERNELS;

export class GpuTemperature {
  /** The temperatures by particle id (°C; UNSET: not seeded yet), which the viscosity binds. */
  readonly temp: GPUBuffer;
  private readonly dT: GPUBuffer;
  private readonly state: GPUBuffer;
  private readonly kernels: Kernels<'heatRate' | 'heatFlux' | 'heatApply'>;
  private readonly norm: number;
  private readonly conducting: boolean;

  /** Null where no liquid of `ctx` follows a temperature law (ctx.temperature null). */
  static of(device: GPUDevice, ctx: StepContext, capacity: number): GpuTemperature | null {
    return ctx.temperature ? new GpuTemperature(device, ctx, capacity) : null;
  }

  /** The temperatures of the liquid of `ctx` (its channel, by slot = the GPU's ids at upload). */
  private constructor(private readonly device: GPUDevice, ctx: StepContext, capacity: number) {
    const st = ctx.temperature!, n = ctx.liquid.count;
    this.norm = st.norm;
    this.conducting = st.diffusivity.some((a) => a > 0);
    this.temp = storageBuffer(device, 4 * capacity, 'temperatures');
    this.dT = storageBuffer(device, 4 * capacity, 'temperature changes');
    this.state = storageBuffer(device, 16, 'heat state');
    this.kernels = new Kernels(device, 'temperature', TEMPERATURE_WGSL, ['heatRate', 'heatFlux', 'heatApply'], 9, 0);
    const T = new Float32Array(capacity).fill(UNSET);
    for (let i = 0; i < n; i++) T[i] = st.T[i];
    device.queue.writeBuffer(this.temp, 0, T);
  }

  /**
   * Conducts the heat of the sub-timestep dt between the n slots of `b` (sorted): submits `enc`
   * with the rates, reads the largest back and returns a new encoder with the steps in it.
   */
  async conduct(enc: GPUCommandEncoder, b: ViscosityBuffers, n: number, dt: number): Promise<GPUCommandEncoder> {
    if (!this.conducting || n < 2 || !(dt > 0)) return enc;
    const d = this.device, K = this.kernels.pipelines, st = new Uint32Array(4), sf = new Float32Array(st.buffer);
    sf[2] = this.norm;
    d.queue.writeBuffer(this.state, 0, st);
    const group = this.kernels.bind(d, [b.params, b.pos, b.vel, b.id, this.temp, this.dT, b.wall, b.start, this.state]);
    let pass = enc.beginComputePass();
    dispatch(pass, K.heatRate, group, n);
    pass.end();
    d.queue.submit([enc.finish()]);
    const most = new Float32Array(await readBuffer(d, this.state, 4))[0];
    const wanted = Math.max(1, Math.ceil((dt * most) / HEAT_STEP_LIMIT - 1e-9));
    const steps = Math.min(wanted, MAX_HEAT_STEPS);
    sf[1] = wanted > steps ? HEAT_STEP_LIMIT / most : dt / steps;
    d.queue.writeBuffer(this.state, 4, st, 1, 1);
    const next = d.createCommandEncoder();
    pass = next.beginComputePass();
    for (let s = 0; s < steps; s++) {
      dispatch(pass, K.heatFlux, group, n);
      dispatch(pass, K.heatApply, group, n);
    }
    pass.end();
    return next;
  }

  /** The temperatures by particle id (°C; UNSET: never seeded, its liquid's initial). */
  async read(capacity: number): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.temp, 4 * capacity));
  }

  destroy(): void {
    for (const b of [this.temp, this.dT, this.state]) b.destroy();
  }
}
