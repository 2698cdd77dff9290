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
 * Pairs are processed in cell order (ctx.cells.pairs, recorded by adhesion.ts), each update applied at once
 * (Gauss–Seidel): deterministic, and
 * every pair update moves equal and opposite momentum, so the total is conserved to round-off.
 * With a thread team (particle.workers > 1, from 1 024 particles on) the sweeps run as a two-phase
 * Gauss–Seidel over spatial slabs, each slab's own pairs in parallel, then the pairs across slab
 * boundaries (viscosity-parallel.ts): momentum still conserved to round-off, bit-identical run to
 * run for a given thread count, a different (equally valid) update order than on one thread.
 */
import type { StepContext } from './context.ts';
import { viscositySweeps } from './calibration.ts';
import { teamOf } from './threads.ts';
import { MIN_PARTICLES as PARALLEL_MIN_PARTICLES, parallelViscosity } from './viscosity-parallel.ts';

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
  const sdt = dt / n;
  const nm = ctx.mass.length;
  const t = materialTables(ctx, sdt);
  const team = teamOf(ctx);
  if (team !== null && team.size > 1 && ctx.liquid.count >= PARALLEL_MIN_PARTICLES) {
    parallelViscosity(ctx, team, n, t.frac, t.inv2, t.toI, t.toJ);
    if (n > 1) ctx.count('viscositySweeps', n);
    return;
  }
  listExchangePairs(ctx, t.frac, t.inv2, nm);
  // One liquid material in the sweep (every pair has the same m̄/m shares): hoist them.
  const L = ctx.liquid, mat = L.material, np = L.count;
  let single = true;
  for (let i = 1; i < np && single; i++) single = mat[i] === mat[0];
  for (let s = 0; s < n; s++) {
    if (single && np > 0) exchangeSweepSingle(ctx, t.toI[mat[0] * (nm + 1)], t.toJ[mat[0] * (nm + 1)]);
    else exchangeSweep(ctx, t.toI, t.toJ, nm);
  }
  if (n > 1) ctx.count('viscositySweeps', n);
}

interface Tables { frac: Float64Array; inv2: Float64Array; toI: Float64Array; toJ: Float64Array }

/** Per material pair: the exchange fraction a of one sweep of length dt, 1/h² of the kernel, and m̄/m of each side. */
function materialTables(ctx: StepContext, dt: number): Tables {
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate;
  const nm = mass.length;
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
  return { frac, inv2, toI, toJ };
}

/**
 * The exchange pairs of this sub-timestep and their weights w = a k(d) (1/(2Σ_i k) + 1/(2Σ_j k)),
 * computed once and reused by every sweep (positions do not change between sweeps). Filtered from
 * ctx.cells.pairs, every pair within ctx.reach (≥ every kernel support; adhesion.ts records them
 * with a round-off margin, so no pair with q² < 1 is missing), in the cell loops' visiting order,
 * and compacted IN PLACE (ctx.cells.pairs then holds the exchange pairs only; nothing later in the
 * sub-timestep reads it). Same arithmetic, same order as the former per-sweep 27-cell scan: results
 * bit-identical. Memory: 4 bytes of weight per exchange pair (honey drop: about 20 a particle), in
 * the context's scratch ('viscosity.weights'): single precision, 6e-8 relative, far below what
 * the exchange resolves; both ends of a pair use the same rounded w, so momentum stays exact.
 */
function listExchangePairs(ctx: StepContext, frac: Float64Array, inv2: Float64Array, nm: number): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, mat = L.material, halfInv = L.scalar;
  const list = ctx.cells.pairs, ls = list.start, lj = list.j;
  const pw = ctx.f32('viscosity.weights', list.length);
  let m = 0;
  // In place: entry m ≤ q is written after entry q is read, start[i] after start[i] and start[i + 1] are read.
  let q = ls[0];
  for (let i = 0; i < n; i++) {
    const q1 = ls[i + 1];
    ls[i] = m;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const row = mat[i] * nm, hi = halfInv[i];
    for (; q < q1; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const e = row + mat[j];
      const q2 = (dx * dx + dy * dy + dz * dz) * inv2[e];
      if (q2 >= 1) continue;
      const s = 1 - q2;
      lj[m] = j;
      pw[m++] = frac[e] * s * s * s * (hi + halfInv[j]);
    }
  }
  ls[n] = m;
  list.length = m;
}

/**
 * One Gauss–Seidel sweep over the listed pairs: the velocity difference times w; i gains m̄/mᵢ of
 * it, j loses m̄/mⱼ (equal momenta).
 */
function exchangeSweep(ctx: StepContext, toI: Float64Array, toJ: Float64Array, nm: number): void {
  const L = ctx.liquid, n = L.count, vel = L.vel, mat = L.material;
  const st = ctx.cells.pairs.start, pj = ctx.cells.pairs.j, pw = ctx.f32('viscosity.weights', 0);
  for (let i = 0; i < n; i++) {
    const row = mat[i] * nm;
    let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
    for (let q = st[i], q1 = st[i + 1]; q < q1; q++) {
      const j = pj[q], w = pw[q], e = row + mat[j];
      const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
      const fi = toI[e], fj = toJ[e];
      vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
      vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
    }
    vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
  }
}

/** exchangeSweep for one liquid material: the shares fi, fj are the same for every pair. */
function exchangeSweepSingle(ctx: StepContext, fi: number, fj: number): void {
  const L = ctx.liquid, n = L.count, vel = L.vel;
  const st = ctx.cells.pairs.start, pj = ctx.cells.pairs.j, pw = ctx.f32('viscosity.weights', 0);
  for (let i = 0; i < n; i++) {
    let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
    for (let q = st[i], q1 = st[i + 1]; q < q1; q++) {
      const j = pj[q], w = pw[q];
      const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
      vxi += fi * ux; vyi += fi * uy; vzi += fi * uz;
      vel[3 * j] -= fj * ux; vel[3 * j + 1] -= fj * uy; vel[3 * j + 2] -= fj * uz;
    }
    vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
  }
}
