/**
 * Contacts of a free body (free-bodies.ts) with the closed domain faces and with the other solids
 * (static or scripted; free bodies do not meet each other here). A rigid contact on signed
 * distances: the body's object particles (its surface, sampled at 2 r_o) are
 * the test points; a point below a closed face, or inside another solid (its signed distance < 0,
 * at that solid's pose), is a contact with that face's or solid's normal. The contacts' impulses
 * are then solved together as sequential impulses with accumulated, clamped impulses (projected
 * Gauss–Seidel; Catto 2005, "Iterative dynamics with temporal coherence", §5–6; the impulse response
 * through the body's mass and world inertia as Mirtich 1996, ch. 3): each contact keeps the normal
 * impulse λ ≥ 0 it has given so far and a Coulomb friction impulse within CONTACT_FRICTION λ, and
 * each visit adds the change that stops its closing speed (restitution 0) and its sliding, which
 * may take back part of what it gave before. The sweeps run forward and backward in turn, up to
 * CONTACT_SWEEPS, until no visit of a sweep changes the body's velocity by CONTACT_TOLERANCE. Then
 * the body is moved out along each face's or solid's normal by its deepest point's depth. So it
 * rests on the floor, in a corner or on a solid instead of falling through, and does not chatter:
 * with four sweeps of one-sided impulses (each contact could only push, in one order), the first
 * contacts of the list took more than their share, and a box at rest on its floor kept an angular
 * velocity of 24 °/s RMS that changed sign frame to frame and walked 21.6 mm in 2 s
 * (docs/decisions.md, "A free body held against two walls").
 */
import type { StepContext } from './context.ts';
import type { FreeBodies } from './free-bodies.ts';
import { FACES } from '../scene/faces.ts';
import { faceBoundary } from './boundaries.ts';
import { FREE_INSET } from './objects.ts';

/** Most passes of impulses over the contact points (a box at rest on a floor takes about 62 of them). */
export const CONTACT_SWEEPS = 64;
/** The sweeps stop once no impulse of a sweep changes the body's velocity by more than this, m/s. */
export const CONTACT_TOLERANCE = 1e-7;
/** Coulomb friction coefficient of free-body contacts. */
export const CONTACT_FRICTION = 0.5;

/** Contact points of the current body: world point, normal, and the constraint (face 0–5, or 6 + solid) each belongs to. */
export class ContactScratch {
  cap = 0;
  p = new Float64Array(0);
  nrm = new Float64Array(0);
  depth = new Float64Array(0);
  who = new Int32Array(0);
  /** Accumulated normal impulse (N s) and friction impulse (3, N s) of each contact in the sweeps. */
  lambda = new Float64Array(0);
  friction = new Float64Array(0);
  reserve(n: number): void {
    if (n <= this.cap) return;
    this.cap = Math.ceil(n * 1.25);
    this.p = new Float64Array(3 * this.cap);
    this.nrm = new Float64Array(3 * this.cap);
    this.depth = new Float64Array(this.cap);
    this.who = new Int32Array(this.cap);
    this.lambda = new Float64Array(this.cap);
    this.friction = new Float64Array(3 * this.cap);
  }
}
const world = new Float64Array(3), loc = new Float64Array(3), Iinv = new Float64Array(9);
/** The contact point's velocity (pointVelocity). */
const u = new Float64Array(3);

