/**
 * Step 3a, convection by a backwards particle trace (Cline §4, Stam 1999): from each face that
 * borders liquid, trace back through u for −Δt with RK2 (equation 12) and take the velocity
 * component found there (Figure 5). Not done in place: results go to the temporary vectors first.
 * The temperature of variable-viscosity liquids is advected the same way from cell centres (§7.2).
 */
import type { GridDomain } from './domain.ts';
import { sampleAt as sampleAt_, sampleVelocity as sampleVelocity_, tracePoint as tracePoint_ } from './interpolate.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const sampleAt = sampleAt_, sampleVelocity = sampleVelocity_, tracePoint = tracePoint_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_;

const y = new Float64Array(3);

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
      tracePoint(s, d, x, yy, z, -dt, y);
      ta[c] = sampleVelocity(s, d, a, y[0], y[1], y[2]);
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
