/**
 * Stage "pressure" (particle.densitySolver = "pbf"; beyond the paper): the pressure of the
 * sub-timestep, found with its other forces so that the moves do not compress the liquid. After
 * the body forces have gone into the velocities (v* = v + (g + a) δt, trapezoid.ts), this is the
 * constant-density solve of DFSPH (Bender & Koschier 2017, Algorithm 3, as SPlisHSPlasH runs it:
 * relaxed Jacobi on a pressure kept ≥ 0) on the displacement δt v* the moves would make: its
 * source is the compression δt v* makes (relative to moving objects) plus a share of the
 * compression the liquid already has (PRESENT_ONCE, PRESENT_TWICE), and none at a free surface; the passes (pressure-kernels.ts)
 * find the pressure p that cancels it, and v* += Δx(p)/δt. They start from the pressure of the
 * last sub-timestep, stored per particle as p/δt² (LiquidParticles.lambda): a pool at rest keeps
 * the pressure that holds it, and one pass confirms it. The passes stop at a mean residual of
 * 0.02 % (less in deep water-like liquid near rest, where they may take DEEP_PASSES times as many:
 * depthTolerance, a bounce under REST_BOUNCE √(g h) at any depth; still-water.ts) or after particle.pressureIterations (2; the first solve of a run, from a lattice, 500
 * times as many, to a tenth of that residual: COLD; the second solve of a sub-timestep, below, half
 * as many, rounded up). From the third pass on, Chebyshev semi-iterative acceleration (Wang 2015, "A Chebyshev semi-iterative
 * approach for accelerating projective and position-based dynamics", §4): p ← ω_k (p̂ − p_{k−1})
 * + p_{k−1} over the Jacobi iterate p̂, kept ≥ 0. What the pressure leaves, and the compression
 * the moves make, density correction after the moves (pbf.ts) takes. Particles the pressure
 * moved, or near a wall or body, lose their free-flight offset (ballistic.ts).
 *
 * With particle.pressureAfterViscosity (the default) the solve runs twice a sub-timestep
 * (step.ts), as DFSPH orders its two solves around the non-pressure forces (Bender & Koschier
 * 2017, Algorithm 1). The first, before viscosity, finds the pressure that holds the liquid
 * against the body forces; viscosity then damps the particle-scale velocity that pressure leaves
 * on disordered particles; the second (`again`), after viscosity, takes the first one's
 * Δx(p)/δt back out of the velocities (not next to a body: see applyPressure) and solves once
 * more, warm-started from the first pressure where it took it back, so the velocity the moves carry
 * holds the density again. Next to a body, where the first pressure stays in the velocities, the
 * second solve finds what to add to it (from 0, down to minus it: SolveView.floor), and the stored
 * warm start is their sum, the whole pressure that holds the liquid there (docs/decisions.md "A
 * pressure solve that holds the density next to a body"). A particle at a free surface next to a
 * body keeps no warm start (applyPressure). With one solve, viscosity after it also damped the part
 * of the pressure's velocity that held the density, and before it left the spurious part undamped: a still pool jittered at
 * 0.01–0.015 √(g h) either way (docs/decisions.md "Rest at any size: the second pressure solve",
 * "The implicit default between two solves"). Where the liquid's viscosity is too low to damp the
 * particle scale in a sub-timestep (water), a bi-Laplacian filter between the solves does
 * (pressure-filter.ts), with more steps as the pressure's Courant number grows, and past
 * FILTER_PIECE_COURANT the sub-timestep is split (pressurePieces): the pressure's displacement
 * holds a particle-scale restoring term proportional to p itself, stepped explicitly, which made
 * deep water zig-zag (docs/decisions.md "Deep water at rest"); and with two solves the
 * compression the liquid already has is taken out as a position shift, not as velocity
 * (pressure-shift.ts shiftPresent), but next to a body (docs/decisions.md
 * "Water at rest"). A particle (nearly) alone (ρ/ρ0 under ALONE) starts
 * from no pressure: the last pressure of a drop that left the liquid, kept because a lone
 * particle's passes have nothing to change, threw it off whatever it landed on.
 */
