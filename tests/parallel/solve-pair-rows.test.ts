/**
 * The pressure solve's rows from the pair list (src/particle/solve-pair-rows.ts): the team's two
 * jobs give the one-thread listing's rows whatever order the threads' ranges run in. The threads
 * are played here one after the other, in both orders, on a fake runner, so that a bit word two
 * ranges share is written first by either (a thread team's timing cannot be chosen: the calling
 * thread usually finishes before a worker wakes). Pair lists of random points, with ranges that
 * cut the list inside a bit word and on its boundary. The fake runner cannot stop a thread at a
 * barrier, so the listing runs here as the count and the fill with the layout between them
 * (teamWork.rowsInOneRun false; the same rows as in one run, which tests/parallel/pressure-threads
 * holds to one thread's bit for bit on a team).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepContext } from '../../src/particle/context.ts';
import { SlotRows } from '../../src/particle/slot-rows.ts';
import { rowsFromHalf, rowsFromPairs, TeamPairRows, teamRowsFromPairs, upperStarts, upperStartsOf } from '../../src/particle/solve-pair-rows.ts';
import { layoutTeamRows, layoutTeamRowsBack, layoutTeamRowsRange, teamRowsEntries, TeamRowCounts } from '../../src/particle/team-rows-layout.ts';
import { teamWork } from '../../src/particle/work.ts';
import { pinned } from '../../src/parallel/job.ts';
import { lcg } from './helpers.ts';

interface Job { kernel(x: unknown): void }

/** A context with a pair list i < j of n random points (each with up to `most` partners) and a runner playing T threads in `order`. */
function context(n: number, most: number, seed: number, T: number, order: number[]): { ctx: StepContext; x: Float64Array } {
  const rnd = lcg(seed), x = new Float64Array(3 * n);
  for (let o = 0; o < 3 * n; o++) x[o] = rnd();
  const start = new Int32Array(n + 1), js: number[] = [];
  for (let i = 0; i < n; i++) {
    start[i] = js.length;
    const k = Math.floor(rnd() * (most + 1));
    for (let q = 0; q < k && i + 1 + q < n; q++) js.push(i + 1 + Math.floor(rnd() * (n - i - 1)));
  }
  start[n] = js.length;
  const runner = {
    bind(job: Job) {
      const a: Record<string, unknown> = {}, s: Record<string, number> = {};
      return {
        a, s,
        threads: () => T,
        run(items: number) {
          // (At the job's pinned cut where it holds one, as job.ts itemCut: the rows by range.)
          const pin = a.cuts as Int32Array | undefined, at = (t: number) => (pin && pinned(pin, items, T) ? pin[1 + t] : Math.floor((items * t) / T));
          for (const t of order) job.kernel({ a, s, rank: t, size: T, n: items, from: at(t), to: at(t + 1) });
        },
      };
    },
  };
  const ctx = { cells: { pairs: { start, j: Int32Array.from(js) } }, densityH: 0.5, runner, shared: false, teamRowCounts: new TeamRowCounts() } as unknown as StepContext;
  return { ctx, x };
}

function rows(list: SlotRows, n: number): number[][] {
  return [Array.from(list.start.subarray(0, n + 1)), Array.from(list.j.subarray(0, list.length))];
}

