/**
 * The net drag of a static no-slip wall on a body, after the implicit viscosity's solve
 * (viscosity-weiler.ts): it may slow the body's motion along the wall, and stop it, but not push it.
 *
 * The solve's wall terms (the mirror ghosts, viscosity-weiler-walls.ts, and the uncovered part,
 * viscosity-weiler-wall-cover.ts) drag each particle next to a wall towards the wall's velocity.
 * The velocity they drag is the one the sub-timestep has reached at the solve: after adhesion,
 * gravity and the first pressure solve, before the moves' gel springs, contacts and density
 * correction. Where those later stages hold against the earlier ones (a gel block at rest: the
 * cohesion and the pressure push its bottom layer one way, its springs pull it back in the moves),
 * the wall reacts to only the first half of that balance, and its drag, summed over the body, is a
 * force the body's own state does not ask for: a yielded, slightly lopsided jelly block slid over
 * its floor at a steady 2 mm/s (docs/decisions.md, "jelly-block stands"). A wall at rest is
 * friction: the net force it puts on a body along it opposes the body's motion along it and at most
 * brings it to rest (Coulomb's and viscous friction alike; the implicit frictional boundary of
 * Bender, Kugelstadt, Weiler & Koschier 2019, §4, projects its friction impulse so that it never
 * reverses the relative velocity; body-hold.ts). So, per body (the liquid connected through the contact lists,
 * ctx.contacts: pairs closer than CONTACT_REACH radii) that touches a wall (has mirror ghosts), and
 * per axis along every wall it touches (an axis across one of them is left to the pressure and the
 * ghosts' push off the wall): J = what the solve did to the body's momentum that the objects did
 * not (Σ ρ_i (v_i − v*_i) less the object terms: the liquid pairs' terms cancel in the sum, so it
 * is the walls' drag and the solve's residual on it), P = the body's momentum before the solve
 * (Σ ρ_i v*_i; per rest volume, as the system's rows). Where J · P > 0 (the walls push the body
 * along its motion, or move a body at rest) all of J is taken back; where |J| > |P| (they would
 * reverse it) the part beyond −P. What is taken back is taken from every particle of the body
 * alike, a uniform velocity, so the viscous shear next to the wall (the no-slip's profile, the slot
 * flows' and the spreading puddles') stays as the solve left it; only the body's net motion is
 * held. A body within a support of a moving wall is left as solved (a moving wall may drive it).
 * The same for the body's turn about the axis across the one wall it touches (a spin along its
 * floor: the drag's net torque about the body's centre of mass may slow it, not drive it; taken back
 * as a rigid turn about that centre, which has no net momentum): the jelly block, held in
 * translation, turned about the vertical at up to 9.5°/s at 3 mm (docs/decisions.md, "jelly-block's
 * creep from the face friction"). The collide stage's face friction is held the same way
 * (wall-friction-hold.ts).
 *
 * What this leaves out: a wall's net force on a body that its deformation rightly asks for (a
 * drop spreading faster on one side than the other) and the friction that turns a spinning body's
 * spin into rolling (its spin is still braked by the drag, but it does not roll away). Figures:
 * BENCHMARKS.md, "jelly-block stands".
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { GHOST_WALLS, WALL_STRIDE } from './viscosity-weiler-product.ts';
import { ANG, BODY_STRIDE, holdBodies, INERTIA, MOVING, MX, TORQUE } from './body-hold.ts';
import { liquidBodies } from './liquid-bodies.ts';

/** The bodies' sums (kept between solves: grown, never per sub-timestep). */
export class WallHold {
  sums = new Float64Array(0);
}

/**
 * Holds the net drag of the static no-slip walls on each body (see the header) in the solution x
 * of the solve (v* in vstar), for particles [0, n) and the nw walls of st.walls. `parent` is free
 * scratch of n entries or more (the solve's residual vector, viscosity-weiler.ts); onrm and opos
 * the solve's object normals and slot positions, bcoef its boundary entries' coefficients (in the stage
 * buffer or in st.bcoef: viscosity-weiler.ts). Returns the bodies whose net motion it held.
 */
