/**
 * Stage "viscosity" (Steele §3.2, sign as in DESIGN.md): a pairwise momentum exchange that reduces
 * the difference between two particles. Seen from p, neighbour n receives
 *   P_exch = a k(d) (P_n − P_p) / (2 Σ_p k),   added to p and subtracted from n,
 * and the same from n's side, so a pair exchanges a k (1/(2Σ_p k) + 1/(2Σ_n k)) of its difference.
 * a = 1 − exp(−v δt) is the fraction exchanged in one sweep (≈ v δt for small v δt, never above 1,
 * so very viscous liquids stay stable). One sweep caps the viscosity at C r²/δt (calibration.ts);
 * applyViscosity therefore does several sweeps (see below): honey measured at 1.06× its requested ν.
 * For unequal masses the "difference of momenta" is
 * taken as m̄ (v_n − v_p), m̄ = 2 m_p m_n / (m_p + m_n), which vanishes at equal velocities.
 * Pairs are processed in cell order (ctx.cells.pairs, recorded by adhesion.ts), each update applied at once
 * (Gauss–Seidel): deterministic, and
 * every pair update moves equal and opposite momentum, so the total is conserved to round-off.
 * With a thread team (particle.workers > 1, from 1 024 particles on) the sweeps run as a two-phase
 * Gauss–Seidel over spatial slabs, each slab's own pairs in parallel, then the pairs across slab
 * boundaries (viscosity-parallel.ts): momentum still conserved to round-off, bit-identical run to
 * run for a given thread count, a different (equally valid) update order than on one thread.
 * CPU on one thread (bench/_visc.ts, min of runs, 2-core EPYC shared, load 2–5): honey drop
 * 25–26 → 11 ms a call (6 sweeps instead of 12; 5.7 → 4.2 ns a pair update), gel on a fan
 * 232–251 → 87–107 ms (7 sweeps instead of 15).
 */
import type { StepContext } from './context.ts';
import { exchangeSubcycles, MAX_VISCOSITY_SWEEPS, PAIR_WEIGHT_MAX, viscositySweeps } from './calibration.ts';
import { teamOf } from './threads.ts';
import { MIN_PARTICLES as PARALLEL_MIN_PARTICLES, parallelViscosity } from './viscosity-parallel.ts';

/**
 * Beyond the paper (Steele does one exchange per sub-timestep): the exchange of a sub-timestep is
 * that of n_s sub-cycles of 1 − exp(−v δt/n_s) each (calibration.ts exchangePerStep: A in all), as
 * if the sub-timestep were n_s times shorter for viscosity alone. One exchange saturates at
 * ν_max = C r²/δt (≈ 4e-4 m²/s at the honey drop's step, 8× below honey); A is not bounded, so
 * honey gets its viscosity (calibration.ts, measured in tests/particle/viscosity.test.ts). A is
 * delivered in n = viscositySweeps(v_max, δt) Gauss–Seidel sweeps of A/n each (up to 2, pair
 * weights capped at PAIR_WEIGHT_MAX): half the passes over the pairs of n_s sub-cycles, ν within
 * 2 % of theirs (calibration.ts SWEEP_LIMIT). v δt ≤ 2: one sweep of 1 − exp(−v δt), as in the
 * paper.
 */
