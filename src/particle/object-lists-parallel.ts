/**
 * The object contact lists (collisions.ts listObjectContacts) on a thread team, in two jobs, the
 * pattern of adhesion-parallel.ts:
 *   A: thread t runs contactListRange over its run of liquid cells (cut so that each holds about
 *      n/T particles), appending to a list of its own; the start entries of its particles and
 *      their clearances go straight to the shared arrays.
 *   (The calling thread grows the shared list to the total and hands out offsets.)
 *   B: thread t copies its list into the shared one at its offset and shifts its start entries.
 * The lists come out exactly as on one thread. The object cells are looked up in a copy of the
 * context's dense block (StepContext.objectCellBlock); where the object cells are hashed instead,
 * the lists are made on the calling thread.
 */
import { denseCellsNear, type StepContext } from './context.ts';
import { allocFloat64, allocInt32, cutCellRuns, mirrorShared, type SlotArray, type TeamSync } from '../parallel/legacy.ts';
import { contactListRange, objectListsOf, type ContactListScratch, type ContactListSink, type ContactListView, type ObjectCellFinder } from './collisions.ts';
import { OBJECT_LISTS_KERNEL_A, OBJECT_LISTS_KERNEL_B, runSlotKernel, teamOf, teamWork } from './threads.ts';

/** Team slots of this stage. */
const S_POS = 104, S_VEL = 105, S_NEAR = 106, S_START = 107, S_COUNT = 108, S_OSTART = 109, S_OCOUNT = 110,
  S_RANK = 111, S_OPOS = 112, S_CLEAR = 113, S_LS = 114, S_LJ = 115, S_BLOCK = 116, S_OBOX = 117, S_META = 118;
/** params (Float64 entries). */
const P_T = 68, P_BASE = 69, P_G = 70, P_DT = 71, P_VO = 72, P_NEAR2 = 73, P_MARGIN = 74, P_FAR = 75, P_INV = 76,
  P_LO = 77, P_N = 80, P_NC = 83;
/** meta (Int32): cell bounds [0..T], list lengths [T], offsets [T], longest [T]. */
const MAX_T = 64;
const M_CB = 0, M_LEN = M_CB + MAX_T + 1, M_OFF = M_LEN + MAX_T, M_LONG = M_OFF + MAX_T, META_WORDS = M_LONG + MAX_T;

/** A thread's own list (private memory; module state is per thread) and its scratch. */
class LocalList implements ContactListSink, ContactListScratch {
  start: Int32Array = new Int32Array(0);
  j: Int32Array = new Int32Array(1 << 14);
  length = 0;
  cand = new Int32Array(0);
  candPos = new Float64Array(0);
  tmp = new Int32Array(0);
  grow(extra: number): void {
    if (this.length + extra <= this.j.length) return;
    const bigger = new Int32Array(Math.ceil((this.length + extra) * 1.5));
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }
}

/** denseCellsNear over the shared copy of the block (one per thread). */
class DenseFinder implements ObjectCellFinder {
  nearObjectCells = new Int32Array(64);
  block: Int32Array = new Int32Array(0);
  obox: Float64Array = new Float64Array(0);
  params: Float64Array = new Float64Array(0);
  get cells(): Int32Array {
    return this.nearObjectCells;
  }
  find(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number, reach: number): number {
    const p = this.params;
    return denseCellsNear(this, this.block, p[P_LO], p[P_LO + 1], p[P_LO + 2], p[P_N], p[P_N + 1], p[P_N + 2], this.obox, p[P_INV], p[P_NC], x0, y0, z0, x1, y1, z1, reach);
  }
}

/** Made on first use (this module is in an import cycle with threads.ts). */
let local: LocalList | null = null;
let finder: DenseFinder | null = null;

export function objectListsKernelA(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const meta = slots[S_META] as Int32Array;
  const list = (local ??= new LocalList()), find = (finder ??= new DenseFinder());
  list.start = slots[S_LS] as Int32Array;
  list.length = 0;
  find.block = slots[S_BLOCK] as Int32Array;
  find.obox = slots[S_OBOX] as Float64Array;
  find.params = params;
  const v: ContactListView = {
    pos: slots[S_POS] as Float64Array, vel: slots[S_VEL] as Float64Array, near: slots[S_NEAR] as Uint8Array,
    start: slots[S_START] as Int32Array, count: slots[S_COUNT] as Int32Array, ostart: slots[S_OSTART] as Int32Array,
    ocount: slots[S_OCOUNT] as Int32Array, cellRank: slots[S_RANK] as Int32Array, opos: slots[S_OPOS] as Float64Array,
    clear: slots[S_CLEAR] as Float32Array, base: params[P_BASE], g: params[P_G], dt: params[P_DT], vo: params[P_VO],
    near2: params[P_NEAR2], margin: params[P_MARGIN], farBit: params[P_FAR],
  };
  meta[M_LONG + rank] = contactListRange(v, find, meta[M_CB + rank], meta[M_CB + rank + 1], list, list);
  meta[M_LEN + rank] = list.length;
}

