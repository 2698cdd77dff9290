/**
 * The net friction of a static no-slip face on a body, in the collide stage (boundaries.ts
 * domainWalls): it may slow the body's motion along the face, and stop it, but not push it.
 *
 * The face friction takes FACE_FRICTION of the tangential velocity per 1/30 s from every particle
 * the clamp holds on a closed "noslip" face, after each move. Each particle's share opposes its own
 * velocity, but the velocities it acts on are those of a move: on a gel block at rest on its floor
 * the bottom layer's particles run one way within a sub-timestep (the cohesion and the pressure
 * push them, the gel's springs pull them back over the moves: a pedal wave) while the block
 * stands, and the friction on that layer, summed over the body, is a force its state does not ask
 * for: with the implicit viscosity's walls held (viscosity-weiler-wall-hold.ts) the jelly block
 * still crept over its floor at 0.14–0.17 mm/s (docs/decisions.md, "jelly-block stands" and
 * "jelly-block's creep from the face friction"). The same rule as the solve's walls (Bender,
 * Kugelstadt, Weiler & Koschier 2019, §4: the friction impulse is projected so that it never
 * reverses the relative velocity; body-hold.ts), per move: per body (liquid-bodies.ts) with a particle on such a
 * face, per axis along every face it is on, and not across any closed face within the liquid's
 * reach (ctx.reach; the solve's hold leaves the axes across the walls whose ghosts a body has: a
 * pool against its side walls is held there by the walls, not by friction), J = the friction's
 * change of the body's momentum in this move, P = its momentum before it. Where J · P > 0 (the
 * friction pushes the body along its motion, or moves a body at rest) all of J is taken back; where
 * |J| > |P| (it would reverse it) the part beyond −P.
 * What is taken back is given to every particle of the body alike, so each particle on the face
 * is braked as before relative to the rest: the shear next to the face (a slot's or a spreading
 * puddle's profile) is the friction's; only the body's net motion is held. A body on a moving face
 * is left as it is (a moving wall may drive it). The same for the body's turn about the axis across
 * the one face it is against (a spin along its floor; viscosity-weiler-wall-hold.ts), taken back as
 * a rigid turn about its centre of mass. Measured per move against once over a sub-timestep's
 * moves (docs/decisions.md): per move holds the jelly block still, the sub-timestep's sum lets it
 * creep (0.015 mm/s at 4 mm).
 */
import type { StepContext } from './context.ts';
import { ANG, BODY_STRIDE, holdBodies, INERTIA, MOVING, MX, TORQUE } from './body-hold.ts';
import { liquidBodies } from './liquid-bodies.ts';

/** A body's flag: on a moving face (bits 0–2: on a closed face across that axis; body-hold.ts). */
export const ON_MOVING = MOVING;

/** The held bodies' sums and their roots (grown, never per move), and this move's labels. */
export class FrictionHold {
  sums = new Float64Array(0);
  roots = new Int32Array(0);
  bodies = 0;
  root: Int32Array | null = null;
}

/** Begins a move's hold (no body on a face yet); the labels are found at the first body. */
export function beginFrictionHold(ctx: StepContext): FrictionHold {
  const h = (ctx.frictionHold ??= new FrictionHold());
  h.bodies = 0;
  h.root = null;
  return h;
}

/**
 * The offset in h.sums of particle i's body, given a slot at its first particle on a face, with
 * `flags` added to its flags. A slotted root's own label holds −2 − slot until the hold is released.
 */
export function frictionBody(ctx: StepContext, h: FrictionHold, i: number, flags: number): number {
  const root = (h.root ??= liquidBodies(ctx));
  let r = root[i], s = r < 0 ? r : root[r];
  if (s >= 0) {
    if (h.sums.length < BODY_STRIDE * (h.bodies + 1)) {
      const grown = new Float64Array(BODY_STRIDE * Math.max(16, 2 * (h.bodies + 1)));
      grown.set(h.sums.subarray(0, BODY_STRIDE * h.bodies));
      h.sums = grown;
      const roots = new Int32Array(grown.length / BODY_STRIDE);
      roots.set(h.roots.subarray(0, h.bodies));
      h.roots = roots;
    }
    h.sums.fill(0, BODY_STRIDE * h.bodies, BODY_STRIDE * (h.bodies + 1));
    h.roots[h.bodies] = r;
    s = root[r] = -2 - h.bodies++;
  }
  const o = BODY_STRIDE * (-2 - s);
  h.sums[o + 7] = h.sums[o + 7] | flags;
  return o;
}