export function holdWallDrag(
  ctx: StepContext, st: ImplicitViscosityState, x: Float64Array, vstar: Float64Array, n: number, nw: number, parent: Int32Array, onrm: Float32Array, opos: Float64Array, bcoef: Float32Array,
): number {
  const walls = st.walls, gs = st.ghosts.start, gj = st.ghosts.j, bs = st.boundary.start;
  let noslip = false;
  for (let w = 0; w < nw; w++) if (walls[WALL_STRIDE * w + 2] === 1) noslip = true;
  if (!noslip) return 0;
  // Any row with ghosts (only those have wall terms: viscosity-weiler-product.ts rowExtra).
  let touched = false;
  for (let i = 0; i < n && !touched; i++) touched = gs[i] < gs[i + 1];
  if (!touched) return 0;

  // The bodies (liquid-bodies.ts: each particle labelled with its body's smallest index, kept for
  // the moves' face friction, wall-friction-hold.ts); the roots of those that touch a wall get a
  // slot in sums (parent[root]; −1 elsewhere).
  const label = liquidBodies(ctx);
  parent.fill(-1, 0, n);
  const hold = (st.wallHold ??= new WallHold());
  let bodies = 0;
  for (let i = 0; i < n; i++) {
    if (gs[i] === gs[i + 1]) continue;
    const root = label[i];
    if (parent[root] < 0) {
      if (hold.sums.length < BODY_STRIDE * (bodies + 1)) {
        const grown = new Float64Array(BODY_STRIDE * Math.max(16, 2 * (bodies + 1)));
        grown.set(hold.sums.subarray(0, BODY_STRIDE * bodies));
        hold.sums = grown;
      }
      hold.sums.fill(0, BODY_STRIDE * bodies, BODY_STRIDE * (bodies + 1));
      parent[root] = bodies++;
    }
  }
  const sums = hold.sums, rho = st.rho, mat = ctx.liquid.material, pos = ctx.liquid.pos;
  // The widest support (a moving wall's reach), where the table has a moving wall.
  let reach = 0;
  for (let w = 0; w < nw; w++) {
    const wo = WALL_STRIDE * w;
    if (walls[wo + 2] === 1 && (walls[wo + 3] !== 0 || walls[wo + 4] !== 0 || walls[wo + 5] !== 0)) for (let e = 0; e < st.ph.length; e++) reach = Math.max(reach, st.ph[e]);
  }
  for (let i = 0; i < n; i++) {
    const slot = parent[label[i]];
    if (slot < 0) continue;
    const o = BODY_STRIDE * slot, ri = rho[mat[i]];
    const px = pos[3 * i], py = pos[3 * i + 1], pz = pos[3 * i + 2], vx = vstar[3 * i], vy = vstar[3 * i + 1], vz = vstar[3 * i + 2];
    sums[o] += ri;
    sums[o + 1] += ri * vx; sums[o + 2] += ri * vy; sums[o + 3] += ri * vz;
    // What the solve did to the body's momentum that the objects did not: the walls' terms, and the
    // solve's own residual on them (summed, the liquid pairs' terms cancel, and so do their torques:
    // each pair's term lies along the pair).
    let jx = ri * (x[3 * i] - vx), jy = ri * (x[3 * i + 1] - vy), jz = ri * (x[3 * i + 2] - vz);
    if (bs[i] < bs[i + 1]) {
      objectDrag(ctx, st, x, i, onrm, opos, bcoef, drag);
      jx -= drag[0]; jy -= drag[1]; jz -= drag[2];
    }
    sums[o + 4] += jx; sums[o + 5] += jy; sums[o + 6] += jz;
    sums[o + MX] += ri * px; sums[o + MX + 1] += ri * py; sums[o + MX + 2] += ri * pz;
    sums[o + ANG] += ri * (py * vz - pz * vy); sums[o + ANG + 1] += ri * (pz * vx - px * vz); sums[o + ANG + 2] += ri * (px * vy - py * vx);
    sums[o + TORQUE] += py * jz - pz * jy; sums[o + TORQUE + 1] += pz * jx - px * jz; sums[o + TORQUE + 2] += px * jy - py * jx;
    sums[o + INERTIA] += ri * (py * py + pz * pz); sums[o + INERTIA + 1] += ri * (pz * pz + px * px); sums[o + INERTIA + 2] += ri * (px * px + py * py);
    if (gs[i] < gs[i + 1]) {
      let flags = reach > 0 && nearMovingWall(walls, pos, i, nw, reach) ? MOVING : 0;
      for (let e = gs[i], e1 = gs[i + 1]; e < e1; e++) {
        const code = gj[e], wo = WALL_STRIDE * (code - GHOST_WALLS * ((code / GHOST_WALLS) | 0));
        flags |= 1 << walls[wo];
      }
      sums[o + 7] = (sums[o + 7] | flags);
    }
  }
  // Per body and axis: the part of the walls' drag that pushes, or reverses, the body's motion (the momenta from before the solve).
  const held = holdBodies(sums, bodies, false);
  if (held === 0) return 0;
  for (let i = 0; i < n; i++) {
    const slot = parent[label[i]];
    if (slot < 0) continue;
    const o = BODY_STRIDE * slot;
    if (sums[o] === 0) continue;
    // Less the uniform velocity and the rigid turn ω × (x − c) that take the excess back.
    const wx = sums[o + TORQUE], wy = sums[o + TORQUE + 1], wz = sums[o + TORQUE + 2];
    const rx = pos[3 * i] - sums[o + MX], ry = pos[3 * i + 1] - sums[o + MX + 1], rz = pos[3 * i + 2] - sums[o + MX + 2];
    x[3 * i] -= sums[o + 4] + (wy * rz - wz * ry); x[3 * i + 1] -= sums[o + 5] + (wz * rx - wx * rz); x[3 * i + 2] -= sums[o + 6] + (wx * ry - wy * rx);
  }
  return held;
}

