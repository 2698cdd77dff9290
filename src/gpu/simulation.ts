/// <reference types="@webgpu/types" />
/**
 * The particle engine's step on WebGPU compute, for up to 8 liquids, mixing or not (liquids.ts,
 * mixing.ts: after the first sort; refuse.ts names what it does not run). Per sub-timestep, in the order of src/particle/step.ts with densitySolver "pbf":
 *   liquid removed in sinks and beyond open faces (sinks.ts: a compaction in the sort, the count
 *     read back) and let in by spouts and late liquid bodies (sources.ts: the host's emitters,
 *     appended into spare capacity; the nozzles held by a kernel after emitting, viscosity and
 *     density correction); moving bodies placed at their pose (moving-objects.ts);
 *   sort into hashed cells (neighbours.ts: Hoetzlein's counting sort, the CPU engine's cell edge);
 *   adhesion between liquid particles (adhesion.ts, Steele et al. 2004 §3.1; adhesion-wgsl.ts): the
 *     liquid pair's entry of the adhesion matrix, the default cohesion included; the same loop sums
 *     the exchange's weights Σk, as adhesion.ts's does;
 *   accelerate once: v += (a + g) δt, a the adhesion (ballistic.ts);
 *   pressure (pressure.ts; pressure-wgsl.ts): DFSPH's constant-density solve on δt v*, warm-started
 *     from the last sub-timestep (not for a particle nearly alone; the run's first solve, cold, to
 *     COLD_TOLERANCE in up to COLD × the passes: encode.ts coldPressure), its displacement turned into
 *     velocity; with particle.pressureAfterViscosity (the default) solved again after viscosity
 *     with AGAIN_SHARE of the passes, the first solve's displacement taken back first (but next to
 *     a body), as step.ts orders it; with the implicit viscosity too, the particle-scale velocity
 *     filter before the take-back (pressure-filter-wgsl.ts, the walls' images included) and the present
 *     compression taken out as a position shift after the second solve (pressure-shift-wgsl.ts), not
 *     as velocity, its pressure added to the stored one where there is one;
 *   viscosity, "implicit" (the default; viscosity-solve.ts, viscosity-wgsl.ts): Weiler et al. 2018's backward-Euler
 *     Laplacian by matrix-free CG, between the two pressure solves, or before the one; or "exchange": Steele et al.
 *     2004 §3.2's pairwise exchange after the first solve, at the CPU's calibrated total per sub-timestep
 *     (calibration.ts exchangePerStep) in Jacobi sweeps of at most JACOBI_FRACTION (a thread per particle cannot
 *     apply pairs in order; each pair's momentum still equal and opposite); then a still wall's net drag on a body
 *     may slow it, never push it (hold.ts);
 *   `moves` moves: translate by v (less ½ (a + g) δt in free flight: the pressure did not move the
 *     particle and no closed wall or object is within reach), then the liquid contacts (liquid-contacts.ts,
 *     Steele et al. 2004 §3.4; one Jacobi sweep: step-wgsl.ts contactGather), out of the objects' particles
 *     (objects.ts: they are in the density measure too, as Akinci et al. 2012 volumes), then the
 *     closed domain faces (boundaries.ts domainWalls: r inside, no velocity into the face,
 *     "noslip" friction), then the signed-distance guard (guard-wgsl.ts; after every density pass too) and the faces
 *     again where it pushed a particle past one, the faces' net push on a body held likewise over both (hold.ts);
 *   sort again, then density correction as position-based fluids (pbf.ts; Macklin & Müller 2013), its passes
 *     relaxed and Chebyshev-accelerated (Wang 2015 §4), the walls as mirror images (pressure-kernels.ts), until the
 *     mean compression is within densityTolerance or densityIterations are spent (judged on the GPU, no read-back
 *     between passes), the displacement less the walls' share becoming velocity; its pressure fed to the warm start as still-water.ts
 *     feedsWarmStart has it (pbf-feed.ts: decided on the GPU where PBF is left with compression).
 * A sub-timestep is split as step.ts splits it (maxMove radii per move, the gel's springs, the
 * pressure's Courant number: pressure-courant.ts; at most MAX_SUBDIVISION pieces), from the largest
 * speed and stored pressures read back once a sub-timestep. Single precision throughout.
 * What differs from the CPU engine besides: refuse.ts methodDifferences. The parameters block each
 * kernel reads (wgsl.ts Params) is filled by params.ts.
 */