/** Adds the friction's change dv of particle i's velocity along axis k to its body's at offset o (and its turn about the other two axes). */
export function addFriction(ctx: StepContext, h: FrictionHold, o: number, i: number, k: number, dv: number): void {
  const m = ctx.mass[ctx.liquid.material[i]] * dv, pos = ctx.liquid.pos, sums = h.sums;
  sums[o + 4 + k] += m;
  // (x × ê_k)_a for the axes a ≠ k, with (a, a + 1, a + 2) cyclic: (x × e)_a = x_{a+1} e_{a+2} − x_{a+2} e_{a+1}.
  const k1 = (k + 1) % 3, k2 = (k + 2) % 3;
  sums[o + TORQUE + k1] += m * pos[3 * i + k2];
  sums[o + TORQUE + k2] -= m * pos[3 * i + k1];
}

/** Takes back the part of each body's friction that pushes or reverses its motion (see the header). Returns the bodies held. */
export function releaseFrictionHold(ctx: StepContext, h: FrictionHold): number {
  const nb = h.bodies, root = h.root;
  if (nb === 0 || root === null) return 0;
  const L = ctx.liquid, n = L.count, vel = L.vel, mat = L.material, mass = ctx.mass, sums = h.sums;
  const pos = L.pos;
  for (let i = 0; i < n; i++) {
    const r = root[i], s = r < 0 ? r : root[r];
    if (s >= 0) continue;
    const o = BODY_STRIDE * (-2 - s), m = mass[mat[i]];
    const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2], vx = vel[3 * i], vy = vel[3 * i + 1], vz = vel[3 * i + 2];
    sums[o] += m;
    sums[o + 1] += m * vx; sums[o + 2] += m * vy; sums[o + 3] += m * vz;
    sums[o + MX] += m * x; sums[o + MX + 1] += m * y; sums[o + MX + 2] += m * z;
    sums[o + ANG] += m * (y * vz - z * vy); sums[o + ANG + 1] += m * (z * vx - x * vz); sums[o + ANG + 2] += m * (x * vy - y * vx);
    sums[o + INERTIA] += m * (y * y + z * z); sums[o + INERTIA + 1] += m * (z * z + x * x); sums[o + INERTIA + 2] += m * (x * x + y * y);
  }
  // The momenta summed after the move's friction (holdBodies' `after`).
  const held = holdBodies(sums, nb, true);
  if (held > 0) {
    for (let i = 0; i < n; i++) {
      const r = root[i], s = r < 0 ? r : root[r];
      if (s >= 0) continue;
      const o = BODY_STRIDE * (-2 - s);
      if (sums[o] === 0) continue;
      // Less the uniform velocity and the rigid turn ω × (x − c) that take the excess back.
      const wx = sums[o + TORQUE], wy = sums[o + TORQUE + 1], wz = sums[o + TORQUE + 2];
      const rx = pos[3 * i] - sums[o + MX], ry = pos[3 * i + 1] - sums[o + MX + 1], rz = pos[3 * i + 2] - sums[o + MX + 2];
      vel[3 * i] -= sums[o + 4] + (wy * rz - wz * ry);
      vel[3 * i + 1] -= sums[o + 5] + (wz * rx - wx * rz);
      vel[3 * i + 2] -= sums[o + 6] + (wx * ry - wy * rx);
    }
  }
  // The labels stand for the next move.
  for (let b = 0; b < nb; b++) root[h.roots[b]] = h.roots[b];
  h.bodies = 0;
  h.root = null;
  return held;
}
