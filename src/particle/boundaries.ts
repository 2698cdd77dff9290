/**
 * What keeps liquid inside the scene besides the object particles (Steele's frame rates do not
 * need these; a general scene does):
 *  - a signed-distance guard: a liquid particle that a fast move carried past an object's particles
 *    (sdf < GUARD · r) is put back to sdf = GUARD · r along the sdf gradient (moving objects too);
 *  - domain walls (scene `domain` with particle.walls): particles stay r inside every face that is
 *    not "open" (less on a face a liquid body's start lattice was squeezed towards: half its
 *    spacing there, StepContext.wallClearance, start-packing.ts); "noslip" and moving walls also
 *    take friction FACE_FRICTION per 1/30 s, whose net push on a body along a static face is taken
 *    back (wall-friction-hold.ts).
 * Both run on the calling thread, after every move and density pass (the guard over each body's
 * particles listed by markNearObjects only).
 */
import { FACES } from '../scene/faces.ts';
import type { Boundary } from '../scene/schema.ts';
import type { StepContext } from './context.ts';
import { addFriction, beginFrictionHold, frictionBody, type FrictionHold, ON_MOVING, releaseFrictionHold } from './wall-friction-hold.ts';

/** Liquid particle centres are kept at least this many radii outside every solid. */
export const GUARD = 0.5;
const FACE_FRICTION = 0.5;

const local = new Float64Array(3);
const world = new Float64Array(3);
const bodyVel = new Float64Array(3);

/**
 * Flags the liquid particles within `margin` (m) of a body for the stages that meet objects:
 * inside the body's bounds grown by the margin and, there, with a signed distance under GUARD · r
 * plus the margin (one evaluation a sub-timestep instead of one a move and a density pass: a
 * particle draped over a ball is inside its bounds but mostly far from its surface). And lists,
 * per body, the particles within `guardMargin` (at most `margin`) of it in the same way, for the
 * signed-distance guard (ctx.guardList, as runs of consecutive indices): the guard then visits only those, not every particle
 * flagged near any body (on the honey drop every particle is, by the ball's adhesion, and the
 * floor's loop found none of them within its reach). `guardMargin` bounds how far a particle and a
 * body come closer over the sub-timestep's moves and density passes (step.ts: the near flags' own
 * part for the guard, twice the travel, 4 r and r_o); the signed distance is 1-Lipschitz, so a
 * particle further out at the mark does not come within GUARD · r before the next mark.
 */
export function markNearObjects(ctx: StepContext, margin: number, guardMargin = margin): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, near = L.nearObject;
  const target = GUARD * ctx.r, reach = target + margin, gm = Math.min(guardMargin, margin), guardReach = target + gm;
  const bodies = ctx.objects.bodies;
  near.fill(0, 0, n);
  if (ctx.guardEnds.length < bodies.length + 1) ctx.guardEnds = new Int32Array(bodies.length + 1);
  const ends = ctx.guardEnds;
  let list = ctx.guardList, m = 0;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    const R = b.pose.R, t = b.pose.t;
    const min = b.min, max = b.max, sdf = b.compiled.sdf;
    ends[bi] = m;
    for (let i = 0; i < n; i++) {
      const dx = pos[3 * i] - t[0], dy = pos[3 * i + 1] - t[1], dz = pos[3 * i + 2] - t[2];
      const x = R[0] * dx + R[3] * dy + R[6] * dz;
      const y = R[1] * dx + R[4] * dy + R[7] * dz;
      const z = R[2] * dx + R[5] * dy + R[8] * dz;
      if (!(x > min[0] - margin && x < max[0] + margin && y > min[1] - margin && y < max[1] + margin && z > min[2] - margin && z < max[2] + margin)) continue;
      const listed = x > min[0] - gm && x < max[0] + gm && y > min[1] - gm && y < max[1] + gm && z > min[2] - gm && z < max[2] + gm;
      if (near[i] && !listed) continue;
      const s = sdf(x, y, z);
      // Not "≥ reach": a NaN distance keeps the particle flagged (and listed).
      if (!(s >= reach)) near[i] = 1;
      if (listed && !(s >= guardReach)) {
        // Runs of consecutive indices (the liquid is sorted by cell, so a body's particles come in runs):
        // the ball of the honey drop, every particle within its margin, is one run, not an index each.
        if (m > ends[bi] && list[2 * m - 1] === i) {
          list[2 * m - 1] = i + 1;
          continue;
        }
        if (2 * m === list.length) {
          const grown = new Int32Array(Math.max(256, 2 * Math.ceil(1.5 * m)));
          grown.set(list);
          ctx.guardList = list = grown;
        }
        list[2 * m] = i;
        list[2 * m + 1] = i + 1;
        m++;
      }
    }
  }
  ends[bodies.length] = m;
}

