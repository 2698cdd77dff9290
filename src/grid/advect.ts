/**
 * Step 3a, convection by a backwards particle trace (Cline §4, Stam 1999): from each face that
 * borders liquid, trace back through u for −Δt with RK2 (equation 12) and take the velocity
 * component found there (Figure 5). Not done in place: results go to the temporary vectors first.
 *
 * `maccormack` (the default, `grid.advection`): the MacCormack scheme of Selle, Fedkiw, Kim, Liu &
 * Rossignac (2008, J. Sci. Comput. 35): û = SL(u) forward on every face not held by a solid,
 * ũ = SL(û) backward (a forward trace from each face), u ← û + (u − ũ)/2, second order in space
 * and time where the flow is smooth. Its limiter: where that value leaves the range of the eight
 * values the forward step interpolated from, the face keeps û (the first-order result), so no new
 * extremes appear and the scheme stays unconditionally stable, as semi-Lagrangian is.
 *
 * The temperature of variable-viscosity liquids is advected semi-Lagrangian from cell centres (§7.2).
 */
import type { GridDomain } from './domain.ts';
import { sampleAt as sampleAt_, sampleBoundedInto as sampleBoundedInto_, sampleBounds, sampleInto as sampleInto_, tracePoint as tracePoint_, velocityInto as velocityInto_ } from './interpolate.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FACE_FIXED as FACE_FIXED_, FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const sampleAt = sampleAt_, sampleBoundedInto = sampleBoundedInto_, sampleInto = sampleInto_, tracePoint = tracePoint_, velocityInto = velocityInto_;
const FACE_ACTIVE = FACE_ACTIVE_, FACE_FIXED = FACE_FIXED_, FLUID = FLUID_;

const y = new Float64Array(3);
const v0 = new Float64Array(3);

/**
 * Velocity at the centre of face (c, a): component a is the face's own; each other component b is
 * the mean of the four b-faces around it (cells c and c − a, their low and high b faces). False when
 * a neighbour is missing.
 */
function faceVelocity(s: GridStore, c: number, a: number, out: Float64Array): boolean {
  const nb = s.nb;
  const back = nb[6 * c + 2 * a];
  if (back < 0) return false;
  out[a] = s.u[a][c];
  for (let b = 0; b < 3; b++) {
    if (b === a) continue;
    const cu = nb[6 * c + 2 * b + 1], bu = nb[6 * back + 2 * b + 1];
    if (cu < 0 || bu < 0) return false;
    const ub = s.u[b];
    out[b] = 0.25 * (ub[c] + ub[cu] + ub[back] + ub[bu]);
  }
  return true;
}

export type VelocityAdvection = 'semi-lagrangian' | 'maccormack';

/** Scratch of the MacCormack scheme: the forward result and its limits, per face component. */
export class AdvectionScratch {
  forward: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  lo: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  hi: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  ensure(n: number): void {
    if (this.forward[0].length >= n) return;
    const m = Math.ceil(n * 1.3);
    for (let a = 0; a < 3; a++) {
      this.forward[a] = new Float64Array(m);
      this.lo[a] = new Float64Array(m);
      this.hi[a] = new Float64Array(m);
    }
  }
}

/** The step's Δt, the trace's points and grid coordinates: arrays, not arguments (see interpolate.ts denseSample). */
const traceDt = new Float64Array(1);
const pt = new Float64Array(3);
const g = new Float64Array(4);
const one = new Float64Array(1);

/** The start of the backward trace of face (c, a) into y: RK2 through u for −Δt (equation 12). */
function traceBack(s: GridStore, d: GridDomain, c: number, a: number): void {
  const dt = traceDt[0], h = d.h, o = d.origin;
  const x = o[0] + h * (s.ci[c] + (a === 0 ? 0 : 0.5));
  const yy = o[1] + h * (s.cj[c] + (a === 1 ? 0 : 0.5));
  const z = o[2] + h * (s.ck[c] + (a === 2 ? 0 : 0.5));
  // The velocity at the face itself comes from its neighbours.
  if (!faceVelocity(s, c, a, v0)) { pt[0] = x; pt[1] = yy; pt[2] = z; velocityInto(s, d, pt, v0); }
  pt[0] = x - 0.5 * dt * v0[0]; pt[1] = yy - 0.5 * dt * v0[1]; pt[2] = z - 0.5 * dt * v0[2];
  velocityInto(s, d, pt, v0);
  y[0] = x - dt * v0[0]; y[1] = yy - dt * v0[1]; y[2] = z - dt * v0[2];
}

/**
 * The forward trace of face (c, a) for the MacCormack scheme's backward step: RK2 through u for +Δt,
 * the first stage's velocity the face's own (as in traceBack).
 */
function traceForward(s: GridStore, d: GridDomain, c: number, a: number): void {
  const dt = traceDt[0], h = d.h, o = d.origin;
  const x = o[0] + h * (s.ci[c] + (a === 0 ? 0 : 0.5));
  const yy = o[1] + h * (s.cj[c] + (a === 1 ? 0 : 0.5));
  const z = o[2] + h * (s.ck[c] + (a === 2 ? 0 : 0.5));
  if (!faceVelocity(s, c, a, v0)) { pt[0] = x; pt[1] = yy; pt[2] = z; velocityInto(s, d, pt, v0); }
  pt[0] = x + 0.5 * dt * v0[0]; pt[1] = yy + 0.5 * dt * v0[1]; pt[2] = z + 0.5 * dt * v0[2];
  velocityInto(s, d, pt, v0);
  y[0] = x + dt * v0[0]; y[1] = yy + dt * v0[1]; y[2] = z + dt * v0[2];
}