/** Whether particle i lies within `reach` of a moving no-slip wall (one with a velocity). */
function nearMovingWall(walls: Float64Array, pos: Float64Array, i: number, nw: number, reach: number): boolean {
  for (let w = 0; w < nw; w++) {
    const wo = WALL_STRIDE * w;
    if (walls[wo + 2] !== 1 || (walls[wo + 3] === 0 && walls[wo + 4] === 0 && walls[wo + 5] === 0)) continue;
    if (Math.abs(pos[3 * i + walls[wo]] - walls[wo + 1]) < reach) return true;
  }
  return false;
}

const drag = new Float64Array(3);

/**
 * The object terms on row i in the solution v, with the sign of a force, as the products take them
 * (viscosity-weiler-product.ts rowExtra; the body reaction of viscosity-weiler.ts): −T X_i T (v_i − v_b)
 * over the object slots b in i's support, into `out` (per rest volume, as the system's rows).
 */
function objectDrag(
  ctx: StepContext, st: ImplicitViscosityState, v: Float64Array, i: number, onrm: Float32Array, opos: Float64Array, bcoef: Float32Array, out: Float64Array,
): void {
  const bs = st.boundary.start, bj = st.boundary.j;
  const oorder = ctx.objectCells.grid.order, ovel = ctx.objects.vel, pos = ctx.liquid.pos;
  const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], nx = onrm[3 * i], ny = onrm[3 * i + 1], nz = onrm[3 * i + 2];
  let sx = 0, sy = 0, sz = 0;
  for (let e = bs[i], e1 = bs[i + 1]; e < e1; e++) {
    const s = bj[e], o = oorder[s];
    // (No velocities where no body moves: ObjectParticles.vel.)
    const still = ovel.length === 0;
    let wx = v[3 * i] - (still ? 0 : ovel[3 * o]), wy = v[3 * i + 1] - (still ? 0 : ovel[3 * o + 1]), wz = v[3 * i + 2] - (still ? 0 : ovel[3 * o + 2]);
    const wn = wx * nx + wy * ny + wz * nz;
    wx -= wn * nx; wy -= wn * ny; wz -= wn * nz;
    let dx = xi - opos[3 * s], dy = yi - opos[3 * s + 1], dz = zi - opos[3 * s + 2];
    const dn = dx * nx + dy * ny + dz * nz;
    dx -= dn * nx; dy -= dn * ny; dz -= dn * nz;
    const u = bcoef[e] * (dx * wx + dy * wy + dz * wz);
    sx -= u * dx; sy -= u * dy; sz -= u * dz;
  }
  out[0] = sx; out[1] = sy; out[2] = sz;
}
