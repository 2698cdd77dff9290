/// <reference types="@webgpu/types" />
/**
 * The static-wall holds on the GPU, as the CPU engine holds a body on a still no-slip wall
 * (src/particle/body-hold.ts): a wall's net push on a body may slow its motion along the wall and
 * its turn about the axis across it, and stop them, but not drive or reverse them (Bender,
 * Kugelstadt, Weiler & Koschier 2019, §4). Two holds, as the CPU's:
 *   - the implicit viscosity's walls (src/particle/viscosity-weiler-wall-hold.ts), after each solve:
 *     viscosity-wgsl.ts viscHoldShare leaves each slot's change that the objects did not make and
 *     its velocity before the solve in the solve's own vectors, and the hold is taken back from
 *     the solution before it becomes the velocity (viscosity-solve.ts);
 *   - the moves' face friction (src/particle/wall-friction-hold.ts), after each move's collide
 *     (step-wgsl.ts): the friction's change and the faces a slot is against in `dx`.
 * The bodies are found once a sub-timestep after the sort (`label`), each body's sums are 64-bit
 * fixed-point integer atomics at its root slot (on a GPU a workgroup's slots of one body summed in
 * workgroup memory first: defaultSums), and one thread a body projects them (hold-wgsl.ts says how). Where the domain has no closed "noslip" face, no hold runs (`of`).
 */
import type { Scene } from '../scene/scene.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer } from './device.ts';
import type { GpuNeighbours } from './neighbours.ts';
import { BODY_WORDS, HOLD_COUNTS, HOLD_ENTRIES, HOLD_RUN, HOLD_WGSL, NONE, type HoldEntry } from './hold-wgsl.ts';

/** How a hold sums its slots into their bodies' words (hold-wgsl.ts): a workgroup's first, a thread's run of HOLD_RUN slots first, or each slot straight. */
export type HoldSums = 'group' | 'run' | 'direct';

/** Where a hold reads a slot's change and flags, its velocity before and weight, and takes the hold back (hold-wgsl.ts Hold). */
export interface HoldSource {
  /** The buffer (dx, or the viscosity's vectors) and the first vec4 of each section in it. */
  share: GPUBuffer;
  change: number;
  /** NONE: vel less the change, and the mass. */
  before: number;
  /** NONE: vel. */
  target: number;
}

/**
 * The sums' way on `device`: 'group' on a GPU, where the atomics of a body's slots on its 38 words
 * serialize; 'direct' on a CPU adapter (SwiftShader: isFallbackAdapter), whose threads add on a cache
 * line without that wait and where a workgroup barrier is the slow path: there the workgroup's sums
 * took 2.3–2.4 times the direct sums' CPU time on a body of 100 000 particles (bench/gpu-hold-sums.ts;
 * docs/decisions.md, "The WebGPU hold's leftovers"). The same bits either way.
 */
export function defaultSums(device: GPUDevice): HoldSums {
  const info = (device as GPUDevice & { adapterInfo?: { isFallbackAdapter?: boolean; architecture?: string } }).adapterInfo;
  return info?.isFallbackAdapter === true || info?.architecture === 'swiftshader' ? 'direct' : 'group';
}

/** The label word past the capacity that counts each hold's bodies held (hold-wgsl.ts HOLD_COUNTS). */
export const SOLVE_COUNT = 0, FRICTION_COUNT = 1;

export class GpuWallHold {
  private readonly kernels: Kernels<HoldEntry>;
  private readonly label: GPUBuffer;
  private readonly sums: GPUBuffer;
  private readonly uniforms = new Map<string, GPUBuffer>();

  /** The holds of `scene`, or null where its domain has no closed "noslip" face (or particle.walls is off). */
  static of(device: GPUDevice, scene: Scene, capacity: number, sums: HoldSums = defaultSums(device)): GpuWallHold | null {
    const d = scene.domain;
    if (!d || !scene.particle.walls) return null;
    const faces = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'] as const;
    if (!faces.some((f) => (d.faces[f] ?? d.boundary) === 'noslip')) return null;
    return new GpuWallHold(device, capacity, sums);
  }

  /** `mode`: how the slots' terms reach their bodies' words (HoldSums; the same bits in every mode). */
  private constructor(private readonly device: GPUDevice, private readonly capacity: number, private readonly mode: HoldSums) {
    this.kernels = new Kernels(device, 'wall holds', HOLD_WGSL, HOLD_ENTRIES, 9, [0, 8]);
    this.label = storageBuffer(device, 4 * (capacity + HOLD_COUNTS), 'wall holds: bodies');
    this.sums = storageBuffer(device, 4 * BODY_WORDS * capacity, 'wall holds: sums');
  }