import type { StepStats } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { exchangePerStep } from '../particle/calibration.ts';
import { latticeCubicSum } from '../math/kernels.ts';
import { cohesionShare } from '../particle/adhesion-tables.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer } from './device.ts';
import { GpuNeighbours } from './neighbours.ts';
import { STEP_ENTRIES, STEP_WGSL, type StepEntry } from './step-wgsl.ts';
import { PRESSURE_ENTRIES, pressureWgsl, type PressureEntry } from './pressure-wgsl.ts';
import { encodeShift, shiftsPresent } from './pressure-shift-wgsl.ts'; import { shiftPasses } from '../particle/pressure-shift.ts';
import { AGAIN_SHARE, COLD, DEEP_PASSES, PRESSURE_TOLERANCE, stopTolerance } from '../particle/pressure.ts';
import { GpuImplicitViscosity, type ViscosityBuffers, type ViscosityResult } from './viscosity-solve.ts';
import { type Bound, coldPressure, countSolve, encodeDensity, encodePressure } from './encode.ts';
import { ADHESION_ENTRIES, ADHESION_WGSL, type AdhesionEntry } from './adhesion-wgsl.ts';
import { seedW, writeLiquids } from './liquids.ts'; import { GpuMixing } from './mixing.ts';
import { gpuObjects } from './objects.ts';
import { ParamBlock, writeConstants, writeObjectHeader, writeStepParams } from './params.ts';
import { FRICTION_ENTRIES, FRICTION_WGSL, type FrictionEntry } from './friction-wgsl.ts';
import { UnportedSceneError, unportedFeatures } from './refuse.ts';
import { GpuSinks } from './sinks.ts';
import { GUARD_BYTES, GUARD_ENTRIES, GUARD_WGSL, guardBodies, nearTravel, TRAVEL_OFFSET, type GuardEntry } from './guard-wgsl.ts';
import { MovingObjects } from './moving-objects.ts';
import { readParticles, type GpuParticles } from './read-back.ts';
import { GpuSources } from './sources.ts';
import { GpuGel } from './gel.ts';
import { GpuFreeBodies } from './free-bodies.ts'; import { GpuWallHold, type HoldSums } from './hold.ts'; import { pbfError, pbfStats, STAGE_BYTES, STATS_BYTES } from './pbf-feed.ts';
import type { StepContext } from '../particle/context.ts';
import { LiquidFilter, pressurePieces, readMaxima, type SlotMaxima } from './pressure-courant.ts'; import { feedsWarmStart, stillWaterOf } from '../particle/still-water.ts';

export type { GpuParticles } from './read-back.ts'; export { UnportedSceneError } from './refuse.ts';

/** Largest exchange fraction one Jacobi sweep moves (its iteration is stable below 1; see the header). */
export const JACOBI_FRACTION = 0.5;
/** Most pieces a sub-timestep is split into (step.ts MAX_SUBDIVISION). */
const MAX_SUBDIVISION = 64;