export function applyViscosity(ctx: StepContext, dt: number): void {
  let vmax = 0;
  for (let m = 0; m < ctx.exchangeRate.length; m++) vmax = Math.max(vmax, ctx.exchangeRate[m]);
  const needed = viscositySweeps(vmax, dt), ns = exchangeSubcycles(vmax, dt);
  const n = Math.min(needed, MAX_VISCOSITY_SWEEPS);
  if (n < needed) ctx.count('viscositySweepCap', needed - n);
  const sumK = ctx.liquid.scalar;
  // Σk → 1/(2Σk) in place, once: positions do not change between sweeps.
  for (let i = 0; i < ctx.liquid.count; i++) sumK[i] = sumK[i] > 0 ? 0.5 / sumK[i] : 0;
  const nm = ctx.mass.length;
  const t = materialTables(ctx, dt / ns, ns / needed);
  const team = teamOf(ctx);
  if (team !== null && team.size > 1 && ctx.liquid.count >= PARALLEL_MIN_PARTICLES) {
    parallelViscosity(ctx, team, n, t.frac, t.inv2, t.toI, t.toJ);
    if (n > 1) ctx.count('viscositySweeps', n);
    return;
  }
  const L = ctx.liquid, np = L.count;
  const single = uniformExchange(L.material, np, nm, t);
  const pw = listExchangePairs(ctx, t.frac, t.inv2, nm, single);
  const st = ctx.cells.pairs.start, pj = ctx.cells.pairs.j;
  for (let s = 0; s < n; s++) {
    if (single) exchangeSweepSingle(L.vel, st, pj, pw, np);
    else exchangeSweep(ctx, pw, t.toI, t.toJ, nm);
  }
  if (n > 1) ctx.count('viscositySweeps', n);
}

interface Tables { frac: Float64Array; inv2: Float64Array; toI: Float64Array; toJ: Float64Array }

/**
 * True when every pair of the liquids present exchanges alike: the same fraction and kernel as the
 * first particle's material with itself, and m̄/m = 1 at both ends (equal masses). One liquid, or
 * liquids that differ only in colour (the paint drops' three paints). The sweeps then take the
 * single-material form (exchangeSweepSingle; in threads, exchangeRow), whose arithmetic is the
 * general form's with every share 1: the same results bit for bit, 30 % less time a pair update.
 */
export function uniformExchange(mat: Uint16Array, n: number, nm: number, t: { frac: Float64Array; inv2: Float64Array; toI: Float64Array; toJ: Float64Array }): boolean {
  if (n === 0) return false;
  const present = new Uint8Array(nm); // materials present among the liquid particles
  const m0 = mat[0];
  let others = false;
  for (let i = 0; i < n; i++) {
    const m = mat[i];
    if (m !== m0 && present[m] === 0) others = true;
    present[m] = 1;
  }
  const e0 = m0 * (nm + 1);
  if (t.toI[e0] !== 1 || t.toJ[e0] !== 1) return false;
  if (!others) return true;
  for (let a = 0; a < nm; a++) {
    if (!present[a]) continue;
    for (let b = 0; b < nm; b++) {
      if (!present[b]) continue;
      const e = a * nm + b;
      if (t.frac[e] !== t.frac[e0] || t.inv2[e] !== t.inv2[e0] || t.toI[e] !== 1 || t.toJ[e] !== 1) return false;
    }
  }
  return true;
}

/**
 * Per material pair: the fraction a one sweep moves (`share` of the exchange 1 − exp(−v dt) of a
 * sub-cycle of length dt), 1/h² of the kernel, and m̄/m of each side (exactly 1 for equal masses).
 */
