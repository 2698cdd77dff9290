/// <reference types="@webgpu/types" />
/**
 * The gel stage on the GPU: the CPU engine's viscoelastic springs with plasticity
 * (src/particle/gel.ts; Clavet, Beaudoin & Poulin 2005 §5, with the scene's four parameters as
 * gel.ts turns them into spring constants), kernels in gel-wgsl.ts. In the step's order (step.ts):
 * right after the sort that starts a sub-timestep the springs are broken, made and listed
 * (`relist`); after the viscosity and before the pressure's second solve their plastic flow and
 * an implicit step of their forces into the velocities (`step`: gel-implicit.ts, as the CPU's
 * src/particle/gel-implicit.ts), two solves of half the piece where the gel cuts the sub-timestep
 * (gel.ts gelPieces; simulation.ts sets `solves`).
 *
 * The springs are held by particle id at both of their ends (gel-wgsl.ts says why the two copies
 * stay equal), so they need no carrying through the sort. One liquid (refuse.ts): its own entry
 * of gel.ts's per-material-pair constants.
 */
import type { StepContext } from '../particle/context.ts';
import { gelPieces, type GelState } from '../particle/gel.ts';
import type { GelSolve } from '../particle/gel-implicit.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer } from './device.ts';
import { GEL_ENTRIES, GEL_PARAM_BYTES, GEL_SLOTS, GEL_WGSL, type GelEntry } from './gel-wgsl.ts';
import { type GelSolveBuffers, GpuGelImplicit } from './gel-implicit.ts';
import type { GpuNeighbours } from './neighbours.ts';

const STRIDE = GEL_SLOTS + 1;

/** The springs as the CPU engine keeps them (gel.ts GelState): ends by GPU particle id, rest lengths (m). */
export interface GpuSprings {
  idA: Int32Array;
  idB: Int32Array;
  rest: Float64Array;
  /** Particles that wanted more than GEL_SLOTS springs at their last listing (they made none that sub-timestep). */
  full: number;
  /** Springs held at one end only, or with different rest lengths at their two ends (0 unless `read(true)` found some). */
  unpaired: number;
}

export class GpuGel {
  private readonly kernels: Kernels<GelEntry>;
  private readonly slot: GPUBuffer;
  private readonly springs: GPUBuffer;
  private readonly params: GPUBuffer;
  private readonly data = new ArrayBuffer(GEL_PARAM_BYTES);
  private readonly e: number;
  private readonly implicit: GpuGelImplicit;
  /** Solves a piece takes this sub-timestep (2 where the gel cuts it: gel-implicit.ts); simulation.ts sets it. */
  solves = 1;

  /**
   * The gel of the host's liquid (material m), or null where it is not a gel; with the host's
   * springs where it has some (a run resumed from a checkpoint). `capacity`: the slots (and ids)
   * the liquid may fill.
   */
  static of(device: GPUDevice, ctx: StepContext, m: number, capacity: number): GpuGel | null {
    const gel = ctx.gel;
    if (gel === null || !gel.isGel[m]) return null;
    const out = new GpuGel(device, gel, m, capacity);
    if (gel.count > 0) out.upload(ctx.liquid.id.subarray(0, ctx.liquid.count), ctx.liquid.nextId);
    if (gel.implicit && gel.implicit.solves > 0) out.uploadSolve(ctx.liquid.id.subarray(0, ctx.liquid.count), gel.implicit);
    return out;
  }

  /** Pieces a sub-timestep of `dt` with `moves` moves is cut into for the explicit springs (gel.ts gelPieces). */
  pieces(dt: number, moves: number): number {
    return gelPieces(this.gel, dt, moves);
  }