export class GpuParticleSimulation {
  /** Liquid particles now (sinks.ts removes them, sources.ts lets them in). */ count: number;
  /** Slots the liquid may fill. */ readonly capacity: number;
  frame = 0; time = 0; /** PBF's last mean compression (StepContext.densityError), read at a frame's end: pbf-feed.ts. */ densityError: number;
  private readonly grid: GpuNeighbours;
  private readonly kernels: Kernels<StepEntry>;
  private readonly pressure: Kernels<PressureEntry>;
  private readonly adhesion: Kernels<AdhesionEntry>;
  /** The surface test and the objects' share of the exchange (friction-wgsl.ts); null without objects. */
  private readonly friction: Kernels<FrictionEntry> | null;
  /** particle.viscositySolver "implicit" (viscosity-solve.ts; its warm start read for checkpoints: mirror.ts); null for the exchange. */
  readonly viscosity: GpuImplicitViscosity | null;
  /** The surface test for `read(true)`: the friction kernels, or their module made for it alone. */ private surfaceKernels: Kernels<FrictionEntry> | null = null;
  /** The liquids' fractions mixing (mixing.ts; read for the host copy: mirror.ts); null where they do not mix. */ readonly mixing: GpuMixing | null;
  /** Removal of liquid in sinks and beyond open faces (sinks.ts); null where the scene has none. */ private readonly sinks: GpuSinks | null;
  /** The signed-distance guard, the near flag (guard-wgsl.ts), its bodies' uniform; null without a solid body. `guarded`: a body has a formula (a mesh has no distance on the GPU). */
  private readonly guard: { kernels: Kernels<GuardEntry>; bodies: GPUBuffer; guarded: boolean } | null;
  /** The sub-timestep's travel for the near flag (guard-wgsl.ts nearTravel). */ private readonly travel = new Float32Array(4);
  /** Moving bodies (moving-objects.ts), placed by the host every sub-timestep; null where every body is still. */
  private readonly moving: MovingObjects | null;
  /** The particle engine's context the run was seeded from: its ObjectParticles move the bodies, its FreeBodies integrate the free ones, its liquid takes the sources' new particles first. */
  readonly host: StepContext;
  /** Free rigid bodies (free-bodies.ts: the liquid's share summed on the GPU, the bodies integrated on the host); null where none. */ private readonly free: GpuFreeBodies | null;
  /** Spouts and liquid bodies still to come (sources.ts); null where the scene lets no liquid in. */ private readonly sources: GpuSources | null;
  /** The springs of a gel liquid (gel.ts); null where the liquid is not a gel. */ readonly gel: GpuGel | null;
  /** The static no-slip walls' holds on the liquid's bodies (hold.ts); null where the domain has no closed no-slip face. */ readonly hold: GpuWallHold | null;
  /** The id (GpuParticles.id) the next particle let in takes: the seeding liquid's count, then on. */
  private nextId: number;
  /** The pressure stage has run once (its later solves start from the last pressure: pressure.ts COLD). */ private warm = false;
  /** The ids the slot scalars (sc) were measured in, once `read(true)` has sorted the slots since the last step; else null. */ private measured: GPUBuffer | null = null;
  private readonly params: GPUBuffer; private readonly sc: GPUBuffer; private readonly dx: GPUBuffer;
  private readonly keep: GPUBuffer; private readonly wall: GPUBuffer; private readonly stats: GPUBuffer;
  private readonly r: number; private readonly rate: number;
  /** The parameters block (wgsl.ts Params) and its views (params.ts), made once. */ private readonly block = new ParamBlock();
  private readonly paramData = this.block.data;
  /** Each liquid's particle-scale filter strength, written a sub-timestep (pressure-courant.ts). */
  private readonly filter: LiquidFilter;
  /** The last sub-timestep's (its `still` the run's state, seeded from and copied to the host's: mirror.ts). */ readonly maxima: SlotMaxima = { speed: 0, pressure: 0, filtered: 0, still: false };

