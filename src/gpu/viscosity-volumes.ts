/// <reference types="@webgpu/types" />
/**
 * The neighbour volumes of the implicit viscosity on the GPU, as the CPU engine takes them
 * (src/particle/viscosity-weiler-volumes.ts; Weiler, Koschier, Brand & Bender 2018, eq. 8): each
 * liquid pair's coefficient, and each closed wall's mirror ghost's, times q_a q_b, q as
 * viscosity-weiler-volumes.ts volumeRatios gives it (viscosity-wgsl.ts volumesWgsl: the factor in the solve's rows and products).
 *
 * ρ/ρ0 is the density correction's last measure (step-wgsl.ts `factor`, the slot scalars' x), the
 * quantity the CPU keeps as LiquidParticles.density (pbf.ts finish) and its viscosity reads in the
 * next sub-timestep. The slot scalars are not carried by the sort (neighbours.ts), and the next
 * sub-timestep compacts (sinks.ts) and sorts before its solve, so `record` keeps ρ/ρ0 by particle
 * id (the cg buffer's CG_RHO section) right after density correction, in the slots it was measured
 * in; the solve's first kernel (viscVolumes) gathers q per slot into CG_VOL. The ids are seeded
 * with the seeding simulation's LiquidParticles.density (1 in a fresh run), the ids the sources
 * will hand out with 1: a particle let in reads the rest volume until its first density
 * correction, as on the CPU (liquid.ts).
 */
import type { LiquidParticles } from '../particle/liquid.ts';
import { dispatch, Kernels, WORKGROUP } from './device.ts';
import { CG_RHO } from './viscosity-wgsl.ts';

const ENTRIES = ['recordDensity'] as const;

/** ρ/ρ0 of `liquid`'s particles (their ids 0 … count − 1 on the GPU) and 1 past them, as vec4 x over `capacity` ids. */
export function seedDensity(liquid: LiquidParticles, capacity: number): Float32Array<ArrayBuffer> {
  const out = new Float32Array(4 * capacity);
  for (let i = 0; i < capacity; i++) out[4 * i] = i < liquid.count ? liquid.density[i] : 1;
  return out;
}

/**
 * The kernel that keeps the slots' ρ/ρ0 (sc.x) by particle id in the cg buffer (sections of the
 * step parameters' P.cap ids, read from them: one compiled module serves every capacity).
 */
const RECORD_WGSL = /* wgsl */ `
@group(0) @binding(0) var<uniform> P: array<vec4<u32>, 8>;
@group(0) @binding(1) var<storage, read_write> sc: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> id: array<u32>;
@group(0) @binding(3) var<storage, read_write> cg: array<vec4<f32>>;
// The step parameters' first 32 words (wgsl.ts Params): P[0].x is n, the liquid's count now, P[7].w
// is cap, the ids a cg section holds.
@compute @workgroup_size(${WORKGROUP}) fn recordDensity(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P[0].x) { return; }
  cg[${CG_RHO}u * P[7].w + id[a]] = vec4<f32>(sc[a].x, 0.0, 0.0, 0.0);
}`;

/** The kernel of RECORD_WGSL (the simulation's capacity is the step parameters' P.cap). */
export class DensityRecord {
  private readonly kernels: Kernels<(typeof ENTRIES)[number]>;

  constructor(private readonly device: GPUDevice) {
    this.kernels = new Kernels(device, 'viscosity volumes', RECORD_WGSL, ENTRIES, 4, 0);
  }

  /** Into `pass`, after density correction: ρ/ρ0 of the `n` slots of `sc` (sorted as `id`) into `cg` by particle id. */
  record(pass: GPUComputePassEncoder, params: GPUBuffer, sc: GPUBuffer, id: GPUBuffer, cg: GPUBuffer, n: number): void {
    dispatch(pass, this.kernels.pipelines.recordDensity, this.kernels.bind(this.device, [params, sc, id, cg]), n);
  }
}