/**
 * Per body, over its listed particles (markNearObjects; a particle meets the bodies in the same
 * order as it would particle by particle: each only moves itself). The body's pose and bounds are
 * hoisted, and the bounds test rejects most particles before the shape's sdf is evaluated.
 */
export function signedDistanceGuard(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel;
  const bodies = ctx.objects.bodies;
  if (bodies.length === 0) return;
  const list = ctx.guardList, ends = ctx.guardEnds;
  if (ends.length < bodies.length + 1) return;
  const target = GUARD * ctx.r;
  const eps = 0.05 * ctx.r;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi];
    const R = b.pose.R, t = b.pose.t, sdf = b.compiled.sdf;
    const R0 = R[0], R1 = R[1], R2 = R[2], R3 = R[3], R4 = R[4], R5 = R[5], R6 = R[6], R7 = R[7], R8 = R[8];
    const tx = t[0], ty = t[1], tz = t[2];
    const x0 = b.min[0] - target, y0 = b.min[1] - target, z0 = b.min[2] - target;
    const x1 = b.max[0] + target, y1 = b.max[1] + target, z1 = b.max[2] + target;
    // Each run in turn (ascending: a run starting past a removed tail ends the list).
    for (let q = ends[bi], q1 = ends[bi + 1]; q < q1; q++) {
      const i0 = list[2 * q], e = Math.min(list[2 * q + 1], n);
      if (i0 >= e) break;
      for (let i = i0; i < e; i++) {
        const dx = pos[3 * i] - tx, dy = pos[3 * i + 1] - ty, dz = pos[3 * i + 2] - tz;
        const x = R0 * dx + R3 * dy + R6 * dz;
        if (x < x0 || x > x1) continue;
        const y = R1 * dx + R4 * dy + R7 * dz;
        if (y < y0 || y > y1) continue;
        const z = R2 * dx + R5 * dy + R8 * dz;
        if (z < z0 || z > z1) continue;
        const s = sdf(x, y, z);
        if (!(s < target)) continue;
        let gx = sdf(x + eps, y, z) - sdf(x - eps, y, z);
        let gy = sdf(x, y + eps, z) - sdf(x, y - eps, z);
        let gz = sdf(x, y, z + eps) - sdf(x, y, z - eps);
        const gl = Math.hypot(gx, gy, gz);
        if (!(gl > 0)) continue;
        gx /= gl; gy /= gl; gz /= gl;
        const push = target - s;
        local[0] = x + push * gx; local[1] = y + push * gy; local[2] = z + push * gz;
        world[0] = R0 * local[0] + R1 * local[1] + R2 * local[2] + tx;
        world[1] = R3 * local[0] + R4 * local[1] + R5 * local[2] + ty;
        world[2] = R6 * local[0] + R7 * local[1] + R8 * local[2] + tz;
        pos[3 * i] = world[0]; pos[3 * i + 1] = world[1]; pos[3 * i + 2] = world[2];
        // World normal, and the body's velocity at the point: no closing speed left.
        const nx = R0 * gx + R1 * gy + R2 * gz;
        const ny = R3 * gx + R4 * gy + R5 * gz;
        const nz = R6 * gx + R7 * gy + R8 * gz;
        if (b.motion.isStatic) bodyVel.fill(0);
        else b.motion.velocityAt(ctx.time, world, bodyVel);
        const vn = (vel[3 * i] - bodyVel[0]) * nx + (vel[3 * i + 1] - bodyVel[1]) * ny + (vel[3 * i + 2] - bodyVel[2]) * nz;
        if (vn < 0) {
          vel[3 * i] -= vn * nx; vel[3 * i + 1] -= vn * ny; vel[3 * i + 2] -= vn * nz;
        }
        ctx.count('guardPushes');
      }
    }
  }
}

