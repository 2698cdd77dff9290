/**
 * The implicit viscosity's full liquid rows on a thread team (viscosity-weiler.ts; the system of
 * Weiler, Koschier, Brand & Bender 2018, §4 eq. 8–10, in viscosity-weiler-solve.ts), listed by the
 * team itself in two jobs over particle ranges, so that no part of the listing stays serial:
 *
 * 1. `viscosity-rows-count`: each thread, for the particles i of its range, evaluates each pair
 *    (i, j) of the adhesion stage's pair list (i < j) once: e_ij = δt K μ_ij F(|x_ij|) q_i q_j (single
 *    precision; q the volumes, viscosity-weiler-volumes.ts) into the pair's own slot, or −1 beyond the pair's support; counts i's own entries,
 *    and the entries it will write into row j in a count block of its own (thread t: t n … t n + n).
 * 2. The calling thread lays the rows out (O(n T)): row j holds first the entries from the
 *    particles k < j that name it, in ascending k (thread 0's, then thread 1's, …: the threads'
 *    ranges ascend), then its own pairs in list order; each thread's count block becomes its write
 *    cursor into each row.
 * 3. `viscosity-rows-fill`: each thread writes its pairs into both rows at its own cursors. Every
 *    slot has one writer.
 *
 * The layout (rows in particle order, each row's entries in that order) and the coefficients do not
 * depend on the thread count, and are those of the serial listing this replaced (a count pass and a
 * fill pass at per-row cursors on the calling thread; docs/decisions.md), bit for bit.
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { defineJob } from '../parallel/job.ts';
import { allocInt32 } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { pairFactorMean } from './temperature.ts';
import { pairFactor } from './viscosity-weiler-product.ts';
import { PAIR_LIST_COST, VISCOSITY_MIN_PARTICLES } from './work.ts';
import { layoutTeamRows } from './team-rows-layout.ts';

const NO_FACTORS = new Float64Array(0);

/** Per pair: its coefficient or −1; per particle: its own entry count; per thread and row: entries into the row. */
export const viscosityRowsCountJob = defineJob({
  name: 'viscosity-rows-count',
  arrays: { pc: 'f32', own: 'i32', into: 'i32' },
  inputs: { pos: 'f64', mat: 'u16', vol: 'f64', ps: 'i32', pj: 'index', pk: 'f64', ph: 'f64', ph2: 'f64', tf: 'f64' },
  scalars: ['nm', 'thermal'],
  split: 'items',
  // Cut by pairs (PAIR_LIST_COST): the count and the fill cut alike, so each fills what it counted.
  cost: PAIR_LIST_COST,
  minItems: () => VISCOSITY_MIN_PARTICLES,
  kernel(x) {
    const { pc, own, into, pos, mat, vol, ps, pj, pk, ph, ph2, tf } = x.a;
    const nm = x.s.nm, thermal = x.s.thermal === 1, block = x.rank * x.n;
    for (let i = x.from; i < x.to; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], row = mat[i] * nm, qi = vol[i];
      let m = 0;
      for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
        const j = pj[e], pe = row + mat[j];
        const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi, d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < ph2[pe]) {
          pc[e] = Math.fround(pk[pe] * pairFactor(d2, ph[pe]) * qi * vol[j] * (thermal ? pairFactorMean(tf[i], tf[j]) : 1));
          m++;
          into[block + j]++;
        } else pc[e] = -1;
      }
      own[i] = m;
    }
  },
});

