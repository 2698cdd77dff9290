/**
 * Accelerate and translate, the first two steps of a move (Steele Figure 3; move.ts runs them):
 * explicit Euler with the adhesion acceleration of the sub-timestep plus gravity. Non-finite
 * values and runaway speeds stop the run with a SimulationError naming the stage, the frame and
 * the particle.
 */
import { SimulationError } from '../api.ts';
import type { StepContext } from './context.ts';

/**
 * Accelerate particles [i0, i1): stops at the first whose speed is not finite or above √max2 (its
 * velocity already updated) and returns it; −1 when none.
 */
export function accelerateRange(
  vel: Float64Array, acc: Float64Array, gx: number, gy: number, gz: number, dt: number, max2: number, i0: number, i1: number,
): number {
  for (let i = i0; i < i1; i++) {
    const o = 3 * i;
    const vx = (vel[o] += (acc[o] + gx) * dt);
    const vy = (vel[o + 1] += (acc[o + 1] + gy) * dt);
    const vz = (vel[o + 2] += (acc[o + 2] + gz) * dt);
    const s2 = vx * vx + vy * vy + vz * vz;
    if (!(s2 <= max2)) return i;
  }
  return -1;
}

/** The error a move stops the run with for particle i past maxSpeed (its velocity updated). */
export function accelerateError(ctx: StepContext, i: number): SimulationError {
  const v = ctx.liquid.vel, o = 3 * i;
  return speedError(ctx, 'accelerate', i, v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
}

/** Translate particles [i0, i1). */
export function translateRange(pos: Float64Array, vel: Float64Array, dt: number, i0: number, i1: number): void {
  for (let o = 3 * i0; o < 3 * i1; o++) pos[o] += vel[o] * dt;
}

/** Largest liquid speed, m/s. */
export function maxLiquidSpeed(ctx: StepContext): number {
  const L = ctx.liquid, vel = L.vel;
  let m2 = 0;
  for (let o = 0; o < 3 * L.count; o += 3) {
    const s2 = vel[o] * vel[o] + vel[o + 1] * vel[o + 1] + vel[o + 2] * vel[o + 2];
    if (s2 > m2) m2 = s2;
  }
  return Math.sqrt(m2);
}

export function speedError(ctx: StepContext, stage: string, i: number, s2: number): SimulationError {
  const L = ctx.liquid;
  const p = [L.pos[3 * i], L.pos[3 * i + 1], L.pos[3 * i + 2]].map((v) => v.toPrecision(4)).join(', ');
  const what = Number.isFinite(s2)
    ? `speed ${Math.sqrt(s2).toPrecision(4)} m/s exceeds particle.maxSpeed = ${ctx.scene.particle.maxSpeed} m/s`
    : 'velocity is not finite (NaN or Infinity)';
  return new SimulationError(
    `particle engine, stage '${stage}', frame ${ctx.frame}: liquid particle ${i} at (${p}): ${what}. ` +
      'Try more substeps, a smaller particle.maxMove, weaker adhesion or a lower exchange rate.',
    stage,
    ctx.frame,
    i,
  );
}

/** Throws when a position is not finite. */
export function checkPositions(ctx: StepContext, stage: string): void {
  const L = ctx.liquid, pos = L.pos;
  for (let i = 0; i < L.count; i++) {
    const o = 3 * i;
    if (!Number.isFinite(pos[o] + pos[o + 1] + pos[o + 2])) {
      throw new SimulationError(
        `particle engine, stage '${stage}', frame ${ctx.frame}: liquid particle ${i} has a non-finite position.`,
        stage,
        ctx.frame,
        i,
      );
    }
  }
}