/** Finds body k's contacts with the closed faces and the other solids and resolves them (see the header). */
export function collideFreeBody(ctx: StepContext, fb: FreeBodies, k: number): void {
  const O = ctx.objects, body = O.bodies[fb.objectBody[k]], d = ctx.scene.domain;
  const sc = fb.contacts;
  const R = fb.R.subarray(9 * k, 9 * k + 9), x = fb.position(k), c0 = fb.com0.subarray(3 * k, 3 * k + 3);
  const inset = FREE_INSET * O.radius;
  const others = O.bodies.filter((b, j) => fb.freeOf[j] < 0 && b !== body);
  // A point lies past at most one face of the box per axis (three at a corner), and inside each other solid once.
  sc.reserve(body.count * (3 + others.length));
  let m = 0;
  for (let p = body.first; p < body.first + body.count; p++) {
    // World position at the body's new pose of the surface point over the object particle (objects.ts FREE_INSET).
    const rx = O.rest[3 * p] + inset * O.restNormal[3 * p] - c0[0];
    const ry = O.rest[3 * p + 1] + inset * O.restNormal[3 * p + 1] - c0[1];
    const rz = O.rest[3 * p + 2] + inset * O.restNormal[3 * p + 2] - c0[2];
    for (let a = 0; a < 3; a++) world[a] = x[a] + R[3 * a] * rx + R[3 * a + 1] * ry + R[3 * a + 2] * rz;
    if (d) {
      for (let f = 0; f < 6; f++) {
        if (faceBoundary(ctx, FACES[f]) === 'open') continue;
        const axis = f >> 1, upper = (f & 1) === 1;
        const depth = upper ? world[axis] - d.max[axis] : d.min[axis] - world[axis];
        if (!(depth > 0)) continue;
        sc.p.set(world, 3 * m);
        sc.nrm.fill(0, 3 * m, 3 * m + 3);
        sc.nrm[3 * m + axis] = upper ? -1 : 1;
        sc.depth[m] = depth;
        sc.who[m++] = f;
      }
    }
    for (let j = 0; j < others.length; j++) {
      const b = others[j], Rb = b.pose.R, t = b.pose.t;
      const dx = world[0] - t[0], dy = world[1] - t[1], dz = world[2] - t[2];
      loc[0] = Rb[0] * dx + Rb[3] * dy + Rb[6] * dz;
      loc[1] = Rb[1] * dx + Rb[4] * dy + Rb[7] * dz;
      loc[2] = Rb[2] * dx + Rb[5] * dy + Rb[8] * dz;
      if (loc[0] < b.min[0] || loc[0] > b.max[0] || loc[1] < b.min[1] || loc[1] > b.max[1] || loc[2] < b.min[2] || loc[2] > b.max[2]) continue;
      const sdf = b.compiled.sdf, s = sdf(loc[0], loc[1], loc[2]);
      if (!(s < 0)) continue;
      const e = 1e-4 * Math.max(ctx.r, -s);
      let gx = sdf(loc[0] + e, loc[1], loc[2]) - sdf(loc[0] - e, loc[1], loc[2]);
      let gy = sdf(loc[0], loc[1] + e, loc[2]) - sdf(loc[0], loc[1] - e, loc[2]);
      let gz = sdf(loc[0], loc[1], loc[2] + e) - sdf(loc[0], loc[1], loc[2] - e);
      const gl = Math.hypot(gx, gy, gz);
      if (!(gl > 0)) continue;
      gx /= gl; gy /= gl; gz /= gl;
      sc.p.set(world, 3 * m);
      sc.nrm[3 * m] = Rb[0] * gx + Rb[1] * gy + Rb[2] * gz;
      sc.nrm[3 * m + 1] = Rb[3] * gx + Rb[4] * gy + Rb[5] * gz;
      sc.nrm[3 * m + 2] = Rb[6] * gx + Rb[7] * gy + Rb[8] * gz;
      sc.depth[m] = -s;
      sc.who[m++] = 6 + j;
    }
  }
  if (m === 0) return;
  ctx.count('freeBodyContacts', m);
  const v = fb.velocity(k), w = fb.angularVelocity(k), invM = 1 / fb.mass[k];
  fb.worldInverseInertia(k, Iinv);
  // Each contact's accumulated impulses (normal λ ≥ 0, friction within μ λ), from 0 each sub-timestep.
  const lam = sc.lambda, fric = sc.friction;
  lam.fill(0, 0, m);
  fric.fill(0, 0, 3 * m);
  let sweep = 0;
  for (; sweep < CONTACT_SWEEPS; sweep++) {
    // Forward, then backward: no contact is always the first to act.
    const back = (sweep & 1) === 1;
    let most = 0;
    for (let q = 0; q < m; q++) {
      const c = back ? m - 1 - q : q;
      const nx = sc.nrm[3 * c], ny = sc.nrm[3 * c + 1], nz = sc.nrm[3 * c + 2];
      const rx = sc.p[3 * c] - x[0], ry = sc.p[3 * c + 1] - x[1], rz = sc.p[3 * c + 2] - x[2];
      // Velocity of the point, relative to a still wall or solid (a scripted solid's own speed is left out).
      pointVelocity(v, w, rx, ry, rz);
      const vn = u[0] * nx + u[1] * ny + u[2] * nz;
      // Normal: the accumulated impulse that stops the closing speed, never pulling (λ ≥ 0).
      const l0 = lam[c], l1 = Math.max(0, l0 - vn / effectiveInverseMass(invM, rx, ry, rz, nx, ny, nz)), dl = l1 - l0;
      lam[c] = l1;
      if (Math.abs(dl) > most) most = Math.abs(dl);
      if (dl !== 0) {
        applyImpulse(v, w, invM, rx, ry, rz, dl * nx, dl * ny, dl * nz);
        pointVelocity(v, w, rx, ry, rz);
      }
      // Friction: the accumulated tangential impulse that stops the sliding, within μ λ (Coulomb).
      const ux = u[0], uy = u[1], uz = u[2];
      const un = ux * nx + uy * ny + uz * nz, tx0 = ux - un * nx, ty0 = uy - un * ny, tz0 = uz - un * nz, vt = Math.hypot(tx0, ty0, tz0);
      const f0x = fric[3 * c], f0y = fric[3 * c + 1], f0z = fric[3 * c + 2];
      let fx = f0x, fy = f0y, fz = f0z;
      if (vt > 0) {
        const kt = vt / effectiveInverseMass(invM, rx, ry, rz, tx0 / vt, ty0 / vt, tz0 / vt);
        fx -= (kt * tx0) / vt; fy -= (kt * ty0) / vt; fz -= (kt * tz0) / vt;
      }
      const cap = CONTACT_FRICTION * l1, fl = Math.hypot(fx, fy, fz);
      if (fl > cap) { const s = fl > 0 ? cap / fl : 0; fx *= s; fy *= s; fz *= s; }
      if (fx === f0x && fy === f0y && fz === f0z) continue;
      fric[3 * c] = fx; fric[3 * c + 1] = fy; fric[3 * c + 2] = fz;
      const df = Math.hypot(fx - f0x, fy - f0y, fz - f0z);
      if (df > most) most = df;
      applyImpulse(v, w, invM, rx, ry, rz, fx - f0x, fy - f0y, fz - f0z);
    }
    // Converged: no impulse of the sweep changed the body's velocity by more than CONTACT_TOLERANCE.
    if (most * invM < CONTACT_TOLERANCE) { sweep++; break; }
  }
  ctx.count('freeBodyContactSweeps', sweep);
  // Out of each face and solid by its deepest point.
  const groups = 6 + others.length;
  for (let gI = 0; gI < groups; gI++) {
    let best = -1;
    for (let c = 0; c < m; c++) if (sc.who[c] === gI && (best < 0 || sc.depth[c] > sc.depth[best])) best = c;
    if (best < 0) continue;
    for (let a = 0; a < 3; a++) x[a] += sc.depth[best] * sc.nrm[3 * best + a];
  }
}

