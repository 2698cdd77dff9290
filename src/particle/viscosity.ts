/**
 * Stage "viscosity" (Steele §3.2, sign as in DESIGN.md): a pairwise momentum exchange that reduces
 * the difference between two particles. Seen from p, neighbour n receives
 *   P_exch = a k(d) (P_n − P_p) / (2 Σ_p k),   added to p and subtracted from n,
 * and the same from n's side, so a pair exchanges a k (1/(2Σ_p k) + 1/(2Σ_n k)) of its difference.
 * a = 1 − exp(−v δt) is the fraction exchanged in one sweep (≈ v δt for small v δt, never above 1,
 * so very viscous liquids stay stable). One sweep caps the viscosity at C r²/δt (calibration.ts);
 * applyViscosity therefore does several sweeps (see below): honey measured at 1.06× its requested ν.
 * For unequal masses the "difference of momenta" is taken as m̄ (v_n − v_p),
 * m̄ = 2 m_p m_n / (m_p + m_n), which vanishes at equal velocities.
 *
 * Pairs are those adhesion.ts recorded (ctx.cells.pairs), each update applied at once
 * (Gauss–Seidel): deterministic, and every pair update moves equal and opposite momentum, so the
 * total is conserved to round-off. The sweeps are a two-phase Gauss–Seidel over spatial slabs
 * (slabs.ts), one slab per thread: on one thread the plain sweep in list order; on T threads each
 * slab's own pairs in parallel, then the pairs across the slab boundaries, a different (equally
 * valid) order, bit-identical from run to run for a given T. The slabs are cut at equal shares of
 * Σk (a measure of each particle's neighbours), interior ones at least two kernel supports wide.
 */
import type { StepContext } from './context.ts';
import { exchangeSubcycles, MAX_VISCOSITY_SWEEPS, PAIR_WEIGHT_MAX, viscositySweeps } from './calibration.ts';
import { gaussLikeTimes } from '../math/kernels.ts';
import { defineJob, type JobArrays } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { allocInt32 } from '../parallel/memory.ts';
import { MAX_SLABS, ROWS_DOWN, ROWS_ERR, ROWS_META, ROWS_UP, SlabCut } from './slabs.ts';
import { VISCOSITY_MIN_PARTICLES } from './work.ts';
import { exchangeRow, exchangeRowMixed, exchangeRows } from './exchange-row.ts';
import { scaleExchangeWeights } from './temperature.ts';

const NO_FACTORS = new Float64Array(0);

