/// <reference types="@webgpu/types" />
/**
 * The gel's springs stepped implicitly on the GPU, once a sub-timestep among the non-pressure
 * forces (after the implicit viscosity, before the pressure's second solve; with one solve, before
 * it), as the CPU's stage (src/particle/gel-implicit.ts, which says why) steps them: backward Euler
 * on the spring forces (Peer, Gissler & Teschner 2018 §4), matrix-free conjugate gradients with the
 * 3×3 block-Jacobi preconditioner, warm-started from each particle's last Δv / δt (by id), the
 * carry (GEL_CARRY, or GEL_CARRY_SPLIT where the piece takes two solves) of what the stages after
 * the last springs did to each velocity, two solves of δt/2 where the gel cuts the sub-timestep
 * (the positions moved on along the solves' path between them), and the iterate's momentum over
 * the particles with springs taken back. Kernels in gel-implicit-wgsl.ts, single precision.
 *
 * The stop test as the GPU's implicit viscosity judges it (viscosity-solve.ts): on the GPU every
 * iteration (a `done` flag), CHECK_EVERY iterations encoded between two read-backs of the flag, each
 * iteration's kernels launched on the workgroups the gate wrote from the flag before it, none once it
 * is set (gate.ts; each kernel also returns at once where the flag is set, so the bits are those of
 * launching every iteration over every slot). In
 * single precision the relative residual has a floor: the goal is GEL_TOLERANCE² b·Pb plus
 * FLOOR b·Pb plus GEL_FLOOR² times the mass with springs.
 */
import { GEL_CARRY, GEL_CARRY_SPLIT, GEL_FLOOR, GEL_MAX_ITERATIONS, GEL_TOLERANCE } from '../particle/gel-implicit.ts';
import { COPY_DST, dispatch, Kernels, MAP_READ, readBuffer, storageBuffer, uniformBuffer, WORKGROUP } from './device.ts';
import {
  GEL_IMPLICIT_ENTRIES, GEL_IMPLICIT_PARAM_BYTES, GEL_IMPLICIT_WGSL, GI_AFTER, GI_ID_SECTIONS, GI_RED_PARTS, GI_RED_STATE, GI_SECTIONS, GI_WARM,
  type GelImplicitEntry,
} from './gel-implicit-wgsl.ts';
import { encodeCgBatch, iterateToStop } from './viscosity-solve.ts';
import { type Gate, GATES, makeGate } from './gate.ts';

/** The done flag's 32-bit word in the red buffer: red[GI_RED_STATE + 1].y (gel-implicit-wgsl.ts isDone). */
const DONE_WORD = 4 * (GI_RED_STATE + 1) + 1;
/** Squared relative residual single precision cannot get under (viscosity-solve.ts's floor). */
const FLOOR = 1e-10;
/** Bytes of the sums read back between rounds: red[0 .. GI_RED_STATE + 2). */
const STATE_BYTES = 16 * (GI_RED_STATE + 2);
/** GPUMapMode.READ. */
const MAP_MODE_READ = 0x01;

/** The liquid's buffers the solve reads and writes (neighbours.ts) and the gel's (gel.ts). */
export interface GelSolveBuffers {
  pos: GPUBuffer;
  vel: GPUBuffer;
  id: GPUBuffer;
  slot: GPUBuffer;
  springs: GPUBuffer;
  gel: GPUBuffer;
}

export class GpuGelImplicit {
  private readonly kernels: Kernels<GelImplicitEntry>;
  private readonly cg: GPUBuffer;
  private readonly red: GPUBuffer;
  private readonly byId: GPUBuffer;
  private readonly params: GPUBuffer;
  private readonly staging: GPUBuffer;
  private readonly data = new ArrayBuffer(GEL_IMPLICIT_PARAM_BYTES);
  /** Stages run (the CPU's GelSolve.solves): the stamp of each particle's velocity after the springs. */
  private stages = 0;
  private n = 0;
  /** An iteration after the stop launches nothing (gate.ts: the workgroups from the done flag, for the count in the parameters' first word). */
  private readonly gate: Gate | null;

  constructor(private readonly device: GPUDevice, private readonly capacity: number) {
    this.kernels = new Kernels(device, 'gel implicit', GEL_IMPLICIT_WGSL, GEL_IMPLICIT_ENTRIES, 10, [0, 9]);
    this.cg = storageBuffer(device, 16 * GI_SECTIONS * capacity, 'gel: solve vectors');
    this.red = storageBuffer(device, 16 * (GI_RED_PARTS + Math.ceil(capacity / WORKGROUP)), 'gel: solve sums');
    this.byId = storageBuffer(device, 16 * GI_ID_SECTIONS * capacity, 'gel: warm start and carry by id');
    this.params = uniformBuffer(device, GEL_IMPLICIT_PARAM_BYTES, 'gel solve parameters');
    this.staging = device.createBuffer({ label: 'gel solve stop flag', size: STATE_BYTES, usage: MAP_READ | COPY_DST });
    this.gate = GATES.on ? makeGate(device, this.params, this.red, DONE_WORD) : null;
  }

