/**
 * The pressure solve's liquid rows from the adhesion stage's pair list (solve-setup.ts
 * prepareSolve, at the positions the pairs were listed at; the solve is DFSPH's, Bender & Koschier
 * 2017 §4, on the rows of Akinci et al. 2012's boundary-handled SPH): every pair (i, j), i < j,
 * within h goes into both rows, in gather form. Row a holds first the particles i < a whose pairs
 * name it, in ascending i, then a's own pairs' j in list order.
 *
 * One thread lists them in two passes (rowsFromPairs): the first tests each pair once, into a bit
 * per entry of the pair list, and counts each row; the second writes the rows from the set bits at
 * per-row cursors. A thread team lists them in one run of `solve-rows-count` over particle ranges
 * (the shape of viscosity-weiler-team-rows.ts, with the layout and the fill in the same run):
 *
 * 1. The count: each thread tests the pairs of the particles i of its range into their bits,
 *    counts i's own entries, and the entries it will write into every row j in a count block of
 *    its own (thread t: t n … t n + n). A bit word that straddles two threads' ranges is OR-ed in
 *    atomically; the words wholly inside a range have one writer. From half rows whose pairs are all
 *    within h (the density cells' listing, solve-setup.ts) nothing is tested: every entry counts,
 *    and the fill writes every pair. A barrier.
 * 2. The layout (O(n T), team-rows-layout.ts): row j = the entries into it from thread 0's
 *    particles, thread 1's, …, then its own; each count block becomes that thread's write cursor
 *    into each row. Each thread lays out a range of rows. The entries in all are known from the
 *    count (each counted pair is two), so the first thread lays out the first rows from 0 up and
 *    the last thread the last rows from the end down; a thread between them (three or more) sums
 *    its rows' entries and starts after the ranges below it, a barrier later. A barrier.
 * 3. The fill: each thread writes its pairs into both rows at its own cursors, where the rows'
 *    entries (list.j) have room for them all (every thread sees the same total); else the run ends
 *    after the layout, and the calling thread makes room and runs `solve-rows-fill`.
 * One run where there were two with the layout on the calling thread between them (8 runs a frame
 * of the honey drop fewer); teamWork.rowsInOneRun false keeps those (the same rows).
 *
 * The threads' ranges ascend, so row j's entries from other rows come in ascending i whatever the
 * split: the rows are the one-thread listing's, bit for bit, for every thread count.
 *
 * By range (`share`: TeamPairRows.ranged, where no loop reads a full row): a pair (i, j) goes into
 * row j only where j lies beyond the range of i's thread, so row j holds its upper part and the
 * lower entries below its own thread's range, which are all pressure-half.ts's team loops read (the
 * honey drop on two threads: 34.7 → 18.7 entries a liquid particle). The ranges are fixed here (cut by the pairs' cost at the solve's share of two
 * threads) and pinned (job.ts ItemCost.pin), so that the count, the fill and every run of the
 * solve over these rows take them.
 */
import type { StepContext } from './context.ts';
import type { SlotRows } from './slot-rows.ts';
import { defineJob, pinCut } from '../parallel/job.ts';
import { allocInt32, isShared } from '../parallel/memory.ts';
import { MAX_THREADS } from '../parallel/team.ts';
import { runJob } from '../parallel/run-job.ts';
import { PAIR_LIST_COST, teamWork } from './work.ts';
import { layoutTeamRows, layoutTeamRowsBack, layoutTeamRowsRange, teamRowsEntries } from './team-rows-layout.ts';

/**
 * The rows on one thread (see the header). Scratch: `cursor`, n entries, and `bits`, one bit per
 * entry of the pair list.
 */