/** What the stage keeps between sub-timesteps (StepContext.viscosity). */
export class ViscosityState {
  readonly slabs = new SlabCut();
  meta: Int32Array = new Int32Array(0);
  tab = new Float64Array(0);
}

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
  // The pair list is compacted to the viscosity kernel below (weighRows).
  ctx.adhesionPairsCurrent = false;
  let vmax = 0;
  for (let m = 0; m < ctx.exchangeRate.length; m++) vmax = Math.max(vmax, ctx.exchangeRate[m]);
  // A liquid colder than its reference temperature exchanges more than its table says (temperature.ts).
  const heat = ctx.temperature;
  const needed = viscositySweeps(vmax, dt, heat ? heat.maxFactor : 1), ns = exchangeSubcycles(vmax, dt);
  const sweeps = Math.min(needed, MAX_VISCOSITY_SWEEPS);
  if (sweeps < needed) ctx.count('viscositySweepCap', needed - sweeps);
  const L = ctx.liquid, n = L.count, half = L.scalar;
  // Σk → 1/(2Σk) in place, once: positions do not change between sweeps.
  for (let i = 0; i < n; i++) half[i] = half[i] > 0 ? 0.5 / half[i] : 0;
  const nm = ctx.mass.length, t = materialTables(ctx, dt / ns, ns / needed);
  const job = ctx.runner.bind(viscosityJob), T = job.threads(n);
  const st = (ctx.viscosity ??= new ViscosityState());
  if (st.meta.length < ROWS_META) st.meta = allocInt32(ROWS_META, ctx.shared);
  if (st.tab.length !== 4 * nm * nm) st.tab = new Float64Array(4 * nm * nm);
  const nn = nm * nm, tab = st.tab;
  tab.set(t.frac, 0); tab.set(t.inv2, nn); tab.set(t.toI, 2 * nn); tab.set(t.toJ, 3 * nn);

  // The weights (single precision: 6e-8 relative, far below what the exchange resolves; both ends
  // of a pair use the same rounded w, so momentum stays exact) and the slab layout, in the stage
  // scratch. On a team at the capacities of the list and the liquid, so that the team's views stay
  // the same from one sub-timestep to the next.
  const list = ctx.cells.pairs, m = T > 1 ? Math.max(n, L.capacity) : n, cap = T > 1 ? list.j.length : list.length;
  const mem = ctx.stageScratch(4 * cap + 4 * 4 * m + m + 4 * (MAX_SLABS + 1) + 64, ctx.shared);
  const pw = mem.f32(cap), ends = mem.i32(2 * m), xslots = mem.i32(m), plist = mem.i32(m), offsets = mem.i32(MAX_SLABS + 1), owner = mem.u8(m);
  let hmax = 0;
  for (let k = 0; k < nm; k++) hmax = Math.max(hmax, ctx.kernelSupport[k]);
  if (T > 1) {
    st.slabs.reserve(n);
    const w = st.slabs.weight;
    for (let i = 0; i < n; i++) w[i] = half[i] > 0 ? 0.5 / half[i] : 0;
  }
  // Interior slabs 2h wide (2.01 h: round-off of d < h).
  st.slabs.cut(L.pos, n, T, 2.01 * hmax, { owner, plist, offsets });
  st.meta[ROWS_ERR] = 0;

  const a = job.a;
  a.vel = L.vel; a.pos = L.pos; a.mat = L.material; a.half = half;
  a.ls = list.start; a.lj = list.j; a.pw = pw; a.ends = ends; a.xslots = xslots; a.meta = st.meta;
  a.owner = owner; a.plist = plist; a.offsets = offsets; a.tab = tab; a.tf = heat ? heat.factor : NO_FACTORS;
  job.s.sweeps = sweeps;
  job.s.thermal = heat ? 1 : 0;
  job.s.single = uniformExchange(L.material, n, nm, t) ? 1 : 0;
  job.s.nm = nm;
  runJob(job, n);
  if (st.meta[ROWS_ERR] !== 0) throw new Error('viscosity: a particle has exchange partners in two other slabs (slab cut narrower than the kernel)');
  if (sweeps > 1) ctx.count('viscositySweeps', sweeps);
}

/**
 * The exchange on the slab of this thread (all particles on one thread): its pair rows weighed,
 * then `sweeps` two-phase sweeps (slabs.ts).
 */