export function objectListsKernelB(rank: number, _team: TeamSync, slots: readonly SlotArray[], _params: Float64Array): void {
  const meta = slots[S_META] as Int32Array, start = slots[S_START] as Int32Array, count = slots[S_COUNT] as Int32Array;
  const ls = slots[S_LS] as Int32Array, c0 = meta[M_CB + rank], c1 = meta[M_CB + rank + 1], off = meta[M_OFF + rank];
  const list = local!;
  (slots[S_LJ] as Uint16Array | Int32Array).set(list.j.subarray(0, list.length), off);
  if (off !== 0 && c1 > c0) for (let i = start[c0], i1 = start[c1 - 1] + count[c1 - 1]; i < i1; i++) ls[i] += off;
}

/** Shared copies of the cell tables and object particles the jobs read. */
class Shared {
  meta = allocInt32(META_WORDS, true);
  start: Int32Array = allocInt32(0, true);
  count: Int32Array = allocInt32(0, true);
  ostart: Int32Array = allocInt32(0, true);
  ocount: Int32Array = allocInt32(0, true);
  rank: Int32Array = allocInt32(0, true);
  block: Int32Array = allocInt32(0, true);
  opos: Float64Array = allocFloat64(0, true);
  obox: Float64Array = allocFloat64(0, true);
}


/**
 * Makes the lists of listObjectContacts on the context's team (the lists reset and ranked) and
 * returns the longest list; −1 without a team worth using, or with hashed object cells (the
 * calling thread then makes them).
 */
export function parallelContactLists(ctx: StepContext, v: ContactListView): number {
  const team = teamOf(ctx), L = ctx.liquid, n = L.count, list = objectListsOf(ctx), dense = ctx.objectCellBlock();
  if (team === null || team.size < 2 || n < teamWork.minParticles || dense === null) return -1;
  if (!(L.pos.buffer instanceof SharedArrayBuffer) || !(list.start.buffer instanceof SharedArrayBuffer) || !(list.clear.buffer instanceof SharedArrayBuffer)) return -1;
  const T = Math.min(team.size, MAX_T), sh = ctx.keep('objectLists.shared', () => new Shared()), meta = sh.meta;
  const cg = ctx.cells.grid, nc = cg.cellCount, og = ctx.objectCells.grid, noc = og.cellCount, no = ctx.objects.count;
  cutCellRuns(meta, M_CB, cg.count, nc, n, T);
  sh.start = mirrorShared(sh.start, cg.start, nc);
  sh.count = mirrorShared(sh.count, cg.count, nc);
  sh.ostart = mirrorShared(sh.ostart, og.start, noc);
  sh.ocount = mirrorShared(sh.ocount, og.count, noc);
  sh.rank = mirrorShared(sh.rank, v.cellRank, noc);
  sh.opos = mirrorShared(sh.opos, v.opos, 3 * no);
  sh.obox = mirrorShared(sh.obox, ctx.objectCells.box, 6 * noc);
  sh.block = mirrorShared(sh.block, dense.block, dense.n[0] * dense.n[1] * dense.n[2]);
  const p = team.params;
  p[P_T] = T; p[P_BASE] = v.base; p[P_G] = v.g; p[P_DT] = v.dt; p[P_VO] = v.vo; p[P_NEAR2] = v.near2;
  p[P_MARGIN] = v.margin; p[P_FAR] = v.farBit; p[P_INV] = 1 / og.cellSize; p[P_NC] = noc;
  for (let k = 0; k < 3; k++) {
    p[P_LO + k] = dense.lo[k];
    p[P_N + k] = dense.n[k];
  }
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_VEL, L.vel);
  team.setSlot(S_NEAR, L.nearObject);
  team.setSlot(S_START, sh.start);
  team.setSlot(S_COUNT, sh.count);
  team.setSlot(S_OSTART, sh.ostart);
  team.setSlot(S_OCOUNT, sh.ocount);
  team.setSlot(S_RANK, sh.rank);
  team.setSlot(S_OPOS, sh.opos);
  team.setSlot(S_OBOX, sh.obox);
  team.setSlot(S_BLOCK, sh.block);
  team.setSlot(S_CLEAR, list.clear);
  team.setSlot(S_LS, list.start);
  team.setSlot(S_META, meta);
  // Job A does not read the shared list: give it the current one.
  team.setSlot(S_LJ, list.j);
  runSlotKernel(team, OBJECT_LISTS_KERNEL_A);
  let total = 0, longest = 0;
  for (let t = 0; t < T; t++) {
    meta[M_OFF + t] = total;
    total += meta[M_LEN + t];
    longest = Math.max(longest, meta[M_LONG + t]);
  }
  list.length = 0;
  list.grow(total);
  team.setSlot(S_LJ, list.j);
  runSlotKernel(team, OBJECT_LISTS_KERNEL_B);
  list.length = total;
  return longest;
}
