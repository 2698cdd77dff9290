/// <reference types="@webgpu/types" />
/**
 * particle.thinPull on the GPU: the CPU's stage (src/particle/thin-pull.ts, which has the method and its citations:
 * He et al. 2014's pull at the larger scale H = THIN_SCALE h against the liquid opening up, on sparse slots of thin
 * features away from bodies, THIN_PASSES Jacobi passes of DFSPH's divergence step with the sign's constraint turned
 * over, each pass's Δv of a sparse slot filtered with its feature-shaped kernel), with the same constants, at the
 * same point of the sub-timestep (substep.ts: after the pressure's last solve and its position shift, before the
 * nozzles' hold and the moves). Kernels in thin-pull-wgsl.ts, single precision; its buffers are its own: per slot
 * the rows' filters, λ and Δv, and per particle id ρ/ρ0 of the last density correction (`record`, the CPU's
 * LiquidParticles.density, seeded from the seeding simulation's, 1 for the ids sources will hand out).
 *
 * Where it differs from the CPU's: the neighbours within H are found in the sub-timestep's hashed cells
 * (neighbours.ts) at the present positions, REACH cells around on each axis, REACH = ⌈H / edge + DRIFT⌉ fixed for
 * the run (the CPU takes R from how far its particles have left their cells since the sort, exact at any drift): a
 * pair within H is found while the neighbour has moved less than REACH − H / edge cells on each axis since the sort
 * (at least DRIFT; 0.4, 4 mm, on gel-fan and cup-pour: H = 1.6 edges, REACH 2; since the sort only the pressure's
 * position shift and the nozzles' hold move them). A pass after the CPU's would-be stop
 * (no λ > 0) runs and changes nothing; the sums are gathered per slot, in the buckets' order.
 */
import type { StepContext } from '../particle/context.ts';
import { THIN_FLAT, THIN_KR, THIN_PASSES, THIN_SCALE, THIN_SPARSE } from '../particle/thin-pull.ts';
import { dispatch, Kernels, storageBuffer, uniformBuffer } from './device.ts';
import { GUARD_BYTES } from './guard-wgsl.ts';
import type { GpuNeighbours } from './neighbours.ts';
import { SKIP_WORDS, THIN_ENTRIES, THIN_PARAM_BYTES, THIN_SECTIONS, THIN_WGSL, type ThinEntry } from './thin-pull-wgsl.ts';

/** Cells (of the edge) a neighbour may at least have moved since the sort, on each axis, before a pair within H may be missed (the header). */
export const DRIFT = 0.25;

/** Per offset of the (2 R + 1)³ cells around (di outer, dk inner), 1 where its bucket is an earlier offset's (thin-pull-wgsl.ts). */
export function skipBits(R: number, table: number): Uint32Array {
  const side = 2 * R + 1, total = side ** 3;
  if (total > 32 * SKIP_WORDS) throw new Error(`thin pull: ${total} cells around a particle, the GPU's parameters hold ${32 * SKIP_WORDS}`);
  const out = new Uint32Array(SKIP_WORDS), seen = new Set<number>();
  let o = 0;
  for (let di = -R; di <= R; di++) for (let dj = -R; dj <= R; dj++) for (let dk = -R; dk <= R; dk++, o++) {
    const m = (((541 * di + 79 * dj + 31 * dk) % table) + table) % table;
    if (seen.has(m)) out[o >> 5] |= 1 << (o & 31);
    seen.add(m);
  }
  return out;
}

export class GpuThinPull {
  private readonly kernels: Kernels<ThinEntry>;
  private readonly params: GPUBuffer;
  private readonly thin: GPUBuffer;
  private readonly rho: GPUBuffer;
  /** The guarded bodies' uniform (the guard's, guard-wgsl.ts), or zeros of its own where the scene has no solid body. */
  private readonly bodies: GPUBuffer;
  private readonly ownBodies: boolean;
  private readonly data = new ArrayBuffer(THIN_PARAM_BYTES);
  /** Cells around a particle on each axis the neighbours within H are looked for in. */
  readonly reach: number;

