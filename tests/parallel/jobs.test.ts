/**
 * The job runner (src/parallel/job.ts, run-job.ts) on its own: job descriptions and tables that
 * would overlap or clash are refused; a job runs inline over [0, n) with its sums zeroed; on 2 and
 * 3 threads sums, lists and phases with barriers give what one thread gives; a spawned thread
 * whose job table differs from the calling thread's refuses to start. Two threads of a job that
 * balances cut at the calling thread's share, which moves toward equal measured working times.
 * The team posts each buffer to its spawned threads once (team.ts's slot table).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob, itemCut, JobTable } from '../../src/parallel/job.ts';
import { JobRunner, runJob } from '../../src/parallel/run-job.ts';
import { nextShare } from '../../src/parallel/share.ts';
import { ThreadTeam } from '../../src/parallel/team.ts';
import { allocInt32, allocFloat64, cutCellRuns } from '../../src/parallel/memory.ts';
import { heldBytes } from '../../src/engines.ts';
import { NeighbourList } from '../../src/particle/neighbours.ts';
import { nodeThreadHandle, spawnNodeThread, startModuleWorker } from '../../src/cli/threads.ts';
import { listBalancedJob, listJob, pairCountJob, phasesJob, TEST_JOBS } from './fixtures/jobs.ts';

const ENTRY = new URL('./fixtures/jobs-entry.ts', import.meta.url);
const teams: ThreadTeam[] = [];
afterEach(() => {
  for (const t of teams.splice(0)) t.dispose();
});

function runner(threads: number): JobRunner {
  if (threads === 1) return new JobRunner();
  const team = new ThreadTeam(threads, () => nodeThreadHandle(startModuleWorker(ENTRY)), TEST_JOBS);
  teams.push(team);
  return new JobRunner(team, TEST_JOBS);
}

describe('job descriptions and tables', () => {
  const base = { split: 'items' as const, minItems: () => 1, kernel: () => {} };
  it('refuse a name given twice, sums that cannot be added, and splits that do not fit', () => {
    expect(() => defineJob({ ...base, name: 'a', arrays: { x: 'f64' }, scalars: ['x'] })).toThrow(/'x' is given twice/);
    expect(() => defineJob({ ...base, name: 'a', arrays: { x: 'f32' }, sums: { x: 1 } })).toThrow(/sum 'x' must be one of its arrays of kind f64 or i32/);
    expect(() => defineJob({ ...base, name: 'a', arrays: { x: 'f64' }, split: 'cells' })).toThrow(/needs cellCounts/);
    expect(() => defineJob({ ...base, name: 'a', arrays: { x: 'f64' }, split: 'ranks', lists: { l: 'i32' } })).toThrow(/lists need split/);
  });

  it('cut split items by their cost where a job gives one, by count where not, and refuse a cost they cannot read', () => {
    // Row starts of 8 items whose rows hold 10, 10, 10, 10, 1, 1, 1, 1 entries (cost 44 with perItem 0).
    const rows = Int32Array.from([0, 10, 20, 30, 40, 41, 42, 43, 44]);
    const costed = defineJob({ ...base, name: 'c', arrays: {}, inputs: { rs: 'i32' }, cost: { prefix: ['rs'], perItem: 0 } });
    const plain = defineJob({ ...base, name: 'p', arrays: {}, inputs: { rs: 'i32' } });
    const a = { rs: rows };
    // Half the cost (22) is reached within item 2's row: thread 1 starts at item 3 (cost 30 ≥ 22).
    expect([0, 1, 2].map((t) => itemCut(costed, a, 8, t, 2))).toEqual([0, 3, 8]);
    expect([0, 1, 2].map((t) => itemCut(plain, a, 8, t, 2))).toEqual([0, 4, 8]);
    // Three threads: cuts ascend and cover [0, n).
    const three = [0, 1, 2, 3].map((t) => itemCut(costed, a, 8, t, 3));
    expect(three).toEqual([0, 2, 3, 8]);
    // A per-item cost moves the cut toward the count's (10 an item: 124 in all; [0, 3) costs 60 < 62, [0, 4) 80).
    const both = defineJob({ ...base, name: 'b', arrays: {}, inputs: { rs: 'i32' }, cost: { prefix: ['rs'], perItem: 10 } });
    expect(itemCut(both, a, 8, 1, 2)).toBe(4);
    // An empty prefix counts nothing, as n + 1 zeros would (a move without friction: src/particle/move.ts).
    for (const T of [2, 3]) {
      for (let t = 0; t <= T; t++) expect(itemCut(both, { rs: new Int32Array(0) }, 8, t, T)).toBe(itemCut(both, { rs: new Int32Array(9) }, 8, t, T));
    }
    expect(() => defineJob({ ...base, name: 'x', arrays: {}, inputs: { rs: 'f64' }, cost: { prefix: ['rs'], perItem: 0 } })).toThrow(/cost prefix 'rs' must name an i32/);
    expect(() => defineJob({ ...base, name: 'x', arrays: { c: 'i32' }, split: 'ranks', cost: { prefix: ['c'], perItem: 0 } })).toThrow(/a cost is for split 'items'/);
  });

  it("cut two threads of a job that balances at the calling thread's share, move the share toward equal working times, and refuse balance where the cut would show in the sums or lists", () => {
    const rows = Int32Array.from([0, 10, 20, 30, 40, 41, 42, 43, 44]);
    const bal = defineJob({ ...base, name: 'bal', arrays: {}, inputs: { rs: 'i32' }, cost: { prefix: ['rs'], perItem: 0 }, balance: true });
    const plainBal = defineJob({ ...base, name: 'pb', arrays: {}, inputs: { rs: 'i32' }, balance: true });
    const a = { rs: rows };
    // A share of 0.25 of the cost (11) is reached within item 1's row: thread 1 starts at item 2 (cost 20 ≥ 11).
    expect([0, 1, 2].map((t) => itemCut(bal, a, 8, t, 2, 0.25))).toEqual([0, 2, 8]);
    expect(itemCut(bal, a, 8, 1, 2)).toBe(3);
    expect(itemCut(plainBal, a, 8, 1, 2, 0.75)).toBe(6);
    // Three threads, and a job that does not balance, keep their cuts whatever the share.
    expect([0, 1, 2, 3].map((t) => itemCut(bal, a, 8, t, 3, 0.25))).toEqual([0, 2, 3, 8]);
    const costed = defineJob({ ...base, name: 'c', arrays: {}, inputs: { rs: 'i32' }, cost: { prefix: ['rs'], perItem: 0 } });
    expect(itemCut(costed, a, 8, 1, 2, 0.25)).toBe(3);
    // Threads at half and at 1.5 times the speed of the other, on halves: equal times at 1/3 and 3/5, reached a third of the way a run.
    expect(nextShare(0.5, 0.5, 2, 1)).toBeCloseTo(0.5 + (1 / 3 - 0.5) / 3, 12);
    let g = 0.5;
    for (let k = 0; k < 40; k++) g = nextShare(g, g, g / 1.5, 1 - g);
    expect(g).toBeCloseTo(0.6, 6);
    // Runs too short to time leave it; it stays within [0.2, 0.8].
    expect(nextShare(0.4, 0.5, 0.01, 1)).toBe(0.4);
    expect(nextShare(0.25, 0.25, 100, 1)).toBe(0.2);
    expect(() => defineJob({ ...base, name: 'x', arrays: { s: 'f64' }, sums: { s: 1 }, balance: true })).toThrow(/balance is for split 'items' or 'cells' without sums/);
    expect(() => defineJob({ ...base, name: 'x', arrays: {}, split: 'ranks', balance: true })).toThrow(/balance is for split 'items' or 'cells' without sums/);
    // Lists are put in place in item order whatever the cut: a job with lists may balance.
    expect(defineJob({ ...base, name: 'x', arrays: {}, lists: { l: 'i32' }, balance: true }).balance).toBe(true);
    // Cells cut at the share of their items (two threads), at n / size otherwise.
    const bounds = new Int32Array(3), cellCounts = Int32Array.from([4, 4, 4, 4, 4]);
    cutCellRuns(bounds, 0, cellCounts, 5, 20, 2, 0.2);
    expect(Array.from(bounds)).toEqual([0, 1, 5]);
    cutCellRuns(bounds, 0, cellCounts, 5, 20, 2);
    expect(Array.from(bounds)).toEqual([0, 2, 5]);
  });

  it('refuse two jobs of one name, lay slots and parameters out without overlap, and name their jobs in the fingerprint', () => {
    const a = defineJob({ ...base, name: 'same', arrays: { x: 'f64' } }), b = defineJob({ ...base, name: 'same', arrays: { y: 'f64' } });
    expect(() => new JobTable([a, b])).toThrow(/two jobs are named 'same'/);
    const t = TEST_JOBS;
    expect(t.layouts.map((l) => l.job.name)).toEqual(['list', 'list-balanced', 'pair-count', 'phases']);
    const slots = t.layouts.flatMap((l) => Array.from({ length: l.slotCount }, (_, k) => l.arraySlot + k));
    expect([...slots].sort((p, q) => p - q)).toEqual(Array.from({ length: t.slotCount }, (_, k) => k));
    expect(t.fingerprint).toContain('pair-count(');
    expect(() => new JobRunner(null, t).bind(pairCountJob)).not.toThrow();
    expect(() => new JobRunner(runner(2).team, new JobTable([phasesJob])).bind(pairCountJob)).toThrow(/not in the thread team's job table/);
  });
});

/** pair-count over n items on a runner; the sums and which ran on the team. */
function pairCounts(r: JobRunner, n: number) {
  const job = r.bind(pairCountJob), shared = r.size > 1;
  job.a.out = allocFloat64(n, shared).fill(7); // zeroed by the runner before the kernel
  job.a.hits = allocInt32(n, shared);
  job.s.reach = 3;
  runJob(job, n);
  return { out: Array.from(job.a.out), hits: Array.from(job.a.hits), teamed: job.teamed };
}