  private group(b: GelSolveBuffers): GPUBindGroup {
    return this.kernels.bind(this.device, [this.params, b.pos, b.vel, b.id, b.slot, b.springs, this.cg, this.red, this.byId, b.gel]);
  }

  /**
   * The sub-timestep's parameters (δt = `dt` cut into `solves` solves; `n` slots), and into `pass`,
   * at its start (before the body forces), each particle's velocity by id (gelNoteStart).
   */
  begin(pass: GPUComputePassEncoder, b: GelSolveBuffers, n: number, dt: number, solves: number): void {
    this.n = n;
    const f = new Float32Array(this.data), u = new Uint32Array(this.data), h = dt / solves;
    u[0] = n; u[1] = this.capacity; u[2] = this.stages; f[3] = GEL_MAX_ITERATIONS;
    f[4] = h; f[5] = solves > 1 ? GEL_CARRY_SPLIT : GEL_CARRY; f[6] = GEL_TOLERANCE * GEL_TOLERANCE; f[7] = GEL_FLOOR * GEL_FLOOR;
    f[8] = h; f[9] = h - dt; f[10] = FLOOR;
    this.device.queue.writeBuffer(this.params, 0, this.data);
    dispatch(pass, this.kernels.pipelines.giBegin, this.group(b), n);
  }

  /**
   * The springs' step (after `plastic`, each solve's plastic flow, is encoded into its pass): the
   * carry, then `solves` solves, each encoded into `enc` (then new encoders) and submitted until its
   * stop flag is read back set. Returns a fresh encoder for the stages after it, and the iterations.
   */
  async solve(enc: GPUCommandEncoder, b: GelSolveBuffers, solves: number, plastic: (pass: GPUComputePassEncoder) => void): Promise<{ enc: GPUCommandEncoder; iterations: number }> {
    const d = this.device, K = this.kernels.pipelines, n = this.n, group = this.group(b);
    let pass = enc.beginComputePass();
    dispatch(pass, K.giCarry, group, n);
    let iterations = 0;
    for (let sub = 0; sub < solves; sub++) {
      plastic(pass);
      dispatch(pass, K.giSetup, group, n);
      dispatch(pass, K.giStart, group, WORKGROUP);
      this.iterations(pass, group);
      pass.end();
      d.queue.submit([enc.finish()]);
      const state = await iterateToStop(d, (p) => this.iterations(p, group), () => this.state(), GEL_MAX_ITERATIONS);
      iterations += state.iterations;
      enc = d.createCommandEncoder();
      pass = enc.beginComputePass();
      dispatch(pass, K.giShiftParts, group, n);
      dispatch(pass, K.giShiftTotal, group, WORKGROUP);
      dispatch(pass, K.giFinish, group, n);
      if (sub < solves - 1) dispatch(pass, K.giAdvance, group, n);
    }
    if (solves > 1) dispatch(pass, K.giBack, group, n);
    dispatch(pass, K.giAfter, group, n);
    pass.end();
    this.stages++;
    return { enc, iterations };
  }

  /**
   * What the step keeps between sub-timesteps, by GPU particle id (vec4 each): the warm start
   * (Δv / δt), the velocity after the last springs with the stage that wrote it in w, and the
   * stages run (a velocity after the springs is known where its w is that count).
   */
  async read(): Promise<{ warm: Float32Array; after: Float32Array; stages: number }> {
    const cap = this.capacity;
    const all = new Float32Array(await readBuffer(this.device, this.byId, 16 * 2 * cap, 16 * GI_WARM * cap));
    return { warm: all.subarray(0, 4 * cap), after: all.subarray(4 * (GI_AFTER - GI_WARM) * cap, 4 * (GI_AFTER - GI_WARM + 1) * cap), stages: this.stages };
  }

  /** The state `read` gives, by GPU particle id (a run resumed from a checkpoint: gel.ts). */
  upload(warm: Float32Array<ArrayBuffer>, after: Float32Array<ArrayBuffer>, stages: number): void {
    const cap = this.capacity;
    this.device.queue.writeBuffer(this.byId, 16 * GI_WARM * cap, warm);
    this.device.queue.writeBuffer(this.byId, 16 * GI_AFTER * cap, after);
    this.stages = stages;
  }

  /** CHECK_EVERY iterations of the CG (viscosity-solve.ts encodeCgBatch). */
  private iterations(pass: GPUComputePassEncoder, group: GPUBindGroup): void {
    const K = this.kernels.pipelines;
    encodeCgBatch(pass, group, this.gate, this.n, K.giApply, K.giAlpha, K.giUpdate, K.giBeta, K.giDirection);
  }

  private async state(): Promise<{ done: number; iterations: number }> {
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.red, 0, this.staging, 0, STATE_BYTES);
    this.device.queue.submit([enc.finish()]);
    await this.staging.mapAsync(MAP_MODE_READ);
    const s = new Float32Array(this.staging.getMappedRange().slice(16 * GI_RED_STATE));
    this.staging.unmap();
    return { done: s[5], iterations: s[6] };
  }

  destroy(): void {
    for (const b of [this.cg, this.red, this.byId, this.params, this.staging]) b.destroy();
    this.gate?.args.destroy();
  }
}