export function materialTables(ctx: StepContext, dt: number, share: number): Tables {
  const mass = ctx.mass, ks = ctx.kernelSupport, rate = ctx.exchangeRate;
  const nm = mass.length;
  const frac = new Float64Array(nm * nm), inv2 = new Float64Array(nm * nm);
  const toI = new Float64Array(nm * nm), toJ = new Float64Array(nm * nm);
  for (let a = 0; a < nm; a++) {
    for (let b = 0; b < nm; b++) {
      const e = a * nm + b;
      frac[e] = 1 - Math.exp(-0.5 * (rate[a] + rate[b]) * dt);
      if (share !== 1) frac[e] *= share;
      const h = a === b ? ks[a] : 0.5 * (ks[a] + ks[b]);
      inv2[e] = h > 0 ? 1 / (h * h) : 0;
      const mbar = mass[a] + mass[b] > 0 ? (2 * mass[a] * mass[b]) / (mass[a] + mass[b]) : 0;
      toI[e] = mass[a] === mass[b] ? (mass[a] > 0 ? 1 : 0) : mass[a] > 0 ? mbar / mass[a] : 0;
      toJ[e] = mass[a] === mass[b] ? (mass[b] > 0 ? 1 : 0) : mass[b] > 0 ? mbar / mass[b] : 0;
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
 * bit-identical (tests/particle/fast-paths.test.ts). Weights capped at PAIR_WEIGHT_MAX (only
 * sweeps of a > 0.86 can reach it). Memory: 4 bytes of weight per exchange pair (honey drop: 34
 * pairs, 136 bytes a particle), in the context's stage scratch (StepContext.stageScratch, taken in
 * turn by the stages that never overlap): single precision, 6e-8 relative, far below what the
 * exchange resolves; both ends of a pair use the same rounded w, so momentum stays exact.
 */
function listExchangePairs(ctx: StepContext, frac: Float64Array, inv2: Float64Array, nm: number, single: boolean): Float32Array {
  const L = ctx.liquid, n = L.count, pos = L.pos, mat = L.material, halfInv = L.scalar;
  const list = ctx.cells.pairs, ls = list.start, lj = list.j;
  const pw = ctx.stageScratch(4 * list.length + 64, false).f32(list.length);
  const cap = PAIR_WEIGHT_MAX;
  let m = 0;
  // In place: entry m ≤ q is written after entry q is read, start[i] after start[i] and start[i + 1] are read.
  // Every pair is written at m and kept by advancing m (no branch on q²: up to 2× faster in V8, same result).
  let q = ls[0];
  if (single && n > 0) {
    const e = mat[0] * (nm + 1), i2 = inv2[e], f = frac[e];
    for (let i = 0; i < n; i++) {
      const q1 = ls[i + 1];
      ls[i] = m;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], hi = halfInv[i];
      for (; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const q2 = (dx * dx + dy * dy + dz * dz) * i2;
        const s = 1 - q2;
        const w = f * s * s * s * (hi + halfInv[j]);
        lj[m] = j;
        pw[m] = w < cap ? w : cap;
        m += q2 < 1 ? 1 : 0;
      }
    }
  } else {
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
        const s = 1 - q2;
        const w = frac[e] * s * s * s * (hi + halfInv[j]);
        lj[m] = j;
        pw[m] = w < cap ? w : cap;
        m += q2 < 1 ? 1 : 0;
      }
    }
  }
  ls[n] = m;
  list.length = m;
  return pw;
}

/**
 * One Gauss–Seidel sweep over the listed pairs: the velocity difference times w; i gains m̄/mᵢ of
 * it, j loses m̄/mⱼ (equal momenta).
 */
function exchangeSweep(ctx: StepContext, pw: Float32Array, toI: Float64Array, toJ: Float64Array, nm: number): void {
  const L = ctx.liquid, n = L.count, vel = L.vel, mat = L.material;
  const st = ctx.cells.pairs.start, pj = ctx.cells.pairs.j;
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

/**
 * exchangeSweep for one liquid material (m̄/m = 1: i gains w (v_j − v_i), j loses it): the same
 * updates in the same order as the plain loop (bit-identical), written for V8: j's velocity read
 * once into locals (TurboFan cannot tell that storing vel[j] leaves vel[j + 1] unchanged, so
 * `vel[j + 1] -= …` after `vel[j] -= …` would read it again), and the pair loop unrolled by 4
 * (it re-reads the typed arrays' headers once per iteration; the four updates share them).
 * 5.7 → 4.0 ns a pair update (honey drop); the rest is the chain of dependent operations on v_i.
 */
export function exchangeSweepSingle(vel: Float64Array, st: Int32Array, pj: Int32Array, pw: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    let q = st[i];
    const q1 = st[i + 1];
    if (q === q1) continue;
    let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
    let j = 0, w = 0, ux = 0, uy = 0, uz = 0, xj = 0, yj = 0, zj = 0;
    for (; q + 3 < q1; q += 4) {
      j = 3 * pj[q]; w = pw[q];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 1]; w = pw[q + 1];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 2]; w = pw[q + 2];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
      j = 3 * pj[q + 3]; w = pw[q + 3];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    }
    for (; q < q1; q++) {
      j = 3 * pj[q]; w = pw[q];
      xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
      ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
      vxi += ux; vyi += uy; vzi += uz;
      vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
    }
    vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
  }
}

