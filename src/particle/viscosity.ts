/**
 * Stage "viscosity" (Steele §3.2, sign as in DESIGN.md): a pairwise momentum exchange that reduces
 * the difference between two particles. Seen from p, neighbour n receives
 *   P_exch = a k(d) (P_n − P_p) / (2 Σ_p k),   added to p and subtracted from n,
 * and the same from n's side, so a pair exchanges a k (1/(2Σ_p k) + 1/(2Σ_n k)) of its difference.
 * a = 1 − exp(−v δt) is the fraction exchanged in one sub-timestep (≈ v δt for small v δt, never
 * above 1, so very viscous liquids stay stable). For unequal masses the "difference of momenta" is
 * taken as m̄ (v_n − v_p), m̄ = 2 m_p m_n / (m_p + m_n), which vanishes at equal velocities.
 * Pairs are processed in cell order, each update applied at once (Gauss–Seidel): deterministic, and
 * every pair update moves equal and opposite momentum, so the total is conserved to round-off.
 */
import { gaussLike2 } from '../math/kernels.ts';
import type { StepContext } from './context.ts';

export function applyViscosity(ctx: StepContext, dt: number): void {
  const L = ctx.liquid;
  const pos = L.pos, vel = L.vel, sumK = L.scalar, mat = L.material;
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate;
  const nm = mass.length;
  // Per material pair: the exchange fraction a and the kernel support.
  const frac = new Float64Array(nm * nm), inv2 = new Float64Array(nm * nm);
  for (let a = 0; a < nm; a++) {
    for (let b = 0; b < nm; b++) {
      frac[a * nm + b] = 1 - Math.exp(-0.5 * (rate[a] + rate[b]) * dt);
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      inv2[a * nm + b] = h > 0 ? 1 / (h * h) : 0;
    }
  }
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    for (let i = i0; i < i1; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const mi = mat[i], massI = mass[mi];
      const halfInvSi = sumK[i] > 0 ? 0.5 / sumK[i] : 0;
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const e = mi * nm + mat[j];
          const k = gaussLike2(dx * dx + dy * dy + dz * dz, inv2[e]);
          if (k === 0) continue;
          const massJ = mass[mat[j]];
          const w = frac[e] * k * (halfInvSi + 0.5 / sumK[j]);
          const mbar = (2 * massI * massJ) / (massI + massJ);
          // Momentum moved from j to i.
          const px = w * mbar * (vel[3 * j] - vel[3 * i]);
          const py = w * mbar * (vel[3 * j + 1] - vel[3 * i + 1]);
          const pz = w * mbar * (vel[3 * j + 2] - vel[3 * i + 2]);
          vel[3 * i] += px / massI; vel[3 * i + 1] += py / massI; vel[3 * i + 2] += pz / massI;
          vel[3 * j] -= px / massJ; vel[3 * j + 1] -= py / massJ; vel[3 * j + 2] -= pz / massJ;
        }
      }
    }
  }
}