import type { StepContext } from './context.ts';
import { prepareSolve } from './solve-setup.ts';
import { FULL, RELAX, type SolveView } from './pressure-kernels.ts';
import { DISPLACE, FACTOR, WALLS, runFilterStep, runPressureSolve, runSolvePhase, solveJob, type StageSlots } from './pressure-job.ts';
import { keepMeasure, measureKept, takeMeasure } from './pressure-measure-keep.ts';
import { allocInt32, isShared } from '../parallel/memory.ts';
import { MAX_THREADS } from '../parallel/team.ts';
import { FILTER_GAIN, FILTER_PIECE_COURANT, buoyantPush, filterSteps, filterStrengths } from './pressure-filter.ts';
import { liquidViscosity } from './viscosity-weiler.ts';
import { filteredSpeed, gatePressure, stillWater } from './still-water.ts';
import { shiftPasses, shiftPresent } from './pressure-shift.ts';

/**
 * Mean residual (compression, relative density, per sub-timestep) the passes may leave. 1e-3 let a
 * 2 mm pool's error grow by about 9 % a frame until it broke into motion (BENCHMARKS.md, issue 15).
 */
export const PRESSURE_TOLERANCE = 2e-4;

/** Spectral radius of the plain passes that the Chebyshev weights assume (the honey drop's residual falls by 0.8–0.87 a pass after a few). */
const SPECTRAL_RADIUS = 0.9;
/**
 * Share of the liquid's present compression the pressure's velocity also removes. With one solve
 * after the implicit viscosity, half: all of it left a 5 cm honey pool at 0.0155 √(g h) against
 * 0.0098. With two solves, none: the second solve removes it as a position shift instead
 * (pressure-shift.ts), not as velocity. Taken out as velocity, (ρ − 1) 2r / δt, it was a kick that
 * does not shrink with the step (a water pool at 16 sub-timesteps: 20 mm/s in its first frame from
 * the lattice), that the next solves can cancel only in part (p ≥ 0; no source at a free surface),
 * and that only a honey's viscosity damped (docs/decisions.md "Water at rest").
 */
export const PRESENT_TWICE = 0, PRESENT_ONCE = 0.5;
/**
 * With two solves and the exchange viscosity, all of it as velocity, as before the shift: the
 * exchange's saturated viscosity does not damp what the shift leaves (the 5 cm honey pool of
 * tests/particle/pool-rest.test.ts: 0.0134 √(g h) with the shift, under 0.005 without).
 */
export const PRESENT_EXCHANGE_TWICE = 1;
/**
 * With two solves, the share next to a body (LiquidParticles.nearObject): all of it, as velocity,
 * as before. A position shift there would push the liquid off the body without the body taking the
 * reaction: a free raft sank 12 mm below its Archimedes level (tests/particle/free-bodies.test.ts).
 */
export const PRESENT_NEAR_BODY = 1;

/**
 * The second solve's share of particle.pressureIterations (rounded up: 1 of the default 2). It
 * starts from the first solve's pressure on the same rows, and its second pass did not show in
 * what follows: honey drop, 0 particles beyond 15 cm at frames 8–40, PBF's passes and the mean
 * ρ/ρ0 after them about the same; a still pool 20 cm wide rests at 0.0010 √(g h) against 0.0008;
 * the hydrostatic validation's final speed 0.026 √(g d) against 0.041 (docs/decisions.md "The
 * pressure stage's and PBF's cost").
 */
export const AGAIN_SHARE = 0.5;

/** ρ/ρ0 under which a particle keeps no warm start (a lone particle reads 0.32, a flat surface's about 0.6). */
const ALONE = 0.45;

/**
 * How many times pressureIterations the first solve of a run may take, and the mean residual it
 * stops at (a tenth of PRESSURE_TOLERANCE). From a lattice it builds the whole hydrostatic
 * pressure, which later sub-timesteps only carry forward (their warm start); the mean residual is
 * a weak measure of a deficit at depth, and what it leaves the warm-started passes (two, then one
 * a sub-timestep) remove too slowly in a deep column: density correction takes the load, its
 * displacement becomes an expanding velocity that cancels the pressure's source, and the pressure
 * never builds (a 9.6 × 20 cm honey pool at 4 mm, ν 0.01 m²/s, 25 layers: 0.02 √(g h) at 1 s with
 * the first solve cut at 100 passes, 0.006 stopped at PRESSURE_TOLERANCE after about 310 passes;
 * stopped at COLD_TOLERANCE after about 540, 0.0001 up to 0.8 s and PBF idle; docs/decisions.md
 * "A deep honey pool at rest"). Only a deep column takes that many: a solve stops at the tolerance
 * (a liquid in free fall, at none).
 */
