/**
 * One frame of the particle engine, in the order of Steele et al. 2004, Figure 3:
 *
 *   for each sub-timestep:
 *     (emit liquid and hold the spouts' nozzles, emit.ts; move objects to their pose; sort
 *      particles into cells)
 *     calculate adhesion, viscosity and gravity forces
 *       (with adhesion's pair list: find surface particles, on the first sub-timestep of a frame
 *        and whenever liquid was emitted; diffuse the liquids' fractions, colour-field.ts; conduct
 *        heat where a liquid's viscosity follows its temperature, temperature.ts; with
 *        particle.sheetShift, even sheets and threads one particle thick within their own plane,
 *        sheet-shift.ts)
 *     ("pbf": the pressure, pressure.ts; the gel's plastic flow and an implicit step of its
 *      springs, gel-implicit.ts, after the viscosity and before the pressure's second solve; with
 *      particle.thinPull, a pull where the liquid is sparsely sampled, thin-pull.ts, after the last solve)
 *     for each of `moves` iterations: ("steele": gel strain and elastic force, gel.ts) accelerate,
 *       translate, apply friction, prevent inter-penetration
 *     apply iterative density correction
 *     (free rigid bodies: the liquid's reactions summed through the stages, then one rigid-body
 *      step, free-bodies.ts)
 *
 * A sub-timestep is subdivided when its moves would carry the fastest particle further than
 * particle.maxMove radii per move, when its moves would be longer than a gel's stable elastic
 * step (with "pbf" the springs' implicit step takes the piece in one solve, or in two where the
 * gel cuts the sub-timestep: gel-implicit.ts), or
 * (particle.pressureCourant > 0) when it would be longer than the pressure's Courant step
 * (pressure.ts pressurePieces). Every stage is timed into StepStats.stages; a move's accelerate, translate and friction
 * are one job (move.ts), timed as 'move'.
 */
import type { StepStats } from '../api.ts';
import type { StepContext } from './context.ts';
import type { Emitters } from './emit.ts';
import { computeAdhesion } from './adhesion.ts';
import { applyViscosity } from './viscosity.ts';
import { applyImplicitViscosity } from './viscosity-weiler.ts';
import { checkPositions, maxLiquidSpeed } from './integrate.ts';
import { ACCELERATE_ONCE, BALLISTIC_MOVE, moveLiquid, STEELE_MOVE } from './move.ts';
import { preventInterpenetration } from './collisions.ts';
import { contactsTakeMove } from './liquid-contacts.ts';
import { domainWalls, markNearObjects, signedDistanceGuard } from './boundaries.ts';
import { listObjectContacts } from './object-lists.ts';
import { objectContacts } from './object-contacts.ts';
import { correctDensity, listDensityPairs } from './density.ts';
import { solveDensityPBF } from './pbf.ts';
import { applyPressure, pressurePieces, solvesTwice } from './pressure.ts';
import { objectViscosity, wallViscosity } from './boundary-viscosity.ts';
import { solveState } from './solve-setup.ts';
import { markSurface } from './surface.ts';
import { shiftSheets } from './sheet-shift.ts';
import { pullThin } from './thin-pull.ts';
import { sortLiquid } from './liquid-sort.ts';
import { applyGel, gelPieces } from './gel.ts';
import { gelNoteStart, stepGelImplicit } from './gel-implicit.ts';
import { conductHeat } from './temperature.ts';

/** Largest number of pieces a sub-timestep is split into. */
export const MAX_SUBDIVISION = 64;

export class StageClock {
  stages: Record<string, number> = {};
  private t = 0;
  start(): void {
    this.t = performance.now();
  }
  lap(stage: string): void {
    const now = performance.now();
    this.stages[stage] = (this.stages[stage] ?? 0) + (now - this.t);
    this.t = now;
  }
}