  private constructor(private readonly device: GPUDevice, private readonly gel: GelState, m: number, private readonly capacity: number) {
    this.e = m * gel.materials + m;
    this.kernels = new Kernels(device, 'gel', GEL_WGSL, GEL_ENTRIES, 9, [0, 8]);
    this.slot = storageBuffer(device, 4 * capacity, 'gel: slot of each id');
    this.springs = storageBuffer(device, 8 * STRIDE * capacity, 'gel: springs by id');
    this.params = uniformBuffer(device, GEL_PARAM_BYTES, 'gel parameters');
    this.implicit = new GpuGelImplicit(device, capacity);
    const f = new Float32Array(this.data), u = new Uint32Array(this.data), e = this.e;
    f[0] = gel.reach; f[1] = 1 / gel.reach; f[2] = gel.stiffness[e]; f[3] = gel.limit[e];
    f[7] = gel.invMass[m]; u[9] = capacity; u[10] = gel.decay[e] === 0 ? 1 : 0;
  }

  /**
   * The host's springs (a run resumed from a checkpoint: gel-checkpoint.ts) by GPU id: `ids` are
   * the host liquid's ids in GPU id order (the seeding liquid's index is its GPU id).
   */
  private upload(ids: ArrayLike<number>, nextId: number): void {
    const gel = this.gel, index = new Int32Array(nextId).fill(-1);
    for (let i = 0; i < ids.length; i++) index[ids[i]] = i;
    const words = new Uint32Array(2 * STRIDE * this.capacity), f = new Float32Array(words.buffer);
    const add = (i: number, j: number, rest: number): void => {
      const base = 2 * STRIDE * i, c = words[base];
      words[base + 2 + 2 * c] = j;
      f[base + 3 + 2 * c] = rest;
      words[base] = c + 1;
      words[base + 1] = c + 1;
    };
    for (let q = 0; q < gel.count; q++) {
      const i = index[gel.idA[q]], j = index[gel.idB[q]];
      if (i < 0 || j < 0 || words[2 * STRIDE * i] >= GEL_SLOTS || words[2 * STRIDE * j] >= GEL_SLOTS) continue;
      add(i, j, gel.rest[q]);
      add(j, i, gel.rest[q]);
    }
    this.device.queue.writeBuffer(this.springs, 0, words);
  }

  /**
   * The host's implicit step state (gel-implicit.ts GelSolve: the warm start, the velocity after
   * the last springs and whether it is known) by GPU id: `ids` the host liquid's ids in GPU id order.
   */
  private uploadSolve(ids: ArrayLike<number>, solve: GelSolve): void {
    const cap = this.capacity, warm = new Float32Array(4 * cap), after = new Float32Array(4 * cap);
    for (let i = 0; i < ids.length; i++) {
      const h = ids[i];
      if (h >= solve.stamp.length) continue;
      for (let k = 0; k < 3; k++) { warm[4 * i + k] = solve.warm[3 * h + k]; after[4 * i + k] = solve.after[3 * h + k]; }
      after[4 * i + 3] = solve.stamp[h] === solve.solves ? solve.solves : 0;
    }
    this.implicit.upload(warm, after, solve.solves);
  }

  /**
   * The implicit step's state read back into `solve` (gel-implicit.ts GelSolve) by host id, for the
   * first `n` GPU ids (`hostId` of each), as gel-checkpoint.ts restores it: stage 1, known or not.
   */
  async readSolve(solve: GelSolve, n: number, hostId: (i: number) => number, nextId: number): Promise<void> {
    const s = await this.implicit.read();
    solve.size(0, 0, nextId, false);
    solve.solves = s.stages > 0 ? 1 : 0;
    for (let i = 0; i < n; i++) {
      const h = hostId(i);
      for (let k = 0; k < 3; k++) { solve.warm[3 * h + k] = s.warm[4 * i + k]; solve.after[3 * h + k] = s.after[4 * i + k]; }
      solve.stamp[h] = s.stages > 0 && s.after[4 * i + 3] === s.stages ? 1 : 0;
    }
  }