export const COLD = 500, COLD_TOLERANCE = PRESSURE_TOLERANCE / 10;

/**
 * Pieces a sub-timestep of length dt is split into for the pressure's stability (step.ts), when
 * particle.pressureCourant C > 0: δt √(p_max/ρ0) ≤ C · 2r. The pressure displaces a particle by
 * Σ_b (p_a + p_b) ∇W_ab: on a lattice the constant part of p cancels, but on disordered particles
 * it pushes each toward its neighbours' gaps with a gain proportional to p itself; turned into
 * velocity once a sub-timestep, that is a spring of stiffness ∝ p/(ρ0 d²) stepped explicitly, and
 * a pool, whose floor holds p/ρ0 = g h, keeps a particle-scale jitter once disturbed (issue 26;
 * docs/decisions.md "Rest at any size"). The bound is the SPH Courant condition on a signal speed,
 * δt ≤ C d / c (Monaghan 1992, "Smoothed particle hydrodynamics", Annu. Rev. Astron. Astrophys. 30,
 * §10; DFSPH's C = 0.4, Bender & Koschier 2017 §5), with c = √(p_max/ρ0) from the stored pressure
 * of the last sub-timestep (p/δt², m²/s²: LiquidParticles.lambda). Whatever particle.pressureCourant,
 * with two solves and the implicit viscosity the particles the filter damps (pressure-filter.ts:
 * water-like liquids, not next to a body) are held to C ≤ FILTER_PIECE_COURANT: up to it the
 * filter's steps (filterSteps) keep their jitter bounded, beyond it they did not (a 20 cm water pool).
 * For the filter, C is taken over the liquid's closest rest spacing (StepContext.restSpacing): 2r,
 * less where a body's start lattice was squeezed to fit its walls (start-packing.ts), whose rows
 * the pressure's spring couples that much more stiffly (a 5 × 12 cm water pool, rows 0.92 · 2r
 * apart, C 1.12 over 2r: 0.0084 √(g h) over 1–3 s; over its rows' spacing, split: 0.0016).
 * A particle (nearly) alone (its last measured ρ/ρ0, LiquidParticles.density, under ALONE) is left
 * out of the filter's maximum: it has no neighbours for the spring to couple, and the pressure
 * its solve stores grows without bound (a drop skating on floating-box's pool after the plunge,
 * ρ/ρ0 0.32, stored 5–50 m²/s² where the pool's floor holds 1.2), which split every sub-timestep
 * of the run 2–4 ways (docs/decisions.md "info within 1.5× over every shipped scene's whole run").
 */
export function pressurePieces(ctx: StepContext, dt: number): number {
  const P = ctx.scene.particle, C = P.pressureCourant;
  if (P.densitySolver !== 'pbf' || P.pressureIterations === 0) return 1;
  const lam = ctx.liquid.lambda, n = ctx.liquid.count;
  let pieces = 1;
  if (C > 0) {
    let m = 0;
    for (let i = 0; i < n; i++) if (lam[i] > m) m = lam[i];
    pieces = Math.max(pieces, Math.ceil((Math.sqrt(m) * dt) / (C * 2 * ctx.r)));
  }
  // The filter's reach (pressure-filter.ts filterSteps): where the liquid the filter damps holds a
  // pressure whose Courant number is over FILTER_PIECE_COURANT, the sub-timestep is split.
  const m = filteredPressure(ctx, dt, ALONE);
  if (m > 0) pieces = Math.max(pieces, Math.ceil((Math.sqrt(m) * dt) / (FILTER_PIECE_COURANT * ctx.restSpacing)));
  return pieces > 1 ? pieces : 1;
}