export function rowsFromPairs(ctx: StepContext, x: Float64Array, n: number, list: SlotRows, cursor: Int32Array, bits: Int32Array): void {
  const pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j, h = ctx.densityH, h2 = h * h;
  const len = list.start;
  len.fill(0, 0, n + 1);
  let word = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    let k = 0;
    for (let q = ps[i], q1 = ps[i + 1]; q < q1; q++) {
      const j = pj[q];
      const dx = x[3 * j] - xi, dy = x[3 * j + 1] - yi, dz = x[3 * j + 2] - zi;
      const t = +(dx * dx + dy * dy + dz * dz < h2);
      word |= t << (q & 31);
      if ((q & 31) === 31) {
        bits[q >>> 5] = word;
        word = 0;
      }
      k += t;
      len[j] += t;
    }
    len[i] += k;
  }
  const total2 = ps[n];
  if ((total2 & 31) !== 0) bits[total2 >>> 5] = word;
  layOutRows(list, cursor, n);
  writeRows(ps, pj, bits, list.j, cursor, cursor, 0, 0, n);
}

/**
 * The rows' upper parts alone on one thread (solve-setup.ts prepareSolve where no loop reads a full
 * row): row a = a's own pairs b > a within h, in list order (the upper part of rowsFromPairs's row
 * a, entry for entry). Every candidate is written and the length advanced over those in reach
 * (neighbours.ts gatherWithin), so a row needs room for all its pairs.
 */
export function upperRowsFromPairs(ctx: StepContext, x: Float64Array, n: number, list: SlotRows): void {
  const pairs = ctx.cells.pairs, ps = pairs.start, pj = pairs.j, h = ctx.densityH, h2 = h * h;
  const ls = list.start;
  let lj = list.j, len = 0;
  for (let i = 0; i < n; i++) {
    const q0 = ps[i], q1 = ps[i + 1];
    if (len + (q1 - q0) > lj.length) {
      list.length = len;
      list.reserve(len + (q1 - q0));
      lj = list.j;
    }
    ls[i] = len;
    const xi = x[3 * i], yi = x[3 * i + 1], zi = x[3 * i + 2];
    for (let q = q0; q < q1; q++) {
      const j = pj[q];
      const dx = x[3 * j] - xi, dy = x[3 * j + 1] - yi, dz = x[3 * j + 2] - zi;
      lj[len] = j;
      len += +(dx * dx + dy * dy + dz * dz < h2);
    }
  }
  ls[n] = len;
  list.length = len;
}

/**
 * The rows' starts from their lengths (list.start[a], a < n, in place: an exclusive prefix sum, also
 * into `cursor`, each row's next free entry), list.start[n] the total, and room for that many entries.
 */
function layOutRows(list: SlotRows, cursor: Int32Array, n: number): void {
  const len = list.start;
  let total = 0;
  for (let a = 0; a < n; a++) {
    const l = len[a];
    len[a] = cursor[a] = total;
    total += l;
  }
  len[n] = total;
  list.reserve(total);
  list.length = total;
}

/**
 * Full rows from half rows `half` (row a: the slots b > a within h, in any order) on one thread,
 * in rowsFromPairs's layout: row a holds the slots i < a whose half rows name it, in ascending i,
 * then its own half row in its order. Scratch: `cursor`, n entries.
 */
export function rowsFromHalf(half: SlotRows, n: number, list: SlotRows, cursor: Int32Array): void {
  const hs = half.start, hj = half.j, len = list.start;
  len.fill(0, 0, n + 1);
  for (let i = 0; i < n; i++) {
    len[i] += hs[i + 1] - hs[i];
    for (let q = hs[i], q1 = hs[i + 1]; q < q1; q++) len[hj[q]]++;
  }
  layOutRows(list, cursor, n);
  const lj = list.j;
  for (let i = 0; i < n; i++) {
    let ci = cursor[i];
    for (let q = hs[i], q1 = hs[i + 1]; q < q1; q++) {
      const j = hj[q];
      lj[ci++] = j;
      lj[cursor[j]++] = i;
    }
    cursor[i] = ci;
  }
}

/**
 * Writes the pairs of particles [i0, i1) whose bits are set into both rows: i's own entries at
 * own[i] on, j's entry from i at into[block + j] (advanced) where j ≥ `cut` (ranged rows: j beyond
 * the thread's range; else 0).
 */