  private group(params: GPUBuffer, pos: GPUBuffer, vel: GPUBuffer, wall: GPUBuffer, start: GPUBuffer, src: HoldSource, count: number): GPUBindGroup {
    const key = `${src.change},${src.before},${src.target},${count}`;
    let u = this.uniforms.get(key);
    if (!u) {
      u = uniformBuffer(this.device, 16, 'wall hold');
      this.device.queue.writeBuffer(u, 0, new Uint32Array([src.change, src.before, src.target, count]));
      this.uniforms.set(key, u);
    }
    return this.kernels.bind(this.device, [params, pos, vel, src.share, this.label, this.sums, wall, start, u]);
  }

  /** The bodies of the `n` sorted slots (after the sort; kept until the next one); `scratch`: any buffer other than the grid's (bound, not read). */
  bodies(pass: GPUComputePassEncoder, params: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer, scratch: GPUBuffer, n: number): void {
    const K = this.kernels.pipelines, g = this.group(params, grid.pos, grid.vel, wall, grid.start, { share: scratch, change: 0, before: NONE, target: NONE }, 2);
    dispatch(pass, K.labelInit, g, n);
    dispatch(pass, K.labelHook, g, n);
    dispatch(pass, K.labelRoot, g, n);
  }

  /** The bodies (bodies) in a pass of their own in `enc`. */
  bodiesAlone(enc: GPUCommandEncoder, params: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer, scratch: GPUBuffer, n: number): void {
    const pass = enc.beginComputePass();
    this.bodies(pass, params, grid, wall, scratch, n);
    pass.end();
  }

  /** The face friction's hold after a move's collide (step-wgsl.ts), which leaves each slot's friction and faces in `dx`. */
  friction(pass: GPUComputePassEncoder, params: GPUBuffer, grid: GpuNeighbours, wall: GPUBuffer, dx: GPUBuffer, n: number): void {
    this.hold(pass, params, grid.pos, grid.vel, wall, grid.start, { share: dx, change: 0, before: NONE, target: NONE }, n, FRICTION_COUNT);
  }

  /** One hold over the `n` slots: the bodies' sums from `src`, their projection, and the hold taken back; `count`: SOLVE_COUNT or FRICTION_COUNT. */
  hold(pass: GPUComputePassEncoder, params: GPUBuffer, pos: GPUBuffer, vel: GPUBuffer, wall: GPUBuffer, start: GPUBuffer, src: HoldSource, n: number, count: number): void {
    const K = this.kernels.pipelines, g = this.group(params, pos, vel, wall, start, src, count);
    dispatch(pass, K.holdClear, g, n);
    const m = this.mode;
    if (m === 'run') {
      dispatch(pass, K.holdFlagsRun, g, Math.ceil(n / HOLD_RUN));
      dispatch(pass, K.holdSumRun, g, Math.ceil(n / HOLD_RUN));
    } else {
      dispatch(pass, m === 'group' ? K.holdFlags : K.holdFlagsDirect, g, n);
      dispatch(pass, m === 'group' ? K.holdSum : K.holdSumDirect, g, n);
    }
    dispatch(pass, K.holdProject, g, n);
    dispatch(pass, K.holdApply, g, n);
  }

  /** Each of the `n` slots' body as its root slot, read back (the last `bodies`: for checks against the CPU's, liquid-bodies.ts). */
  async labels(n: number): Promise<Uint32Array> {
    return new Uint32Array(await readBuffer(this.device, this.label, 4 * n));
  }

  /** The bodies each hold has held since the last call (a body once a solve or a move), read back and cleared. */
  async counts(): Promise<{ wallHolds: number; frictionHolds: number }> {
    const c = new Uint32Array(await readBuffer(this.device, this.label, 4 * HOLD_COUNTS, 4 * this.capacity));
    const enc = this.device.createCommandEncoder();
    enc.clearBuffer(this.label, 4 * this.capacity, 4 * HOLD_COUNTS);
    this.device.queue.submit([enc.finish()]);
    return { wallHolds: c[SOLVE_COUNT], frictionHolds: c[FRICTION_COUNT] };
  }

  destroy(): void {
    this.label.destroy();
    this.sums.destroy();
    for (const u of this.uniforms.values()) u.destroy();
  }
}