export function faceBoundary(ctx: StepContext, face: (typeof FACES)[number]): Boundary {
  const d = ctx.scene.domain!;
  return d.faces[face] ?? d.boundary;
}

export function domainWalls(ctx: StepContext, dt: number): void {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return;
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel;
  const keep = Math.pow(1 - FACE_FRICTION, 30 * dt);
  // A static no-slip face's friction may slow a body, not push it (wall-friction-hold.ts).
  let hold: FrictionHold | null = null;
  if (dt > 0) for (let f = 0; f < 6 && hold === null; f++) if (faceBoundary(ctx, FACES[f]) === 'noslip') hold = beginFrictionHold(ctx);
  for (let f = 0; f < 6; f++) {
    const face = FACES[f];
    const bnd = faceBoundary(ctx, face);
    if (bnd === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    const c = ctx.wallClearance[f];
    const limit = upper ? d.max[axis] - c : d.min[axis] + c;
    const wall = typeof bnd === 'object' ? bnd.velocity : null;
    const sticky = bnd === 'noslip' || wall !== null;
    const flags = wall !== null ? ON_MOVING : 1 << axis;
    // A body within the liquid's reach of a closed face is against it: its axis is the face's to hold (the hold's flags).
    const near = upper ? limit - ctx.reach : limit + ctx.reach;
    for (let i = 0; i < n; i++) {
      const o = 3 * i + axis;
      if (upper ? pos[o] <= limit : pos[o] >= limit) {
        if (hold !== null && (upper ? pos[o] > near : pos[o] < near)) frictionBody(ctx, hold, i, flags);
        continue;
      }
      pos[o] = limit;
      if (upper ? vel[o] > 0 : vel[o] < 0) vel[o] = 0;
      const b = hold === null ? -1 : frictionBody(ctx, hold, i, flags);
      if (sticky) {
        for (let k = 0; k < 3; k++) {
          if (k === axis) continue;
          const w = wall ? wall[k] : 0, v = vel[3 * i + k];
          vel[3 * i + k] = w + (v - w) * keep;
          if (b >= 0 && wall === null) addFriction(ctx, hold!, b, i, k, vel[3 * i + k] - v);
        }
      }
    }
  }
  if (hold !== null) {
    const held = releaseFrictionHold(ctx, hold);
    if (held > 0) ctx.count('frictionHolds', held);
  }
}

/**
 * Whether the point lies within `reach` (m) of any body's surface (its signed distance under it; a NaN distance
 * counts as within), the bounds grown by `reach` tested first.
 */
export function withinReachOfBody(ctx: StepContext, px: number, py: number, pz: number, reach: number): boolean {
  const bodies = ctx.objects.bodies;
  for (let bi = 0; bi < bodies.length; bi++) {
    const b = bodies[bi], R = b.pose.R, t = b.pose.t, min = b.min, max = b.max;
    const dx = px - t[0], dy = py - t[1], dz = pz - t[2];
    const x = R[0] * dx + R[3] * dy + R[6] * dz;
    if (!(x > min[0] - reach && x < max[0] + reach)) continue;
    const y = R[1] * dx + R[4] * dy + R[7] * dz;
    if (!(y > min[1] - reach && y < max[1] + reach)) continue;
    const z = R[2] * dx + R[5] * dy + R[8] * dz;
    if (!(z > min[2] - reach && z < max[2] + reach)) continue;
    if (!(b.compiled.sdf(x, y, z) >= reach)) return true;
  }
  return false;
}