function writeRows(
  ps: Int32Array, pj: Int32Array | Uint16Array, bits: Int32Array, lj: Int32Array | Uint16Array, own: Int32Array, into: Int32Array, block: number, i0: number, i1: number,
  cut = 0,
): void {
  for (let i = i0; i < i1; i++) {
    let ci = own[i];
    for (let q = ps[i], q1 = ps[i + 1]; q < q1;) {
      const sh = q & 31, span = Math.min(32 - sh, q1 - q);
      let w = bits[q >>> 5] >>> sh;
      if (span < 32) w &= (1 << span) - 1;
      while (w !== 0) {
        const j = pj[q + 31 - Math.clz32(w & -w)];
        lj[ci++] = j;
        if (j >= cut) lj[into[block + j]++] = i;
        w &= w - 1;
      }
      q += span;
    }
    own[i] = ci;
  }
}

/**
 * The count of a list whose pairs are all within h: i's own entries, and j's entry from i in the
 * thread's block where j ≥ `cut` (writeRows). Returns the entries counted.
 */
function countWithin(ps: Int32Array, pj: Int32Array | Uint16Array, own: Int32Array, into: Int32Array, block: number, i0: number, i1: number, cut: number): number {
  let entries = ps[i1] - ps[i0];
  for (let i = i0; i < i1; i++) {
    const q0 = ps[i], q1 = ps[i + 1];
    own[i] = q1 - q0;
    for (let q = q0; q < q1; q++) {
      const j = pj[q];
      if (j >= cut) {
        into[block + j]++;
        entries++;
      }
    }
  }
  return entries;
}

/** writeRows where every pair is within h: each pair of particles [i0, i1) into i's row, and into j's where j ≥ `cut`. */
function writeAll(ps: Int32Array, pj: Int32Array | Uint16Array, lj: Int32Array | Uint16Array, own: Int32Array, into: Int32Array, block: number, i0: number, i1: number, cut: number): void {
  for (let i = i0; i < i1; i++) {
    let ci = own[i];
    for (let q = ps[i], q1 = ps[i + 1]; q < q1; q++) {
      const j = pj[q];
      lj[ci++] = j;
      if (j >= cut) lj[into[block + j]++] = i;
    }
    own[i] = ci;
  }
}

/**
 * Per pair: whether it is within h (a bit); per particle: its own entry count; per thread and row:
 * entries into the row. `within` (1): every pair of the list is within h (the density cells' half
 * rows, solve-setup.ts), so no distance is tested and no bit is written: each entry is counted.
 * Then, with `layout` (teamWork.rowsInOneRun), the rows' layout (start, the cursors in own and into;
 * tot: each thread's rows' entries) and, where lj has room for them all, the fill (see the header).
 */
