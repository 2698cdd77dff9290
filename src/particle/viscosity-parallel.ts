/**
 * The viscosity stage (viscosity.ts) on a team of T threads (src/parallel/team.ts).
 *
 * Scheme: two-phase Gauss–Seidel over spatial slabs (slabs.ts). The liquid is cut into T slabs
 * at equal shares of Σk (the kernel sums the adhesion stage has just computed: a measure of each
 * particle's neighbours), every interior slab at least 2 h wide (h the largest viscosity kernel
 * support): a particle then has exchange partners in at most one neighbouring slab, and no pair
 * spans two slab boundaries.
 * Thread t owns the particles of slab t. Each sweep:
 *   phase 1: thread t exchanges the pairs with both ends in slab t (disjoint particle sets: no
 *            two threads touch the same velocity), in cell order as at T = 1;
 *   barrier;
 *   phase 2: thread t (t < T − 1) exchanges the pairs across boundary t | t+1 (those listed from
 *            slab t's rows, then those from slab t+1's); the boundaries share no particle;
 *   barrier.
 * Every pair update still moves equal and opposite momentum (m̄u to one, −m̄u to the other), so
 * the total is conserved to round-off; the order of updates depends only on the state and T, so a
 * run is bit-identical from run to run for a given T. It is a different Gauss–Seidel order from
 * T = 1 (cross pairs come after the slab's own pairs), so results differ from T = 1 at the level of
 * the exchange's order dependence (tests/parallel/viscosity-threads.test.ts: honey's measured ν
 * 1.2 % apart with sweeps of up to a = 2, calibration.ts SWEEP_LIMIT). The sweep count, fractions
 * and pair-weight cap are viscosity.ts's, and a row of pairs is the same V8-friendly unrolled loop
 * (exchangeRow). The pair weights are
 * computed in parallel too (same arithmetic as viscosity.ts listExchangePairs), each thread
 * writing its slab's pairs into its own region of the shared lists: internal pairs forward, cross
 * pairs backward from the region's end. The slab cut and the particle lists (O(n)) are serial.
 */
import type { StepContext } from './context.ts';
import type { SlotArray, TeamSync, ThreadTeam } from '../parallel/team.ts';
import { allocFloat64, allocInt32 } from '../parallel/team.ts';
import { MAX_SLABS, R_OFF, SlabCut } from './slabs.ts';
import { PAIR_WEIGHT_MAX } from './calibration.ts';
import { uniformExchange } from './viscosity.ts';

/**
 * Below this many liquid particles the stage stays on one thread: the job and its 2 barriers a
 * sweep cost more than half the sweeps save (2 threads, per sub-timestep call: 552 particles
 * 1.0 ms → 2.5 ms; 2 469 particles 13.7 → 8.8 ms; honey drop 9 328: 25 → 15 ms; measured with
 * 12 sweeps a call and the former row loop: sweeps and barriers per call have halved since).
 */
export const MIN_PARTICLES = 1024;

/** Kernel id in PARTICLE_KERNELS (threads.ts). */
export const VISCOSITY_KERNEL = 0;

/** Team slots of this stage. */
const S_VEL = 0, S_POS = 1, S_MAT = 2, S_HALF = 3, S_PSTART = 4, S_PJ = 5, S_OWNER = 6, S_PLIST = 7,
  S_ROWS = 8, S_INJ = 9, S_INW = 10, S_XSLOTS = 11, S_META = 12, S_TAB = 13, S_OFF = 14;
/** params: sweeps, single material (m̄/m = 1 for every pair), nm, threads in use. */
const P_SWEEPS = 0, P_SINGLE = 1, P_NM = 2, P_T = 3;
/** meta (Int32): upEnd[0..T), downStart[0..T), own pairs [0..T), error flag. Slab offsets: SlabCut.offsets. */
const MAX_T = MAX_SLABS;
const M_UP = 0, M_DOWN = M_UP + MAX_T, M_IN = M_DOWN + MAX_T, M_ERR = M_IN + MAX_T, META_WORDS = M_ERR + 1;

/**
 * The shared arrays of the parallel stage, grown as needed (a new generation for the team). The
 * slab pair lists (inJ, and the weights inW in single precision, as on one thread) are views into
 * the context's stage scratch (StepContext.stageScratch), carved at the pair list's capacity so that
 * they stay the same views while it does not grow.
 */
class Buffers {
  slabs = new SlabCut();
  rows = allocInt32(0, true);
  xslots = allocInt32(0, true);
  meta = allocInt32(META_WORDS, true);
  tab = allocFloat64(0, true);

  reserve(n: number, nm: number): void {
    this.slabs.reserve(n);
    if (this.xslots.length < n) {
      const cap = Math.ceil(n * 1.25) + 64;
      this.rows = allocInt32(4 * cap, true);
      this.xslots = allocInt32(cap, true);
    }
    if (this.tab.length < 4 * nm * nm) this.tab = allocFloat64(4 * nm * nm, true);
  }
}

