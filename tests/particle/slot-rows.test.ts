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

  it('shrinks, where asked, once its listings have stayed far below its entries, and not before', () => {
    const list = (rows: SlotRows, entries: number) => {
      rows.reset(100);
      rows.reserve(entries);
      rows.length = entries;
    };
    for (const shrinks of [false, true]) {
      const rows = Object.assign(new SlotRows(), { shrinks });
      list(rows, 80_000); // an impact
      const peak = rows.j.length;
      // Listings of 20 000 entries (a quarter): the entries are kept for 24 listings, then shrink to fit them.
      for (let k = 0; k < 23; k++) list(rows, 20_000);
      expect(rows.j.length).toBe(peak);
      for (let k = 0; k < 24; k++) list(rows, 20_000);
      if (!shrinks) expect(rows.j.length).toBe(peak);
      else {
        expect(rows.j.length).toBeLessThan(peak / 3);
        expect(rows.j.length).toBeGreaterThanOrEqual(20_000);
      }
    }
    // Listings within 1.5 times the entries' room keep it.
    const rows = Object.assign(new SlotRows(), { shrinks: true });
    list(rows, 30_000);
    const size = rows.j.length;
    for (let k = 0; k < 100; k++) list(rows, 22_000);
    expect(rows.j.length).toBe(size);
  });

  it("lists into memory lent for a stage call, moves to its own past it, and lets the loan go", () => {
    const rows = new SlotRows(), buffer = new ArrayBuffer(4 * 11 + 2 * 8);
    rows.lend(new Int32Array(buffer, 0, 11), new Uint16Array(buffer, 44, 8));
    rows.reserve(8);
    rows.j.set([1, 2, 3, 4, 5, 6, 7, 8]);
    rows.length = 8;
    expect(rows.j.buffer).toBe(buffer);
    rows.reserve(20);
    expect(rows.j.buffer).not.toBe(buffer);
    expect(Array.from(rows.j.subarray(0, 8))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    rows.unlend();
    expect(rows.start.buffer).not.toBe(buffer);
    expect(rows.j.buffer).not.toBe(buffer);
  });
});
