/**
 * Stage "collide": inter-penetration prevention (Steele §3.4). Particles that overlap are separated
 * to their contact distance (2r between liquid particles, r + r_o to an object particle). Between
 * liquid particles the separation is turned into velocity (position-based dynamics); against
 * objects the closing part of the relative velocity is removed. Without either, gravity would
 * re-push a resting particle into its support every move and its velocity would grow unbounded.
 *
 * Two guards the paper does not need at its frame rates but a general scene does:
 *  - a signed-distance guard: a liquid particle that a fast move carried past an object's particles
 *    (sdf < GUARD · r) is put back to sdf = GUARD · r along the sdf gradient (moving objects too);
 *  - domain walls (scene `domain` with particle.walls): particles stay r inside every face that is
 *    not "open"; "noslip" and moving walls also take friction FACE_FRICTION per 1/30 s.
 */
import { FACES, type Boundary } from '../scene/schema.ts';
import type { StepContext } from './context.ts';
import { boxDistance2 } from './neighbours.ts';
import { parallelObjectContacts } from './object-contacts-parallel.ts';

/** Liquid particle centres are kept at least this many radii outside every solid. */
export const GUARD = 0.5;
const FACE_FRICTION = 0.5;
/**
 * Liquid particles are separated to this fraction of the lattice spacing 2r. At the full 2r the
 * contacts fight density correction (a disordered liquid at ρ0 has pairs closer than the lattice
 * spacing), and every pass of it would reappear as velocity here; below it, density correction
 * keeps the spacing and contacts only catch fast, deep overlaps.
 */
export const LIQUID_CONTACT = 0.8;
/**
 * Only the first PBD_KICK · r of an overlap becomes velocity. A resting particle is pushed by about
 * g dt² (well under 0.01 r at the scenes' steps), so resting is unaffected; a deep overlap that a
 * moving object or density correction made is still removed, but does not explode into speed.
 */
export const PBD_KICK = 0.05;

export function preventInterpenetration(ctx: StepContext, dt: number): void {
  liquidContacts(ctx, dt);
  objectContacts(ctx);
  signedDistanceGuard(ctx);
  domainWalls(ctx, dt);
}

/**
 * The separation also becomes velocity (as in position-based dynamics, up to PBD_KICK): a particle
 * resting on others is pushed back by g dt² each move and so gets back the g dt gravity gave it.
 * The pushes are equal and opposite in momentum, so this conserves momentum.
 */
function liquidContacts(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, mat = L.material, mass = ctx.mass;
  const list = ctx.contacts, ls = list.start, lj = list.j;
  const dc = LIQUID_CONTACT * 2 * ctx.r, dc2 = dc * dc, inv = 1 / dt, kick = PBD_KICK * ctx.r;
  for (let i = 0; i < n; i++) {
    for (let q = ls[i]; q < ls[i + 1]; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - pos[3 * i], dy = pos[3 * j + 1] - pos[3 * i + 1], dz = pos[3 * j + 2] - pos[3 * i + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= dc2 || d2 === 0) continue;
      const d = Math.sqrt(d2);
      const ux = dx / d, uy = dy / d, uz = dz / d;
      const mi = mass[mat[i]], mj = mass[mat[j]];
      const wi = mj / (mi + mj), wj = mi / (mi + mj);
      const overlap = dc - d;
      const si = overlap * wi, sj = overlap * wj;
      const v = Math.min(overlap, kick) * inv, vi = v * wi, vj = v * wj;
      pos[3 * i] -= si * ux; pos[3 * i + 1] -= si * uy; pos[3 * i + 2] -= si * uz;
      pos[3 * j] += sj * ux; pos[3 * j + 1] += sj * uy; pos[3 * j + 2] += sj * uz;
      vel[3 * i] -= vi * ux; vel[3 * i + 1] -= vi * uy; vel[3 * i + 2] -= vi * uz;
      vel[3 * j] += vj * ux; vel[3 * j + 1] += vj * uy; vel[3 * j + 2] += vj * uz;
    }
  }
}

/** Object particles within this many (r + r_o), plus travel, are listed for contacts and friction (friction.ts touches at 1.1). */
const CONTACT_LIST_TOUCH = 1.25;

/**
 * Lists, per liquid particle, the object particles the moves and density correction of this
 * sub-timestep can meet (ctx.objectContacts), after viscosity, when each particle's velocity is
 * known. A particle's list reaches 1.25 (r + r_o) (contact; friction touches at 1.1) plus one
 * radius (density correction's displacements) plus twice its own travel bound
 * (|v| + g δt + the fastest object speed) δt; particles not flagged near a body (markNearObjects)
 * get none. Adhesion is left out of the bound, as it was of the former scene-wide one: near a
 * solid it mostly presses particles that contacts hold. A margin from the fastest particle of the
 * scene made every list as long as the fastest one needs: on the honey drop, draped on its ball,
 * 14 r instead of ~4 r, and the moves and density passes walked ~10× the entries. A particle a list
 * misses is still kept out of solids by the signed-distance guard.
 */
