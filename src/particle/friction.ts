/**
 * Stage "friction" (Steele §3.4): a liquid particle on the liquid surface that touches an object
 * loses a fraction f of its velocity relative to the object per 1/30 s, so per move of length dt it
 * keeps (1 − f)^(30 dt). "Touching": within 1.1 (r + r_o) of an object particle; the first in list
 * order (rank order: object-lists.ts) gives f. While the particle is within the far entries'
 * clearance ball, only the near run can touch; within every entry's, none can. It runs in a move's job (move.ts).
 */
import type { StepContext } from './context.ts';
import { clearOf, clearOfAll, TOUCH } from './object-lists.ts';

/** Per body: the share of the tangential velocity a move of dt keeps (friction factor per 1/30 s), into `out`. */
export function frictionKeep(ctx: StepContext, dt: number, out: Float64Array): Float64Array {
  const bodies = ctx.objects.bodies;
  for (let b = 0; b < bodies.length; b++) out[b] = Math.pow(1 - bodies[b].friction, 30 * dt);
  return out;
}

/** Distance within which a surface particle touches an object particle, m. */
export function frictionTouch(ctx: StepContext): number {
  return TOUCH * (ctx.r + ctx.ro);
}

/**
 * Friction over liquid particles [i0, i1): each changes only its own velocity. The entries are
 * object particles by rank: their position, velocity and body (the objects' own arrays) read at index[rank].
 */
export function frictionRange(
  pos: Float64Array, vel: Float64Array, surface: Uint8Array, ls: Int32Array, lj: Uint16Array | Int32Array, clear: Float32Array,
  opos: Float64Array, ovel: Float64Array, obody: Int32Array, index: Int32Array, keep: Float64Array,
  touch: number, i0: number, i1: number,
): void {
  const far = lj instanceof Uint16Array ? 0x8000 : 0x40000000, touch2 = touch * touch;
  for (let i = i0; i < i1; i++) {
    const q0 = ls[i], q1 = ls[i + 1];
    if (q0 === q1 || !surface[i]) continue;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    // Every entry further than the touch (the list's clearance A): nothing to find.
    if (clearOfAll(clear, i, xi, yi, zi, touch)) continue;
    const inside = clearOf(clear, i, xi, yi, zi, touch);
    // The lowest touching rank: the near run is in rank order, so its first touch; then, outside
    // the ball, any lower one in the far run.
    let first = -1;
    for (let q = q0; q < q1; q++) {
      const e = lj[q];
      if (e >= far) {
        if (inside) break;
        const s = e - far;
        if (first >= 0 && s > first) break;
        const o = 3 * index[s], dx = opos[o] - xi, dy = opos[o + 1] - yi, dz = opos[o + 2] - zi;
        if (dx * dx + dy * dy + dz * dz < touch2) first = s;
        if (first === s) break;
      } else if (first < 0) {
        const o = 3 * index[e], dx = opos[o] - xi, dy = opos[o + 1] - yi, dz = opos[o + 2] - zi;
        if (dx * dx + dy * dy + dz * dz < touch2) {
          first = e;
          // Within the far entries' ball nothing after it counts.
          if (inside) break;
        }
      }
    }
    if (first < 0) continue;
    const o = index[first], f = keep[obody[o]];
    // (No velocities where no body moves: ObjectParticles.vel.)
    if (ovel.length === 0) for (let k = 0; k < 3; k++) vel[3 * i + k] = 0 + (vel[3 * i + k] - 0) * f;
    else for (let k = 0; k < 3; k++) vel[3 * i + k] = ovel[3 * o + k] + (vel[3 * i + k] - ovel[3 * o + k]) * f;
  }
}
