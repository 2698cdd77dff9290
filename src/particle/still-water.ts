/**
 * The still-water gate of the pressure solves' deep-water stop (pressure.ts depthTolerance: the
 * stop rule of docs/decisions.md "A stop rule that does not grow with depth", applied only near
 * rest since "The deep-water stop only near rest"): whether the gate's liquid is near rest (the
 * filtered, water-like liquid where a scene has one, else every liquid: pressure.ts applyPressure),
 * from its largest speed against √(g h), with hysteresis; and PBF's warm start (pbf.ts
 * PBF_WARM_SHARE) gated the same way: fed while still, or where no liquid is filtered while PBF is
 * left with compression (feedsWarmStart). Shared with the WebGPU backend (src/gpu/simulation.ts
 * slotMaxima, params.ts writeStepParams; PBF's left-over decided on the GPU: src/gpu/pbf-feed.ts).
 */
import type { StepContext } from './context.ts';
import { SolveState } from './solve-setup.ts';

/**
 * Where the tighter stop applies (depthTolerance): in water-like liquid near rest. Its purpose is a
 * column bounce under REST_BOUNCE √(g h) that PRESSURE_TOLERANCE's dead band (about 0.007 √(g h) for
 * 20 cm at 1/240 s, 0.012 for 60 cm) would leave; where the filtered liquid moves faster than a
 * tenth of √(g h) that bounce cannot be seen, and the tighter stop's passes (DEEP_PASSES times as
 * many: the dam break's 60 cm column took 12 a sub-timestep instead of 3) buy nothing. The test is
 * the largest speed of the filtered liquid, not next to a body (filteredSpeed: before this
 * sub-timestep's body forces), against √(p_max/ρ0) = √(g h): under REST_ENTER √(g h) the liquid is
 * at rest and stays so until it passes REST_LEAVE √(g h) (hysteresis, so that a pool near the bound
 * does not switch every sub-timestep). A fresh run starts moving (its first sub-timestep stores no pressure yet;
 * a still pool is still from its second). The state is the pressure stage's own (SolveState.stillWater),
 * kept in the checkpoint (stillWaterOf, restoreStillWater).
 */
export const REST_ENTER = 0.1, REST_LEAVE = 0.2;

/** The still-water state after a sub-timestep whose gate liquid's largest speed is `speed` (m/s) and largest pressure p/ρ0 `pressure` (REST_ENTER; shared with the WebGPU backend). */
export function stillWater(still: boolean, speed: number, pressure: number): boolean {
  if (!(pressure > 0)) return still;
  return speed < (still ? REST_LEAVE : REST_ENTER) * Math.sqrt(pressure);
}

/**
 * The largest speed (m/s) among the liquid the gate reads, before this sub-timestep's body
 * forces: v − 2 · offset (the accelerate step left v + b δt and the offset ½ b δt, ballistic.ts
 * accelerateOffsetRange), not next to a body; `cm` each material's filter strength (pressure.ts
 * materialStrengths: > 0 where filtered, the liquid filteredPressure reads), or null for every
 * liquid (a scene whose liquids the filter leaves alone: gatePressure). Read by the first solve of a
 * sub-timestep.
 */
export function filteredSpeed(ctx: StepContext, cm: Float64Array | null): number {
  const vel = ctx.liquid.vel, off = ctx.liquid.acc, mat = ctx.liquid.material, near = ctx.liquid.nearObject, n = ctx.liquid.count;
  let m2 = 0;
  for (let i = 0; i < n; i++) {
    if ((cm !== null && !(cm[mat[i]] > 0)) || near[i]) continue;
    const o = 3 * i, vx = vel[o] - 2 * off[o], vy = vel[o + 1] - 2 * off[o + 1], vz = vel[o + 2] - 2 * off[o + 2];
    const s2 = vx * vx + vy * vy + vz * vz;
    if (s2 > m2) m2 = s2;
  }
  return Math.sqrt(m2);
}

/**
 * The largest stored pressure p/ρ0 (LiquidParticles.lambda) among the liquid the gate reads, not
 * next to a body: the materials whose filter strength `cm` is > 0 (pressure.ts filteredPressure), or
 * every liquid where `cm` is null (a scene with no filtered liquid: a bouncing gel or a honey pool
 * has no √(g h) of filtered water, but its own largest pressure is the same scale, g h at the floor
 * of liquid at rest h deep); over the particles whose last measured ρ/ρ0 is at least `alone`.
 */
export function gatePressure(ctx: StepContext, cm: Float64Array | null = null, alone = 0): number {
  const lam = ctx.liquid.lambda, mat = ctx.liquid.material, near = ctx.liquid.nearObject, dens = ctx.liquid.density, n = ctx.liquid.count;
  let m = 0;
  for (let i = 0; i < n; i++) if (lam[i] > m && (cm === null || cm[mat[i]] > 0) && !near[i] && !(dens[i] < alone)) m = lam[i];
  return m;
}

/** The run's still-water state (SolveState.stillWater; moving before the pressure stage's first solve). */
export function stillWaterOf(ctx: StepContext): boolean {
  return ctx.solve?.stillWater ?? false;
}

/** Sets the run's still-water state from a checkpoint or the WebGPU backend's (the solve state made if the stage has not run yet). */
export function restoreStillWater(ctx: StepContext, still: boolean): void {
  (ctx.solve ??= new SolveState()).stillWater = still;
}

/**
 * Whether PBF's passes feed their pressure to the stored one (pbf.ts PBF_WARM_SHARE): while the
 * liquid the gate reads is still (`still`: the filtered liquid where a scene has one, else every
 * liquid, pressure.ts applyPressure), or, where the gate reads every liquid, while PBF is left with
 * compression (`leftOver`, pbfLeftOver: the last sub-timestep's passes ended over their tolerance,
 * at their cap). In the dam break, fed in motion with the pressure solves at PRESSURE_TOLERANCE's 3
 * passes, it left a thin sheet of water standing on the back wall at 0.40–0.53 s (docs/decisions.md
 * "The deep-water stop only near rest"); fed in flight and on impact, jello-drop's gel sprang back
 * to 1.30 of its rest height for 1.21 without the feed (docs/decisions.md "Liquid in motion takes
 * no PBF feed"). Still pools keep it. A pool settling from its lattice moves too, but there PBF
 * spends its cap a sub-timestep and is left with compression (the hydrostatic case: 1.5–2.5 % of
 * mean compression in its first frame, against a tolerance of 0.5 %): the stored pressure is short
 * of the liquid's weight, which is what the feed carries into it; unfed, the pool sank 2.7 % of its
 * depth. A gel on impact meets more compression but PBF takes it within its passes (jello-drop: 4–6
 * passes, never its cap): what hits a floor is the momentum of a moment, not a weight the pressure
 * lacks (docs/decisions.md "The feed where PBF is left with compression").
 */
export function feedsWarmStart(still: boolean, leftOver = false): boolean {
  return still || leftOver;
}

/**
 * Whether PBF was left with compression after the last sub-timestep's passes (its mean compression,
 * StepContext.densityError, over `tolerance`: the passes spent their cap) where the gate reads every
 * liquid (no liquid of the scene is filtered: SolveState.gateEvery, set by the first solve). The
 * density error is in the checkpoint, so a resumed run reads what the uninterrupted one read.
 */
export function pbfLeftOver(ctx: StepContext, tolerance: number): boolean {
  return (ctx.solve?.gateEvery ?? false) && ctx.densityError > tolerance;
}
