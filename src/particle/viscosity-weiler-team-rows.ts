/**
 * The implicit viscosity's rows on a thread team (viscosity-weiler.ts; the system of Weiler,
 * Koschier, Brand & Bender 2018, §4 eq. 8–10, in viscosity-weiler-solve.ts). A team takes the
 * liquid pairs as one thread does, each pair once from the adhesion stage's pair list (the half
 * rows: row i holds its pairs j > i), with one addition: the pairs that cross the ends of the
 * threads' ranges, listed again in the row of their upper particle (the *cross rows*), so that a
 * thread can gather into its own rows what a thread below it holds. Listed by the team itself,
 * over particle ranges cut by the pairs (PAIR_LIST_COST), the cuts the solve takes too, in a job of
 * their own and at the start of the solve's run:
 *
 * 1. `viscosity-rows-count`: each thread, for the particles i of its range, evaluates each pair
 *    (i, j) of the pair list once: e_ij = δt K μ_ij F(|x_ij|) q_i q_j (its 16-bit code,
 *    viscosity-weiler-coef.ts; q the
 *    volumes, viscosity-weiler-volumes.ts; F from the half rows' table of √F, viscosity-weiler-rows.ts,
 *    so that both paths take the same e), or 0 beyond the pair's support, into the pair's own slot
 *    of the solve's coefficients; counts, in a count block of its own (thread t: t n … t n + n),
 *    the pairs that reach row j beyond its range's end.
 * 2. The calling thread lays the cross rows out (team-rows-layout.ts, O(n T)): row j holds the
 *    entries from the particles k < j below j's range, in ascending k (thread 0's, then thread 1's,
 *    …); each thread's count block becomes its write cursor into each row.
 * 3. At the start of the solve's run (fillCross, then a barrier): each thread writes its crossing
 *    pairs into the cross rows at its own cursors (entry k and its coefficient). Every slot has one writer.
 *
 * On one thread (teamWork.teamRowsOnOneThread) the cross rows are empty, and the solve runs as the
 * one-thread path does on the uncompacted pair list.
 */
import type { StepContext } from './context.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { defineJob, itemCut, type AnyJob } from '../parallel/job.ts';
import { allocUint16, isShared } from '../parallel/memory.ts';
import { runJob } from '../parallel/run-job.ts';
import { pairFactorMean } from './temperature.ts';
import { factorRoots, pairTables } from './viscosity-weiler-rows.ts';
import { codeOf } from './viscosity-weiler-coef.ts';
import { PAIR_LIST_COST, VISCOSITY_MIN_PARTICLES } from './work.ts';
import { layoutTeamRows } from './team-rows-layout.ts';
import type { CallRoom } from './viscosity-weiler-boundary.ts';

const NO_FACTORS = new Float64Array(0);
const NO_NARROW = new Uint16Array(0), NO_WIDE = new Int32Array(0);

/**
 * The end of thread `rank`'s range of the solve (the pair list's cost cut, PAIR_LIST_COST, as the
 * count, the fill and the solve take it): the pairs that cross it are the cross rows'. Where the
 * listing runs on a thread's range in pieces (bench/team-balance.ts) the pieces still list the
 * crossings of the whole range.
 */
function rangeEnd(a: { ps: Int32Array }, n: number, rank: number, size: number): number {
  return itemCut(CUT, a, n, rank + 1, size);
}

/** Per pair: its coefficient (0 beyond its support); per thread and row: the crossing entries into the row. */
export const viscosityRowsCountJob = defineJob({
  name: 'viscosity-rows-count',
  arrays: { coef: 'u16', into: 'i32' },
  inputs: { pos: 'f64', mat: 'u16', vol: 'f32', ps: 'i32', pj: 'index', root: 'f64', toTable: 'f64', ph2: 'f64', tf: 'f64' },
  scalars: ['nm', 'thermal'],
  split: 'items',
  // Cut by pairs (PAIR_LIST_COST): the count, the fill and the solve cut alike.
  cost: PAIR_LIST_COST,
  minItems: () => VISCOSITY_MIN_PARTICLES,
  kernel(x) {
    const { coef, into, pos, mat, vol, ps, pj, root, toTable, ph2, tf } = x.a;
    const nm = x.s.nm, thermal = x.s.thermal === 1, block = x.rank * x.n, T = factorRoots(), to = rangeEnd(x.a, x.n, x.rank, x.size);
    for (let i = x.from; i < x.to; i++) {
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2], row = mat[i] * nm, qi = vol[i];
      for (let e = ps[i], e1 = ps[i + 1]; e < e1; e++) {
        const j = pj[e], pe = row + mat[j];
        const dx = xi - pos[3 * j], dy = yi - pos[3 * j + 1], dz = zi - pos[3 * j + 2], d2 = dx * dx + dy * dy + dz * dz;
        if (!(d2 < ph2[pe])) {
          coef[e] = 0;
          continue;
        }
        // e's code from the table of √F, as the half rows take it (viscosity-weiler-rows.ts halfRows): the same coefficient.
        const s = d2 * toTable[pe], t = s | 0, f = s - t, w = root[pe] * (T[t] + f * (T[t + 1] - T[t])) * qi * vol[j];
        const c = codeOf(thermal ? w * Math.sqrt(pairFactorMean(tf[i], tf[j])) : w);
        coef[e] = c;
        if (j >= to && c !== 0) into[block + j]++;
      }
    }
  },
});