/**
 * Prepares the slabs and runs `sweeps` exchange sweeps on the team. sumK (ctx.liquid.scalar) must
 * already hold 1/(2Σk); `frac`, `inv2`, `toI`, `toJ` are viscosity.ts's material tables.
 */
export function parallelViscosity(
  ctx: StepContext, team: ThreadTeam, sweeps: number,
  frac: Float64Array, inv2: Float64Array, toI: Float64Array, toJ: Float64Array,
): void {
  const L = ctx.liquid, n = L.count, pos = L.pos, nm = ctx.mass.length;
  const list = ctx.cells.pairs, ls = list.start;
  const B = ctx.keep('viscosity.parallel', () => new Buffers());
  B.reserve(n, nm);
  const cap = list.j.length, mem = ctx.stageScratch(8 * cap + 64, true);
  const inJ = mem.i32(cap), inW = mem.f32(cap);
  const T = Math.min(team.size, MAX_T);
  let hmax = 0;
  for (let m = 0; m < nm; m++) hmax = Math.max(hmax, ctx.kernelSupport[m]);

  // Slabs at equal shares of Σk (sumK holds 1/(2Σk) here), interior ones 2h wide (2.01 h: round-off of d < h).
  const slabs = B.slabs, w = slabs.weight, half = L.scalar;
  for (let i = 0; i < n; i++) w[i] = half[i] > 0 ? 0.5 / half[i] : 0;
  slabs.cut(pos, n, T, 2.01 * hmax, ls);
  const meta = B.meta;
  meta[M_ERR] = 0;

  const tab = B.tab, nn = nm * nm;
  tab.set(frac, 0); tab.set(inv2, nn); tab.set(toI, 2 * nn); tab.set(toJ, 3 * nn);
  const single = uniformExchange(L.material, n, nm, { frac, inv2, toI, toJ });
  const P = team.params;
  P[P_SWEEPS] = sweeps;
  P[P_SINGLE] = single ? 1 : 0;
  P[P_NM] = nm;
  P[P_T] = T;

  team.setSlot(S_VEL, L.vel);
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_MAT, L.material);
  team.setSlot(S_HALF, L.scalar);
  team.setSlot(S_PSTART, list.start);
  team.setSlot(S_PJ, list.j);
  team.setSlot(S_OWNER, slabs.owner);
  team.setSlot(S_PLIST, slabs.plist);
  team.setSlot(S_OFF, slabs.offsets);
  team.setSlot(S_ROWS, B.rows);
  team.setSlot(S_INJ, inJ);
  team.setSlot(S_INW, inW);
  team.setSlot(S_XSLOTS, B.xslots);
  team.setSlot(S_META, meta);
  team.setSlot(S_TAB, tab);
  team.run(VISCOSITY_KERNEL);
  if (meta[M_ERR] !== 0) throw new Error('viscosity: a particle has exchange partners in two other slabs (slab cut narrower than the kernel)');
}