export const viscosityJob = defineJob({
  name: 'viscosity',
  arrays: { vel: 'f64', ls: 'i32', lj: 'index', pw: 'f32', ends: 'i32', xslots: 'i32', meta: 'i32' },
  inputs: { pos: 'f64', mat: 'u16', half: 'f64', owner: 'u8', plist: 'i32', offsets: 'i32', tab: 'f64', tf: 'f64' },
  scalars: ['sweeps', 'single', 'nm', 'thermal'],
  split: 'ranks',
  minItems: () => VISCOSITY_MIN_PARTICLES,
  scratch: () => ({ j: new Int32Array(256), w: new Float32Array(256) }),
  kernel(x) {
    const { vel, lj, pw, ends, xslots, meta, mat, ls, plist, offsets, tab } = x.a;
    const t = x.rank, T = x.size, k0 = offsets[t], k1 = offsets[t + 1];
    const nm = x.s.nm, nn = nm * nm, single = x.s.single === 1, sweeps = x.s.sweeps;
    if (weighSlabRows(x.a, t, T, k0, k1, nm, single, x.scratch)) meta[ROWS_ERR] = 1;
    // Per-particle viscosity (temperature.ts): each weight times the pair's factor.
    if (x.s.thermal === 1) scaleExchangeWeights(x.a.tf, plist, k0, k1, ls, ends, lj, pw, PAIR_WEIGHT_MAX);
    x.barrier();
    for (let s = 0; s < sweeps; s++) {
      // Phase 1: the slab's own pairs.
      if (single) exchangeRows(vel, plist, k0, k1, ls, ends, lj, pw);
      else {
        for (let k = k0; k < k1; k++) {
          const i = plist[k], q0 = ls[i], q1 = ends[2 * i];
          if (q0 !== q1) exchangeRowMixed(vel, mat, tab, nn, nm, i, lj, pw, q0, q1);
        }
      }
      x.barrier();
      // Phase 2: boundary t | t+1, slab t's rows, then slab t+1's (in index order).
      if (t < T - 1) {
        for (let u = k0, ue = meta[ROWS_UP + t]; u < ue; u++) {
          const i = plist[xslots[u]];
          if (single) exchangeRow(vel, i, lj, pw, ends[2 * i], ends[2 * i + 1]);
          else exchangeRowMixed(vel, mat, tab, nn, nm, i, lj, pw, ends[2 * i], ends[2 * i + 1]);
        }
        for (let u = offsets[t + 2] - 1, ue = meta[ROWS_DOWN + t + 1]; u >= ue; u--) {
          const i = plist[xslots[u]];
          if (single) exchangeRow(vel, i, lj, pw, ends[2 * i], ends[2 * i + 1]);
          else exchangeRowMixed(vel, mat, tab, nn, nm, i, lj, pw, ends[2 * i], ends[2 * i + 1]);
        }
      }
      if (s < sweeps - 1) x.barrier();
    }
  },
});

/**
 * The exchange pairs of slab t's particles and their weights w = a k(d) (1/(2Σ_i k) + 1/(2Σ_j k)),
 * capped at PAIR_WEIGHT_MAX (only sweeps of a > 0.86 can reach it), computed once for every sweep
 * (positions do not change between sweeps). Each row of ctx.cells.pairs (every pair within
 * ctx.reach ≥ every kernel support; adhesion.ts records them with a round-off margin, so no pair
 * with q² < 1 is missing) is rewritten in place: the pairs within the kernel with both ends in the
 * slab, in list order, to ends[2i]; then those across a boundary, in reverse order, to
 * ends[2i + 1]; their weights at the same places of pw. Rows with cross pairs are listed in xslots
 * (slabs.ts ROWS_UP / ROWS_DOWN). Returns true when a row has partners in two other slabs.
 */