/** The cut of the ranges (the count job's cost: PAIR_LIST_COST over the pair list's starts, `ps`). */
const CUT = viscosityRowsCountJob as unknown as AnyJob;

/**
 * Step 3, in the solve's own run (viscosity-weiler-solve.ts, before a barrier): thread `rank`
 * writes each crossing pair of its rows [from, to) into the cross row of its upper particle, at
 * its own cursors (`into`, its count block: the count job's cut is the solve's, `to` the end of
 * both). Every slot has one writer. In the solve's run rather than one of its own: a run is a
 * wake-up of the spawned threads and a wait for their DONE, a barrier one wait.
 */
export function fillCross(
  a: { xc: Uint16Array; xj: Uint16Array | Int32Array; into: Int32Array; ls: Int32Array; lj: Uint16Array | Int32Array; coef: Uint16Array },
  n: number, rank: number, from: number, to: number,
): void {
  const { xc, xj, into, ls, lj, coef } = a, block = rank * n;
  for (let i = from; i < to; i++) {
    for (let e = ls[i], e1 = ls[i + 1]; e < e1; e++) {
      const j = lj[e], c = coef[e];
      if (j < to || c === 0) continue;
      const k = into[block + j]++;
      xc[k] = c;
      xj[k] = i;
    }
  }
}

/** What the team listing keeps between calls (on shared memory): per cross entry (its counts: StepContext.teamRowCounts). */
export class TeamRowScratch {
  /**
   * The cross rows' coefficients, as their codes (viscosity-weiler-coef.ts; the rows themselves:
   * st.rows): a view of the call's idle room where it has one (countTeamRows), else their own.
   */
  xc = new Uint16Array(0);
  /** The threads the last count ran on (the solve's fill must run on as many: the cursors are theirs). */
  parts = 1;
}

/**
 * Steps 1 and 2: the pair coefficients into `coef` (the pair list's length), the cross rows
 * counted on the team and laid out in st.rows; the solve's run then writes them (fillCross).
 */
export function countTeamRows(
  ctx: StepContext, st: ImplicitViscosityState, sc: TeamRowScratch, n: number, coef: Uint16Array, rootVol: Float32Array, room: CallRoom,
): void {
  const pairs = ctx.cells.pairs, rows = st.rows;
  const job = ctx.runner.bind(viscosityRowsCountJob), T = job.threads(n);
  const counts = ctx.teamRowCounts;
  // T − 1 blocks: the last thread's would count nothing (no pair crosses the end of its range).
  counts.room(n, T - 1, ctx.shared, ctx.liquid.capacity, false);
  const a = job.a;
  a.coef = coef; a.into = counts.into;
  a.pos = ctx.liquid.pos; a.mat = ctx.liquid.material; a.vol = rootVol; a.ps = pairs.start; a.pj = pairs.j;
  const thermal = !!ctx.temperature;
  pairTables(st, ctx.mass.length, ctx.temperature ? ctx.temperature.factor : NO_FACTORS, n, thermal, rootVol);
  a.root = st.pairRootCode; a.toTable = st.pairToTable; a.ph2 = st.ph2;
  a.tf = ctx.temperature ? ctx.temperature.factor : NO_FACTORS;
  job.s.nm = ctx.mass.length; job.s.thermal = ctx.temperature ? 1 : 0;
  // Zeroed here, not by each thread: a thread's range may be run in pieces (bench/team-balance.ts).
  counts.into.fill(0, 0, (T - 1) * n);
  // (The solve's rows, where the team listed them into these counts, keep their upper starts no more.)
  if (ctx.solve) ctx.solve.teamRows.filled = 0;
  runJob(job, n);
  // The layout: row j = the crossing entries into it, thread by thread (no entries of its own).
  // The rows live within the stage's call, as their coefficients: their starts and entries in its
  // idle room where it has them (viscosity-weiler-boundary.ts CallRoom; let go at the call's end:
  // returnRoom), else in memory of their own (kept until a call lends them room).
  // The room goes to the coefficients first, then the starts, then the entries.
  let total = 0;
  for (let k = 0, into = counts.into, e = (T - 1) * n; k < e; k++) total += into[k];
  const xc = room.u16(total);
  rows.shared = ctx.shared;
  const wide = n > 0x10000, start = room.i32(n + 1), lent = start ? (wide ? room.i32(total) : room.u16(total)) : null;
  if (start) rows.lend(start, lent ?? (wide ? NO_WIDE : NO_NARROW));
  else rows.reset(n);
  layoutTeamRows(rows.start, null, counts.into, n, T - 1);
  rows.reserve(total);
  rows.length = total;
  if (xc) sc.xc = xc;
  else if (sc.xc.length < total || (ctx.shared && !isShared(sc.xc))) sc.xc = allocUint16(Math.max(1024, Math.ceil(total * 1.25)), ctx.shared);
  sc.parts = T;
}
