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
 * extremes appear and the scheme stays unconditionally stable, as semi-Lagrangian is. The faces of
 * the surface layer (a liquid cell with an air neighbour, either side of the face) keep û as well:
 * their traces read the velocity extrapolated into the air (step 3f), which no momentum equation
 * made, so (u − ũ)/2 there is not an error estimate and is not applied, as where the limiter
 * rejects it. With it, a pour into a box (spout-fill) kept its splash's energy in this layer and
 * sheets ran up the walls at 1.5–2.6 m/s all through the pour (docs/decisions.md). Each face's
 * two traces start from its own velocity (computed once), and their midpoints read the velocity
 * averaged to the cell centres, trilinear there (one lookup of eight cells gives all three
 * components, where the staggered components take three; the same second-order interpolation
 * error, O(h²)). The sampled quantity itself stays the staggered component.
 *
 * The temperature of variable-viscosity liquids is advected semi-Lagrangian from cell centres (§7.2).
 */
import { allocFloat64, allocUint8, isShared } from '../parallel/memory.ts';
import type { GridDomain } from './domain.ts';
import { centreVelocitiesInto as centreVelocitiesInto_, sampleAt as sampleAt_, sampleBoundedInto as sampleBoundedInto_, sampleBounds, sampleInto as sampleInto_, sampleVectorInto as sampleVectorInto_, tracePoint as tracePoint_, velocityInto as velocityInto_ } from './interpolate.ts';
import { AIR as AIR_, FACE_ACTIVE as FACE_ACTIVE_, FACE_FIXED as FACE_FIXED_, FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const centreVelocitiesInto = centreVelocitiesInto_, sampleAt = sampleAt_, sampleBoundedInto = sampleBoundedInto_, sampleInto = sampleInto_, sampleVectorInto = sampleVectorInto_, tracePoint = tracePoint_, velocityInto = velocityInto_;
const AIR = AIR_, FACE_ACTIVE = FACE_ACTIVE_, FACE_FIXED = FACE_FIXED_, FLUID = FLUID_;

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
  /** The forward trace's end of each face of the component in hand, in its grid coordinates (x, y, z). */
  end: Float64Array[] = [new Float64Array(0), new Float64Array(0), new Float64Array(0)];
  /** The face velocities averaged to the cell centres (xyz interleaved). */
  centre: Float64Array = new Float64Array(0);
  /** 1 for a liquid cell with an air neighbour (the surface layer, whose faces keep û). */
  surface: Uint8Array = new Uint8Array(0);
  /** Room for n cells (`shared`: on shared memory, for the grid's thread team). */
  ensure(n: number, shared = false): void {
    if (this.forward[0].length >= n && isShared(this.centre) === shared) return;
    const m = Math.ceil(n * 1.3);
    for (let a = 0; a < 3; a++) {
      this.forward[a] = allocFloat64(m, shared);
      this.lo[a] = allocFloat64(m, shared);
      this.hi[a] = allocFloat64(m, shared);
      this.end[a] = allocFloat64(m, shared);
    }
    this.centre = allocFloat64(3 * m, shared);
    this.surface = allocUint8(m, shared);
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

const gc = new Float64Array(3);

const vm = new Float64Array(3);

/**
 * One face's traces: RK2 back through u for −Δt (equation 12) and, where `forward`, RK2 forward for
 * +Δt, both from the face's own velocity (faceVelocity, computed once for the two). û (the back
 * trace's sample of u, and its limits) goes to the scratch; the forward trace's end, in component
 * a's grid coordinates, to w.end.
 */
function traceFace(s: GridStore, d: GridDomain, w: AdvectionScratch, c: number, a: number, back: boolean, forward: boolean): void {
  const dt = traceDt[0], h = d.h, o = d.origin, inv = 1 / h;
  const sx = a === 0 ? 0 : 0.5, sy = a === 1 ? 0 : 0.5, sz = a === 2 ? 0 : 0.5;
  const x = o[0] + h * (s.ci[c] + sx), yy = o[1] + h * (s.cj[c] + sy), z = o[2] + h * (s.ck[c] + sz);
  // The velocities along the traces: the face velocities averaged to the cell centres, trilinear
  // in (x/h − ½, y/h − ½, z/h − ½): one lookup of eight cells for the three components.
  const vc = w.centre;
  if (!faceVelocity(s, c, a, vm)) {
    gc[0] = (x - o[0]) * inv - 0.5; gc[1] = (yy - o[1]) * inv - 0.5; gc[2] = (z - o[2]) * inv - 0.5;
    sampleVectorInto(s, vc, gc, vm);
  }
  const f0 = vm[0], f1 = vm[1], f2 = vm[2];
  if (back) {
    gc[0] = (x - 0.5 * dt * f0 - o[0]) * inv - 0.5; gc[1] = (yy - 0.5 * dt * f1 - o[1]) * inv - 0.5; gc[2] = (z - 0.5 * dt * f2 - o[2]) * inv - 0.5;
    sampleVectorInto(s, vc, gc, vm);
    const gx = (x - dt * vm[0] - o[0]) * inv - sx, gy = (yy - dt * vm[1] - o[1]) * inv - sy, gz = (z - dt * vm[2] - o[2]) * inv - sz;
    g[0] = gx; g[1] = gy; g[2] = gz;
    sampleBoundedInto(s, s.u[a], g, w.forward[a], c);
    w.lo[a][c] = sampleBounds[0];
    w.hi[a][c] = sampleBounds[1];
  }
  if (forward) {
    gc[0] = (x + 0.5 * dt * f0 - o[0]) * inv - 0.5; gc[1] = (yy + 0.5 * dt * f1 - o[1]) * inv - 0.5; gc[2] = (z + 0.5 * dt * f2 - o[2]) * inv - 0.5;
    sampleVectorInto(s, vc, gc, vm);
    w.end[0][c] = (x + dt * vm[0] - o[0]) * inv - sx;
    w.end[1][c] = (yy + dt * vm[1] - o[1]) * inv - sy;
    w.end[2][c] = (z + dt * vm[2] - o[2]) * inv - sz;
  }
}

function maccormack(s: GridStore, d: GridDomain, w: AdvectionScratch): void {
  const n = s.count, dt = traceDt[0];
  w.ensure(n, s.shared);
  maccormackBegin(s, w, 0, n);
  for (let a = 0; a < 3; a++) {
    maccormackForward(s, d, w, a, dt, 0, n);
    maccormackCorrect(s, d, w, a, dt, 0, n);
  }
  maccormackApply(s, 0, n);
}

/*
 * The scheme's passes over cells [from, to), each writing only those cells' entries: a thread
 * team runs each pass over its share of the cells (advect-job.ts), in this order, a pass after
 * the one before it is done everywhere (the forward trace reads the centre velocities, and the
 * correction û, all around its cell); the correction of component a and the forward step of
 * a + 1 share a pass (their cells' values depend on each other nowhere).
 */

/** The face velocities at the cell centres and the surface layer's flags. */
export function maccormackBegin(s: GridStore, w: AdvectionScratch, from: number, to: number): void {
  centreVelocitiesInto(s, w.centre, from, to);
  const surface = w.surface, { nb, type } = s;
  for (let c = from; c < to; c++) {
    let air = 0;
    if (type[c] === FLUID) for (let q = 6 * c, e = q + 6; q < e; q++) if (nb[q] >= 0 && type[nb[q]] === AIR) { air = 1; break; }
    surface[c] = air;
  }
}

/**
 * û on the faces of component a not held by a solid within two cells of the liquid (the backward
 * step, which moves at most k_cfl cells, interpolates it around the liquid's faces; elsewhere
 * û = u), and the forward trace of each face that borders liquid, from the same face velocity.
 */
export function maccormackForward(s: GridStore, d: GridDomain, w: AdvectionScratch, a: number, dt: number, from: number, to: number): void {
  traceDt[0] = dt;
  const { face, layer } = s, fa = w.forward[a], ua = s.u[a];
  for (let c = from; c < to; c++) {
    fa[c] = ua[c];
    const st = face[3 * c + a];
    if (st === FACE_FIXED || layer[c] < 0 || layer[c] > 2) continue;
    traceFace(s, d, w, c, a, true, st === FACE_ACTIVE);
  }
}

/** ũ: û carried back by the forward trace; the corrected value where it stays within the limits. */
export function maccormackCorrect(s: GridStore, d: GridDomain, w: AdvectionScratch, a: number, dt: number, from: number, to: number): void {
  traceDt[0] = dt;
  const { face, layer, nb } = s, surface = w.surface;
  const fa = w.forward[a], lo = w.lo[a], hi = w.hi[a], ua = s.u[a], ta = s.tmp[a];
  const e0 = w.end[0], e1 = w.end[1], e2 = w.end[2];
  for (let c = from; c < to; c++) {
    if (face[3 * c + a] !== FACE_ACTIVE) continue;
    if (layer[c] < 0 || layer[c] > 2) traceFace(s, d, w, c, a, false, true);
    g[0] = e0[c]; g[1] = e1[c]; g[2] = e2[c]; g[3] = fa[c];
    sampleInto(s, fa, g, one, 0);
    const corrected = fa[c] + 0.5 * (ua[c] - one[0]);
    const m = nb[6 * c + 2 * a];
    ta[c] = corrected >= lo[c] && corrected <= hi[c] && !surface[c] && !(m >= 0 && surface[m]) ? corrected : fa[c];
  }
}

/** The new face velocities (tmp) into u. */
export function maccormackApply(s: GridStore, from: number, to: number): void {
  const face = s.face;
  for (let a = 0; a < 3; a++) {
    const ua = s.u[a], ta = s.tmp[a];
    for (let c = from; c < to; c++) if (face[3 * c + a] === FACE_ACTIVE) ua[c] = ta[c];
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