export function stepFrame(ctx: StepContext, emitters: Emitters): StepStats {
  const wall0 = performance.now();
  const scene = ctx.scene, P = scene.particle;
  const clock = new StageClock();
  ctx.counters = {};
  const frameStart = ctx.frame / scene.fps;
  const dtSub = 1 / (scene.fps * P.substeps);
  const g = Math.hypot(...scene.gravity);
  // "pbf": two implicit solves of the springs a piece where the gel cuts the sub-timestep (gel-implicit.ts).
  if (ctx.gel) ctx.gel.solvesPerPiece = P.densitySolver === 'pbf' && gelPieces(ctx.gel, dtSub, P.moves) > 1 ? 2 : 1;
  for (let s = 0; s < P.substeps; s++) {
    // Subdivide when a move would go further than maxMove radii (speed after this sub-step's gravity).
    const vmax = maxLiquidSpeed(ctx) + g * dtSub;
    const move = (vmax * dtSub) / P.moves;
    const wanted = Math.max(1, Math.ceil(move / (P.maxMove * ctx.r)), gelPieces(ctx.gel, dtSub, P.moves), pressurePieces(ctx, dtSub));
    const pieces = Math.min(MAX_SUBDIVISION, wanted);
    if (pieces > 1) ctx.count('subdivisions', pieces - 1);
    if (!(wanted <= MAX_SUBDIVISION)) ctx.count('subdivisionCap');
    for (let q = 0; q < pieces; q++) {
      const ta = frameStart + dtSub * (s + q / pieces);
      const tb = q === pieces - 1 ? frameStart + dtSub * (s + 1) : frameStart + dtSub * (s + (q + 1) / pieces);
      substep(ctx, emitters, ta, tb, clock, s === 0 && q === 0);
    }
  }
  const flushed = emitters.letOutColumn(ctx);
  if (flushed) ctx.count('emitted', flushed);
  ctx.frame++;
  ctx.time = ctx.frame / scene.fps;
  const c = ctx.counters;
  c.particles = ctx.liquid.count;
  c.objectParticles = ctx.objects.count;
  c.densityPassesPerSubstep = (c.densityPasses ?? 0) / (c.substeps ?? 1);
  c.densityError = ctx.densityError;
  if (c.viscositySolves) c.viscosityIterationsPerSolve = (c.viscosityIterations ?? 0) / c.viscositySolves;
  return { frame: ctx.frame, time: ctx.time, wallMs: performance.now() - wall0, stages: clock.stages, counters: c };
}