/** Writes each pair's coefficient into both of its rows at the thread's own cursors (`own`, `into`). */
export const viscosityRowsFillJob = defineJob({
  name: 'viscosity-rows-fill',
  arrays: { coef: 'f32', lj: 'index', own: 'i32', into: 'i32' },
  inputs: { ps: 'i32', pj: 'index', pc: 'f32' },
  scalars: ['parts'],
  split: 'items',
  // Cut by pairs (PAIR_LIST_COST): the count and the fill cut alike, so each fills what it counted.
  cost: PAIR_LIST_COST,
  minItems: () => VISCOSITY_MIN_PARTICLES,
  kernel(x) {
    const { coef, lj, own, into, ps, pj, pc } = x.a;
    if (x.size !== x.s.parts) throw new Error(`viscosity rows: filled on ${x.size} threads, counted on ${x.s.parts}`);
    const block = x.rank * x.n;
    for (let i = x.from; i < x.to; i++) {
      let o = own[i];
      for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
        const c = pc[e];
        if (c < 0) continue;
        const j = pj[e], k = into[block + j]++;
        coef[o] = c;
        lj[o++] = j;
        coef[k] = c;
        lj[k] = i;
      }
    }
  },
});

/**
 * What the team listing keeps between calls (on shared memory): per particle, per thread and
 * particle; per pair, from the count to the fill of one call (in the pair list's store).
 */
export class TeamRowScratch {
  pc: Float32Array = new Float32Array(0);
  own = new Int32Array(0);
  into = new Int32Array(0);
  /** The threads the last count ran on (the fill must run on as many: the cursors are theirs). */
  parts = 1;
}

/**
 * Steps 1 and 2: counts the rows on the team and lays out st.rows (its length the entries'
 * count, so that the caller can size the coefficients); fillTeamRows then writes them.
 */
export function countTeamRows(ctx: StepContext, st: ImplicitViscosityState, sc: TeamRowScratch, n: number): void {
  const pairs = ctx.cells.pairs, np = pairs.length, rows = st.rows;
  const job = ctx.runner.bind(viscosityRowsCountJob), T = job.threads(n);
  // The pair coefficients right after the pair list's entries in the memory it shares with the
  // object contact lists (list-store.ts): live from this count to the fill, while the pair list is.
  sc.pc = ctx.listStore.after(pairs, np, ctx.shared);
  if (sc.own.length < n + 1) sc.own = allocInt32(Math.ceil((n + 1) * 1.25), ctx.shared);
  if (sc.into.length < T * n) sc.into = allocInt32(Math.ceil(T * n * 1.25), ctx.shared);
  const a = job.a;
  a.pc = sc.pc; a.own = sc.own; a.into = sc.into;
  a.pos = ctx.liquid.pos; a.mat = ctx.liquid.material; a.vol = st.vol; a.ps = pairs.start; a.pj = pairs.j;
  a.pk = st.pk; a.ph = st.ph; a.ph2 = st.ph2;
  a.tf = ctx.temperature ? ctx.temperature.factor : NO_FACTORS;
  job.s.nm = ctx.mass.length; job.s.thermal = ctx.temperature ? 1 : 0;
  // Zeroed here, not by each thread: a thread's range may be run in pieces (bench/team-balance.ts).
  sc.into.fill(0, 0, T * n);
  runJob(job, n);
  // The layout: row j = the entries into it, thread by thread, then its own.
  rows.shared = ctx.shared;
  rows.reset(n);
  const total = layoutTeamRows(rows.start, sc.own, sc.into, n, T);
  rows.reserve(total);
  rows.length = total;
  sc.parts = T;
}

/** Step 3: the rows' entries and coefficients (coef: st.rows.length single-precision numbers). */
export function fillTeamRows(ctx: StepContext, st: ImplicitViscosityState, sc: TeamRowScratch, n: number, coef: Float32Array): void {
  const pairs = ctx.cells.pairs, job = ctx.runner.bind(viscosityRowsFillJob);
  const a = job.a;
  a.coef = coef; a.lj = st.rows.j; a.own = sc.own; a.into = sc.into;
  a.ps = pairs.start; a.pj = pairs.j; a.pc = sc.pc;
  job.s.parts = sc.parts;
  runJob(job, n);
  sc.pc = NO_COEFFICIENTS;
}

const NO_COEFFICIENTS = new Float32Array(0);
