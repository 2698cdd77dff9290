/// <reference types="@webgpu/types" />
/**
 * The implicit viscosity of one sub-timestep on the GPU (particle.viscositySolver "implicit"; the
 * CPU's stage is src/particle/viscosity-weiler.ts): the matrix-free conjugate gradients of Weiler,
 * Koschier, Brand & Bender 2018 §4 with the 3×3 block-Jacobi preconditioner, the kernels of
 * viscosity-wgsl.ts over the liquid's sorted buffers. Like the CPU's solve it is warm-started from
 * v* plus the change the particle's last solve made (kept by particle id, so the sort need not
 * carry it), stops at |b − A v| ≤ VISCOSITY_TOLERANCE |b − A v*| or after VISCOSITY_MAX_ITERATIONS,
 * and shifts the solution by the residual's sum over the liquid's mass (the momentum the iterate
 * lacks). Its pairs and wall ghosts carry the volumes q_a q_b of the CPU's (viscosity-volumes.ts):
 * ρ/ρ0 of the last density correction, kept by particle id (recordDensity).
 *
 * The stop test: every iteration on the GPU (the scalar kernel sets a `done` flag that turns the
 * rest of the dispatches into no-ops), so a solve stops at the same test as the CPU's; the host
 * encodes CHECK_EVERY iterations at a time and reads the flag back (80 bytes of the sums) between
 * them, so a solve that stops at iteration k costs ⌈k / CHECK_EVERY⌉ read-backs and at most
 * CHECK_EVERY − 1 iterations encoded past the stop, which launch no workgroups (gate.ts: each
 * iteration dispatched indirect on the counts the gate wrote from the flag). Single precision: the floor below which a residual counts as
 * round-off is 1e-5 |b| (the CPU's, in double precision, 1e-9 |b|).
 */
import type { ParticleSimulation } from '../particle/simulation.ts';
import type { Scene } from '../scene/scene.ts';
import { VISCOSITY_MAX_ITERATIONS, VISCOSITY_TOLERANCE, WARM_START_CHANNEL } from '../particle/viscosity-weiler.ts';
import { COPY_DST, dispatch, Kernels, MAP_READ, readBuffer, storageBuffer, WORKGROUP } from './device.ts';
import { referenceViscosity } from './liquids.ts';
import { GpuTemperature } from './temperature.ts';
import { DensityRecord, seedDensity } from './viscosity-volumes.ts';
import { type GpuWallHold, SOLVE_COUNT } from './hold.ts';
import { encodeGate, type Gate, GATES, gated, GATE_ONE, GATE_PARTICLES, makeGate } from './gate.ts';
import { LIST_MOST } from './viscosity-list-wgsl.ts';
import { CG_C, CG_D, CG_Q, CG_R, CG_RHO, CG_SECTIONS, CG_X, RED_PARTS, RED_STATE, VISCOSITY_ENTRIES, VISCOSITY_WGSL, type ViscosityEntry } from './viscosity-wgsl.ts';

/** The done flag's 32-bit word in the red buffer: red[RED_STATE + 1].y (viscosity-wgsl.ts). */
const DONE_WORD = 4 * (RED_STATE + 1) + 1;
/** Iterations encoded between two read-backs of the stop flag. */
export const CHECK_EVERY = 8;

/**
 * A GPU-judged solve after its first CHECK_EVERY iterations are submitted: reads its stop flag back
 * (`state`), and while it is clear encodes and submits CHECK_EVERY more (`encode`), each batch in an
 * encoder of its own, up to `max` iterations in all; the last state read (this solve's and the gel's:
 * gel-implicit.ts).
 */
export async function iterateToStop<S extends { done: number }>(device: GPUDevice, encode: (pass: GPUComputePassEncoder) => void, state: () => Promise<S>, max: number): Promise<S> {
  let s = await state();
  for (let done = CHECK_EVERY; s.done === 0 && done < max; done += CHECK_EVERY) {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    encode(pass);
    pass.end();
    device.queue.submit([enc.finish()]);
    s = await state();
  }
  return s;
}
/**
 * CHECK_EVERY iterations of a GPU-judged CG (its kernels in order: A d, α, x and r, β, d; α and β in one
 * workgroup, the others over the n particles), each launched with the workgroups the gate wrote from the done
 * flag before it (gate.ts): none once the flag is set (each kernel also returns at once where it is set: an
 * iteration that sets it mid-way); without a gate, plain dispatches. This solve's and the gel's (gel-implicit.ts).
 */
