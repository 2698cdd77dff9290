/**
 * PBF's measure (pbf-job.ts pbfStep) on one thread without closed walls: pressure-half.ts
 * factorHalf's sweep over each pair once (ρ̂ = Σ W / n0, α = n0² / (Σ m_a/m_b |∇W|² + m_a⁻¹ |Σ ∇W|² + ε n0²)
 * and the slopes of every pair, after Bender & Koschier 2017's DFSPH factor, here PBF's diagonal,
 * Macklin & Müller 2013) less what PBF never reads: the neighbour counts within NEIGHBOUR_EDGE h
 * (the pressure stage's free-surface test reads its own measure's), the per-slot gradient's copy
 * (SolveView.grad), and the tests that a pair's far slot lies in this thread's range (one thread:
 * it always does). The same arithmetic per pair in the same order, so ρ̂, α and the slopes are
 * factorHalf's bit for bit (tests/particle/pbf-measure.test.ts); the slots' counts are left as
 * they were.
 */
import type { HalfRows } from './pressure-half.ts';
import { GX, GY, GZ, objectSums, objectTerms, RHO } from './pressure-object-terms.ts';
import type { SolveView } from './pressure-kernels.ts';

/** Whether pbfMeasureOne may stand for factorHalf over slots [from, to) of n: one thread, no closed walls. */
export function measuresAlone(v: SolveView, from: number, to: number, n: number, hr: HalfRows | null): hr is HalfRows {
  return hr !== null && from === 0 && to === n && v.walls.length === 0;
}

/** factorHalf over every slot [0, n) without the counts (see the header); the same ρ̂, α and slopes. */
export function pbfMeasureOne(v: SolveView, n: number, hr: HalfRows): void {
  const x = v.x, ls = v.ls, lj = v.lj, bs = v.bs, kg = v.kg;
  const dens = v.dens, alpha = v.alpha, invMass = v.invMass, uniform = v.uniform, mid = hr.mid, grad = v.dx;
  const invH = 1 / v.h, n0 = v.n0, invN0 = 1 / n0, epsN = v.eps * n0 * n0;
  // The sums every slot starts from (ρ̂'s 1 is its own), in arrays the measure overwrites: ρ̂ in
  // dens, Σ m_a/m_b |G|² in alpha, the gradient in dx (free until a displacement).
  dens.fill(1, 0, n); alpha.fill(0, 0, n); grad.fill(0, 0, 3 * n);
  for (let a = 0; a < n; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ia = uniform ? 1 : invMass[a];
    let rho = dens[a], gx = grad[3 * a], gy = grad[3 * a + 1], gz = grad[3 * a + 2], s2 = alpha[a];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++) {
      const j = lj[q], b = 3 * j;
      const dx = xa - x[b], dy = ya - x[b + 1], dz = za - x[b + 2];
      const d2 = dx * dx + dy * dy + dz * dz;
      const d = Math.sqrt(d2), s = d * invH;
      if (s >= 1) { kg[q] = 0; continue; }
      const t = 1 - s, inner = s <= 0.5;
      const w = inner ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t;
      rho += w;
      dens[j] += w;
      const slope = inner ? s * (18 * s - 12) : -6 * t * t;
      if (d === 0) { kg[q] = 0; continue; }
      const f = Math.fround((slope * invH) / d);
      kg[q] = f;
      const ex = f * dx, ey = f * dy, ez = f * dz;
      gx += ex; gy += ey; gz += ez;
      // (x · 1 is x: with equal masses the same bits as f² d² alone.)
      const g2 = f * f * d2;
      s2 += g2 * (uniform ? 1 : invMass[j]);
      grad[b] -= ex; grad[b + 1] -= ey; grad[b + 2] -= ez;
      alpha[j] += g2 * ia;
    }
    if (bs[a] < bs[a + 1]) {
      const S = objectSums;
      S[RHO] = rho; S[GX] = gx; S[GY] = gy; S[GZ] = gz;
      objectTerms(v, a, xa, ya, za, false, null, null);
      rho = S[RHO]; gx = S[GX]; gy = S[GY]; gz = S[GZ];
    }
    dens[a] = rho * invN0;
    alpha[a] = (n0 * n0 * ia) / (s2 + ia * (gx * gx + gy * gy + gz * gz) + ia * epsN);
  }
}

