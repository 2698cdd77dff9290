/**
 * Step 3a, convection by a backwards particle trace (Cline §4, Stam 1999): from each face that
 * borders liquid, trace back through u for −Δt with RK2 (equation 12) and take the velocity
 * component found there (Figure 5). Not done in place: results go to the temporary vectors first.
 * The temperature of variable-viscosity liquids is advected the same way from cell centres (§7.2).
 */
import type { GridDomain } from './domain.ts';
import { sampleAt as sampleAt_, sampleVelocity as sampleVelocity_, tracePoint as tracePoint_, velocityAtPoint as velocityAtPoint_ } from './interpolate.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const sampleAt = sampleAt_, sampleVelocity = sampleVelocity_, tracePoint = tracePoint_, velocityAtPoint = velocityAtPoint_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_;

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

export function advectVelocity(s: GridStore, d: GridDomain, dt: number): void {
  const { face, tmp, ci, cj, ck } = s;
  const h = d.h, [ox, oy, oz] = d.origin;
  for (let a = 0; a < 3; a++) {
    const ta = tmp[a];
    for (let c = 0; c < s.count; c++) {
      if (face[3 * c + a] !== FACE_ACTIVE) continue;
      const x = ox + h * (ci[c] + (a === 0 ? 0 : 0.5));
      const yy = oy + h * (cj[c] + (a === 1 ? 0 : 0.5));
      const z = oz + h * (ck[c] + (a === 2 ? 0 : 0.5));
      // RK2 (equation 12) backwards; the velocity at the face itself comes from its neighbours.
      if (!faceVelocity(s, c, a, v0)) velocityAtPoint(s, d, x, yy, z, v0);
      velocityAtPoint(s, d, x - 0.5 * dt * v0[0], yy - 0.5 * dt * v0[1], z - 0.5 * dt * v0[2], v0);
      ta[c] = sampleVelocity(s, d, a, x - dt * v0[0], yy - dt * v0[1], z - dt * v0[2]);
    }
  }
  for (let a = 0; a < 3; a++) {
    const ua = s.u[a], ta = tmp[a];
    for (let c = 0; c < s.count; c++) if (face[3 * c + a] === FACE_ACTIVE) ua[c] = ta[c];
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
