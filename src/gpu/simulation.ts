/// <reference types="@webgpu/types" />
/**
 * The particle engine's step on WebGPU compute, for up to 8 liquids, mixing or not (liquids.ts,
 * mixing.ts: after the first sort; refuse.ts names what it does not run): the run's state and buffers,
 * seeded from the CPU engine, its frames and their sub-timesteps, and the read-backs for checks.
 * Per sub-timestep, in the order of src/particle/step.ts with densitySolver "pbf": liquid removed in
 * sinks (removeLiquid here), then substep.ts runSubstep (its header lists the stages and their papers).
 * A sub-timestep is split as step.ts splits it (maxMove radii per move, the gel's springs, the
 * pressure's Courant number: pressure-courant.ts; at most MAX_SUBDIVISION pieces), from the largest
 * speed and stored pressures read back once a sub-timestep. Single precision throughout.
 * What differs from the CPU engine besides: refuse.ts methodDifferences. The parameters block each
 * kernel reads (wgsl.ts Params) is filled by params.ts.
 */
import { type Gate, GATES, makeGate, STATS_STOP_WORD } from './gate.ts';
import type { StepStats } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { ParticleSimulation } from '../particle/simulation.ts';
import { latticeCubicSum } from '../math/kernels.ts';
import { cohesionShare } from '../particle/adhesion-tables.ts';
import { PRESSURE_TOLERANCE } from '../particle/pressure.ts';
import type { StepContext } from '../particle/context.ts';
import { feedsWarmStart, stillWaterOf } from '../particle/still-water.ts';
import { dispatch, Kernels, readBuffer, storageBuffer, uniformBuffer } from './device.ts';
import { GpuNeighbours } from './neighbours.ts';
import { STEP_ENTRIES, STEP_WGSL, type StepEntry } from './step-wgsl.ts';
import { PRESSURE_ENTRIES, PRESSURE_WGSL, type PressureEntry } from './pressure-wgsl.ts';
import { GpuImplicitViscosity, type ViscosityBuffers, type ViscosityResult } from './viscosity-solve.ts';
import type { Bound } from './encode.ts';
import { ADHESION_ENTRIES, ADHESION_WGSL, type AdhesionEntry } from './adhesion-wgsl.ts';
import { liquidMassesDiffer, seedW, writeLiquids } from './liquids.ts';
import { GpuMixing } from './mixing.ts';
import { gpuObjects } from './objects.ts';
import { ParamBlock, writeConstants, writeObjectHeader, writeStepParams } from './params.ts';
import { FRICTION_ENTRIES, FRICTION_WGSL, type FrictionEntry } from './friction-wgsl.ts';
import { UnportedSceneError, unportedFeatures } from './refuse.ts';
import { GpuSinks } from './sinks.ts';
import { GUARD_BYTES, GUARD_ENTRIES, GUARD_WGSL, guardBodies, type GuardEntry } from './guard-wgsl.ts';
import { MovingObjects } from './moving-objects.ts';
import { readParticles, type GpuParticles } from './read-back.ts';
import { GpuSources } from './sources.ts';
import { GpuGel } from './gel.ts';
import { GpuThinPull } from './thin-pull.ts';
import { GpuFreeBodies } from './free-bodies.ts';
import { GpuWallHold, type HoldSums } from './hold.ts';
import { pbfError, pbfStats, STAGE_BYTES, STATS_BYTES } from './pbf-feed.ts';
import { LiquidFilter, pressurePieces, readMaxima, type SlotMaxima } from './pressure-courant.ts';
import { runSubstep, type SubstepState } from './substep.ts';

export type { GpuParticles } from './read-back.ts';
export { UnportedSceneError } from './refuse.ts';
export { JACOBI_FRACTION } from './substep.ts';

/** Most pieces a sub-timestep is split into (step.ts MAX_SUBDIVISION). */
const MAX_SUBDIVISION = 64;

/** a then b in one array of their kind. */
function concat<T extends Float32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(a: T, b: T): T {
  const c = new (a.constructor as new (k: number) => T)(a.length + b.length);
  c.set(a);
  c.set(b, a.length);
  return c;
}