  /**
   * The pull of the host's scene, or null where particle.thinPull is 0. `sc`: the step's slot scalars (ρ/ρ0 in x after
   * density correction); `bodies`: the guard's bodies' uniform (written each sub-timestep), null without a solid body.
   */
  static of(device: GPUDevice, ctx: StepContext, grid: GpuNeighbours, capacity: number, sc: GPUBuffer, bodies: GPUBuffer | null): GpuThinPull | null {
    return ctx.scene.particle.thinPull > 0 ? new GpuThinPull(device, ctx, grid, capacity, sc, bodies) : null;
  }

  private constructor(private readonly device: GPUDevice, ctx: StepContext, grid: GpuNeighbours, private readonly capacity: number, private readonly sc: GPUBuffer, bodies: GPUBuffer | null) {
    const H = THIN_SCALE * ctx.densityH, invCell = 1 / grid.cellSize;
    this.reach = Math.ceil(H * invCell + DRIFT);
    this.kernels = new Kernels(device, 'thin pull', THIN_WGSL, THIN_ENTRIES, 9, [0, 8]);
    this.ownBodies = !bodies;
    this.bodies = bodies ?? uniformBuffer(device, GUARD_BYTES, 'thin pull: no bodies');
    this.params = uniformBuffer(device, THIN_PARAM_BYTES, 'thin pull parameters');
    this.thin = storageBuffer(device, 16 * THIN_SECTIONS * capacity, 'thin pull: rows, filters and Δv');
    this.rho = storageBuffer(device, 4 * capacity, 'thin pull: ρ/ρ0 by id');
    const L = ctx.liquid, seed = new Float32Array(capacity);
    for (let i = 0; i < capacity; i++) seed[i] = i < L.count ? L.density[i] : 1;
    device.queue.writeBuffer(this.rho, 0, seed);
    const u = new Uint32Array(this.data), f = new Float32Array(this.data), i = new Int32Array(this.data);
    u[1] = grid.table; f[2] = invCell; i[3] = this.reach;
    f[4] = H * H; f[5] = 1 / H; f[6] = ctx.scene.particle.thinPull; f[7] = THIN_FLAT;
    f[8] = THIN_SPARSE; u[9] = capacity; f[10] = THIN_KR;
    u.set(skipBits(this.reach, grid.table), 12);
  }

  private group(grid: GpuNeighbours): GPUBindGroup {
    return this.kernels.bind(this.device, [this.params, grid.pos, grid.vel, grid.id, grid.start, this.thin, this.rho, this.sc, this.bodies]);
  }

  /**
   * Into `pass`: the pull over the `n` slots sorted in `grid` (the parameters' count written now, before the encoder's
   * submit). `allNear`: every slot taken as flagged near a body (the tests' hook; thin-pull-wgsl.ts nextToBody).
   */
  pull(pass: GPUComputePassEncoder, grid: GpuNeighbours, n: number, allNear = false): void {
    if (n < 2) return;
    const u = new Uint32Array(this.data);
    u[0] = n; u[11] = allNear ? 1 : 0;
    this.device.queue.writeBuffer(this.params, 0, this.data);
    const K = this.kernels.pipelines, g = this.group(grid);
    dispatch(pass, K.thinMark, g, n);
    dispatch(pass, K.thinShape, g, n);
    dispatch(pass, K.thinTouch, g, n);
    for (let k = 0; k < THIN_PASSES; k++) {
      dispatch(pass, K.thinLambda, g, n);
      dispatch(pass, K.thinDelta, g, n);
      dispatch(pass, K.thinApply, g, n);
    }
  }

  /** Into `pass`, after density correction: ρ/ρ0 of the `n` slots by particle id. */
  record(pass: GPUComputePassEncoder, grid: GpuNeighbours, n: number): void {
    new Uint32Array(this.data)[0] = n;
    this.device.queue.writeBuffer(this.params, 0, this.data);
    dispatch(pass, this.kernels.pipelines.thinRecord, this.group(grid), n);
  }

  destroy(): void {
    for (const b of [this.params, this.thin, this.rho]) b.destroy();
    if (this.ownBodies) this.bodies.destroy();
  }
}