export function encodeCgBatch(
  pass: GPUComputePassEncoder, group: GPUBindGroup, g: Gate | null, n: number,
  apply: GPUComputePipeline, alpha: GPUComputePipeline, update: GPUComputePipeline, beta: GPUComputePipeline, direction: GPUComputePipeline,
): void {
  const run = (p: GPUComputePipeline, one: boolean): void => {
    if (g) gated(pass, p, group, g, one ? GATE_ONE : GATE_PARTICLES);
    else dispatch(pass, p, group, one ? WORKGROUP : n);
  };
  for (let k = 0; k < CHECK_EVERY; k++) {
    if (g) encodeGate(pass, g);
    run(apply, false);
    run(alpha, true);
    run(update, false);
    run(beta, true);
    run(direction, false);
  }
}
/** Bytes of the sums read back between rounds: red[0 .. RED_STATE + 3), the scalars in the last three. */
const STATE_BYTES = 16 * (RED_STATE + 3);
/** GPUMapMode.READ. */
const MAP_MODE_READ = 0x01;
/** Squared relative residual |r|² / |b|² that single precision cannot get under (the CPU's floor is 1e-18). */
const FLOOR = 1e-10;

/** The buffers of the liquid the solve reads and writes (the step's: neighbours.ts, simulation.ts). */
export interface ViscosityBuffers {
  params: GPUBuffer;
  pos: GPUBuffer;
  vel: GPUBuffer;
  id: GPUBuffer;
  wall: GPUBuffer;
  start: GPUBuffer;
  /** The step's slot scalars: ρ/ρ0 of the last density measure in x (wgsl.ts; recordDensity). */
  sc: GPUBuffer;
}

export interface ViscosityResult {
  iterations: number;
  /** |b − A v| / |b − A v*| where the solve stopped at the iteration cap; 0 where it met the tolerance. */
  residual: number;
}

export class GpuImplicitViscosity {
  private readonly kernels: Kernels<ViscosityEntry>;
  private readonly cg: GPUBuffer;
  private readonly red: GPUBuffer;
  /** Where the scalars are copied for reading (one buffer for the run: read every round of every solve). */
  private readonly staging: GPUBuffer;
  /** δt-free K μ (viscosity-weiler.ts ImplicitViscosityState.pk0) and ρ of the first liquid (liquids.ts referenceViscosity). */
  private readonly k0: number;
  private readonly rho: number;
  private readonly head = new Float32Array(8);
  /** Entries of a slot's list after its head (red[1].y; 0: none, the products loop over the neighbours). */
  private listEntries: number;
  /** The liquid's count in the solve under way (dispatch sizes; the kernels read P.n). */
  private n = 0;
  /** An iteration after the stop launches nothing (gate.ts: the workgroups from the done flag); made at the first solve, for its parameters. */
  private gate: Gate | null = null;
  /** The temperatures of liquids whose viscosity follows one (temperature.ts: conducted at the start of each solve; read for checkpoints: mirror.ts); null where none does. */
  readonly heat: GpuTemperature | null;
  private readonly temp: GPUBuffer;
  /** The scene has free bodies: each solve ends with their share (viscosity-wgsl.ts viscFree, free-bodies.ts). */
  private readonly free: boolean;
  /** Keeps ρ/ρ0 by particle id after density correction, for the volumes (viscosity-volumes.ts). */
  private readonly density: DensityRecord;