describe('runJob', () => {
  it('inline: one call over [0, n) with the sums zeroed', () => {
    const r = runner(1), job = r.bind(phasesJob);
    job.a.mark = new Int32Array(4);
    job.a.total = new Int32Array(4);
    runJob(job, 10);
    expect(Array.from(job.a.total)).toEqual([1, 0, 0, 0]);
    const one = pairCounts(r, 50);
    expect(one.teamed).toBe(false);
    expect(one.hits.slice(0, 4)).toEqual([3, 4, 5, 6]);
    expect(one.hits[49]).toBe(3);
  });

  it('sums, lists and phases on 2 and 3 threads give what one thread gives', () => {
    const one = pairCounts(runner(1), 1001);
    const counts = new Int32Array(200).map((_, c) => (c * 7) % 5 + 1), n = counts.reduce((s, v) => s + v, 0);
    const listOn = (r: JobRunner) => {
      const job = r.bind(listJob), list = new NeighbourList();
      list.shared = r.size > 1;
      list.reset(n);
      job.a.counts = counts;
      job.a.seen = allocInt32(n, r.size > 1);
      job.lists.list = list;
      runJob(job, n, counts.length);
      list.start[n] = list.length;
      return { start: Array.from(list.start.subarray(0, n + 1)), j: Array.from(list.j.subarray(0, list.length)), ranks: new Set(job.a.seen) };
    };
    const listOne = listOn(runner(1));
    expect(listOne.j.length).toBe(n + Math.ceil(n / 2));
    for (const T of [2, 3]) {
      const r = runner(T);
      const got = pairCounts(r, 1001);
      expect(got.teamed).toBe(true);
      expect(got.out).toEqual(one.out);
      expect(got.hits).toEqual(one.hits);
      const l = listOn(r);
      expect(l.start).toEqual(listOne.start);
      expect(l.j).toEqual(listOne.j);
      expect(l.ranks.size).toBe(T); // every thread listed a run of cells
      const job = r.bind(phasesJob);
      job.a.mark = allocInt32(4, true);
      job.a.total = allocInt32(4, true);
      runJob(job, 1);
      expect(Array.from(job.a.total.subarray(0, T))).toEqual(new Array(T).fill((T * (T + 1)) / 2));
      // Below the job's minItems it runs on the calling thread alone.
      expect(pairCounts(r, 3).teamed).toBe(false);
    }
  });

  it("a list job that balances: the same lists at any share of two threads, its own run's cut in the copy run, and a share that follows the times", () => {
    const counts = new Int32Array(300).map((_, c) => (c * 7) % 5 + 1), n = counts.reduce((s, v) => s + v, 0);
    const listOn = (r: JobRunner, share: number | null, lists = new NeighbourList()) => {
      const job = r.bind(share === null ? listJob : listBalancedJob);
      if (share !== null) job.cut.set(share);
      lists.shared = r.size > 1;
      lists.reset(n);
      job.a.counts = counts;
      job.a.seen = allocInt32(n, r.size > 1);
      job.lists.list = lists;
      runJob(job, n, counts.length);
      lists.start[n] = lists.length;
      const first = job.a.seen.reduce((s, v) => s + (v === 1 ? 1 : 0), 0);
      return { start: Array.from(lists.start.subarray(0, n + 1)), j: Array.from(lists.j.subarray(0, lists.length)), first, next: job.cut.share };
    };
    const one = listOn(runner(1), null), r = runner(2);
    for (const share of [0.25, 0.5, 0.75]) {
      // A new list (no room: the copy run) and one with room (copied in the run).
      const grown = listOn(r, share), roomy = new NeighbourList();
      roomy.shared = true;
      roomy.reserve(2 * n);
      const fit = listOn(r, share, roomy);
      for (const got of [grown, fit]) {
        expect(got.start).toEqual(one.start);
        expect(got.j).toEqual(one.j);
        // The calling thread listed the share's items, within a cell's (at most 5).
        expect(Math.abs(got.first - share * n)).toBeLessThanOrEqual(5);
        // The share moved toward equal times (even items: toward ½), within its bounds.
        expect(got.next).toBeGreaterThanOrEqual(0.2);
        expect(got.next).toBeLessThanOrEqual(0.8);
      }
    }
  });

  it("keeps no copy of the calling thread's list entries where the stage's list has room, and no view of a buffer released", () => {
    // (On shared memory, as the stages' are: an input that is not is copied to a mirror of the runner's.)
    const counts = allocInt32(400, true);
    for (let c = 0; c < counts.length; c++) counts[c] = (c * 7) % 5 + 1;
    const n = counts.reduce((s, v) => s + v, 0);
    const r1 = runner(1), r2 = runner(2);
    const list1 = new NeighbourList(), list2 = new NeighbourList();
    list2.shared = true;
    const seen = allocInt32(n, true);
    const listOn = (r: JobRunner, list: NeighbourList) => {
      const job = r.bind(listJob);
      list.reset(n);
      job.a.counts = counts;
      job.a.seen = seen;
      job.lists.list = list;
      runJob(job, n, counts.length);
      list.start[n] = list.length;
      return { start: Array.from(list.start.subarray(0, n + 1)), j: Array.from(list.j.subarray(0, list.length)) };
    };
    const one = listOn(r1, list1);
    // The runner's own bytes: what it holds beyond the list and the job's arrays (mirrors, its
    // bookkeeping, the threads' lists on the calling thread).
    const own = (r: JobRunner, list: NeighbourList) => heldBytes({ r, list, seen, counts }) - heldBytes({ list, seen, counts });
    const before = own(r2, list2); // (the team's control words and timers)
    // First run: the list is smaller than the entries (the calling thread's go to a list of its own, then into place).
    list2.reset(n);
    expect(list2.j.length).toBeLessThan(one.j.length);
    expect(listOn(r2, list2)).toEqual(one);
    // Second run: the list has room, and the calling thread lists into it.
    expect(listOn(r2, list2)).toEqual(one);
    const entryBytes = 4 * one.j.length;
    // The calling thread's share of the entries is about half of them; nothing of the kind is held.
    expect(own(r2, list2) - before).toBeLessThan(entryBytes / 4);
    // A buffer released by its owner (a stage buffer that grew) is let go by the team's slots too.
    const held = heldBytes(r2);
    expect(held).toBeGreaterThan(seen.byteLength);
    r2.release(seen.buffer);
    expect(heldBytes(r2)).toBeLessThanOrEqual(held - seen.byteLength);
  });

  it('posts each buffer to the spawned threads once: arrays at new offsets of it, or back on a buffer they hold, change the slot table alone', () => {
    const r = runner(2), team = teams[teams.length - 1], T = 2;
    const a = allocInt32(64, true), b = allocInt32(64, true);
    const phases = (buffer: Int32Array, at: number) => {
      buffer.fill(0);
      const job = r.bind(phasesJob);
      job.a.mark = buffer.subarray(at, at + 4);
      job.a.total = buffer.subarray(at + 8, at + 12);
      runJob(job, 1);
      // The spawned thread wrote through views of the right offsets: its mark and its total are where rank 1's go.
      return [...buffer.subarray(at, at + T), ...buffer.subarray(at + 8, at + 8 + T)];
    };
    const want = [1, 2, 3, 3];
    expect(phases(a, 0)).toEqual(want);
    const first = team.posts;
    expect(first).toBeGreaterThan(0);
    for (let k = 1; k < 6; k++) expect(phases(a, 4 * k)).toEqual(want); // new offsets of a held buffer
    expect(team.posts).toBe(first);
    expect(phases(b, 0)).toEqual(want); // a buffer the spawned thread lacks: one post
    expect(team.posts).toBe(first + 1);
    for (let k = 0; k < 4; k++) {
      expect(phases(a, 16)).toEqual(want); // back and forth between buffers it holds
      expect(phases(b, 12)).toEqual(want);
    }
    expect(team.posts).toBe(first + 1);
    // A buffer its owner released is let go: named again, it is posted anew.
    r.release(a.buffer);
    expect(phases(b, 4)).toEqual(want);
    expect(phases(a, 0)).toEqual(want);
    expect(team.posts).toBe(first + 2);
  });

  it('refuses a written array off shared memory on a team', () => {
    const job = runner(2).bind(pairCountJob);
    job.a.out = new Float64Array(100);
    job.a.hits = allocInt32(100, true);
    expect(() => runJob(job, 100)).toThrow(/array 'out' is not on shared memory/);
  });
});

describe('a spawned thread with another job table', () => {
  it('refuses to start, and says so', () => {
    const team = new ThreadTeam(2, spawnNodeThread, TEST_JOBS);
    teams.push(team);
    const job = new JobRunner(team, TEST_JOBS).bind(phasesJob);
    job.a.mark = allocInt32(4, true);
    job.a.total = allocInt32(4, true);
    expect(() => runJob(job, 1)).toThrow(/job table differs/);
  });
});