/**
 * The column bounce (in √(g h)) that the stop rule may leave a water-like liquid h deep
 * (depthTolerance). A solve that stops at a mean residual η a sub-timestep leaves any motion of
 * the whole column whose compression a sub-timestep is under η: a mean vertical velocity up to about
 * η h / δt, which at PRESSURE_TOLERANCE grows with the depth (20 cm of water at 1/240 s: 9.6 mm/s,
 * 0.0069 √(g h)); with η ≤ REST_BOUNCE √(g/h) δt it stays under REST_BOUNCE √(g h) at any depth
 * (docs/decisions.md "Deep water's bounce is the pressure solve's" and "A stop rule that does not
 * grow with depth"). 0.002, under the 0.005: the estimate is a mean over every particle.
 */
export const REST_BOUNCE = 0.002;
/**
 * Times particle.pressureIterations a solve may take where depthTolerance is under
 * PRESSURE_TOLERANCE (first solve 8, second 4 at the defaults).
 */
export const DEEP_PASSES = 4;

/**
 * The largest stored pressure p/ρ0 (m²/s², LiquidParticles.lambda) among the liquid the
 * particle-scale filter damps, not next to a body: g times the depth of a water-like liquid at rest.
 * Read by the first solve of a sub-timestep (applyPressure, kept in SolveState.filteredPressure for
 * the second), after markNearObjects has flagged this sub-timestep's particles, so that a run
 * resumed from a checkpoint reads what the uninterrupted run read; and by pressurePieces, at the
 * sub-timestep's start, for the filter's reach, over the particles whose last measured ρ/ρ0 is at
 * least `alone` (ALONE there). 0 where no liquid is filtered.
 */
export function filteredPressure(ctx: StepContext, dt: number, alone = 0): number {
  const P = ctx.scene.particle;
  const cm = solvesTwice(P) && P.viscositySolver === 'implicit' ? materialStrengths(ctx, dt) : null;
  return cm ? gatePressure(ctx, cm, alone) : 0;
}

/**
 * The mean residual the passes of a sub-timestep (or piece) of length dt stop at: PRESSURE_TOLERANCE,
 * or REST_BOUNCE · g δt / √(p_max/ρ0) where that is less, p_max/ρ0 the filtered liquid's largest
 * stored pressure (filteredPressure): g h at the floor of water h deep at rest, so the rule
 * reads η ≤ REST_BOUNCE √(g/h) δt. Liquids viscous enough to damp the particle scale themselves
 * (honey) are not filtered and keep PRESSURE_TOLERANCE: their viscosity damps the column's mode
 * (docs/decisions.md "A deep honey pool at rest"). Where it is less, the solves may take DEEP_PASSES
 * times their passes. Applied only while the filtered liquid is near rest (still-water.ts stillWater).
 */
export function depthTolerance(ctx: StepContext, dt: number, pressure: number): number {
  const [gx, gy, gz] = ctx.scene.gravity;
  return stopTolerance(Math.sqrt(gx * gx + gy * gy + gz * gz), dt, pressure);
}

/** depthTolerance's rule (shared with the WebGPU backend): g (m/s²), the sub-timestep dt and the filtered liquid's largest pressure p/ρ0. */
export function stopTolerance(g: number, dt: number, pressure: number): number {
  if (!(pressure > 0) || !(g > 0)) return PRESSURE_TOLERANCE;
  const t = (REST_BOUNCE * g * dt) / Math.sqrt(pressure);
  return t < PRESSURE_TOLERANCE ? t : PRESSURE_TOLERANCE;
}

export interface PressureResult {
  passes: number;
  /** Mean residual (compression left, or pressure where the liquid expands) before the last pass. */
  error: number;
}

/** Whether the pressure is solved a second time, after viscosity (particle.pressureAfterViscosity). */
export function solvesTwice(P: { pressureAfterViscosity: boolean }): boolean {
  return P.pressureAfterViscosity;
}

/**
 * A pressure solve of one sub-timestep of length dt (see the header): changes only velocities.
 * `again`: the second solve, after viscosity (it takes the first one's displacement back out of the
 * velocities first, and it alone gives free bodies their reaction).
 */