/** The velocity v + ω × r of the body's point at r from its centre of mass, into `u`. */
function pointVelocity(v: Float64Array, w: Float64Array, rx: number, ry: number, rz: number): void {
  u[0] = v[0] + w[1] * rz - w[2] * ry;
  u[1] = v[1] + w[2] * rx - w[0] * rz;
  u[2] = v[2] + w[0] * ry - w[1] * rx;
}

/** 1/M + n · ((I⁻¹ (r × n)) × r): the inverse mass the body shows along n at r. */
function effectiveInverseMass(invM: number, rx: number, ry: number, rz: number, nx: number, ny: number, nz: number): number {
  const cx = ry * nz - rz * ny, cy = rz * nx - rx * nz, cz = rx * ny - ry * nx;
  const ax = Iinv[0] * cx + Iinv[1] * cy + Iinv[2] * cz;
  const ay = Iinv[3] * cx + Iinv[4] * cy + Iinv[5] * cz;
  const az = Iinv[6] * cx + Iinv[7] * cy + Iinv[8] * cz;
  return invM + nx * (ay * rz - az * ry) + ny * (az * rx - ax * rz) + nz * (ax * ry - ay * rx);
}

/** v += j/M, ω += I⁻¹ (r × j). */
function applyImpulse(v: Float64Array, w: Float64Array, invM: number, rx: number, ry: number, rz: number, jx: number, jy: number, jz: number): void {
  v[0] += jx * invM; v[1] += jy * invM; v[2] += jz * invM;
  const cx = ry * jz - rz * jy, cy = rz * jx - rx * jz, cz = rx * jy - ry * jx;
  w[0] += Iinv[0] * cx + Iinv[1] * cy + Iinv[2] * cz;
  w[1] += Iinv[3] * cx + Iinv[4] * cy + Iinv[5] * cz;
  w[2] += Iinv[6] * cx + Iinv[7] * cy + Iinv[8] * cz;
}
