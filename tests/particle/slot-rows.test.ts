/** The solves' liquid rows (src/particle/slot-rows.ts): 16-bit entries while the slots fit, 32-bit beyond. */
import { describe, expect, it } from 'vitest';
import { SlotRows } from '../../src/particle/slot-rows.ts';

describe('the solves\' row storage', () => {
  it('holds 16-bit entries up to 65 536 slots and 32-bit ones beyond, keeping entries as it grows', () => {
    const rows = new SlotRows();
    rows.reset(65536);
    expect(rows.j).toBeInstanceOf(Uint16Array);
    rows.reserve(3);
    rows.j.set([0, 65535, 7]);
    rows.length = 3;
    rows.reserve(5000);
    expect(Array.from(rows.j.subarray(0, 3))).toEqual([0, 65535, 7]);
    expect(rows.j.length).toBeGreaterThanOrEqual(5000);
    rows.reset(65537);
    expect(rows.j).toBeInstanceOf(Int32Array);
    expect(rows.length).toBe(0);
    rows.reserve(1);
    rows.j[0] = 65536;
    expect(rows.j[0]).toBe(65536);
    expect(rows.start.length).toBeGreaterThanOrEqual(65538);
    rows.reset(10);
    expect(rows.j).toBeInstanceOf(Uint16Array);
  });

  it('goes on shared memory once asked', () => {
    const rows = new SlotRows();
    rows.reset(100);
    rows.shared = true;
    rows.reset(100);
    expect(rows.j.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(rows.start.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