export function applyPressure(ctx: StepContext, dt: number, again = false): PressureResult {
  const L = ctx.liquid, n = L.count, O = ctx.objects, vel = L.vel, prev = L.lambda;
  if (n === 0) return { passes: 0, error: 0 };
  // The filter (between the solves, on the first one's rows) reads full rows.
  const P0 = ctx.scene.particle, cm = solvesTwice(P0) && P0.viscositySolver === 'implicit' ? materialStrengths(ctx, dt) : null, filtered = cm !== null;
  const pr = prepareSolve(ctx, again, filtered);
  const { v, order, spare: u, state } = pr, p = v.p, dx = v.dx;
  // The second solve's least pressure per slot (pressure-kernels.ts SolveView.floor): minus the first
  // one's next to a body (SOURCE fills it), in LiquidParticles.scalar, which nothing reads once
  // viscosity is over (its Σk is the exchange viscosity's) until density correction writes it.
  v.floor = again ? L.scalar : null;
  // The first solve of a run has no warm start: it may take COLD times as many passes (a run
  // resumed from a checkpoint past frame 0 has its pressures back).
  // The second solve starts from the first one's pressure on the same rows: half the passes.
  const P = ctx.scene.particle, cap = again ? Math.ceil(P.pressureIterations * AGAIN_SHARE) : P.pressureIterations;
  const cold = !state.warm && ctx.frame === 0;
  if (!again) {
    state.filteredPressure = cm ? gatePressure(ctx, cm) : 0;
    state.gateEvery = !cm;
    // The gate (still-water.ts) reads the filtered liquid where there is one, else every liquid.
    if (!cm) state.stillWater = stillWater(state.stillWater, filteredSpeed(ctx, null), gatePressure(ctx));
    else if (state.filteredPressure > 0) state.stillWater = stillWater(state.stillWater, filteredSpeed(ctx, cm), state.filteredPressure);
  }
  const deep = cold || !state.stillWater ? PRESSURE_TOLERANCE : depthTolerance(ctx, dt, state.filteredPressure);
  const maxPasses = cap * (cold ? COLD : deep < PRESSURE_TOLERANCE ? DEEP_PASSES : 1), tolerance = cold ? COLD_TOLERANCE : deep;
  if (deep < PRESSURE_TOLERANCE) ctx.count('pressureDeep', 1);
  // The shift (shiftPresent) with two solves and the implicit viscosity; with the exchange, all of
  // the present compression as velocity (PRESENT_EXCHANGE_TWICE).
  const twice = solvesTwice(P), shift = twice && P.viscositySolver === 'implicit';
  const present = shift ? PRESENT_TWICE : twice ? PRESENT_EXCHANGE_TWICE : PRESENT_ONCE;
  state.warm = true;
  const invDt = 1 / dt, dt2 = dt * dt;
  // The per-slot loops about the passes run as phases of the solve's job (pressure-job.ts StageSlots).
  if (state.stageFlags.length < MAX_THREADS + 1 || (ctx.shared && !isShared(state.stageFlags))) state.stageFlags = allocInt32(MAX_THREADS + 1, ctx.shared);
  const slots: StageSlots = { order, vel, lam: prev, off: L.acc, near: L.nearObject, flags: state.stageFlags, dt };
  // Without closed walls FACTOR is taken in the solve's run (below; WALLS must come first where there are).
  const factorInSource = v.walls.length === 0, keep = ctx.runner.bind(solveJob).scratch.measure;
  // The filter with the shift only (the exchange path as before it: its calibration holds), before
  // the measure, which it does not read (it reads the walls' table): one thread keeps its weights
  // in the measure slopes' room (pressure-job.ts filterStep).
  const filterFirst = again && shift;
  // With closed walls the second solve's measure is the first one's, kept with its walls' lists
  // (pressure-measure-keep.ts): its WALLS writes the masks alone.
  const kept = again && !factorInSource && v.half?.upperOnly === true && measureKept(keep, n, state.pairs.version);
  if (filterFirst) {
    if (v.walls.length > 0) runSolvePhase(ctx, v, n, WALLS, kept);
    filterVelocity(ctx, v, order, n, u, dt, slots);
  }
  if (kept) {
    if (!filterFirst) runSolvePhase(ctx, v, n, WALLS, true);
    takeMeasure(keep, v, n);
  } else if (!factorInSource) {
    runSolvePhase(ctx, v, n, FACTOR, filterFirst);
    if (!again && twice && v.half?.upperOnly) keepMeasure(keep, v, n, state.pairs.version);
  }
  // The second solve's first step: the first solve's displacement taken back out of the velocities,
  // Δx(p̃)/δt, p̃ the first solve's pressure (the stored warm start, LiquidParticles.lambda) but 0
  // on particles next to a body. There the first solve's push off the body holds the film against
  // adhesion, and viscosity has already passed part of it to the layers beyond the object terms'
  // reach; taken back, the honey drop's film came apart into single particles (docs/decisions.md
  // "The implicit default between two solves"). As a pressure field, not a mask on the particles'
  // displacements, it keeps the liquid's momentum (each pair's terms are equal and opposite), and
  // the object pairs are all left out, so a free body keeps the first solve's reaction. (TAKE_BACK,
  // in the solve's run below: pressure-job.ts.) There the second solve starts from 0 and may go down
  // to minus the first pressure (v.floor, filled by SOURCE), and FINISH stores the sum.
  let ou: Float64Array | null = null;
  if (O.anyMoving && O.count > 0) {
    if (state.objectStep.length < 3 * O.count) state.objectStep = new Float64Array(3 * O.count);
    ou = state.objectStep;
    const oorder = ctx.objectCells.grid.order;
    for (let s = 0; s < O.count; s++) for (let k = 0; k < 3; k++) ou[3 * s + k] = O.vel[3 * oorder[s] + k] * dt;
  }
  // ρ̂ advanced by the displacements δt v (u), ρ̂ at the start kept in v.res (the passes
  // take it), and for the second solve's position shift (below) in u's third block (`start`). Then
  // per slot the source: a free surface (fewer than FULL neighbours) may expand: no source there,
  // and none where it would ask for expansion; inside (a box full of liquid), the signed source:
  // what one part expands another may take up. And the warm start: a particle (nearly) alone
  // (under ALONE) has no pressure to keep: a drop's last pressure would push it off whatever it
  // lands on; nor has one at a free surface next to a body, where the stored pressure is the whole
  // pressure that holds the liquid against the body (adhesion's pull onto the honey drop's ball is
  // 10–12 g): kept, it threw the film under the ball off as spray (runPressureSolve, the job's SOURCE).
  const near = L.nearObject;
  const start = u.subarray(2 * n, 3 * n);
  // Then the passes (Chebyshev, see the header) and, without free bodies, the displacement as
  // velocity, the offsets and the warm start (FINISH): the source, the passes and the finish are one
  // run of the team (pressure-job.ts SOLVE), which stops after the pass this loop stopped after.
  const solve = { maxPasses, tolerance, relax: RELAX, radius: SPECTRAL_RADIUS };
  const passes = runPressureSolve(ctx, v, n, slots, u, ou, present, PRESENT_NEAR_BODY, shift, again && shift, FULL, ALONE, factorInSource, again, solve, !ctx.freeBodies);
  let error = 0;
  const offset = L.acc;
  if (passes > 0) {
    const res = v.res;
    let sum = 0;
    for (let a = 0; a < n; a++) sum += res[a];
    error = sum / n;
    if (!ctx.freeBodies) {
      if (again && shift) shiftPresent(ctx, v, order, n, start, 1 / dt2, shiftPasses(state.stillWater, !state.gateEvery));
      return { passes, error };
    }
    runSolvePhase(ctx, v, n, DISPLACE);
    // Both solves' reactions: the first one's push off a body is not taken back (TAKE_BACK above).
    ctx.freeBodies.boundaryReaction(ctx, v, order, n, dt);
    for (let a = 0; a < n; a++) {
      const i = order[a];
      const ux = dx[3 * a], uy = dx[3 * a + 1], uz = dx[3 * a + 2];
      vel[3 * i] += ux * invDt; vel[3 * i + 1] += uy * invDt; vel[3 * i + 2] += uz * invDt;
      if (ux !== 0 || uy !== 0 || uz !== 0) offset[3 * i] = offset[3 * i + 1] = offset[3 * i + 2] = 0;
    }
  } else {
    p.fill(0, 0, n);
  }
  // The free-flight offset (ballistic.ts) only where nothing holds the particle: no pressure moved
  // it (above), no closed wall or body within reach.
  for (let a = 0; a < n; a++) {
    const i = order[a];
    if (near[i] || (v.walls.length > 0 && v.wmask[a] !== 0)) offset[3 * i] = offset[3 * i + 1] = offset[3 * i + 2] = 0;
  }
  const invDt2 = 1 / dt2;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    prev[i] = again && near[i] ? prev[i] + p[a] * invDt2 : p[a] * invDt2;
  }
  if (again && shift) shiftPresent(ctx, v, order, n, start, invDt2, shiftPasses(state.stillWater, !state.gateEvery));
  return { passes, error };
}