export function listObjectContacts(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count, O = ctx.objects;
  const list = ctx.objectContacts;
  list.reset(n);
  if (O.count === 0) {
    list.start.fill(0, 0, n + 1);
    return;
  }
  const pos = L.pos, vel = L.vel, near = L.nearObject, opos = ctx.objectSlotPos;
  const g = Math.hypot(...ctx.scene.gravity), vo = O.maxSpeed;
  const base = CONTACT_LIST_TOUCH * (ctx.r + ctx.ro) + ctx.r;
  const cg = ctx.cells.grid, start = cg.start, cnt = cg.count, box = ctx.cells.box;
  const og = ctx.objectCells.grid, ostart = og.start, ocnt = og.count, oorder = og.order, obox = ctx.objectCells.box;
  const ls = list.start;
  let lj = list.j, len = 0;
  for (let c = 0; c < cg.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    if (i1 === i0) continue;
    // The reach of the cell's fastest particle picks the object cells: those overlapping the
    // cell's particle box grown by it, whose own particle box is within that reach.
    let v2max = -1;
    for (let i = i0; i < i1; i++) {
      if (!near[i]) continue;
      const v2 = vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2];
      if (v2 > v2max) v2max = v2;
    }
    if (v2max < 0) {
      for (let i = i0; i < i1; i++) ls[i] = len;
      continue;
    }
    const far = base + 2 * (Math.sqrt(v2max) + g * dt + vo) * dt;
    const b = 6 * c;
    const m = ctx.objectCellsNear(box[b], box[b + 1], box[b + 2], box[b + 3], box[b + 4], box[b + 5], far);
    const cellsNear = ctx.nearObjectCells;
    for (let i = i0; i < i1; i++) {
      ls[i] = len;
      if (m === 0 || !near[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const v = Math.sqrt(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2]);
      const reach = base + 2 * (v + g * dt + vo) * dt, reach2 = reach * reach;
      for (let q = 0; q < m; q++) {
        const oc = cellsNear[q];
        // Skip a cell whose particles' bounding box is out of reach (neighbours.ts, CellPairs.box).
        if (boxDistance2(obox, 6 * oc, xi, yi, zi) >= reach2) continue;
        for (let s = ostart[oc], s1 = s + ocnt[oc]; s < s1; s++) {
          const dx = opos[3 * s] - xi, dy = opos[3 * s + 1] - yi, dz = opos[3 * s + 2] - zi;
          if (dx * dx + dy * dy + dz * dz >= reach2) continue;
          if (len === lj.length) {
            list.length = len;
            list.push(oorder[s]);
            lj = list.j;
            len = list.length;
          } else lj[len++] = oorder[s];
        }
      }
    }
  }
  list.length = len;
  ls[n] = len;
}

/**
 * Liquid particles out of object particles: to the contact distance r + r_o along the line from
 * the object particle (its normal when they coincide), without closing velocity relative to it.
 * With a thread team the particles are split over the threads (object-contacts-parallel.ts).
 */
export function objectContacts(ctx: StepContext): void {
  const L = ctx.liquid, O = ctx.objects, n = L.count;
  if (O.count === 0) return;
  if (parallelObjectContacts(ctx)) return;
  const list = ctx.objectContacts;
  objectContactRange(L.pos, L.vel, O.pos, O.vel, O.normal, list.start, list.j, ctx.r + ctx.ro, 0, n);
}

/** objectContacts over liquid particles [i0, i1): writes only their own positions and velocities. */
export function objectContactRange(
  pos: Float64Array, vel: Float64Array, opos: Float64Array, ovel: Float64Array, onormal: Float64Array,
  ls: Int32Array, lj: Int32Array, dc: number, i0: number, i1: number,
): void {
  const dc2 = dc * dc;
  for (let i = i0; i < i1; i++) {
    for (let q = ls[i]; q < ls[i + 1]; q++) {
      const o = lj[q];
      const dx = pos[3 * i] - opos[3 * o], dy = pos[3 * i + 1] - opos[3 * o + 1], dz = pos[3 * i + 2] - opos[3 * o + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 >= dc2) continue;
      let ux: number, uy: number, uz: number, d: number;
      if (d2 > 0) {
        d = Math.sqrt(d2);
        ux = dx / d; uy = dy / d; uz = dz / d;
      } else {
        d = 0;
        ux = onormal[3 * o]; uy = onormal[3 * o + 1]; uz = onormal[3 * o + 2];
      }
      const push = dc - d;
      pos[3 * i] += push * ux; pos[3 * i + 1] += push * uy; pos[3 * i + 2] += push * uz;
      const vn = (vel[3 * i] - ovel[3 * o]) * ux + (vel[3 * i + 1] - ovel[3 * o + 1]) * uy + (vel[3 * i + 2] - ovel[3 * o + 2]) * uz;
      if (vn < 0) {
        vel[3 * i] -= vn * ux; vel[3 * i + 1] -= vn * uy; vel[3 * i + 2] -= vn * uz;
      }
    }
  }
}

