/**
 * The pressure stage's measure and its source's density change in one sweep (no closed walls):
 * pressure-half.ts factorHalf over slots [from, to), then, where the solve's SOURCE
 * (pressure-job.ts sourceRange) keeps ρ̂ and zeroes the change, advanceHalf, which reads the
 * slopes the measure has just written and the same positions. Both visit each pair once from its
 * lower slot, in slot order; here each pair's slope, written, is at once taken into the change, so
 * the rows and the positions are read once for both (the peer's DFSPH likewise evaluates a step's
 * kernel values once for its solves: Bender & Koschier 2017, Algorithm 1). One thread sweeps
 * [0, n); a thread team's each thread its range, with the slots' lower entries below the range (the
 * pairs a thread below holds) summed first and the far end written only within the range.
 *
 * The sums are the two loops' own, each in its own variables and in the same order: a slot's lower
 * entries below the range first (factorHalf's first loop and pressure-ghost-pairs.ts changesBelow),
 * then its own range's lower pairs as the sweep reaches them, then its upper part, then its object
 * particles (pressure-object-terms.ts objectTerms with the change, as factorHalf takes them): the
 * same bits as the two sweeps, on every thread count (bench/density-passes-ab.ts checks them). ρ̂
 * goes to `rhoOut` (SOURCE's kept ρ̂) and the change to v.dens, as SOURCE leaves them.
 */
import { NEIGHBOUR_EDGE } from './pressure-ghosts.ts';
import type { HalfRows } from './pressure-half.ts';
import type { SolveView } from './pressure-kernels.ts';
import { CHANGE, COUNT, GX, GY, GZ, objectSums, objectTerms, RHO } from './pressure-object-terms.ts';

/**
 * factorHalf, SOURCE's ρ̂ kept (rhoOut) and advanceHalf(u, ou) over slots [from, to), one sweep: one
 * thread's [0, n) or a team thread's range; v.walls must be empty. u: δt v per slot, every slot's
 * written; ou: δt v per object slot, or null.
 */
export function factorAdvanceRange(
  v: SolveView, from: number, to: number, hr: HalfRows, u: Float64Array, ou: Float64Array | null, rhoOut: Float64Array,
): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, kg = v.kg;
  const dens = v.dens, alpha = v.alpha, nb = v.nb, invMass = v.invMass, uniform = v.uniform;
  const mid = hr.mid, grad = v.dx, acc = hr.acc;
  const invH = 1 / v.h, n0 = v.n0, invN0 = 1 / n0, epsN = v.eps * n0 * n0;
  // The sums every slot starts from: its lower entries below the range (the pairs a thread below
  // holds), each slope kept for the later phases' loops, each change after its slope.
  for (let a = from; a < to; a++) {
    let rho = 1, gx = 0, gy = 0, gz = 0, s2 = 0, k = 0, c = 0;
    if (from > 0) {
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
      for (let q = ls[a], q1 = mid[a]; q < q1; q++) {
        const j = lj[q];
        if (j >= from) break;
        const b = 3 * j, dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
        const d2 = dx * dx + dy * dy + dz * dz;
        const d = Math.sqrt(d2), s = d * invH;
        if (s >= 1) { kg[q] = 0; continue; }
        if (s < NEIGHBOUR_EDGE) k++;
        const t = 1 - s, inner = s <= 0.5;
        rho += inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
        const slope = inner ? s * (18 * s - 12) : -6 * t * t;
        if (d === 0) { kg[q] = 0; continue; }
        const f = Math.fround((slope * invH) / d);
        kg[q] = f;
        gx += f * dx; gy += f * dy; gz += f * dz;
        s2 += f * f * d2 * (uniform ? 1 : invMass[j]);
        if (f !== 0) c += f * ((ux - u[b]) * dx + (uy - u[b + 1]) * dy + (uz - u[b + 2]) * dz);
      }
    }
    dens[a] = rho; alpha[a] = s2; nb[a] = k; acc[a] = c;
    grad[3 * a] = gx; grad[3 * a + 1] = gy; grad[3 * a + 2] = gz;
  }
  for (let a = from; a < to; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ia = uniform ? 1 : invMass[a];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let rho = dens[a], gx = grad[3 * a], gy = grad[3 * a + 1], gz = grad[3 * a + 2], s2 = alpha[a], k = nb[a], drho = acc[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], b = 3 * j, own = j < to;
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      const d = Math.sqrt(d2), s = d * invH;
      if (s >= 1) { kg[q] = 0; continue; }
      if (s < NEIGHBOUR_EDGE) { k++; if (own) nb[j]++; }
      const t = 1 - s, inner = s <= 0.5;
      const w = inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      rho += w;
      if (own) dens[j] += w;
      const slope = inner ? s * (18 * s - 12) : -6 * t * t;
      if (d === 0) { kg[q] = 0; continue; }
      const f = Math.fround((slope * invH) / d);
      kg[q] = f;
      const ex = f * dx, ey = f * dy, ez = f * dz;
      gx += ex; gy += ey; gz += ez;
      const g2 = f * f * d2;
      s2 += g2 * (uniform ? 1 : invMass[j]);
      if (own) {
        grad[b] -= ex; grad[b + 1] -= ey; grad[b + 2] -= ez;
        alpha[j] += g2 * ia;
      }
      // advanceHalf's term of the pair (it passes over a zero slope, as the measure's continues do).
      if (f === 0) continue;
      const c = f * ((ux - u[b]) * dx + (uy - u[b + 1]) * dy + (uz - u[b + 2]) * dz);
      drho += c;
      if (own) acc[j] += c;
    }
    if (bs[a] < bs[a + 1]) {
      const S = objectSums;
      S[RHO] = rho; S[GX] = gx; S[GY] = gy; S[GZ] = gz; S[COUNT] = k; S[CHANGE] = drho;
      objectTerms(v, a, xa, ya, za, true, u, ou);
      rho = S[RHO]; gx = S[GX]; gy = S[GY]; gz = S[GZ]; k = S[COUNT]; drho = S[CHANGE];
    }
    nb[a] = k;
    const gs = v.grad;
    if (gs !== null) { gs[3 * a] = gx; gs[3 * a + 1] = gy; gs[3 * a + 2] = gz; }
    rhoOut[a] = rho * invN0;
    alpha[a] = (n0 * n0 * ia) / (s2 + ia * (gx * gx + gy * gy + gz * gz) + ia * epsN);
    // SOURCE zeroes ρ̂* before advanceHalf adds the change to it.
    dens[a] = 0 + drho * invN0;
  }
}