  /**
   * For the first liquid, material `m`, of `cpu` (its ρ and K μ the reference the liquid table scales
   * for each liquid and pair: liquids.ts; the simulation the GPU's liquid was seeded from: its warm
   * start, where a restored run has one, is uploaded by slot, the slots being its particles), with
   * room for `capacity` particles (the step's P.cap: the seeded liquid and all the scene's sources
   * can still let in, whose ids stay below it).
   */
  constructor(private readonly device: GPUDevice, scene: Scene, cpu: ParticleSimulation, m: number, private readonly capacity: number) {
    const ctx = cpu.ctx, mat = scene.materials[scene.materialNames[m]];
    if (mat.kind !== 'liquid') throw new Error('the implicit viscosity needs a liquid material');
    this.rho = mat.density;
    this.k0 = referenceViscosity(ctx);
    this.free = ctx.freeBodies !== null;
    this.kernels = new Kernels(device, 'implicit viscosity', VISCOSITY_WGSL, VISCOSITY_ENTRIES, 9, 0);
    this.heat = GpuTemperature.of(device, ctx, capacity);
    this.temp = this.heat?.temp ?? storageBuffer(device, 16, 'no temperatures');
    // The products' lists after the sections (viscosity-list-wgsl.ts): a head and up to LIST_MOST entries a slot, fewer where the buffer would pass the device's limit.
    const room = Math.floor(Math.min(device.limits.maxStorageBufferBindingSize, device.limits.maxBufferSize) / (16 * capacity));
    this.listEntries = Math.max(0, Math.min(LIST_MOST, room - CG_SECTIONS - 1));
    this.cg = storageBuffer(device, 16 * (CG_SECTIONS + 1 + this.listEntries) * capacity, 'viscosity vectors');
    this.red = storageBuffer(device, 16 * (RED_PARTS + Math.ceil(capacity / WORKGROUP)), 'viscosity sums');
    this.staging = device.createBuffer({ label: 'viscosity stop flag', size: STATE_BYTES, usage: MAP_READ | COPY_DST });
    this.density = new DensityRecord(device);
    device.queue.writeBuffer(this.cg, 16 * CG_RHO * capacity, seedDensity(ctx.liquid, capacity));
    const had = ctx.liquid.channel(WARM_START_CHANNEL);
    if (had) {
      const n = ctx.liquid.count, c4 = new Float32Array(4 * n), dv = had.array;
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c4[4 * i + k] = dv[3 * i + k];
      device.queue.writeBuffer(this.cg, 16 * CG_C * capacity, c4);
    }
  }

  /**
   * Solves one sub-timestep of length dt on the velocities of the `n` liquid slots of `b` (the
   * body forces and the first pressure in them): encodes the setup and the first iterations into
   * `enc`, submits it, then encodes and submits more iterations until the stop flag is read back set;
   * then, where `hold` is given (the bodies found after this sort: hold.ts), the walls' hold.
   */
  async solve(enc: GPUCommandEncoder, b: ViscosityBuffers, dt: number, n: number, hold: GpuWallHold | null = null): Promise<ViscosityResult> {
    const d = this.device, K = this.kernels.pipelines;
    this.n = n;
    const h = this.head;
    h[0] = dt * this.k0; h[1] = this.rho; h[2] = VISCOSITY_TOLERANCE * VISCOSITY_TOLERANCE; h[3] = FLOOR;
    h[4] = VISCOSITY_MAX_ITERATIONS; h[5] = this.listEntries;
    d.queue.writeBuffer(this.red, 0, h);
    if (this.heat) enc = await this.heat.conduct(enc, b, n, dt);
    const group = this.kernels.bind(d, [b.params, b.pos, b.vel, b.id, this.cg, this.red, b.wall, b.start, this.temp]);
    if (GATES.on) this.gate ??= makeGate(d, b.params, this.red, DONE_WORD);
    let pass = enc.beginComputePass();
    dispatch(pass, K.viscVolumes, group, n);
    dispatch(pass, K.viscSetup, group, n);
    dispatch(pass, K.viscStart, group, n);
    dispatch(pass, K.viscStartTotal, group, WORKGROUP);
    this.iterations(pass, group);
    pass.end();
    d.queue.submit([enc.finish()]);
    const state = await iterateToStop(d, (p) => this.iterations(p, group), () => this.state(), VISCOSITY_MAX_ITERATIONS);
    const end = d.createCommandEncoder();
    pass = end.beginComputePass();
    dispatch(pass, K.viscShiftParts, group, n);
    dispatch(pass, K.viscShiftTotal, group, WORKGROUP);
    // The free bodies' share at the solution before the walls' hold (the CPU's bodyReaction before holdWallDrag).
    if (this.free) dispatch(pass, K.viscFree, group, n);
    if (hold) {
      // A static wall's net drag may slow a body, not push it (hold.ts): taken back from the shifted solution.
      dispatch(pass, K.viscHoldShare, group, n);
      const cap = this.capacity;
      hold.hold(pass, b.params, b.pos, b.vel, b.wall, b.start, { share: this.cg, change: CG_R * cap, before: CG_D * cap, target: CG_X * cap }, n, SOLVE_COUNT);
    }
    dispatch(pass, K.viscFinish, group, n);
    pass.end();
    d.queue.submit([end.finish()]);
    const capped = state.rr > state.goal;
    return { iterations: state.iterations, residual: capped && state.bb > 0 ? Math.sqrt(state.rr / state.bb) : 0 };
  }

