/**
 * A slot's object-particle terms in the pressure stage's and PBF's measures (pressure-kernels.ts
 * factorRange, pressure-half.ts factorHalf, pbf-measure.ts pbfMeasureOne, pressure-factor-advance.ts
 * factorAdvanceRange): per
 * object particle s within h, ρ̂'s γ_s w_as, the gradient's γ_s G_as and the slope kept for the
 * passes (bg), after Akinci et al. 2012's boundary volumes (pressure-kernels.ts has the sums). The
 * running sums come in and go out through `objectSums`, so that each is added to in the order the
 * loops it replaced added to them: the same bits.
 */
import { cubicSpline, cubicSplineSlope } from '../math/kernels.ts';
import { NEIGHBOUR_EDGE } from './pressure-ghosts.ts';
import type { SolveView } from './pressure-kernels.ts';

/** The running sums objectTerms reads and adds to: ρ̂ (×n0), the gradient, the neighbour count and the density change (×n0). */
export const objectSums = new Float64Array(6);
export const RHO = 0, GX = 1, GY = 2, GZ = 3, COUNT = 4, CHANGE = 5;

/**
 * The object terms of slot a at (xa, ya, za) added to objectSums; `count`: the neighbours within
 * NEIGHBOUR_EDGE h counted too; u (3 a slot, δt v) and ou (3 an object slot, or null: objects still),
 * where u is given: the first-order density change of these displacements (advanceHalf's object terms).
 */
export function objectTerms(v: SolveView, a: number, xa: number, ya: number, za: number, count: boolean, u: Float64Array | null, ou: Float64Array | null): void {
  const bs = v.bs, bj = v.bj, opos = v.opos, gamma = v.gamma, bg = v.bg, invH = 1 / v.h, S = objectSums;
  const q0 = bs[a], q1 = bs[a + 1];
  if (q0 === q1) return;
  let rho = S[RHO], gx = S[GX], gy = S[GY], gz = S[GZ], k = S[COUNT], drho = S[CHANGE];
  const ux = u === null ? 0 : u[3 * a], uy = u === null ? 0 : u[3 * a + 1], uz = u === null ? 0 : u[3 * a + 2];
  for (let q = q0; q < q1; q++) {
    const o = bj[q];
    const dx = xa - opos[3 * o], dy = ya - opos[3 * o + 1], dz = za - opos[3 * o + 2];
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz), s = d * invH;
    if (s >= 1) { bg[q] = 0; continue; }
    const gm = gamma[o];
    if (count && s < NEIGHBOUR_EDGE) k++;
    rho += gm * cubicSpline(s);
    if (d === 0) { bg[q] = 0; continue; }
    const g = Math.fround((cubicSplineSlope(s) * invH) / d);
    bg[q] = g;
    const f = gm * g;
    gx += f * dx; gy += f * dy; gz += f * dz;
    if (u === null || g === 0) continue;
    if (ou === null) drho += f * (ux * dx + uy * dy + uz * dz);
    else drho += f * ((ux - ou[3 * o]) * dx + (uy - ou[3 * o + 1]) * dy + (uz - ou[3 * o + 2]) * dz);
  }
  S[RHO] = rho; S[GX] = gx; S[GY] = gy; S[GZ] = gz; S[COUNT] = k; S[CHANGE] = drho;
}