/** The team kernel: pair weights of this thread's slab, then the sweeps (see the header). */
export function viscosityKernel(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const T = params[P_T];
  if (rank >= T) {
    for (let k = 0, nb = 1 + 2 * params[P_SWEEPS] - 1; k < nb; k++) team.barrier();
    return;
  }
  const vel = slots[S_VEL] as Float64Array, pos = slots[S_POS] as Float64Array, mat = slots[S_MAT] as Uint16Array;
  const half = slots[S_HALF] as Float64Array, ls = slots[S_PSTART] as Int32Array, lj = slots[S_PJ] as Int32Array;
  const owner = slots[S_OWNER] as Uint8Array, plist = slots[S_PLIST] as Int32Array, rows = slots[S_ROWS] as Int32Array;
  const inJ = slots[S_INJ] as Int32Array, inW = slots[S_INW] as Float32Array, xslots = slots[S_XSLOTS] as Int32Array;
  const meta = slots[S_META] as Int32Array, tab = slots[S_TAB] as Float64Array, off = slots[S_OFF] as Int32Array;
  const nm = params[P_NM], nn = nm * nm;
  const t = rank, k0 = off[t], k1 = off[t + 1];

  // Pair weights (viscosity.ts listExchangePairs): internal forward, cross backward.
  let wp = off[R_OFF + t], xp = off[R_OFF + t + 1], up = k0, down = k1, bad = 0;
  for (let k = k0; k < k1; k++) {
    const i = plist[k];
    const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
    const row = mat[i] * nm, hi = half[i];
    rows[4 * k] = wp;
    const xEnd = xp;
    let other = -1;
    for (let q = ls[i], q1 = ls[i + 1]; q < q1; q++) {
      const j = lj[q];
      const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
      const e = row + mat[j];
      const q2 = (dx * dx + dy * dy + dz * dz) * tab[nn + e];
      if (q2 >= 1) continue;
      const s = 1 - q2;
      const wr = tab[e] * s * s * s * (hi + half[j]);
      const w = wr < PAIR_WEIGHT_MAX ? wr : PAIR_WEIGHT_MAX;
      const o = owner[j];
      if (o === t) {
        inJ[wp] = j;
        inW[wp++] = w;
      } else {
        if (other < 0) other = o;
        else if (o !== other) bad = 1;
        inJ[--xp] = j;
        inW[xp] = w;
      }
    }
    rows[4 * k + 1] = wp;
    rows[4 * k + 2] = xp;
    rows[4 * k + 3] = xEnd;
    if (other < 0) continue;
    if (other === t + 1) xslots[up++] = k;
    else if (other === t - 1) xslots[--down] = k;
    else bad = 1;
  }
  meta[M_UP + t] = up;
  meta[M_DOWN + t] = down;
  meta[M_IN + t] = wp - off[R_OFF + t];
  if (bad) meta[M_ERR] = 1;
  team.barrier();

  const sweeps = params[P_SWEEPS], single = params[P_SINGLE] === 1;
  for (let s = 0; s < sweeps; s++) {
    // Phase 1: this slab's own pairs.
    for (let k = k0; k < k1; k++) {
      const a = rows[4 * k], b = rows[4 * k + 1];
      if (a === b) continue;
      const i = plist[k];
      if (single) exchangeRow(vel, i, inJ, inW, a, b);
      else exchangeRowMixed(vel, mat, tab, nm, i, inJ, inW, a, b);
    }
    team.barrier();
    // Phase 2: boundary t | t+1 — slab t's rows (forward), then slab t+1's (in the order listed).
    if (t < T - 1) {
      for (let u = k0, ue = meta[M_UP + t]; u < ue; u++) {
        const k = xslots[u], i = plist[k];
        if (single) exchangeRow(vel, i, inJ, inW, rows[4 * k + 2], rows[4 * k + 3]);
        else exchangeRowMixed(vel, mat, tab, nm, i, inJ, inW, rows[4 * k + 2], rows[4 * k + 3]);
      }
      for (let u = off[t + 2] - 1, ue = meta[M_DOWN + t + 1]; u >= ue; u--) {
        const k = xslots[u], i = plist[k];
        if (single) exchangeRow(vel, i, inJ, inW, rows[4 * k + 2], rows[4 * k + 3]);
        else exchangeRowMixed(vel, mat, tab, nm, i, inJ, inW, rows[4 * k + 2], rows[4 * k + 3]);
      }
    }
    if (s < sweeps - 1) team.barrier();
  }
}

/**
 * One row of exchanges for one liquid material (viscosity.ts exchangeSweepSingle, same V8 shape:
 * j's velocity read once into locals, unrolled by 4): i against j = inJ[a..b), m̄/m = 1.
 */
function exchangeRow(vel: Float64Array, i: number, pj: Int32Array, pw: Float32Array, a: number, b: number): void {
  let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
  let q = a, j = 0, w = 0, ux = 0, uy = 0, uz = 0, xj = 0, yj = 0, zj = 0;
  for (; q + 3 < b; q += 4) {
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
  for (; q < b; q++) {
    j = 3 * pj[q]; w = pw[q];
    xj = vel[j]; yj = vel[j + 1]; zj = vel[j + 2];
    ux = w * (xj - vxi); uy = w * (yj - vyi); uz = w * (zj - vzi);
    vxi += ux; vyi += uy; vzi += uz;
    vel[j] = xj - ux; vel[j + 1] = yj - uy; vel[j + 2] = zj - uz;
  }
  vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
}

/** exchangeRow with per-pair material shares (viscosity.ts exchangeSweep). */
function exchangeRowMixed(
  vel: Float64Array, mat: Uint16Array, tab: Float64Array, nm: number, i: number,
  pj: Int32Array, pw: Float32Array, a: number, b: number,
): void {
  const nn = nm * nm, row = mat[i] * nm;
  let vxi = vel[3 * i], vyi = vel[3 * i + 1], vzi = vel[3 * i + 2];
  for (let q = a; q < b; q++) {
    const j = pj[q], w = pw[q], e = row + mat[j];
    const ux = w * (vel[3 * j] - vxi), uy = w * (vel[3 * j + 1] - vyi), uz = w * (vel[3 * j + 2] - vzi);
    const gi = tab[2 * nn + e], gj = tab[3 * nn + e];
    vxi += gi * ux; vyi += gi * uy; vzi += gi * uz;
    vel[3 * j] -= gj * ux; vel[3 * j + 1] -= gj * uy; vel[3 * j + 2] -= gj * uz;
  }
  vel[3 * i] = vxi; vel[3 * i + 1] = vyi; vel[3 * i + 2] = vzi;
}