export const solveRowsCountJob = defineJob({
  name: 'solve-rows-count',
  arrays: { bits: 'i32', own: 'i32', into: 'i32', start: 'i32', lj: 'index', tot: 'i32' },
  inputs: { x: 'f64', ps: 'i32', pj: 'index', cuts: 'i32' },
  scalars: ['h2', 'within', 'layout', 'ranged'],
  split: 'items',
  // Cut by pairs (PAIR_LIST_COST): the count and the fill cut alike, so each fills what it counted;
  // ranged rows at the cut `cuts` holds, which the solve keeps (TeamPairRows.cuts).
  cost: { ...PAIR_LIST_COST, pin: 'cuts' },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { bits, own, into, start, lj, tot, x: pos, ps, pj } = x.a;
    const h2 = x.s.h2, within = x.s.within === 1, block = x.rank * x.n, q0 = ps[x.from], qe = ps[x.to], w0 = q0 >>> 5;
    // Ranged rows: a pair goes into its upper slot's row only where that slot lies beyond this range.
    const cut = x.s.ranged === 1 ? x.to : 0;
    let entries = 0;
    if (within) entries = countWithin(ps, pj, own, into, block, x.from, x.to, cut);
    else {
      let word = 0;
      for (let i = x.from; i < x.to; i++) {
        const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
        let k = 0;
        for (let q = ps[i], q1 = ps[i + 1]; q < q1; q++) {
          const j = pj[q];
          const dx = pos[3 * j] - xi, dy = pos[3 * j + 1] - yi, dz = pos[3 * j + 2] - zi;
          const t = +(dx * dx + dy * dy + dz * dz < h2);
          word |= t << (q & 31);
          if ((q & 31) === 31) {
            // The range's first word may hold the previous range's last entries.
            if (q >>> 5 === w0) Atomics.or(bits, w0, word);
            else bits[q >>> 5] = word;
            word = 0;
          }
          k += t;
          if (j >= cut) {
            into[block + j] += t;
            entries += t;
          }
        }
        own[i] = k;
        entries += k;
      }
      // A last word the range ends inside holds the next range's first entries.
      if ((qe & 31) !== 0) Atomics.or(bits, qe >>> 5, word);
    }
    if (x.s.layout !== 1) return;
    // The layout, a range of rows a thread, after every thread's counts: the entries in all are
    // the threads' entries counted (each pair twice; ranged rows, those that cross once).
    const n = x.n, T = x.size, r = x.rank, j0 = Math.floor((n * r) / T), j1 = Math.floor((n * (r + 1)) / T);
    tot[r] = entries;
    x.barrier();
    let total = 0;
    for (let t = 0; t < T; t++) total += tot[t];
    if (T > 2) {
      // (The rows' entries of the ranges between the first and the last, after a barrier: MAX_THREADS words on.)
      tot[MAX_THREADS + r] = teamRowsEntries(own, into, n, T, j0, j1);
      x.barrier();
    }
    if (r === 0) layoutTeamRowsRange(start, own, into, n, T, j0, j1, 0);
    else if (r === T - 1) layoutTeamRowsBack(start, own, into, n, T, j0, j1, total);
    else {
      let base = 0;
      for (let t = 0; t < r; t++) base += tot[MAX_THREADS + t];
      layoutTeamRowsRange(start, own, into, n, T, j0, j1, base);
    }
    if (r === T - 1) start[n] = total;
    // Every thread sees the same total: all fill, or none (the calling thread then makes room).
    if (total > lj.length) return;
    x.barrier();
    if (within) writeAll(ps, pj, lj, own, into, block, x.from, x.to, cut);
    else writeRows(ps, pj, bits, lj, own, into, block, x.from, x.to, cut);
  },
});

/** Writes each pair within h (`within`: each pair) into both rows at the thread's own cursors (`own`, `into`), where the count's run did not. */
export const solveRowsFillJob = defineJob({
  name: 'solve-rows-fill',
  arrays: { lj: 'index', own: 'i32', into: 'i32' },
  inputs: { ps: 'i32', pj: 'index', bits: 'i32', cuts: 'i32' },
  scalars: ['parts', 'within', 'ranged'],
  split: 'items',
  // Cut by pairs (PAIR_LIST_COST) or at `cuts` (ranged rows), as the count: each fills what it counted.
  cost: { ...PAIR_LIST_COST, pin: 'cuts' },
  minItems: () => teamWork.minParticles,
  kernel(x) {
    const { lj, own, into, ps, pj, bits } = x.a;
    if (x.size !== x.s.parts) throw new Error(`solve rows: filled on ${x.size} threads, counted on ${x.s.parts}`);
    const cut = x.s.ranged === 1 ? x.to : 0;
    if (x.s.within === 1) writeAll(ps, pj, lj, own, into, x.rank * x.n, x.from, x.to, cut);
    else writeRows(ps, pj, bits, lj, own, into, x.rank * x.n, x.from, x.to, cut);
  },
});

