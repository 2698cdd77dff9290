/**
 * A job's pinned cut (src/parallel/job.ts ItemCost.pin): where the pin holds a cut for the run's
 * item count and thread count, every thread's range is the pinned one; otherwise the cost's cut
 * stands (the solve's rows by range keep their listing's ranges: src/particle/solve-pair-rows.ts).
 */
import { describe, expect, it } from 'vitest';
import { defineJob, itemCut, pinCut, pinned } from '../../src/parallel/job.ts';

const job = defineJob({
  name: 'pin-test',
  arrays: {},
  inputs: { ps: 'i32', cuts: 'i32' },
  split: 'items',
  cost: { prefix: ['ps'], perItem: 1, pin: 'cuts' },
  minItems: () => 1,
  kernel() {},
});

describe('a pinned cut', () => {
  const n = 100, ps = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) ps[i + 1] = ps[i] + (i < 50 ? 9 : 1); // the first half costs 10 an item, the rest 2
  it('gives each thread the pinned range where it holds one for the run, else the cost\'s cut', () => {
    const cuts = new Int32Array(8);
    const costCut = (t: number, T: number, share = 0.5) => itemCut(job, { ps, cuts: new Int32Array(0) }, n, t, T, share);
    // The cost's cut: half the cost (600) within the first half of the items.
    expect(costCut(1, 2)).toBe(30);
    pinCut(cuts, n, 2, () => 71);
    expect(pinned(cuts, n, 2)).toBe(true);
    for (const share of [0.5, 0.3]) {
      expect([0, 1, 2].map((t) => itemCut(job, { ps, cuts }, n, t, 2, share))).toEqual([0, 71, n]);
    }
    // Another thread count or item count: not this pin's; the cost cuts.
    expect(pinned(cuts, n, 3)).toBe(false);
    expect(itemCut(job, { ps, cuts }, n, 1, 3)).toBe(costCut(1, 3));
    expect(pinned(cuts, n - 1, 2)).toBe(false);
    expect(itemCut(job, { ps, cuts }, n - 1, 1, 2)).toBe(itemCut(job, { ps, cuts: new Int32Array(0) }, n - 1, 1, 2));
    // Three threads, the cuts kept ascending within [0, n].
    pinCut(cuts, n, 3, (t) => (t === 1 ? 60 : 40));
    expect(Array.from(cuts.subarray(0, 5))).toEqual([3, 0, 60, 60, n]);
    expect([0, 1, 2, 3].map((t) => itemCut(job, { ps, cuts }, n, t, 3))).toEqual([0, 60, 60, n]);
  });

  it('must name an i32 array or input', () => {
    expect(() => defineJob({
      name: 'pin-bad', arrays: {}, inputs: { ps: 'i32', cuts: 'f64' }, split: 'items',
      cost: { prefix: ['ps'], perItem: 1, pin: 'cuts' }, minItems: () => 1, kernel() {},
    })).toThrow(/pin 'cuts'/);
  });
});
