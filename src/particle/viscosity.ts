/**
 * Stage "viscosity" (Steele §3.2, sign as in DESIGN.md): a pairwise momentum exchange that reduces
 * the difference between two particles. Seen from p, neighbour n receives
 *   P_exch = a k(d) (P_n − P_p) / (2 Σ_p k),   added to p and subtracted from n,
 * and the same from n's side, so a pair exchanges a k (1/(2Σ_p k) + 1/(2Σ_n k)) of its difference.
 * a = 1 − exp(−v δt) is the fraction exchanged in one sweep (≈ v δt for small v δt, never above 1,
 * so very viscous liquids stay stable). One sweep caps the viscosity at C r²/δt (calibration.ts);
 * applyViscosity therefore sub-cycles the sweep (see below): honey measured at 1.04× its requested ν.
 * For unequal masses the "difference of momenta" is
 * taken as m̄ (v_n − v_p), m̄ = 2 m_p m_n / (m_p + m_n), which vanishes at equal velocities.
 * Pairs are processed in cell order, each update applied at once (Gauss–Seidel): deterministic, and
 * every pair update moves equal and opposite momentum, so the total is conserved to round-off.
 */
import type { StepContext } from './context.ts';
import { viscositySweeps } from './calibration.ts';

/**
 * Beyond the paper (Steele does one exchange per sub-timestep): the exchange is sub-cycled into
 * n = viscositySweeps(v_max, δt) sweeps, each exchanging 1 − exp(−v δt/n), as if the sub-timestep were
 * n times shorter for viscosity alone. One sweep saturates at ν_max = C r²/δt (≈ 4e-4 m²/s at the
 * honey drop's step, 8× below honey); with n sweeps the ceiling is n times higher, so honey gets its
 * viscosity (calibration.ts, measured in tests/particle/viscosity.test.ts). v δt ≤ 2: one sweep, as before.
 */
export function applyViscosity(ctx: StepContext, dt: number): void {
  let vmax = 0;
  for (let m = 0; m < ctx.exchangeRate.length; m++) vmax = Math.max(vmax, ctx.exchangeRate[m]);
  const n = viscositySweeps(vmax, dt);
  const sumK = ctx.liquid.scalar;
  // Σk → 1/(2Σk) in place, once: positions do not change between sweeps.
  for (let i = 0; i < ctx.liquid.count; i++) sumK[i] = sumK[i] > 0 ? 0.5 / sumK[i] : 0;
  for (let s = 0; s < n; s++) exchangeSweep(ctx, dt / n);
  if (n > 1) ctx.count('viscositySweeps', n);
}

function exchangeSweep(ctx: StepContext, dt: number): void {
  const L = ctx.liquid;
  const pos = L.pos, vel = L.vel, sumK = L.scalar, mat = L.material;
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate;
  const nm = mass.length;
  // Per material pair: the exchange fraction a, the kernel support, and m̄/m of each side.
  const frac = new Float64Array(nm * nm), inv2 = new Float64Array(nm * nm);
  const toI = new Float64Array(nm * nm), toJ = new Float64Array(nm * nm);
  for (let a = 0; a < nm; a++) {
    for (let b = 0; b < nm; b++) {
      const e = a * nm + b;
      frac[e] = 1 - Math.exp(-0.5 * (rate[a] + rate[b]) * dt);
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      inv2[e] = h > 0 ? 1 / (h * h) : 0;
      const mbar = mass[a] + mass[b] > 0 ? (2 * mass[a] * mass[b]) / (mass[a] + mass[b]) : 0;
      toI[e] = mass[a] > 0 ? mbar / mass[a] : 0;
      toJ[e] = mass[b] > 0 ? mbar / mass[b] : 0;
    }
  }
  const halfInv = sumK;
  const g = ctx.cells.grid, start = g.start, cnt = g.count, first = ctx.cells.first, cells = ctx.cells.cells;
  for (let c = 0; c < g.cellCount; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    for (let i = i0; i < i1; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const row = mat[i] * nm;
      const hi = halfInv[i];
      let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
      for (let q = first[c]; q < first[c + 1]; q++) {
        const c2 = cells[q];
        const j1 = start[c2] + cnt[c2];
        for (let j = c2 === c ? i + 1 : start[c2]; j < j1; j++) {
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const e = row + mat[j];
          const q2 = (dx * dx + dy * dy + dz * dz) * inv2[e];
          if (q2 >= 1) continue;
          const s = 1 - q2;
          const w = frac[e] * s * s * s * (hi + halfInv[j]);
          // Velocity difference times w: i gains m̄/mᵢ of it, j loses m̄/mⱼ (equal momenta).
          const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
          const fi = toI[e], fj = toJ[e];
          vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
          vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
        }
      }
      vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
    }
  }
}