/** What the team's listing keeps between calls (on shared memory with a team): per pair-list word (its counts: StepContext.teamRowCounts). */
export class TeamPairRows {
  /** The pairs' bits where the caller lends no room for them (a word per 32 entries of the pair list). */
  bits = new Int32Array(0);
  /** Each thread's entries counted, then (three threads or more) each thread's rows' entries in the layout (2 MAX_THREADS words). */
  tot = new Int32Array(0);
  /**
   * The threads of the last team listing into ctx.teamRowCounts.into, T (0: none since, or the
   * caller lent the counts: solve-setup.ts prepareSolve keeps the upper starts itself): its last
   * thread's cursors stand in into[(T − 1) n …] until the next listing into those counts (the
   * viscosity's cross rows count into them too and set this to 0), so that upperStartsOf takes a
   * solve's upper starts from them.
   */
  filled = 0;
  /**
   * Ranged rows (teamRowsFromPairs `share` given): row a holds its upper part and, of its lower
   * part, the entries below its thread's range alone (the only ones pressure-half.ts's team loops
   * read), the ranges those of `cuts` (job.ts ItemCost.pin: T, then the T + 1 cuts), which every
   * run of the solve over these rows takes (pressure-job.ts). False where the rows are full.
   */
  ranged = false;
  cuts = new Int32Array(0);
}

/**
 * Whether the rows are listed by the team's jobs: on a team of more than one thread that takes a
 * job of n items, or on one thread where a bench measures the team's path
 * (teamWork.teamRowsOnOneThread).
 */
export function teamListsRows(ctx: StepContext, n: number): boolean {
  return teamWork.teamRowsOnOneThread || ctx.runner.bind(solveRowsCountJob).threads(n) > 1;
}

/**
 * The rows by the team's jobs (see the header): the same rows as rowsFromPairs (`pairs`: the pair
 * list, or the half rows of rowsFromHalf, whose rows these are then; `within`: every pair of `pairs`
 * is within h at x, as the half rows are listed, so none is tested again). Returns the threads that
 * filled them, T: the last thread's cursors (ctx.teamRowCounts.into[(T − 1) n + j]) then stand
 * where row j's upper part starts (upperStartsFromFill), until the next team listing. `lent`: room
 * for the pairs' bits (a word per 32 entries, and one) in the caller's scratch on shared memory,
 * which lives until this returns (solve-setup.ts: the stage buffer's room for one thread's listing);
 * else they are kept in `sc`. `ownLent`: room for the rows' own counts and cursors (n + 1 words) that
 * lives as long, else they are ctx.teamRowCounts.own. `share` ≥ 0: the rows by range (see the header), two threads' cut at
 * that share of the pairs' cost (more threads: even shares), in sc.cuts. `intoLent`: room for the
 * threads' counts and cursors (T n words) that lives as long, else they are ctx.teamRowCounts.into;
 * where lent, the last thread's cursors are the caller's to copy (into[(T − 1) n …]) before the room goes, and sc.filled is 0.
 */