/** The run on the GPU. The members SubstepState names are what substep.ts runSubstep reads and writes, not an API for callers. */
export class GpuParticleSimulation implements SubstepState {
  /** Liquid particles now (sinks.ts removes them, sources.ts lets them in). */
  count: number;
  /** Slots the liquid may fill. */
  readonly capacity: number;
  frame = 0;
  time = 0;
  /** PBF's last mean compression (StepContext.densityError), read at a frame's end: pbf-feed.ts. */
  densityError: number;
  readonly grid: GpuNeighbours;
  readonly kernels: Kernels<StepEntry>;
  readonly pressure: Kernels<PressureEntry>;
  readonly adhesion: Kernels<AdhesionEntry>;
  /** The surface test and the objects' share of the exchange (friction-wgsl.ts); null without objects. */
  readonly friction: Kernels<FrictionEntry> | null;
  /** particle.viscositySolver "implicit" (viscosity-solve.ts; its warm start read for checkpoints: mirror.ts); null for the exchange. */
  readonly viscosity: GpuImplicitViscosity | null;
  /** The surface test for `read(true)`: the friction kernels, or their module made for it alone. */
  private surfaceKernels: Kernels<FrictionEntry> | null = null;
  /** The liquids' fractions mixing (mixing.ts; read for the host copy: mirror.ts); null where they do not mix. */
  readonly mixing: GpuMixing | null;
  /** Removal of liquid in sinks and beyond open faces (sinks.ts); null where the scene has none. */
  private readonly sinks: GpuSinks | null;
  /**
   * The signed-distance guard, the near flag (guard-wgsl.ts), its bodies' uniform; null without a solid body.
   * `guarded`: a body has a formula (a mesh has no distance on the GPU).
   */
  readonly guard: { kernels: Kernels<GuardEntry>; bodies: GPUBuffer; guarded: boolean } | null;
  /** The sub-timestep's travel for the near flag (guard-wgsl.ts nearTravel). */
  readonly travel = new Float32Array(4);
  /** Moving bodies (moving-objects.ts), placed by the host every sub-timestep; null where every body is still. */
  readonly moving: MovingObjects | null;
  /**
   * The particle engine's context the run was seeded from: its ObjectParticles move the bodies, its FreeBodies integrate
   * the free ones, its liquid takes the sources' new particles first.
   */
  readonly host: StepContext;
  /** Free rigid bodies (free-bodies.ts: the liquid's share summed on the GPU, the bodies integrated on the host); null where none. */
  readonly free: GpuFreeBodies | null;
  /** Spouts and liquid bodies still to come (sources.ts); null where the scene lets no liquid in. */
  readonly sources: GpuSources | null;
  /** The springs of a gel liquid (gel.ts); null where the liquid is not a gel. */
  readonly gel: GpuGel | null;
  /** particle.thinPull (thin-pull.ts); null where the scene does not set it. */
  readonly thin: GpuThinPull | null;
  /** The static no-slip walls' holds on the liquid's bodies (hold.ts); null where the domain has no closed no-slip face. */
  readonly hold: GpuWallHold | null;
  /** The id (GpuParticles.id) the next particle let in takes: the seeding liquid's count, then on. */
  nextId: number;
  /** The pressure stage has run once (its later solves start from the last pressure: pressure.ts COLD). */
  warm = false;
  /** The ids the slot scalars (sc) were measured in, once `read(true)` has sorted the slots since the last step; else null. */
  private measured: GPUBuffer | null = null;
  readonly params: GPUBuffer;
  private readonly sc: GPUBuffer;
  readonly dx: GPUBuffer;
  readonly keep: GPUBuffer;
  readonly wall: GPUBuffer;
  readonly stats: GPUBuffer;
  /** Density correction's passes after its judge's stop launch nothing (gate.ts). */
  readonly gate: Gate | null;
  private readonly r: number;
  readonly rate: number;
  /** The scene's liquids differ in mass (liquids.ts liquidMassesDiffer): the filter keeps the buoyant push out. */
  readonly massesDiffer: boolean;
  /** The parameters block (wgsl.ts Params) and its views (params.ts), made once. */
  readonly block = new ParamBlock();
  private readonly paramData = this.block.data;
  /** Each liquid's particle-scale filter strength, written a sub-timestep (pressure-courant.ts). */
  private readonly filter: LiquidFilter;
  /** The last sub-timestep's (its `still` the run's state, seeded from and copied to the host's: mirror.ts). */
  readonly maxima: SlotMaxima = { speed: 0, pressure: 0, filtered: 0, still: false };