function weighSlabRows(
  a: JobArrays<typeof viscosityJob>,
  t: number, T: number, k0: number, k1: number, nm: number, single: boolean, cross: { j: Int32Array; w: Float32Array },
): boolean {
  const { pos, mat, half, ls, lj, pw, ends, owner, plist, xslots, meta, tab } = a;
  const nn = nm * nm, cap = PAIR_WEIGHT_MAX;
  if (T === 1) {
    weighRows(a, k1, nm, single);
    return false;
  }
  let up = k0, down = k1, bad = false;
  for (let k = k0; k < k1; k++) {
    const i = plist[k], q0 = ls[i], q1 = ls[i + 1];
    if (cross.j.length < q1 - q0) {
      cross.j = new Int32Array(Math.ceil((q1 - q0) * 1.5));
      cross.w = new Float32Array(cross.j.length);
    }
    const cj = cross.j, cw = cross.w;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], hi = half[i], row = mat[i] * nm;
    let wp = q0, nx = 0, other = -1;
    // Every pair is written at wp and kept by advancing wp (no branch on q²: up to 2× faster in V8).
    if (single) {
      const e = mat[i] * (nm + 1), f = tab[e], i2 = tab[nn + e];
      for (let q = q0; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const q2 = (dx * dx + dy * dy + dz * dz) * i2;
        const w = gaussLikeTimes(f, q2) * (hi + half[j]);
        const o = owner[j];
        if (o === t) {
          lj[wp] = j;
          pw[wp] = w < cap ? w : cap;
          wp += q2 < 1 ? 1 : 0;
        } else if (q2 < 1) {
          if (other < 0) other = o;
          else if (o !== other) bad = true;
          cj[nx] = j;
          cw[nx++] = w < cap ? w : cap;
        }
      }
    } else {
      for (let q = q0; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const e = row + mat[j];
        const q2 = (dx * dx + dy * dy + dz * dz) * tab[nn + e];
        const w = gaussLikeTimes(tab[e], q2) * (hi + half[j]);
        const o = owner[j];
        if (o === t) {
          lj[wp] = j;
          pw[wp] = w < cap ? w : cap;
          wp += q2 < 1 ? 1 : 0;
        } else if (q2 < 1) {
          if (other < 0) other = o;
          else if (o !== other) bad = true;
          cj[nx] = j;
          cw[nx++] = w < cap ? w : cap;
        }
      }
    }
    ends[2 * i] = wp;
    for (let c = nx - 1; c >= 0; c--) {
      lj[wp] = cj[c];
      pw[wp++] = cw[c];
    }
    ends[2 * i + 1] = wp;
    if (other < 0) continue;
    if (other === t + 1) xslots[up++] = k;
    else if (other === t - 1) xslots[--down] = k;
    else bad = true;
  }
  meta[ROWS_UP + t] = up;
  meta[ROWS_DOWN + t] = down;
  return bad;
}

/**
 * weighSlabRows for one slab (every pair is the slab's own, in list order): the rows compacted
 * into one run from the start of the list (ls rewritten, row i's pairs at [ls[i], ends[2i])).
 */
function weighRows(a: JobArrays<typeof viscosityJob>, n: number, nm: number, single: boolean): void {
  const { pos, mat, half, ls, lj, pw, ends, tab } = a;
  const nn = nm * nm, cap = PAIR_WEIGHT_MAX;
  let m = 0, q = ls[0];
  // In place: entry m ≤ q is written after entry q is read, ls[i] after ls[i] and ls[i + 1] are
  // read. Every pair is written at m and kept by advancing m (no branch on q²: up to 2× faster in V8).
  for (let i = 0; i < n; i++) {
    const q1 = ls[i + 1];
    ls[i] = m;
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], hi = half[i], row = mat[i] * nm;
    if (single) {
      const e = mat[i] * (nm + 1), f = tab[e], i2 = tab[nn + e];
      for (; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const q2 = (dx * dx + dy * dy + dz * dz) * i2;
        const w = gaussLikeTimes(f, q2) * (hi + half[j]);
        lj[m] = j;
        pw[m] = w < cap ? w : cap;
        m += q2 < 1 ? 1 : 0;
      }
    } else {
      for (; q < q1; q++) {
        const j = lj[q];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
        const e = row + mat[j];
        const q2 = (dx * dx + dy * dy + dz * dz) * tab[nn + e];
        const w = gaussLikeTimes(tab[e], q2) * (hi + half[j]);
        lj[m] = j;
        pw[m] = w < cap ? w : cap;
        m += q2 < 1 ? 1 : 0;
      }
    }
    ends[2 * i] = ends[2 * i + 1] = m;
  }
  ls[n] = m;
}

interface Tables { frac: Float64Array; inv2: Float64Array; toI: Float64Array; toJ: Float64Array }

/**
 * True when every pair of the liquids present exchanges alike: the same fraction and kernel as the
 * first particle's material with itself, and m̄/m = 1 at both ends (equal masses). One liquid, or
 * liquids that differ only in colour (the paint drops' three paints). The sweeps then take the
 * single-material form (exchangeRow), whose arithmetic is the general form's with every share 1:
 * the same results bit for bit, 30 % less time a pair update.
 */
export function uniformExchange(mat: Uint16Array, n: number, nm: number, t: Tables): boolean {
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