function substep(ctx: StepContext, emitters: Emitters, ta: number, tb: number, clock: StageClock, firstOfFrame: boolean): void {
  const P = ctx.scene.particle;
  const dt = tb - ta, dtm = dt / P.moves;
  ctx.count('substeps');
  clock.start();

  const { added, removed } = emitters.apply(ctx, ta, dt);
  if (added) ctx.count('emitted', added);
  if (removed) ctx.count('removed', removed);
  emitters.hold(ctx, ta, ctx.reach);
  clock.lap('emit');

  if (ctx.objects.moveTo(ta, tb) || !ctx.objectCellsValid) ctx.rebuildObjectCells();
  ctx.time = ta;
  clock.lap('objects');

  // (The particles' cells kept for gel.ts alone.)
  ctx.cells.buildSorted(ctx.liquid, ctx.gel !== null, (order) => sortLiquid(ctx, order));
  // How far liquid can travel relative to objects in this sub-timestep (gravity included).
  const travel = (maxLiquidSpeed(ctx) + ctx.objects.maxSpeed + Math.hypot(...ctx.scene.gravity) * dt) * dt;
  // nearObject: within reach of any object interaction of this sub-timestep: the adhesion support,
  // every object contact list (object-lists.ts listObjectContacts: 1.25 (r + r_o) + r + twice the
  // particle's travel) and the guard over the moves and density passes. Object particles sit on
  // the surface, up to r_o out of it (sampling), hence the + r_o.
  const nearMargin = Math.max(ctx.objectReach, 2 * travel + 4 * ctx.r) + ctx.ro;
  // The guard's own lists take the guard's part of that margin (boundaries.ts markNearObjects).
  markNearObjects(ctx, nearMargin, 2 * travel + 4 * ctx.r + ctx.ro);
  const free = ctx.freeBodies;
  free?.begin(ctx, nearMargin);
  clock.lap('neighbours');

  computeAdhesion(ctx);
  clock.lap('adhesion');

  // Over the pair list adhesion recorded (surface.ts); friction in the moves reads the flags. Once
  // a frame, as the flags are between frames, and for liquid just emitted (its flags are unset).
  // Not for liquid removed: the survivors keep their flags (LiquidParticles.compact), stale only
  // next to the sink until the next frame, as every flag is once the liquid moves.
  if (firstOfFrame || added > 0) markSurface(ctx);
  clock.lap('surface');

  // The liquids' fractions diffuse over the same pair list (colour-field.ts), before viscosity compacts it.
  if (ctx.mixing) {
    const pairs = ctx.cells.pairs;
    ctx.count('mixingCycles', ctx.mixing.diffuse(ctx.liquid, ctx.liquid.count, pairs.start, pairs.j, dt));
    clock.lap('mixing');
  }
  // Variable viscosity: heat conducted over the pair list, and each particle's viscosity factor
  // from its temperature, which the viscosity stage below reads (temperature.ts).
  if (ctx.temperature) {
    conductHeat(ctx, dt);
    clock.lap('temperature');
  }

  // Thin sheets and threads evened within their own plane or along their axis (sheet-shift.ts),
  // over adhesion's pair list at the positions it was listed at.
  if (P.sheetShift > 0) {
    ctx.count('sheetShifted', shiftSheets(ctx, dt));
    clock.lap('sheet');
  }

  // "pbf": the body forces of the sub-timestep go into the velocities once, and its pressure
  // (pressure.ts) is found with them. With particle.pressureAfterViscosity (the default) the
  // pressure is solved twice, before viscosity and again after it (pressure.ts `solvesTwice`), the
  // order of DFSPH's divergence and density solves around the non-pressure forces (Bender &
  // Koschier 2017, Algorithm 1): viscosity damps the particle-scale velocity the first solve leaves
  // on disordered particles (a still pool's jitter), and the second restores the part that holds
  // the density. With one solve, "implicit" viscosity comes before it (Weiler et al. 2018 §5) and
  // the exchange after it. The implicit solve's object terms act along the body's surface only
  // (viscosity-weiler-solve.ts), so they do not take back the pressure's push off a body
  // (docs/decisions.md "Implicit viscosity before the pressure", "The implicit default between
  // two solves"). The moves translate by the velocity (ballistic.ts; in free flight by the
  // trapezoid rule).
  const pbf = P.densitySolver === 'pbf', implicit = P.viscositySolver === 'implicit', twice = pbf && solvesTwice(P);
  if (pbf) {
    if (ctx.gel) gelNoteStart(ctx);
    moveLiquid(ctx, dt, ACCELERATE_ONCE);
    clock.lap('accelerate');
    if (implicit && !twice) {
      applyImplicitViscosity(ctx, dt);
      clock.lap('viscosity');
    }
    if (ctx.gel && !twice) {
      stepGelImplicit(ctx, dt);
      clock.lap('gel');
    }
    const pr = applyPressure(ctx, dt);
    ctx.count('pressurePasses', pr.passes);
    clock.lap('pressure');
  }
  // "exchange": the paper's sweeps, then (with "pbf") the walls' and objects' share, which a free
  // body takes back (free-bodies.ts capture / release); the implicit solve passes its object terms
  // to free bodies itself (its change to a particle near one mixes the liquid's own viscosity in).
  if (implicit) {
    if (!pbf || twice) applyImplicitViscosity(ctx, dt);
  } else {
    applyViscosity(ctx, dt);
    if (pbf) {
      wallViscosity(ctx, dt);
      free?.capture(ctx);
      objectViscosity(ctx, dt, solveState(ctx).gamma);
      free?.release(ctx);
    }
  }
  clock.lap('viscosity');
  // A gel's springs with the other non-pressure forces, before the pressure's (second) solve, in
  // one implicit step (gel-implicit.ts): in the moves, after the solves, their push at a wall met
  // the wall's pressure a sub-timestep late (docs/decisions.md "A gel block at rest against walls").
  if (ctx.gel && twice) {
    stepGelImplicit(ctx, dt);
    clock.lap('gel');
  }
  // "pbf" with pressureAfterViscosity: the pressure once more, after viscosity (pressure.ts: viscosity damped
  // the part of the first solve's velocity that held the density too), so that the moves carry a
  // velocity that does.
  if (twice) {
    const pr = applyPressure(ctx, dt, true);
    ctx.count('pressurePasses', pr.passes);
    clock.lap('pressure');
  }
  // particle.thinPull: where the liquid is sparsely sampled, a pull against its opening up, found at twice the
  // density kernel's support and filtered within the feature (thin-pull.ts, He et al. 2014), after the pressure's
  // last solve so that the moves carry it.
  if (P.thinPull > 0) {
    ctx.count('thinPulled', pullThin(ctx));
    clock.lap('thin');
  }
  // The pair list is not at the positions of the moves that follow.
  ctx.adhesionPairsCurrent = false;
  emitters.hold(ctx, ta, ctx.reach);
  clock.lap('viscosity');

  listObjectContacts(ctx, dt);
  clock.lap('neighbours');

  for (let m = 0; m < P.moves; m++) {
    if (ctx.gel && !pbf) {
      applyGel(ctx, dtm, m === 0);
      clock.lap('gel');
    }
    // Accelerate, translate and apply friction, as one job (move.ts); "pbf" translates ballistically.
    // A free body (only with "pbf") takes the friction back. On a team, without free bodies, the
    // move runs in the contacts' run once the sub-timestep's slabs are cut (liquid-contacts.ts),
    // timed as 'collide'.
    const mode = pbf ? BALLISTIC_MOVE : STEELE_MOVE;
    if (!free && contactsTakeMove(ctx)) {
      preventInterpenetration(ctx, dtm, mode);
      clock.lap('collide');
      continue;
    }
    free?.capture(ctx);
    moveLiquid(ctx, dtm, mode);
    free?.release(ctx);
    clock.lap('move');
    preventInterpenetration(ctx, dtm);
    clock.lap('collide');
  }

  let passes: number, error: number;
  if (pbf) {
    ({ passes, error } = solveDensityPBF(ctx, dt, keepOut));
  } else {
    listDensityPairs(ctx);
    ({ passes, error } = correctDensity(ctx, dt, keepOut));
  }
  ctx.densityError = error;
  ctx.count('densityPasses', passes);
  ctx.counters.densityErrorMax = Math.max(ctx.counters.densityErrorMax ?? 0, error);
  clock.lap('density');

  emitters.hold(ctx, ta, ctx.reach);
  checkPositions(ctx, 'density');
  if (free) {
    free.end(ctx, dt);
    clock.lap('free bodies');
  }
  ctx.time = tb;
}

/**
 * Density correction moves particles without regard to objects and walls: keep them out, first at
 * the object particles' contact distance (the guard alone would leave them deep inside that shell,
 * and the next move's contacts would throw them sideways).
 */
function keepOut(ctx: StepContext): void {
  objectContacts(ctx);
  ctx.freeBodies?.capture(ctx);
  signedDistanceGuard(ctx);
  ctx.freeBodies?.release(ctx);
  domainWalls(ctx, 0);
}