  /**
   * The warm start (the change each particle's last solve made, m/s: xyz of a vec4 by GPU particle
   * id, GpuParticles.id), read back for a checkpoint (mirror.ts: the CPU's WARM_START_CHANNEL).
   */
  async warmStart(): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.cg, 16 * this.capacity, 16 * CG_C * this.capacity));
  }

  /**
   * Into `pass`, right after density correction: the `n` slots' ρ/ρ0 (b.sc, sorted as b.id) kept
   * by particle id for the next solve's volumes (viscosity-volumes.ts).
   */
  recordDensity(pass: GPUComputePassEncoder, b: ViscosityBuffers, n: number): void {
    this.density.record(pass, b.params, b.sc, b.id, this.cg, n);
  }

  /**
   * The lists' entries cut to `entries` for the next solves (fewer than the buffer has room for: the
   * slots whose lists do not fit run the loops over the cells, the same sums), and how many of the `n`
   * slots the last solve listed: for checks of the two paths against each other.
   */
  limitList(entries: number): void {
    this.listEntries = Math.min(this.listEntries, entries);
  }
  async listedSlots(n: number): Promise<number> {
    const head = new Float32Array(await readBuffer(this.device, this.cg, 16 * n, 16 * CG_SECTIONS * this.capacity));
    let listed = 0;
    for (let a = 0; a < n; a++) if (head[4 * a + 1] >= 0) listed++;
    return listed;
  }

  /** ρ/ρ0 as the next solve reads it, by GPU particle id (x of a vec4 each; recordDensity): for checks against the slots' read back. */
  async densities(): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.cg, 16 * this.capacity, 16 * CG_RHO * this.capacity));
  }

  /** The free bodies' share the last solve left for the `n` slots (viscFree: Δv xyz, the body's index + 1 in w), read back: for checks against the CPU's bodyReaction. */
  async freeShares(n: number): Promise<Float32Array> {
    return new Float32Array(await readBuffer(this.device, this.cg, 16 * n, 16 * CG_Q * this.capacity));
  }

  /** Where the last solve left the free bodies' share (viscFree): the buffer and its first vec4 (free-bodies.ts reduce). */
  freeShare(): { buffer: GPUBuffer; base: number } {
    return { buffer: this.cg, base: CG_Q * this.capacity };
  }

  /** CHECK_EVERY iterations of the CG (encodeCgBatch). */
  private iterations(pass: GPUComputePassEncoder, group: GPUBindGroup): void {
    const K = this.kernels.pipelines;
    encodeCgBatch(pass, group, this.gate, this.n, K.viscApply, K.viscAlpha, K.viscUpdate, K.viscBeta, K.viscDirection);
  }

  private async state(): Promise<{ done: number; iterations: number; rr: number; goal: number; bb: number }> {
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.red, 0, this.staging, 0, STATE_BYTES);
    this.device.queue.submit([enc.finish()]);
    await this.staging.mapAsync(MAP_MODE_READ);
    const s = new Float32Array(this.staging.getMappedRange().slice(16 * RED_STATE));
    this.staging.unmap();
    return { rr: s[1], goal: s[2], done: s[5], iterations: s[6], bb: s[8] };
  }

  destroy(): void {
    this.cg.destroy();
    this.red.destroy();
    this.staging.destroy();
    this.gate?.args.destroy();
    if (this.heat) this.heat.destroy(); else this.temp.destroy();
  }
}
