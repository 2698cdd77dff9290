/// <reference types="@webgpu/types" />
/**
 * One sub-timestep of the particle engine on WebGPU compute (simulation.ts GpuParticleSimulation runs it,
 * split as step.ts splits it). Per sub-timestep, in the order of src/particle/step.ts with densitySolver "pbf":
 *   liquid removed in sinks and beyond open faces (sinks.ts: a compaction in the sort, the count
 *     read back; simulation.ts removeLiquid, before the sub-timestep is split) and let in by spouts and late liquid bodies (sources.ts: the host's emitters,
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
 *   a gel's springs (gel.ts; listed right after the sort): their plastic flow and an implicit step of their forces
 *     (gel-implicit.ts; the CPU's src/particle/gel-implicit.ts), after the viscosity, before the pressure's second
 *     solve (with one solve, before it);
 *   the thin pull (thin-pull.ts; particle.thinPull), after the last solve and its position shift;
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
 *     between passes; the passes after the stop launch no workgroups: gate.ts), the displacement less the walls' share becoming velocity; its pressure fed to the warm start as still-water.ts
 *     feedsWarmStart has it (pbf-feed.ts: decided on the GPU where PBF is left with compression).
 */
import type { Scene } from '../scene/scene.ts';
import type { StepContext } from '../particle/context.ts';
import { exchangePerStep } from '../particle/calibration.ts';
import { shiftPasses } from '../particle/pressure-shift.ts';
import { AGAIN_SHARE, COLD, DEEP_PASSES, PRESSURE_TOLERANCE, stopTolerance } from '../particle/pressure.ts';
import { dispatch, type Kernels } from './device.ts';
import type { GpuNeighbours } from './neighbours.ts';
import type { StepEntry } from './step-wgsl.ts';
import type { PressureEntry } from './pressure-wgsl.ts';
import { encodeShift, shiftsPresent } from './pressure-shift-wgsl.ts';
import type { GpuImplicitViscosity, ViscosityBuffers } from './viscosity-solve.ts';
import { type Bound, coldPressure, countSolve, encodeDensity, encodePressure } from './encode.ts';
import type { AdhesionEntry } from './adhesion-wgsl.ts';
import type { GpuMixing } from './mixing.ts';
import type { ParamBlock } from './params.ts';
import type { FrictionEntry } from './friction-wgsl.ts';
import { guardBodies, nearTravel, TRAVEL_OFFSET, type GuardEntry } from './guard-wgsl.ts';
import type { MovingObjects } from './moving-objects.ts';
import type { GpuSources } from './sources.ts';
import type { GpuGel } from './gel.ts';
import type { GpuThinPull } from './thin-pull.ts';
import type { GpuFreeBodies } from './free-bodies.ts';
import type { GpuWallHold } from './hold.ts';
import { STAGE_BYTES } from './pbf-feed.ts';
import type { SlotMaxima } from './pressure-courant.ts';
import type { Gate } from './gate.ts';

/** Largest exchange fraction one Jacobi sweep moves (its iteration is stable below 1; see the header). */
export const JACOBI_FRACTION = 0.5;

/**
 * What a sub-timestep reads and writes of the simulation (simulation.ts GpuParticleSimulation holds it): the kernels, the
 * buffers, the parts (each null where the scene has none), the count and ids it lets liquid in by, and the pressure's warm flag.
 */
export interface SubstepState {
  readonly device: GPUDevice;
  readonly scene: Scene;
  readonly host: StepContext;
  readonly frame: number;
  readonly capacity: number;
  count: number;
  nextId: number;
  warm: boolean;
  readonly rate: number;
  /** The scene's liquids differ in mass: the filter keeps the buoyant push out (liquids.ts liquidMassesDiffer). */
  readonly massesDiffer: boolean;
  readonly grid: GpuNeighbours;
  readonly kernels: Kernels<StepEntry>;
  readonly pressure: Kernels<PressureEntry>;
  readonly adhesion: Kernels<AdhesionEntry>;
  readonly friction: Kernels<FrictionEntry> | null;
  readonly viscosity: GpuImplicitViscosity | null;
  readonly mixing: GpuMixing | null;
  readonly guard: { kernels: Kernels<GuardEntry>; bodies: GPUBuffer; guarded: boolean } | null;
  readonly travel: Float32Array<ArrayBuffer>;
  readonly moving: MovingObjects | null;
  readonly free: GpuFreeBodies | null;
  readonly sources: GpuSources | null;
  readonly gel: GpuGel | null;
  readonly thin: GpuThinPull | null;
  readonly hold: GpuWallHold | null;
  readonly block: ParamBlock;
  readonly maxima: SlotMaxima;
  readonly params: GPUBuffer;
  readonly dx: GPUBuffer;
  readonly keep: GPUBuffer;
  readonly wall: GPUBuffer;
  readonly stats: GPUBuffer;
  /** Density correction's passes launch nothing once its judge has stopped it (gate.ts); null: each pass dispatched over every slot. */
  readonly gate: Gate | null;
  group(kernels?: Kernels<string>): GPUBindGroup;
  bound(): Bound<StepEntry>;
  bound<E extends string>(kernels: Kernels<E>): Bound<E>;
  viscosityBuffers(): ViscosityBuffers;
  writeStep(dt: number, frac: number, pressurePasses: number, A: number, cold?: boolean, tolerance?: number): number;
}

