/**
 * The projection the two static-wall holds share (viscosity-weiler-wall-hold.ts after the implicit
 * viscosity's solve, wall-friction-hold.ts after each move's face friction): per body (liquid-bodies.ts),
 * a static wall's net push may slow the body's motion along it, and stop it, but not push or reverse
 * it (Bender, Kugelstadt, Weiler & Koschier 2019, §4: the friction impulse projected so that it never
 * reverses the relative velocity). Per axis along every wall the body is against (not across one, nor
 * next to a moving wall), J = the wall's change of the body's momentum, P = the momentum before it:
 * where J · P > 0 all of J is taken back, where |J| > |P| the part beyond −P. The same for the turn
 * about the axis across the one wall the body is against, about its centre of mass. The callers take
 * what is returned back from every particle of the body alike (a uniform velocity and a rigid turn),
 * so the shear next to the wall stays the wall's.
 */

/**
 * A body's sums: weight (mass or rest density) sum, momentum (3), the wall's change of it (3), its
 * flags; then about each axis through the origin: Σ w x (3), the angular momentum (3), the wall's
 * change of it (3), Σ w |x⊥|² (3).
 */
export const BODY_STRIDE = 20;
export const MX = 8, ANG = 11, TORQUE = 14, INERTIA = 17;
/** A body's flag: next to (or on) a moving wall; bits 0–2: against a closed wall across that axis. */
export const MOVING = 8;

const spin = new Float64Array(3);

/**
 * Projects the `bodies` bodies' sums in place: each body's centre of mass into Σ w x's place, the
 * uniform velocity that takes the excess back into the change's (offset 4), the rigid turn's ω into
 * the torque's; a body with nothing to take back gets weight 0. `after`: the momenta were summed
 * after the wall acted (the change is taken off them first), else before. Returns the bodies held.
 */
export function holdBodies(sums: Float64Array, bodies: number, after: boolean): number {
  let held = 0;
  for (let b = 0; b < bodies; b++) {
    const o = BODY_STRIDE * b, flags = sums[o + 7], M = sums[o];
    let any = false;
    for (let c = 0; c < 3; c++) sums[o + MX + c] /= M;
    // The turns first (they read the body's J and P on the other axes), then the uniform velocities.
    for (let c = 0; c < 3; c++) {
      // Only about the axis across the one wall the body is against (a spin along its floor), about its centre of mass.
      const a1 = (c + 1) % 3, a2 = (c + 2) % 3, c1 = sums[o + MX + a1], c2 = sums[o + MX + a2];
      // About the centre: Σ w (x − c) × v = Σ w x × v − c × Σ w v; I_c = Σ w |x⊥|² − M |c⊥|².
      const Jt = sums[o + TORQUE + c] - (c1 * sums[o + 4 + a2] - c2 * sums[o + 4 + a1]);
      const Lt = sums[o + ANG + c] - (c1 * sums[o + 1 + a2] - c2 * sums[o + 1 + a1]) - (after ? Jt : 0);
      const Ic = sums[o + INERTIA + c] - M * (c1 * c1 + c2 * c2);
      const turn = flags !== 1 << c || !(Ic > 0) ? 0 : Jt * Lt > 0 || Lt === 0 ? Jt : Math.abs(Jt) > Math.abs(Lt) ? Jt + Lt : 0;
      spin[c] = turn / (Ic > 0 ? Ic : 1);
      if (turn !== 0) any = true;
    }
    for (let c = 0; c < 3; c++) {
      const J = sums[o + 4 + c], P = sums[o + 1 + c] - (after ? J : 0);
      // Not across a wall it is against (a wall's push off it is the pressure's), nor next to a moving wall.
      const along = (flags & MOVING) === 0 && (flags & (1 << c)) === 0;
      const excess = !along ? 0 : J * P > 0 || P === 0 ? J : Math.abs(J) > Math.abs(P) ? J + P : 0;
      sums[o + 4 + c] = excess / M;
      sums[o + TORQUE + c] = spin[c];
      if (excess !== 0) any = true;
    }
    if (any) held++;
    else sums[o] = 0;
  }
  return held;
}