  /** The plastic flow's δt and factors over one solve (gel.ts plasticFactors), before the sub-timestep's commands are submitted. */
  private writeStep(h: number): void {
    const g = this.gel, e = this.e, f = new Float32Array(this.data);
    const lim = g.limit[e], rate = g.yieldRate[e];
    f[4] = -Math.expm1(-(1 + lim) * rate * h) / (1 + lim);
    f[5] = lim < 1 ? -Math.expm1(-(1 - lim) * rate * h) / (1 - lim) : 0;
    f[6] = Math.exp(-g.decay[e] * h);
    f[8] = h;
    this.device.queue.writeBuffer(this.params, 0, this.data);
  }

  private group(step: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer): GPUBindGroup {
    return this.kernels.bind(this.device, [step, grid.pos, grid.vel, grid.id, this.slot, this.springs, wall, grid.start, this.params]);
  }

  /**
   * Breaks, makes and lists the springs at the sorted positions (gel.ts listSprings): right after
   * the sort, before the body forces; the sub-timestep of `dt` seconds' parameters (its plastic
   * flow over each of `solves` solves); and each particle's velocity at the sub-timestep's start,
   * from which the implicit step's carry is measured (gel-implicit.ts).
   */
  relist(pass: GPUComputePassEncoder, step: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer, n: number, dt: number): void {
    this.writeStep(dt / this.solves);
    const K = this.kernels.pipelines, g = this.group(step, grid, wall);
    dispatch(pass, K.gelClear, g, this.capacity);
    dispatch(pass, K.gelSlot, g, n);
    dispatch(pass, K.gelBreak, g, n);
    dispatch(pass, K.gelMake, g, n);
    this.implicit.begin(pass, this.solveBuffers(grid), n, dt, this.solves);
  }

  private solveBuffers(grid: GpuNeighbours): GelSolveBuffers {
    return { pos: grid.pos, vel: grid.vel, id: grid.id, slot: this.slot, springs: this.springs, gel: this.params };
  }

  /**
   * The springs' implicit step (gel-implicit.ts), each solve after its plastic flow, into `enc`
   * and the encoders after it (its stop flags are read back). Returns the encoder to go on in and
   * the iterations taken.
   */
  async step(enc: GPUCommandEncoder, step: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer, n: number): Promise<{ enc: GPUCommandEncoder; iterations: number }> {
    const K = this.kernels.pipelines, g = this.group(step, grid, wall);
    return this.implicit.solve(enc, this.solveBuffers(grid), this.solves, (pass) => dispatch(pass, K.gelPlastic, g, n));
  }

  /**
   * The springs read back, each once (idA < idB), as the CPU engine keeps them. `check`: counts
   * the springs whose two copies differ (a check for tests: the two ends must hold each spring
   * with the same bits).
   */
  async read(check = false): Promise<GpuSprings> {
    const words = new Uint32Array(await readBuffer(this.device, this.springs, 8 * STRIDE * this.capacity)), f = new Float32Array(words.buffer);
    let m = 0, full = 0, unpaired = 0;
    for (let i = 0; i < this.capacity; i++) {
      const base = 2 * STRIDE * i, c = words[base];
      if (words[base + 1] > GEL_SLOTS) full++;
      for (let k = 0; k < c; k++) {
        const j = words[base + 2 + 2 * k];
        if (j > i) m++;
        if (!check) continue;
        const bj = 2 * STRIDE * j, cj = words[bj];
        let found = false;
        for (let l = 0; l < cj && !found; l++) found = words[bj + 2 + 2 * l] === i && words[bj + 3 + 2 * l] === words[base + 3 + 2 * k];
        if (!found) unpaired++;
      }
    }
    const idA = new Int32Array(m), idB = new Int32Array(m), rest = new Float64Array(m);
    m = 0;
    for (let i = 0; i < this.capacity; i++) {
      const base = 2 * STRIDE * i, c = words[base];
      for (let k = 0; k < c; k++) {
        const j = words[base + 2 + 2 * k];
        if (j <= i) continue;
        idA[m] = i; idB[m] = j; rest[m] = f[base + 3 + 2 * k]; m++;
      }
    }
    return { idA, idB, rest, full, unpaired };
  }

  destroy(): void {
    for (const b of [this.slot, this.springs, this.params]) b.destroy();
    this.implicit.destroy();
  }
}