describe('the pressure solve\'s rows from the pair list', () => {
  const inOneRun = teamWork.rowsInOneRun;
  beforeAll(() => { teamWork.rowsInOneRun = false; });
  afterAll(() => { teamWork.rowsInOneRun = inOneRun; });

  it('come out of the team\'s jobs as the one-thread listing makes them, in either order of the threads', () => {
    for (const [n, most, seed] of [[301, 9, 3], [64, 8, 5], [1000, 30, 7]]) {
      const one = context(n, most, seed, 1, [0]);
      const serial = new SlotRows();
      serial.reset(n);
      rowsFromPairs(one.ctx, one.x, n, serial, new Int32Array(n), new Int32Array((one.ctx.cells.pairs.start[n] >>> 5) + 1));
      const want = rows(serial, n);
      expect(want[1].length).toBeGreaterThan(n);
      for (const order of [[0, 1], [1, 0], [2, 0, 1], [1, 2, 0]]) {
        const T = order.length, team = context(n, most, seed, T, order), list = new SlotRows();
        list.reset(n);
        teamRowsFromPairs(team.ctx, team.x, n, list, new TeamPairRows());
        expect(rows(list, n)).toEqual(want);
      }
    }
  });

  it('come from half rows whose pairs are all within h (`within`: no distance tested) as rowsFromHalf makes them, in either order of the threads', () => {
    for (const [n, most, seed] of [[301, 9, 3], [64, 8, 5], [1000, 30, 7]]) {
      // The half rows: the random pair list's pairs within h (0.5) alone, as the density cells list them.
      const base = context(n, most, seed, 1, [0]), ps = base.ctx.cells.pairs.start, pj = base.ctx.cells.pairs.j, x = base.x;
      const half = new SlotRows();
      half.reset(n);
      const hs: number[] = [], hj: number[] = [];
      for (let i = 0; i < n; i++) {
        hs.push(hj.length);
        for (let q = ps[i]; q < ps[i + 1]; q++) {
          const j = pj[q], dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1], dz = x[3 * j + 2] - x[3 * i + 2];
          if (dx * dx + dy * dy + dz * dz < 0.25) hj.push(j);
        }
      }
      hs.push(hj.length);
      half.start = Int32Array.from(hs);
      half.reserve(hj.length);
      half.j.set(hj);
      half.length = hj.length;
      const serial = new SlotRows();
      serial.reset(n);
      rowsFromHalf(half, n, serial, new Int32Array(n));
      const want = rows(serial, n);
      // Some pairs of the list lie beyond h: the test would drop them; the half rows hold none of them.
      expect(hj.length).toBeLessThan(ps[n]);
      expect(want[1].length).toBe(2 * hj.length);
      for (const order of [[0, 1], [1, 0], [2, 0, 1], [1, 2, 0]]) {
        const T = order.length, team = context(n, most, seed, T, order), list = new SlotRows();
        list.reset(n);
        teamRowsFromPairs(team.ctx, team.x, n, list, new TeamPairRows(), half, true);
        expect(rows(list, n)).toEqual(want);
        // By range: the lower entries at or above the row's range's start dropped.
        const sc = new TeamPairRows(), ranged = new SlotRows();
        ranged.reset(n);
        teamRowsFromPairs(team.ctx, team.x, n, ranged, sc, half, true, null, 0.4);
        const ws = want[0], wj = want[1], got: number[] = [], at = [0];
        let t = 0;
        for (let a = 0; a < n; a++) {
          while (a >= sc.cuts[t + 2]) t++;
          for (let q = ws[a]; q < ws[a + 1]; q++) if (wj[q] > a || wj[q] < sc.cuts[t + 1]) got.push(wj[q]);
          at.push(got.length);
        }
        expect(rows(ranged, n)).toEqual([at, got]);
      }
    }
  });

  it('by range hold each row\'s upper part and the lower entries below its thread\'s range alone, at the cut the rows pin, in either order of the threads', () => {
    for (const [n, most, seed] of [[301, 9, 3], [1000, 30, 7]]) {
      const one = context(n, most, seed, 1, [0]);
      const serial = new SlotRows();
      serial.reset(n);
      rowsFromPairs(one.ctx, one.x, n, serial, new Int32Array(n), new Int32Array((one.ctx.cells.pairs.start[n] >>> 5) + 1));
      const fs = serial.start, fj = serial.j;
      for (const [order, share] of [[[0, 1], 0.5], [[1, 0], 0.3], [[0, 1], 0.75], [[2, 0, 1], 0.5], [[1, 2, 0], 0.5]] as [number[], number][]) {
        const T = order.length, team = context(n, most, seed, T, order), list = new SlotRows(), sc = new TeamPairRows();
        list.reset(n);
        const filled = teamRowsFromPairs(team.ctx, team.x, n, list, sc, team.ctx.cells.pairs, false, null, share);
        expect(sc.ranged).toBe(true);
        const cuts = Array.from(sc.cuts.subarray(0, T + 2));
        expect(cuts[0]).toBe(T);
        expect(cuts[1]).toBe(0);
        expect(cuts[T + 1]).toBe(n);
        // Two threads cut near `share` of the pairs' cost; more, at even shares.
        const cost = (a: number) => team.ctx.cells.pairs.start[a] + 2 * a, whole = cost(n);
        if (T === 2) expect(Math.abs(cost(cuts[2]) / whole - share)).toBeLessThan(0.02);
        // The one-thread rows, each row's lower entries at or above its range's start dropped.
        const wantStart = [0], wantJ: number[] = [];
        let t = 0;
        for (let a = 0; a < n; a++) {
          while (a >= cuts[t + 2]) t++;
          for (let q = fs[a]; q < fs[a + 1]; q++) if (fj[q] > a || fj[q] < cuts[t + 1]) wantJ.push(fj[q]);
          wantStart.push(wantJ.length);
        }
        expect(wantJ.length).toBeLessThan(serial.length);
        expect(rows(list, n)).toEqual([wantStart, wantJ]);
        // The upper starts from the last thread's cursors, as a scan finds them.
        const mid = new Int32Array(n), scan = new Int32Array(n);
        upperStartsOf(team.ctx, list, n, filled, mid);
        upperStarts(list.start, list.j, n, scan);
        expect(Array.from(mid)).toEqual(Array.from(scan));
      }
    }
  });

  it('come out the same with their own counts in lent room (none made of their own), whole or by range', () => {
    for (const [n, most, seed] of [[301, 9, 3], [1000, 30, 7]]) {
      for (const [order, share] of [[[0, 1], -1], [[1, 0], 0.4], [[2, 0, 1], 0.5]] as [number[], number][]) {
        const T = order.length, base = context(n, most, seed, T, order), want = new SlotRows();
        want.reset(n);
        teamRowsFromPairs(base.ctx, base.x, n, want, new TeamPairRows(), base.ctx.cells.pairs, false, null, share);
        expect(base.ctx.teamRowCounts.own.length).toBeGreaterThan(n);
        const lent = context(n, most, seed, T, order), list = new SlotRows(), sc = new TeamPairRows();
        list.reset(n);
        // The room poisoned first: every own count is written before it is read.
        const room = new Int32Array(n + 1).fill(-7);
        const filled = teamRowsFromPairs(lent.ctx, lent.x, n, list, sc, lent.ctx.cells.pairs, false, null, share, room);
        expect(rows(list, n)).toEqual(rows(want, n));
        expect(lent.ctx.teamRowCounts.own.length).toBe(0);
        expect(room[0]).toBeGreaterThanOrEqual(0);
        // The upper starts still stand in the last thread's block.
        const mid = new Int32Array(n), scan = new Int32Array(n);
        upperStartsOf(lent.ctx, list, n, filled, mid);
        upperStarts(list.start, list.j, n, scan);
        expect(Array.from(mid)).toEqual(Array.from(scan));
      }
    }
  });

  it('without entries of their own (the viscosity\'s cross rows: own null) are laid out as over zero own counts', () => {
    for (const [n, T, seed] of [[97, 1, 2], [500, 2, 3], [64, 3, 4]]) {
      const rnd = lcg(seed), into = new Int32Array(T * n);
      for (let k = 0; k < T * n; k++) into[k] = rnd() < 0.4 ? Math.floor(rnd() * 5) : 0;
      const wantStart = new Int32Array(n + 1), wantInto = into.slice(), start = new Int32Array(n + 1);
      const want = layoutTeamRows(wantStart, new Int32Array(n + 1), wantInto, n, T);
      expect(want).toBeGreaterThan(0);
      expect(layoutTeamRows(start, null, into, n, T)).toBe(want);
      expect(Array.from(start)).toEqual(Array.from(wantStart));
      expect(Array.from(into)).toEqual(Array.from(wantInto));
    }
  });

  it('are laid out by ranges of rows (the first from 0 up, the last from the end down, those between after a sum) as by the whole layout', () => {
    for (const [n, T, seed] of [[1, 1, 1], [97, 2, 2], [500, 3, 3], [64, 4, 4], [5, 5, 5]]) {
      const rnd = lcg(seed), own = new Int32Array(n + 1), into = new Int32Array(T * n);
      for (let j = 0; j < n; j++) own[j] = Math.floor(rnd() * 9);
      for (let k = 0; k < T * n; k++) into[k] = rnd() < 0.4 ? Math.floor(rnd() * 5) : 0;
      const wantStart = new Int32Array(n + 1), wantOwn = own.slice(), wantInto = into.slice();
      const total = layoutTeamRows(wantStart, wantOwn, wantInto, n, T);
      const start = new Int32Array(n + 1), sums: number[] = [];
      const cut = (r: number) => Math.floor((n * r) / T);
      for (let r = 0; r < T; r++) sums.push(teamRowsEntries(own, into, n, T, cut(r), cut(r + 1)));
      expect(sums.reduce((p, q) => p + q, 0)).toBe(total);
      for (let r = 0; r < T; r++) {
        if (r === 0) layoutTeamRowsRange(start, own, into, n, T, cut(r), cut(r + 1), 0);
        else if (r === T - 1) layoutTeamRowsBack(start, own, into, n, T, cut(r), cut(r + 1), total);
        else layoutTeamRowsRange(start, own, into, n, T, cut(r), cut(r + 1), sums.slice(0, r).reduce((p, q) => p + q, 0));
      }
      start[n] = total;
      expect(Array.from(start)).toEqual(Array.from(wantStart));
      expect(Array.from(own.subarray(0, n))).toEqual(Array.from(wantOwn.subarray(0, n)));
      expect(Array.from(into)).toEqual(Array.from(wantInto));
    }
  });
});