  /**
   * Seeds the liquid as the CPU particle engine does at frame 0, or from `from` (a particle
   * simulation restored from a checkpoint: its liquid, frame and time). Refuses a scene with
   * unported features (UnportedSceneError). For A/B: `options.wallHolds: false` without the static walls' holds
   * (hold.ts); `holdSums` how they sum their slots (HoldSums, the same bits); `stableSort: false` neighbours.ts's stable false.
   */
  constructor(private readonly device: GPUDevice, readonly scene: Scene, from?: ParticleSimulation, options: { wallHolds?: boolean; holdSums?: HoldSums; stableSort?: boolean } = {}) {
    const unported = unportedFeatures(scene);
    if (unported.length > 0) throw new UnportedSceneError(unported);
    const cpu = from ?? new ParticleSimulation(scene);
    const ctx = cpu.ctx, L = ctx.liquid, n = L.count;
    this.frame = ctx.frame;
    this.time = ctx.time; this.densityError = ctx.densityError;
    this.count = n;
    this.nextId = n;
    this.host = ctx; this.maxima.still = stillWaterOf(ctx);
    this.sources = GpuSources.of(device, scene, ctx, cpu.emitters.state());
    this.capacity = n + (this.sources?.spare ?? 0);
    this.r = ctx.r;
    let m = 0;
    while (m < ctx.isLiquid.length && !ctx.isLiquid[m]) m++;
    this.viscosity = scene.particle.viscositySolver === 'implicit' ? new GpuImplicitViscosity(device, scene, cpu, m, this.capacity) : null;
    this.rate = this.viscosity ? 0 : ctx.exchangeRate[m] ?? 0;
    this.gel = GpuGel.of(device, ctx, m, this.capacity);
    this.hold = options.wallHolds === false ? null : GpuWallHold.of(device, scene, this.capacity, options.holdSums);
    this.mixing = GpuMixing.of(device, ctx, this.capacity);
    const objects = gpuObjects(ctx, ctx.reach, latticeCubicSum(2 * this.r, ctx.densityH), m);
    const W = objects.wide;
    this.grid = new GpuNeighbours(device, n, ctx.reach, objects.count + W.count, objects.table + W.table + 2, this.capacity, { stable: options.stableSort !== false, tableFor: L.nextId + (this.sources?.spare ?? 0) });
    // The pressure's warm start (p/δt² in vel.w: pressure-wgsl.ts) where the seeding simulation has one (a checkpoint).
    this.grid.upload(L.pos.subarray(0, 3 * n), L.vel.subarray(0, 3 * n), L.lambda.subarray(0, n), seedW(scene, L.material, n, L.density, cohesionShare(scene.particle, this.r, ctx.densityH)));
    if (objects.count > 0) {
      const cat = <T extends Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(a: T, b: T): T => { const c = new (a.constructor as new (k: number) => T)(a.length + b.length); c.set(a); c.set(b, a.length); return c; };
      this.grid.uploadStatic(cat(objects.pos4, W.pos4), cat(objects.normal4, new Float32Array(W.pos4.length)), cat(objects.starts, W.starts));
    }
    this.kernels = new Kernels(device, 'particle step', STEP_WGSL, STEP_ENTRIES, 9, 0);
    this.pressure = new Kernels(device, 'pressure', pressureWgsl(scene.particle), PRESSURE_ENTRIES, 9, 0);
    this.adhesion = new Kernels(device, 'adhesion', ADHESION_WGSL, ADHESION_ENTRIES, 9, 0);
    this.friction = objects.count > 0 ? new Kernels(device, 'friction', FRICTION_WGSL, FRICTION_ENTRIES, 9, 0) : null;
    this.sinks = GpuSinks.of(device, scene, ctx.reach);
    this.moving = objects.count > 0 && ctx.objects.anyMoving ? new MovingObjects(ctx, objects) : null;
    const bodies = guardBodies(ctx);
    if (bodies) {
      const buffer = uniformBuffer(device, GUARD_BYTES, 'guarded bodies');
      device.queue.writeBuffer(buffer, 0, bodies);
      this.guard = { kernels: new Kernels(device, 'guard', GUARD_WGSL, GUARD_ENTRIES, 10, [0, 9]), bodies: buffer, guarded: new Uint32Array(bodies)[0] > 0 };
    } else this.guard = null;
    this.params = uniformBuffer(device, this.paramData.byteLength, 'step parameters');
    const cap = this.capacity;
    this.sc = storageBuffer(device, 16 * cap, 'slot scalars');
    this.dx = storageBuffer(device, 16 * cap, 'dx');
    this.free = ctx.freeBodies ? new GpuFreeBodies(device, ctx, m, cap, this.viscosity?.freeShare().base ?? null) : null;
    this.keep = storageBuffer(device, (this.free ? 64 : 48) * cap, 'x0, fix, body acceleration and free bodies');
    // Past the liquid's slots: the object particles' velocities (objects.ts objectVel; zero while still).
    this.wall = storageBuffer(device, 16 * (cap + objects.count + W.count), 'walls and object velocities');
    this.stats = pbfStats(device, ctx); // pbf-feed.ts: PBF's last compression seeded in its word
    writeConstants(this.paramData, scene, { r: this.r, h: ctx.densityH, hv: ctx.kernelSupport[m], cell: ctx.reach, count: n, table: this.grid.table, capacity: this.capacity, clearance: ctx.wallClearance, restSpacing: ctx.restSpacing, cohesion: cohesionShare(scene.particle, this.r, ctx.densityH) });
    writeLiquids(this.paramData, ctx);
    writeObjectHeader(this.paramData, scene, ctx, objects, this.free?.count ?? 0);
    this.filter = new LiquidFilter(scene, this.r, this.paramData);
  }