/**
 * The sub-timestep [t, t + dt); `first`: the frame's first, which runs the surface test (step.ts
 * markSurface). With the implicit viscosity the pressure is solved before it and again after it
 * (pressureAfterViscosity), or once after it; with the exchange once before it, or before and
 * after it (step.ts). Returns the particles let in.
 */
export async function runSubstep(sim: SubstepState, t: number, dt: number, first: boolean, counters: Record<string, number>): Promise<number> {
  const P = sim.scene.particle;
  const K = sim.kernels.pipelines;
  const d = sim.device;
  const added = sim.sources ? sim.sources.emit(sim.grid, t, dt, sim.nextId) : 0;
  if (added > 0) {
    sim.nextId += added;
    sim.count += added;
    sim.block.u[0] = sim.count;
  }
  if (sim.moving) {
    const o = sim.moving.place(t, t + dt);
    sim.grid.uploadStatic(o.pos4, o.normal4, o.starts);
    d.queue.writeBuffer(sim.wall, 16 * sim.capacity, o.vel4);
    const bodies = sim.guard ? guardBodies(sim.host, dt) : null;
    if (sim.guard && bodies) d.queue.writeBuffer(sim.guard.bodies, 0, bodies);
  }
  const G = sim.guard;
  if (G) d.queue.writeBuffer(G.bodies, TRAVEL_OFFSET, nearTravel(sim.host, dt, sim.travel));
  const A = sim.rate > 0 ? exchangePerStep(sim.rate, dt) : 0;
  const sweeps = A > 0 ? Math.ceil(A / JACOBI_FRACTION) : 0;
  // The run's first solve: COLD times the passes, to COLD_TOLERANCE; deeper water-like liquid near rest: a smaller residual
  // with DEEP_PASSES times the passes (pressure.ts depthTolerance, still-water.ts).
  const cold = !sim.warm && sim.frame === 0;
  const tolerance = sim.maxima.still ? stopTolerance(Math.hypot(...sim.scene.gravity), dt, sim.maxima.filtered) : PRESSURE_TOLERANCE;
  const deep = !cold && tolerance < PRESSURE_TOLERANCE ? DEEP_PASSES : 1;
  const pressurePasses = P.pressureIterations * (cold ? COLD : deep);
  const filter = sim.writeStep(dt, sweeps > 0 ? A / sweeps : 0, pressurePasses, A, cold, tolerance);
  const n = sim.count;
  const Src = sim.sources;
  let enc = d.createCommandEncoder();
  sim.free?.begin(enc, n);
  sim.grid.build(enc);
  if (G) {
    // The liquid near a body (step.ts markNearObjects after the sort): the largest speed first, for the travel.
    enc.clearBuffer(sim.stats, 0, STAGE_BYTES);
    const near = enc.beginComputePass();
    dispatch(near, K.speed, sim.group(), n);
    dispatch(near, G.kernels.pipelines.markNear, sim.group(G.kernels), n);
    near.end();
  }
  if (sim.mixing) enc = await sim.mixing.run(enc, sim.viscosityBuffers(), n, dt, counters);
  let group = sim.group();
  let pass = enc.beginComputePass();
  sim.hold?.bodies(pass, sim.params, sim.grid, sim.wall, sim.dx, n);
  const twice = P.pressureAfterViscosity && pressurePasses > 0;
  sim.gel?.relist(pass, sim.params, sim.grid, sim.wall, n, dt);
  Src?.hold(pass, sim.grid, t);
  dispatch(pass, sim.adhesion.pipelines.adhesion, sim.group(sim.adhesion), n);
  const F = sim.friction;
  const fg = F ? sim.group(F) : null;
  // The surface test on a frame's first sub-timestep, and for liquid just let in (step.ts).
  if (F && fg && (first || added > 0)) {
    dispatch(pass, F.pipelines.surfaceNormal, fg, n);
    dispatch(pass, F.pipelines.surfaceFlag, fg, n);
  }
  dispatch(pass, K.accelerate, group, n);
  // The implicit solve reads back its stop flag: the pass and the encoder end there, and go on after it.
  const implicit = async (): Promise<void> => {
    pass.end();
    countSolve(counters, await sim.viscosity!.solve(enc, sim.viscosityBuffers(), dt, sim.count, sim.hold));
    enc = d.createCommandEncoder();
    pass = enc.beginComputePass();
    sim.free?.reduce(pass, sim.grid.pos, sim.viscosity!.freeShare().buffer, n, true);
  };
  // The gel's springs, implicit (gel-implicit.ts): after the viscosity, before the pressure's (second) solve, as step.ts.
  const springs = async (): Promise<void> => {
    pass.end();
    const r = await sim.gel!.step(enc, sim.params, sim.grid, sim.wall, n);
    counters.gelSolves = (counters.gelSolves ?? 0) + 1;
    counters.gelIterations = (counters.gelIterations ?? 0) + r.iterations;
    enc = r.enc;
    pass = enc.beginComputePass();
  };
  if (sim.viscosity && !twice) await implicit();
  if (sim.gel && !twice) await springs();
  if (pressurePasses > 0 && cold) {
    ({ enc, pass } = await coldPressure(d, enc, pass, sim.bound(), sim.bound(sim.pressure), n, pressurePasses, P.pressureIterations, sim.stats, sim.gate));
  } else if (pressurePasses > 0) encodePressure(pass, sim.bound(), sim.bound(sim.pressure), n, pressurePasses, false, false, false, sim.gate);
  if (pressurePasses > 0 && n > 0) sim.warm = true; // pressure.ts: a solve with no liquid leaves the run cold
  for (let w = 0; w < sweeps; w++) {
    dispatch(pass, K.exchangeGather, group, n);
    dispatch(pass, K.exchangeApply, group, n);
  }
  if (F && fg && sweeps > 0) dispatch(pass, F.pipelines.objectViscosity, fg, n);
  if (sim.viscosity && twice) await implicit();
  if (sim.gel && twice) await springs();
  // The second solve is warm (pressure.ts COLD: the first one of the run alone may take more passes), AGAIN_SHARE of them;
  // with the shift, the filter before it and the shift after it, once free flight is decided (pressure.ts).
  const shift = twice && shiftsPresent(P);
  if (twice) {
    const again = Math.ceil(P.pressureIterations * AGAIN_SHARE) * deep;
    encodePressure(pass, sim.bound(), sim.bound(sim.pressure), n, again, true, shift && filter > 0, sim.massesDiffer, sim.gate);
  }
  dispatch(pass, K.freeFlight, group, n);
  if (shift) encodeShift(pass, sim.pressure.pipelines, sim.group(sim.pressure), n, shiftPasses(sim.maxima.still, filter > 0));
  // particle.thinPull after the pressure's last solve, so that the moves carry it (step.ts; thin-pull.ts).
  sim.thin?.pull(pass, sim.grid, n);
  Src?.hold(pass, sim.grid, t);
  const gg = G?.guarded ? sim.group(G.kernels) : null;
  for (let m = 0; m < P.moves; m++) {
    dispatch(pass, K.translate, group, n);
    dispatch(pass, K.contactGather, group, n);
    dispatch(pass, K.collide, group, n);
    // The guard's second clamp adds its friction to collide's in dx: the hold after both (guard-wgsl.ts guardMove).
    if (G && gg) dispatch(pass, G.kernels.pipelines.guardMove, gg, n);
    sim.hold?.friction(pass, sim.params, sim.grid, sim.wall, sim.dx, n);
  }
  // The free bodies' share so far, before the sort reorders the slots.
  sim.free?.reduce(pass, sim.grid.pos, sim.keep, n);
  pass.end();
  sim.grid.build(enc);
  pass = enc.beginComputePass();
  encodeDensity(pass, { pipelines: K, group: sim.group() }, G && gg ? { pipelines: G.kernels.pipelines, group: gg } : null, n, P.densityIterations, sim.gate);
  sim.viscosity?.recordDensity(pass, sim.viscosityBuffers(), n);
  sim.thin?.record(pass, sim.grid, n);
  Src?.hold(pass, sim.grid, t);
  sim.free?.reduce(pass, sim.grid.pos, sim.keep, n);
  pass.end();
  d.queue.submit([enc.finish()]);
  await sim.free?.end(dt);
  return added;
}
