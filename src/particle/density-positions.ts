/** Density correction in the paper's form, positions only (density.ts with particle.pressureImpulse = false). */
import type { StepContext } from './context.ts';

/**
 * particle.pressureImpulse = false (positions only, as the paper): the velocity density correction
 * undid is removed, in two parts (both only ever remove velocity):
 *  - Support: the body forces of the sub-timestep (gravity and adhesion, L.acc) gave each
 *    particle b = (g + a) δt. Where the passes moved it against b, it keeps at most the rest:
 *    b loses the part −Δx·b̂/δt, at most all of b. This is the pressure of a liquid at rest
 *    balancing gravity, in position-based form: a particle the correction holds up keeps none of
 *    the g δt it was just given. Without it a pool resting in a box keeps g δt every
 *    sub-timestep wherever it moves as a whole (relative velocities there are zero, so the
 *    relative part below cannot see it), is re-compressed every sub-timestep and settles
 *    (measured: docs/decisions.md, "Density correction").
 *  - Relative: where the passes moved a particle by Δx against its velocity u relative to the
 *    liquid's mass-weighted mean, u loses the part Δx/δt along it, at most all of it (Galilean
 *    invariant: a falling or moving body is not slowed).
 */
export function damp(ctx: StepContext, del: Float64Array, invDt: number): void {
  const L = ctx.liquid, n = L.count, vel = L.vel, mat = L.material, mass = ctx.mass, acc = L.acc;
  const dt = 1 / invDt, [gx, gy, gz] = ctx.scene.gravity;
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    const bx = (acc[o] + gx) * dt, by = (acc[o + 1] + gy) * dt, bz = (acc[o + 2] + gz) * dt;
    const b2 = bx * bx + by * by + bz * bz;
    if (b2 === 0) continue;
    const proj = ((del[o] * bx + del[o + 1] * by + del[o + 2] * bz) * invDt) / b2;
    if (proj >= 0) continue;
    const k = proj < -1 ? -1 : proj;
    vel[o] += k * bx; vel[o + 1] += k * by; vel[o + 2] += k * bz;
  }
  let mx = 0, my = 0, mz = 0, mt = 0;
  for (let i = 0; i < n; i++) {
    const m = mass[mat[i]], o = 3 * i;
    mx += m * vel[o]; my += m * vel[o + 1]; mz += m * vel[o + 2]; mt += m;
  }
  if (mt === 0) return;
  mx /= mt; my /= mt; mz /= mt;
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    const ux = vel[o] - mx, uy = vel[o + 1] - my, uz = vel[o + 2] - mz, u2 = ux * ux + uy * uy + uz * uz;
    if (u2 === 0) continue;
    const proj = ((del[o] * ux + del[o + 1] * uy + del[o + 2] * uz) * invDt) / u2;
    if (proj >= 0) continue;
    const k = proj < -1 ? -1 : proj;
    vel[o] += k * ux; vel[o + 1] += k * uy; vel[o + 2] += k * uz;
  }
}