  /**
   * Seeds the liquid as the CPU particle engine does at frame 0, or from `from` (a particle
   * simulation restored from a checkpoint: its liquid, frame and time). Refuses a scene with
   * unported features (UnportedSceneError). For A/B: `options.wallHolds: false` without the static walls' holds
   * (hold.ts); `holdSums` how they sum their slots (HoldSums, the same bits); `stableSort: false` neighbours.ts's stable false.
   */
  constructor(
    readonly device: GPUDevice,
    readonly scene: Scene,
    from?: ParticleSimulation,
    options: { wallHolds?: boolean; holdSums?: HoldSums; stableSort?: boolean } = {},
  ) {
    const unported = unportedFeatures(scene);
    if (unported.length > 0) throw new UnportedSceneError(unported);
    const cpu = from ?? new ParticleSimulation(scene);
    const ctx = cpu.ctx, L = ctx.liquid, n = L.count;
    this.frame = ctx.frame;
    this.time = ctx.time;
    this.densityError = ctx.densityError;
    this.count = n;
    this.nextId = n;
    this.host = ctx;
    this.maxima.still = stillWaterOf(ctx);
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
    const sortOptions = { stable: options.stableSort !== false, tableFor: L.nextId + (this.sources?.spare ?? 0) };
    this.grid = new GpuNeighbours(device, n, ctx.reach, objects.count + W.count, objects.table + W.table + 2, this.capacity, sortOptions);
    // The pressure's warm start (p/δt² in vel.w: pressure-wgsl.ts) where the seeding simulation has one (a checkpoint).
    const w = seedW(scene, L.material, n, L.density, cohesionShare(scene.particle, this.r, ctx.densityH));
    this.grid.upload(L.pos.subarray(0, 3 * n), L.vel.subarray(0, 3 * n), L.lambda.subarray(0, n), w);
    if (objects.count > 0) {
      const normal4 = concat(objects.normal4, new Float32Array(W.pos4.length));
      this.grid.uploadStatic(concat(objects.pos4, W.pos4), normal4, concat(objects.starts, W.starts));
    }
    this.kernels = new Kernels(device, 'particle step', STEP_WGSL, STEP_ENTRIES, 9, 0);
    this.pressure = new Kernels(device, 'pressure', PRESSURE_WGSL, PRESSURE_ENTRIES, 9, 0);
    this.adhesion = new Kernels(device, 'adhesion', ADHESION_WGSL, ADHESION_ENTRIES, 9, 0);
    this.friction = objects.count > 0 ? new Kernels(device, 'friction', FRICTION_WGSL, FRICTION_ENTRIES, 9, 0) : null;
    this.sinks = GpuSinks.of(device, scene, ctx.reach);
    this.moving = objects.count > 0 && ctx.objects.anyMoving ? new MovingObjects(ctx, objects) : null;
    const bodies = guardBodies(ctx);
    if (bodies) {
      const buffer = uniformBuffer(device, GUARD_BYTES, 'guarded bodies');
      device.queue.writeBuffer(buffer, 0, bodies);
      const kernels = new Kernels(device, 'guard', GUARD_WGSL, GUARD_ENTRIES, 10, [0, 9]);
      this.guard = { kernels, bodies: buffer, guarded: new Uint32Array(bodies)[0] > 0 };
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
    this.gate = !GATES.on ? null : makeGate(device, this.params, this.stats, STATS_STOP_WORD);
    this.thin = GpuThinPull.of(device, ctx, this.grid, cap, this.sc, this.guard?.bodies ?? null);
    writeConstants(this.paramData, scene, {
      r: this.r,
      h: ctx.densityH,
      hv: ctx.kernelSupport[m],
      cell: ctx.reach,
      count: n,
      table: this.grid.table,
      capacity: this.capacity,
      clearance: ctx.wallClearance,
      restSpacing: ctx.restSpacing,
      cohesion: cohesionShare(scene.particle, this.r, ctx.densityH),
    });
    writeLiquids(this.paramData, ctx);
    this.massesDiffer = liquidMassesDiffer(ctx);
    writeObjectHeader(this.paramData, scene, ctx, objects, this.free?.count ?? 0);
    this.filter = new LiquidFilter(scene, this.r, this.paramData);
  }

  /** Returns the particle-scale filter's strength (params.ts). */
  writeStep(dt: number, frac: number, pressurePasses: number, A: number, cold = false, tolerance = PRESSURE_TOLERANCE): number {
    const filter = writeStepParams(this.block, this.scene, dt, frac, pressurePasses, A, this.filter, cold, tolerance, feedsWarmStart(this.maxima.still));
    this.device.queue.writeBuffer(this.params, 0, this.paramData);
    return filter;
  }

  group(kernels: Kernels<string> = this.kernels): GPUBindGroup {
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

  bound<E extends string>(kernels: Kernels<E>): Bound<E>;
  bound(): Bound<StepEntry>;
  bound(kernels: Kernels<string> = this.kernels): Bound<string> {
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
    const counters: Record<string, number> = { particles: this.count, substeps: 0, subdivisions: 0 };
    this.measured = null;
    // The pieces the gel's springs cut a sub-timestep into, and two implicit solves of them a piece where it cuts (step.ts, gel-implicit.ts).
    const gelCut = this.gel?.pieces(dtSub, P.moves) ?? 1;
    if (this.gel) this.gel.solves = gelCut > 1 ? 2 : 1;
    for (let k = 0; k < P.substeps; k++) {
      const removed = await this.removeLiquid((this.frame + k / P.substeps) / s.fps, dtSub);
      if (removed > 0) counters.removed = (counters.removed ?? 0) + removed;
      const maxima = await this.slotMaxima(dtSub), speed = maxima.speed;
      if (!(speed <= P.maxSpeed)) {
        throw new Error(`a particle reached ${speed.toPrecision(3)} m/s, past particle.maxSpeed ${P.maxSpeed} m/s (frame ${this.frame})`);
      }
      const move = ((speed + g * dtSub) * dtSub) / P.moves;
      const courant = pressurePieces(s, this.r, dtSub, maxima, this.host.restSpacing);
      const pieces = Math.min(MAX_SUBDIVISION, Math.max(1, Math.ceil(move / (P.maxMove * this.r)), gelCut, courant));
      counters.subdivisions += pieces - 1;
      for (let q = 0; q < pieces; q++) {
        const emitted = await runSubstep(this, (this.frame + (k + q / pieces) / P.substeps) / s.fps, dtSub / pieces, k === 0 && q === 0, counters);
        if (emitted > 0) counters.emitted = (counters.emitted ?? 0) + emitted;
      }
      counters.substeps += pieces;
    }
    // The frame's end lets out the column of its last piece (step.ts, Emitters.letOutColumn).
    const flushed = this.sources ? this.sources.letOutColumn(this.grid, this.nextId) : 0;
    if (flushed > 0) {
      this.nextId += flushed;
      this.count += flushed;
      this.block.u[0] = this.count;
      this.device.queue.writeBuffer(this.params, 0, this.paramData);
      counters.emitted = (counters.emitted ?? 0) + flushed;
    }
    const words = await readBuffer(this.device, this.stats, STATS_BYTES);
    const st = new Uint32Array(words);
    this.densityError = pbfError(words);
    counters.densityPassesLastSubstep = st[3];
    if (this.hold) Object.assign(counters, await this.hold.counts());
    if (counters.viscositySolves) counters.viscosityIterationsPerSolve = counters.viscosityIterations / counters.viscositySolves;
    counters.particles = this.count;
    this.frame++;
    this.time = this.frame / s.fps;
    return { frame: this.frame, time: this.time, wallMs: performance.now() - wall0, stages: { gpu: performance.now() - wall0 }, counters };
  }

  viscosityBuffers(): ViscosityBuffers {
    return { params: this.params, pos: this.grid.pos, vel: this.grid.vel, id: this.grid.id, wall: this.wall, start: this.grid.start, sc: this.sc };
  }

  /**
   * The thin pull alone (thin-pull.ts) at the present positions and velocities (sorted first), ρ/ρ0 as last recorded
   * (at first the seeding simulation's): for checks against the CPU engine's (particle/thin-pull.ts); `read` gives the result.
   * `allNear`: every slot taken as flagged near a body, as the CPU's LiquidParticles.nearObject set all over.
   */
  async thinPullAlone(allNear = false): Promise<void> {
    if (!this.thin) throw new Error('the scene sets no particle.thinPull');
    const enc = this.device.createCommandEncoder();
    this.grid.build(enc);
    const pass = enc.beginComputePass();
    this.thin.pull(pass, this.grid, this.count, allNear);
    pass.end();
    this.device.queue.submit([enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
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
    this.gate?.args.destroy();
    for (const part of [this.viscosity, this.gel, this.sinks, this.sources, this.free, this.mixing, this.hold, this.thin]) part?.destroy();
    this.guard?.bodies.destroy();
  }
}