/** The filter's strength per material at sub-timestep dt (pressure-filter.ts filterStrengths), or null where none is filtered. */
function materialStrengths(ctx: StepContext, dt: number): Float64Array | null {
  const sc = ctx.scene, names = sc.materialNames, nm = names.length;
  // Per material, once a sub-timestep (a few numbers).
  const nu = new Float64Array(nm), cm = new Float64Array(nm);
  for (let m = 0; m < nm; m++) {
    const material = sc.materials[names[m]];
    nu[m] = material.kind === 'liquid' ? liquidViscosity(material, ctx.r, dt) : 0;
  }
  return filterStrengths(nu, ctx.isLiquid, dt, ctx.r, cm) ? cm : null;
}

/**
 * The particle-scale damping between the two solves (pressure-filter.ts): each liquid's velocity
 * filtered with the strength its own viscosity leaves to it (none where ν δt/(2r)² ≥ FILTER_REACH).
 * u: 3 f64 per slot of scratch (the slot velocities); each slot's strength goes to v.res, free
 * until the passes.
 */
function filterVelocity(ctx: StepContext, v: SolveView, order: Int32Array, n: number, u: Float64Array, dt: number, slots: StageSlots): void {
  const L = ctx.liquid, vel = L.vel, mat = L.material, near = L.nearObject;
  const cm = materialStrengths(ctx, dt);
  if (!cm) return;
  const c = v.res, lam = L.lambda;
  // The largest pressure (p/ρ0, the first solve's) among the filtered particles: the steps grow with its Courant number.
  let pmax = 0;
  for (let a = 0; a < n; a++) {
    const i = order[a];
    c[a] = near[i] ? 0 : cm[mat[i]];
    if (c[a] > 0 && lam[i] > pmax) pmax = lam[i];
    u[3 * a] = vel[3 * i]; u[3 * a + 1] = vel[3 * i + 1]; u[3 * a + 2] = vel[3 * i + 2];
  }
  const steps = filterSteps((Math.sqrt(pmax) * dt) / ctx.restSpacing);
  ctx.count('filterSteps', steps);
  // Liquids of more than one density: the first solve's buoyant push is kept out of the filter
  // (pressure-filter.ts buoyantPush): the steps filter v − D, and D goes back after them.
  const d = v.uniform ? null : pushOut(ctx, v, n, order, dt);
  for (let a = 0; d && a < n; a++) {
    const i = order[a];
    for (let k = 0; k < 3; k++) { vel[3 * i + k] -= d[3 * a + k]; u[3 * a + k] -= d[3 * a + k]; }
  }
  // Δv = −FILTER_GAIN L(L v), `steps` times (pressure-filter.ts): L, then L over its result, a step
  // a run of the solve's job (FILTER_STEP; u as filled above on the first).
  for (let rep = 0; rep < steps; rep++) runFilterStep(ctx, v, n, slots, u, rep > 0, FILTER_GAIN);
  for (let a = 0; d && a < n; a++) {
    const i = order[a];
    for (let k = 0; k < 3; k++) vel[3 * i + k] += d[3 * a + k];
  }
}

/** filterVelocity's buoyant push (3 f64 a slot) and the slots' λ̃ (1), grown with the liquid. */
let pushScratch = new Float64Array(0);

/** Each slot's buoyant push (pressure-filter.ts buoyantPush) from the first solve's stored pressure, 0 next to a body (as TAKE_BACK reads it). */
function pushOut(ctx: StepContext, v: SolveView, n: number, order: Int32Array, dt: number): Float64Array {
  const lam = ctx.liquid.lambda, near = ctx.liquid.nearObject;
  if (pushScratch.length < 4 * n) pushScratch = new Float64Array(4 * n);
  const d = pushScratch.subarray(0, 3 * n), lt = pushScratch.subarray(3 * n, 4 * n);
  for (let a = 0; a < n; a++) lt[a] = near[order[a]] ? 0 : lam[order[a]];
  buoyantPush(v, n, v.half ? v.half.mid : null, lt, dt, ctx.scene.gravity, d);
  return d;
}