export function teamRowsFromPairs(
  ctx: StepContext, x: Float64Array, n: number, list: SlotRows, sc: TeamPairRows, pairs: SlotRows = ctx.cells.pairs, within = false,
  lent: Int32Array | null = null, share = -1, ownLent: Int32Array | null = null, intoLent: Int32Array | null = null,
): number {
  const ps = pairs.start, np = ps[n], words = (np + 31) >>> 5, h = ctx.densityH;
  const count = ctx.runner.bind(solveRowsCountJob), T = count.threads(n);
  // Ranged rows on two threads or more: the threads' ranges fixed here, for the count, the fill and the solve.
  const ranged = (sc.ranged = share >= 0 && T > 1);
  if (ranged) {
    if (sc.cuts.length < MAX_THREADS + 2 || (ctx.shared && !isShared(sc.cuts))) sc.cuts = allocInt32(MAX_THREADS + 2, ctx.shared);
    pinCut(sc.cuts, n, T, (t) => pairCut(ps, n, T === 2 ? share : t / T));
  }
  const lend = !within && lent !== null && lent.length >= words + 1;
  if (!within && !lend && sc.bits.length < words + 1) sc.bits = allocInt32(Math.ceil((words + 1) * 1.25), ctx.shared);
  const counts = ctx.teamRowCounts, lendOwn = ownLent !== null && ownLent.length >= n + 1, lendInto = intoLent !== null && intoLent.length >= T * n;
  if (!lendOwn || !lendInto) counts.room(n, lendInto ? 0 : T, ctx.shared, Math.max(n, ctx.liquid?.capacity ?? 0), !lendOwn);
  const bits = lend ? lent : sc.bits, into = lendInto ? intoLent : counts.into, own = lendOwn ? ownLent : counts.own;
  // Zeroed here, not by each thread: a thread's range may be run in pieces (bench/team-balance.ts).
  if (!within) bits.fill(0, 0, words + 1);
  into.fill(0, 0, T * n);
  if (sc.tot.length < 2 * MAX_THREADS || (ctx.shared && !isShared(sc.tot))) sc.tot = allocInt32(2 * MAX_THREADS, ctx.shared);
  const a = count.a;
  a.bits = bits; a.own = own; a.into = into; a.x = x; a.ps = ps; a.pj = pairs.j;
  a.start = list.start; a.lj = list.j; a.tot = sc.tot; a.cuts = ranged ? sc.cuts : NO_CUTS;
  count.s.h2 = h * h;
  count.s.within = within ? 1 : 0;
  count.s.ranged = ranged ? 1 : 0;
  count.s.layout = teamWork.rowsInOneRun ? 1 : 0;
  runJob(count, n);
  // Laid out (row j = the entries into it, thread by thread, then its own) in the count's run, and
  // filled there where list.j had room; else here, and filled by a run of its own.
  const inRun = count.s.layout === 1;
  const total = inRun ? list.start[n] : layoutTeamRows(list.start, own, into, n, T);
  if (!inRun || total > list.j.length) {
    list.reserve(total);
    const fill = ctx.runner.bind(solveRowsFillJob), f = fill.a;
    f.lj = list.j; f.own = own; f.into = into; f.ps = ps; f.pj = pairs.j; f.bits = bits;
    fill.s.parts = T;
    fill.s.within = count.s.within;
    fill.a.cuts = count.a.cuts;
    fill.s.ranged = count.s.ranged;
    runJob(fill, n);
  }
  list.length = total;
  sc.filled = lendInto ? 0 : T;
  return T;
}

const NO_CUTS = new Int32Array(0);

/** The first particle whose pairs before it (PAIR_LIST_COST: ps and 2 a particle) reach `share` of all. */
function pairCut(ps: Int32Array, n: number, share: number): number {
  const target = share * (ps[n] - ps[0] + PAIR_LIST_COST.perItem * n);
  let lo = 0, hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ps[mid] - ps[0] + PAIR_LIST_COST.perItem * mid < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * upperStarts of the rows `list`; where teamRowsFromPairs listed them on T > 0 threads (and nothing
 * was listed by the team since), without a scan of the rows: row j is the entries into it from
 * thread 0's particles, thread 1's, …, then its own (its upper part), and the last thread's cursor
 * into row j ends, after the fill, where that thread's entries end, which is where row j's own start.
 */
export function upperStartsOf(ctx: StepContext, list: SlotRows, n: number, T: number, mid: Int32Array): void {
  if (T > 0) mid.set(ctx.teamRowCounts.into.subarray((T - 1) * n, T * n));
  else upperStarts(list.start, list.j, n, mid);
}

/** Where each of the n rows' upper part starts (the rows' lower part names slots below a, in ascending order). */
export function upperStarts(ls: Int32Array, lj: Int32Array | Uint16Array, n: number, mid: Int32Array): void {
  for (let a = 0; a < n; a++) {
    let q = ls[a];
    const q1 = ls[a + 1];
    while (q < q1 && lj[q] < a) q++;
    mid[a] = q;
  }
}