  /** Returns the particle-scale filter's strength (params.ts). */
  private writeStep(dt: number, frac: number, pressurePasses: number, A: number, cold = false, tolerance = PRESSURE_TOLERANCE): number {
    const filter = writeStepParams(this.block, this.scene, dt, frac, pressurePasses, A, this.filter, cold, tolerance, feedsWarmStart(this.maxima.still));
    this.device.queue.writeBuffer(this.params, 0, this.paramData);
    return filter;
  }

  private group(kernels: Kernels<string> = this.kernels): GPUBindGroup {
    const g = this.grid;
    const buffers = [this.params, g.pos, g.vel, this.sc, this.dx, this.keep, this.wall, g.start, this.stats];
    if (this.guard && kernels === this.guard.kernels) buffers.push(this.guard.bodies);
    return kernels.bind(this.device, buffers);
  }

  /**
   * Removes the liquid in active sinks and beyond draining open faces at the start of the
   * sub-timestep [t, t + dt) (sinks.ts), and takes the count kept. Returns how many were removed.
   */
  private async removeLiquid(t: number, dt: number): Promise<number> {
    const kept = (await this.sinks?.remove(this.grid, t, dt, this.count)) ?? this.count, removed = this.count - kept;
    if (removed !== 0) {
      this.count = kept;
      this.grid.setCount(kept);
      this.block.u[0] = kept;
      this.device.queue.writeBuffer(this.params, 0, this.paramData);
    }
    return removed;
  }

  /** The sources' emitter state (sources.ts), or null where the scene lets no liquid in. */
  emitterState(): Float64Array | null {
    return this.sources?.state() ?? null;
  }

  private bound<E extends string>(kernels: Kernels<E>): Bound<E>;
  private bound(): Bound<StepEntry>;
  private bound(kernels: Kernels<string> = this.kernels): Bound<string> {
    return { pipelines: kernels.pipelines, group: this.group(kernels) };
  }

  /**
   * The largest particle speed, m/s, and stored pressures p/ρ0 (pressure-courant.ts SlotMaxima),
   * read back; the filter's strengths at the unsplit sub-timestep dt (pressure.ts pressurePieces) written first.
   */
  async slotMaxima(dt: number): Promise<SlotMaxima> {
    if (this.filter.present) {
      this.filter.write(dt);
      this.device.queue.writeBuffer(this.params, 0, this.paramData);
    }
    const enc = this.device.createCommandEncoder();
    enc.clearBuffer(this.stats, 0, STAGE_BYTES);
    const pass = enc.beginComputePass();
    dispatch(pass, this.kernels.pipelines.speed, this.group(), this.count);
    pass.end();
    this.device.queue.submit([enc.finish()]);
    return readMaxima(this.maxima, new Float32Array(await readBuffer(this.device, this.stats, 16)), this.filter.largest > 0);
  }