export function advectVelocity(s: GridStore, d: GridDomain, dt: number, scheme: VelocityAdvection = 'semi-lagrangian', scratch?: AdvectionScratch): void {
  const { face, tmp } = s;
  traceDt[0] = dt;
  if (scheme === 'maccormack' && scratch) {
    maccormack(s, d, scratch);
    return;
  }
  const inv = 1 / d.h, o = d.origin;
  g[3] = 0;
  for (let a = 0; a < 3; a++) {
    const ta = tmp[a], ua = s.u[a];
    const sx = a === 0 ? 0 : 0.5, sy = a === 1 ? 0 : 0.5, sz = a === 2 ? 0 : 0.5;
    for (let c = 0; c < s.count; c++) {
      if (face[3 * c + a] !== FACE_ACTIVE) continue;
      traceBack(s, d, c, a);
      g[0] = (y[0] - o[0]) * inv - sx; g[1] = (y[1] - o[1]) * inv - sy; g[2] = (y[2] - o[2]) * inv - sz;
      sampleInto(s, ua, g, ta, c);
    }
  }
  for (let a = 0; a < 3; a++) {
    const ua = s.u[a], ta = tmp[a];
    for (let c = 0; c < s.count; c++) if (face[3 * c + a] === FACE_ACTIVE) ua[c] = ta[c];
  }
}

function maccormack(s: GridStore, d: GridDomain, w: AdvectionScratch): void {
  const { face } = s, n = s.count, h = d.h, inv = 1 / h, o = d.origin;
  w.ensure(n);
  // û on the faces not held by a solid within two cells of the liquid (the backward step, which
  // moves at most k_cfl cells, interpolates it around the liquid's faces; elsewhere û = u).
  const { layer } = s;
  for (let a = 0; a < 3; a++) {
    const fa = w.forward[a], lo = w.lo[a], hi = w.hi[a], ua = s.u[a];
    const sx = a === 0 ? 0 : 0.5, sy = a === 1 ? 0 : 0.5, sz = a === 2 ? 0 : 0.5;
    for (let c = 0; c < n; c++) {
      fa[c] = ua[c];
      const st = face[3 * c + a];
      if (st === FACE_FIXED || layer[c] < 0 || layer[c] > 2) continue;
      traceBack(s, d, c, a);
      g[0] = (y[0] - o[0]) * inv - sx; g[1] = (y[1] - o[1]) * inv - sy; g[2] = (y[2] - o[2]) * inv - sz;
      sampleBoundedInto(s, ua, g, fa, c);
      lo[c] = sampleBounds[0];
      hi[c] = sampleBounds[1];
    }
  }
  // ũ: û carried back by a forward trace; the corrected value where it stays within the limits.
  for (let a = 0; a < 3; a++) {
    const fa = w.forward[a], lo = w.lo[a], hi = w.hi[a], ta = s.tmp[a], ua = s.u[a];
    const sx = a === 0 ? 0 : 0.5, sy = a === 1 ? 0 : 0.5, sz = a === 2 ? 0 : 0.5;
    for (let c = 0; c < n; c++) {
      if (face[3 * c + a] !== FACE_ACTIVE) continue;
      traceForward(s, d, c, a);
      g[0] = (y[0] - o[0]) * inv - sx; g[1] = (y[1] - o[1]) * inv - sy; g[2] = (y[2] - o[2]) * inv - sz; g[3] = fa[c];
      sampleInto(s, fa, g, one, 0);
      const corrected = fa[c] + 0.5 * (ua[c] - one[0]);
      ta[c] = corrected >= lo[c] && corrected <= hi[c] ? corrected : fa[c];
    }
  }
  for (let a = 0; a < 3; a++) {
    const ua = s.u[a], ta = s.tmp[a];
    for (let c = 0; c < n; c++) if (face[3 * c + a] === FACE_ACTIVE) ua[c] = ta[c];
  }
}

/** Semi-Lagrangian advection of a centre field over liquid cells, using `scratch` as the copy. */
export function advectCentreField(s: GridStore, d: GridDomain, field: Float64Array, scratch: Float64Array, dt: number): void {
  const h = d.h, [ox, oy, oz] = d.origin, inv = 1 / h;
  for (let c = 0; c < s.count; c++) {
    scratch[c] = field[c];
    if (s.type[c] !== FLUID) continue;
    tracePoint(s, d, ox + h * (s.ci[c] + 0.5), oy + h * (s.cj[c] + 0.5), oz + h * (s.ck[c] + 0.5), -dt, y);
    scratch[c] = sampleAt(s, field, (y[0] - ox) * inv - 0.5, (y[1] - oy) * inv - 0.5, (y[2] - oz) * inv - 0.5, field[c]);
  }
  field.set(scratch.subarray(0, s.count));
}