const local = new Float64Array(3);
const world = new Float64Array(3);
const bodyVel = new Float64Array(3);

/**
 * Flags the liquid particles within `margin` (m) of a body for the signed-distance guard: inside
 * the body's bounds grown by the margin and, there, with a signed distance under GUARD · r plus the
 * margin (one evaluation a sub-timestep instead of one a move and a density pass: a particle
 * draped over a ball is inside its bounds but mostly far from its surface).
 */
export function markNearObjects(ctx: StepContext, margin: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, near = L.nearObject;
  const reach = GUARD * ctx.r + margin;
  near.fill(0, 0, n);
  for (const b of ctx.objects.bodies) {
    const R = b.pose.R, t = b.pose.t;
    const min = b.min, max = b.max, sdf = b.compiled.sdf;
    for (let i = 0; i < n; i++) {
      if (near[i]) continue;
      const dx = pos[3 * i] - t[0], dy = pos[3 * i + 1] - t[1], dz = pos[3 * i + 2] - t[2];
      const x = R[0] * dx + R[3] * dy + R[6] * dz;
      const y = R[1] * dx + R[4] * dy + R[7] * dz;
      const z = R[2] * dx + R[5] * dy + R[8] * dz;
      if (x > min[0] - margin && x < max[0] + margin && y > min[1] - margin && y < max[1] + margin && z > min[2] - margin && z < max[2] + margin) {
        // Not "≥ reach": a NaN distance keeps the particle flagged.
        if (!(sdf(x, y, z) >= reach)) near[i] = 1;
      }
    }
  }
}

export function signedDistanceGuard(ctx: StepContext): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, near = L.nearObject;
  const bodies = ctx.objects.bodies;
  if (bodies.length === 0) return;
  const target = GUARD * ctx.r;
  const eps = 0.05 * ctx.r;
  for (let i = 0; i < n; i++) {
    if (!near[i]) continue;
    for (const b of bodies) {
      const R = b.pose.R, t = b.pose.t;
      const dx = pos[3 * i] - t[0], dy = pos[3 * i + 1] - t[1], dz = pos[3 * i + 2] - t[2];
      const x = R[0] * dx + R[3] * dy + R[6] * dz;
      const y = R[1] * dx + R[4] * dy + R[7] * dz;
      const z = R[2] * dx + R[5] * dy + R[8] * dz;
      if (x < b.min[0] - target || x > b.max[0] + target || y < b.min[1] - target || y > b.max[1] + target || z < b.min[2] - target || z > b.max[2] + target) continue;
      const sdf = b.compiled.sdf;
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
      world[0] = R[0] * local[0] + R[1] * local[1] + R[2] * local[2] + t[0];
      world[1] = R[3] * local[0] + R[4] * local[1] + R[5] * local[2] + t[1];
      world[2] = R[6] * local[0] + R[7] * local[1] + R[8] * local[2] + t[2];
      pos[3 * i] = world[0]; pos[3 * i + 1] = world[1]; pos[3 * i + 2] = world[2];
      // World normal, and the body's velocity at the point: no closing speed left.
      const nx = R[0] * gx + R[1] * gy + R[2] * gz;
      const ny = R[3] * gx + R[4] * gy + R[5] * gz;
      const nz = R[6] * gx + R[7] * gy + R[8] * gz;
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

export function faceBoundary(ctx: StepContext, face: (typeof FACES)[number]): Boundary {
  const d = ctx.scene.domain!;
  return d.faces[face] ?? d.boundary;
}

export function domainWalls(ctx: StepContext, dt: number): void {
  const d = ctx.scene.domain;
  if (!d || !ctx.scene.particle.walls) return;
  const L = ctx.liquid, n = L.count, pos = L.pos, vel = L.vel, r = ctx.r;
  const keep = Math.pow(1 - FACE_FRICTION, 30 * dt);
  for (let f = 0; f < 6; f++) {
    const face = FACES[f];
    const bnd = faceBoundary(ctx, face);
    if (bnd === 'open') continue;
    const axis = f >> 1, upper = (f & 1) === 1;
    const limit = upper ? d.max[axis] - r : d.min[axis] + r;
    const wall = typeof bnd === 'object' ? bnd.velocity : null;
    const sticky = bnd === 'noslip' || wall !== null;
    for (let i = 0; i < n; i++) {
      const o = 3 * i + axis;
      if (upper ? pos[o] <= limit : pos[o] >= limit) continue;
      pos[o] = limit;
      if (upper ? vel[o] > 0 : vel[o] < 0) vel[o] = 0;
      if (sticky) {
        for (let k = 0; k < 3; k++) {
          if (k === axis) continue;
          const w = wall ? wall[k] : 0;
          vel[3 * i + k] = w + (vel[3 * i + k] - w) * keep;
        }
      }
    }
  }
}