  /** One frame: `particle.substeps` sub-timesteps, each split as step.ts splits it. */
  async stepFrame(): Promise<StepStats> {
    const wall0 = performance.now(), s = this.scene, P = s.particle;
    const dtSub = 1 / (s.fps * P.substeps), g = Math.hypot(...s.gravity);
    const counters: Record<string, number> = { particles: this.count, substeps: 0, subdivisions: 0 }; this.measured = null;
    for (let k = 0; k < P.substeps; k++) {
      const removed = await this.removeLiquid((this.frame + k / P.substeps) / s.fps, dtSub);
      if (removed > 0) counters.removed = (counters.removed ?? 0) + removed;
      const maxima = await this.slotMaxima(dtSub), speed = maxima.speed;
      if (!(speed <= P.maxSpeed)) throw new Error(`a particle reached ${speed.toPrecision(3)} m/s, past particle.maxSpeed ${P.maxSpeed} m/s (frame ${this.frame})`);
      const move = ((speed + g * dtSub) * dtSub) / P.moves;
      const pieces = Math.min(MAX_SUBDIVISION, Math.max(1, Math.ceil(move / (P.maxMove * this.r)), this.gel?.pieces(dtSub, P.moves) ?? 1, pressurePieces(s, this.r, dtSub, maxima, this.host.restSpacing)));
      counters.subdivisions += pieces - 1;
      for (let q = 0; q < pieces; q++) {
        const emitted = await this.substep((this.frame + (k + q / pieces) / P.substeps) / s.fps, dtSub / pieces, k === 0 && q === 0, counters);
        if (emitted > 0) counters.emitted = (counters.emitted ?? 0) + emitted;
      }
      counters.substeps += pieces;
    }
    const words = await readBuffer(this.device, this.stats, STATS_BYTES), st = new Uint32Array(words); this.densityError = pbfError(words);
    counters.densityPassesLastSubstep = st[3];
    if (this.hold) Object.assign(counters, await this.hold.counts());
    if (counters.viscositySolves) counters.viscosityIterationsPerSolve = counters.viscosityIterations / counters.viscositySolves;
    counters.particles = this.count;
    this.frame++;
    this.time = this.frame / s.fps;
    return { frame: this.frame, time: this.time, wallMs: performance.now() - wall0, stages: { gpu: performance.now() - wall0 }, counters };
  }

