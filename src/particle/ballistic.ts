/**
 * The accelerate and translate of particle.densitySolver = "pbf" (move.ts runs them as its job's
 * modes). The sub-timestep's body forces (gravity and adhesion) go into the velocity once, before its pressure (pressure.ts) and
 * the moves, and a move translates by the velocity: a liquid whose pressure cancels gravity does
 * not move, and the displacement of density correction can become velocity (pbf.ts) without
 * leaving a still pool the 0.43 g δt that per-move acceleration left it (Steele's Figure 3
 * accelerates a little in every move). A particle in free flight (no pressure acted on it, no wall
 * or object within reach) translates by v − ½ b δt instead, b δt its velocity gain from the body
 * forces: the trapezoid rule, so that it follows the exact parabola (symplectic Euler at the
 * sub-timestep would drop 1/S too far in S sub-timesteps). The offset ½ b δt is kept in
 * LiquidParticles.acc, whose adhesion acceleration is spent once the velocity has it (zero: the
 * particle translates by its velocity). Each particle changes only itself: the loops run over
 * ranges [i0, i1).
 */

/** v += (a + g) δt over [i0, i1), and acc = ½ (a + g) δt; returns the first particle past √max2 (−1: none). */
export function accelerateOffsetRange(
  vel: Float64Array, acc: Float64Array, gx: number, gy: number, gz: number, dt: number, max2: number, i0: number, i1: number,
): number {
  const half = 0.5 * dt;
  for (let i = i0; i < i1; i++) {
    const o = 3 * i;
    const bx = acc[o] + gx, by = acc[o + 1] + gy, bz = acc[o + 2] + gz;
    const vx = (vel[o] += bx * dt), vy = (vel[o + 1] += by * dt), vz = (vel[o + 2] += bz * dt);
    acc[o] = bx * half; acc[o + 1] = by * half; acc[o + 2] = bz * half;
    if (!(vx * vx + vy * vy + vz * vz <= max2)) return i;
  }
  return -1;
}

/** x += (v − offset) δt over [i0, i1). */
export function translateOffsetRange(pos: Float64Array, vel: Float64Array, offset: Float64Array, dt: number, i0: number, i1: number): void {
  for (let o = 3 * i0; o < 3 * i1; o++) pos[o] += (vel[o] - offset[o]) * dt;
}
