/** The solves' liquid rows (src/particle/slot-rows.ts): 16-bit entries while the slots fit, 32-bit beyond. */
import { describe, expect, it } from 'vitest';
import { SlotRows } from '../../src/particle/slot-rows.ts';
import { ListStore } from '../../src/particle/list-store.ts';

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
    // Listings within 1.25 times the entries' room keep it.
    const rows = Object.assign(new SlotRows(), { shrinks: true });
    list(rows, 30_000);
    const size = rows.j.length;
    for (let k = 0; k < 100; k++) list(rows, 25_000);
    expect(rows.j.length).toBe(size);
  });

  it('in a list store, shrinks with the store: the buffer is cut to the largest list room, the other lists moved onto it', () => {
    const released: ArrayBufferLike[] = [];
    const store = new ListStore((b) => released.push(b));
    const pairs = Object.assign(new SlotRows(), { shrinks: true, shrinkEvery: 8, store });
    const other = { j: new Uint16Array(0) as Uint16Array | Int32Array, length: 0 };
    const list = (entries: number) => {
      pairs.reset(100);
      pairs.reserve(entries);
      pairs.length = entries;
    };
    list(80_000); // the first frames
    const big = pairs.j.buffer.byteLength;
    expect(big).toBeGreaterThanOrEqual(2 * 80_000);
    // The other list (the object contact lists) takes a smaller room after the pairs' and writes to it.
    other.j = store.take(other, 30_000, false, false, 64);
    other.j[29_999] = 7;
    // (A look every 8 listings: the first's peak holds the 80 000; the second's cuts.)
    for (let k = 0; k < 14; k++) list(20_000);
    expect(pairs.j.buffer.byteLength).toBe(big);
    list(20_000);
    // Cut to the larger of the two rooms: the other list's (64 + 2 × 30 000 bytes), which keeps its entries.
    expect(pairs.j.length).toBeLessThan(30_000);
    expect(pairs.j.buffer.byteLength).toBe(64 + 2 * 30_000);
    expect(other.j.buffer).toBe(pairs.j.buffer);
    expect(other.j[29_999]).toBe(7);
    expect(released.length).toBeGreaterThan(0);
    // And grows again as a listing asks.
    list(90_000);
    expect(pairs.j.length).toBeGreaterThanOrEqual(90_000);
    expect(other.j.buffer).toBe(pairs.j.buffer);
    expect(other.j[29_999]).toBe(7);
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