  /**
   * The sub-timestep [t, t + dt); `first`: the frame's first, which runs the surface test (step.ts
   * markSurface). With the implicit viscosity the pressure is solved before it and again after it
   * (pressureAfterViscosity), or once after it; with the exchange once before it, or before and
   * after it (step.ts). Returns the particles let in.
   */
  private async substep(t: number, dt: number, first: boolean, counters: Record<string, number>): Promise<number> {
    const P = this.scene.particle, K = this.kernels.pipelines, d = this.device;
    const added = this.sources ? this.sources.emit(this.grid, t, dt, this.nextId) : 0;
    if (added > 0) {
      this.nextId += added;
      this.count += added;
      this.block.u[0] = this.count;
    }
    if (this.moving) {
      const o = this.moving.place(t, t + dt);
      this.grid.uploadStatic(o.pos4, o.normal4, o.starts);
      d.queue.writeBuffer(this.wall, 16 * this.capacity, o.vel4);
      const bodies = this.guard ? guardBodies(this.host, dt) : null;
      if (this.guard && bodies) d.queue.writeBuffer(this.guard.bodies, 0, bodies);
    }
    const G = this.guard;
    if (G) d.queue.writeBuffer(G.bodies, TRAVEL_OFFSET, nearTravel(this.host, dt, this.travel));
    const A = this.rate > 0 ? exchangePerStep(this.rate, dt) : 0;
    const sweeps = A > 0 ? Math.ceil(A / JACOBI_FRACTION) : 0;
    // The run's first solve: COLD times the passes, to COLD_TOLERANCE; deeper water-like liquid near rest: a smaller residual with DEEP_PASSES times the passes (pressure.ts depthTolerance, still-water.ts).
    const cold = !this.warm && this.frame === 0, tolerance = this.maxima.still ? stopTolerance(Math.hypot(...this.scene.gravity), dt, this.maxima.filtered) : PRESSURE_TOLERANCE;
    const deep = !cold && tolerance < PRESSURE_TOLERANCE ? DEEP_PASSES : 1, pressurePasses = P.pressureIterations * (cold ? COLD : deep);
    const filter = this.writeStep(dt, sweeps > 0 ? A / sweeps : 0, pressurePasses, A, cold, tolerance);
    const n = this.count, Src = this.sources;
    let enc = d.createCommandEncoder();
    this.free?.begin(enc, n);
    this.grid.build(enc);
    if (G) {
      // The liquid near a body (step.ts markNearObjects after the sort): the largest speed first, for the travel.
      enc.clearBuffer(this.stats, 0, STAGE_BYTES);
      const near = enc.beginComputePass();
      dispatch(near, K.speed, this.group(), n);
      dispatch(near, G.kernels.pipelines.markNear, this.group(G.kernels), n);
      near.end();
    }
    if (this.mixing) enc = await this.mixing.run(enc, this.viscosityBuffers(), n, dt, counters);
    let group = this.group();
    let pass = enc.beginComputePass();
    this.hold?.bodies(pass, this.params, this.grid, this.wall, this.dx, n);
    const twice = P.pressureAfterViscosity && pressurePasses > 0;
    this.gel?.relist(pass, this.params, this.grid, this.wall, n, dt / P.moves);
    Src?.hold(pass, this.grid, t);
    dispatch(pass, this.adhesion.pipelines.adhesion, this.group(this.adhesion), n);
    const F = this.friction, fg = F ? this.group(F) : null;
    // The surface test on a frame's first sub-timestep, and for liquid just let in (step.ts).
    if (F && fg && (first || added > 0)) {
      dispatch(pass, F.pipelines.surfaceNormal, fg, n);
      dispatch(pass, F.pipelines.surfaceFlag, fg, n);
    }
    dispatch(pass, K.accelerate, group, n);
    // The implicit solve reads back its stop flag: the pass and the encoder end there, and go on after it.
    const implicit = async (): Promise<void> => {
      pass.end();
      countSolve(counters, await this.viscosity!.solve(enc, this.viscosityBuffers(), dt, this.count, this.hold));
      enc = d.createCommandEncoder();
      pass = enc.beginComputePass();
      this.free?.reduce(pass, this.grid.pos, this.viscosity!.freeShare().buffer, n, true);
    };
    if (this.viscosity && !twice) await implicit();
    if (pressurePasses > 0 && cold) ({ enc, pass } = await coldPressure(d, enc, pass, this.bound(), this.bound(this.pressure), n, pressurePasses, P.pressureIterations, this.stats));
    else if (pressurePasses > 0) encodePressure(pass, this.bound(), this.bound(this.pressure), n, pressurePasses, false);
    if (pressurePasses > 0 && n > 0) this.warm = true; // pressure.ts: a solve with no liquid leaves the run cold
    for (let w = 0; w < sweeps; w++) {
      dispatch(pass, K.exchangeGather, group, n);
      dispatch(pass, K.exchangeApply, group, n);
    }
    if (F && fg && sweeps > 0) dispatch(pass, F.pipelines.objectViscosity, fg, n);
    if (this.viscosity && twice) await implicit();
    // The second solve is warm (pressure.ts COLD: the first one of the run alone may take more passes), AGAIN_SHARE of them;
    // with the shift, the filter before it and the shift after it, once free flight is decided (pressure.ts).
    const shift = twice && shiftsPresent(P);
    if (twice) encodePressure(pass, this.bound(), this.bound(this.pressure), n, Math.ceil(P.pressureIterations * AGAIN_SHARE) * deep, true, shift && filter > 0);
    dispatch(pass, K.freeFlight, group, n);
    if (shift) encodeShift(pass, this.pressure.pipelines, this.group(this.pressure), n, shiftPasses(this.maxima.still, filter > 0));
    Src?.hold(pass, this.grid, t);
    const gg = G?.guarded ? this.group(G.kernels) : null;
    for (let m = 0; m < P.moves; m++) {
      this.gel?.move(pass, this.params, this.grid, this.wall, n);
      dispatch(pass, K.translate, group, n);
      dispatch(pass, K.contactGather, group, n);
      dispatch(pass, K.collide, group, n);
      // The guard's second clamp adds its friction to collide's in dx: the hold after both (guard-wgsl.ts guardMove).
      if (G && gg) dispatch(pass, G.kernels.pipelines.guardMove, gg, n);
      this.hold?.friction(pass, this.params, this.grid, this.wall, this.dx, n);
    }
    // The free bodies' share so far, before the sort reorders the slots.
    this.free?.reduce(pass, this.grid.pos, this.keep, n);
    pass.end();
    this.grid.build(enc);
    pass = enc.beginComputePass();
    encodeDensity(pass, { pipelines: K, group: this.group() }, G && gg ? { pipelines: G.kernels.pipelines, group: gg } : null, n, P.densityIterations);
    this.viscosity?.recordDensity(pass, this.viscosityBuffers(), n);
    Src?.hold(pass, this.grid, t);
    this.free?.reduce(pass, this.grid.pos, this.keep, n);
    pass.end();
    d.queue.submit([enc.finish()]);
    await this.free?.end(dt);
    return added;
  }

  private viscosityBuffers(): ViscosityBuffers {
    return { params: this.params, pos: this.grid.pos, vel: this.grid.vel, id: this.grid.id, wall: this.wall, start: this.grid.start, sc: this.sc };
  }

  /**
   * One implicit viscosity solve of length dt alone, at the present positions and velocities (sorted
   * first): for checks against the CPU engine's (viscosity-weiler.ts); `read` gives the result.
   */
  async implicitViscosity(dt: number): Promise<ViscosityResult> {
    if (!this.viscosity) throw new Error('the scene runs the exchange, not the implicit viscosity');
    this.writeStep(dt, 0, 0, 0);
    // Moving and free bodies placed over [t, t + dt] as a sub-timestep places them (their slots' velocities and free bodies: viscFree).
    if (this.moving) {
      const o = this.moving.place(this.time, this.time + dt);
      this.grid.uploadStatic(o.pos4, o.normal4, o.starts);
      this.device.queue.writeBuffer(this.wall, 16 * this.capacity, o.vel4);
    }
    const enc = this.device.createCommandEncoder();
    this.grid.build(enc);
    this.hold?.bodiesAlone(enc, this.params, this.grid, this.wall, this.dx, this.count);
    return this.viscosity.solve(enc, this.viscosityBuffers(), dt, this.count, this.hold);
  }

  /**
   * The adhesion acceleration of every particle at its present position (m/s², xyz per slot):
   * sorts, runs the adhesion kernel alone and reads it back, in the slot order `read` gives next.
   * For checks against the CPU engine (adhesion.ts); the state's velocities are not touched.
   */
  async adhesionAccelerations(): Promise<Float32Array> {
    const n = this.count, d = this.device;
    d.queue.writeBuffer(this.params, 0, this.paramData);
    const enc = d.createCommandEncoder();
    this.grid.build(enc);
    const pass = enc.beginComputePass();
    dispatch(pass, this.adhesion.pipelines.adhesion, this.group(this.adhesion), n);
    pass.end();
    d.queue.submit([enc.finish()]);
    const a4 = new Float32Array(await readBuffer(d, this.keep, 48 * n), 32 * n, 4 * n);
    const acc = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) acc[3 * i + k] = a4[4 * i + k];
    return acc;
  }

  /**
   * The particles as they are now (read back). `surface`: sorted once more and with the surface
   * test run at these positions (friction-wgsl.ts; the flag in pos.w, the normal in dx), as the
   * host copy's per-particle flags and normals (mirror.ts), once a frame; ρ/ρ0 then by id (read-back.ts scId).
   */
  async read(surface = false): Promise<GpuParticles> {
    const n = this.count, d = this.device;
    if (surface && !this.measured) {
      const S = (this.surfaceKernels ??= this.friction ?? new Kernels(d, 'surface', FRICTION_WGSL, FRICTION_ENTRIES, 9, 0));
      const enc = d.createCommandEncoder();
      this.measured = this.grid.id;
      this.grid.build(enc);
      const g = this.group(S), pass = enc.beginComputePass();
      dispatch(pass, S.pipelines.surfaceNormal, g, n);
      dispatch(pass, S.pipelines.surfaceFlag, g, n);
      pass.end();
      d.queue.submit([enc.finish()]);
    }
    const g = this.grid;
    return readParticles(d, { pos: g.pos, vel: g.vel, id: g.id, sc: this.sc, dx: surface ? this.dx : null, scId: this.measured ?? undefined }, n);
  }

  destroy(): void {
    this.grid.destroy();
    for (const b of [this.params, this.sc, this.dx, this.keep, this.wall, this.stats]) b.destroy();
    for (const part of [this.viscosity, this.gel, this.sinks, this.sources, this.free, this.mixing, this.hold]) part?.destroy();
    this.guard?.bodies.destroy();
  }
}
