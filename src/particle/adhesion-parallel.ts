/**
 * The liquid pair loop of the adhesion stage (adhesion.ts liquidPairRange) on a thread team of T
 * threads (src/parallel/team.ts), in two jobs:
 *   A: thread t runs liquidPairRange over its run of cells (cut so that each holds about n/T
 *      particles; the liquid is sorted by cell, so a run of cells is a run of particles). Its
 *      pair and contact lists go to lists of its own (growing as needed), their start entries to
 *      the shared start arrays (its own particles only); the accelerations and Σk of both ends of
 *      each pair go to acc and Σk arrays of its own (thread 0: the liquid's), since j may belong to
 *      another thread.
 *   (The calling thread grows the shared lists to the total and hands out offsets.)
 *   B: thread t copies its lists into the shared ones at its offset and shifts its start entries,
 *      then sums the other threads' acc and Σk into the liquid's over its share of particles.
 *      After a barrier, it adds the liquid ← object adhesion of its own cells (adhesion.ts
 *      objectAdhesionRange; the object cells near each liquid cell are listed before job A).
 * The lists come out exactly as at T = 1 (same pairs, same order); acc and Σk differ from T = 1
 * only in the order of their floating-point sums, and are the same from run to run for a given T.
 * Each thread keeps its own scratch in module state: its lists, objectAdhesionRange's candidates
 * (read against the liquid cells' particle boxes, S_BOX) and liquidPairRange's choice of form.
 */
import type { StepContext } from './context.ts';
import { accumulator, addShares, allocFloat64, allocInt32, allocUint16, cutCellRuns, mirrorShared, shareOf, type SlotArray, type TeamSync } from '../parallel/legacy.ts';
import { adhesionTables, listCellObjects, liquidPairRange, ObjectCandidates, objectAdhesionRange, type CellView, type ObjectView, type PairSink, type TableView } from './adhesion.ts';
import { SharedCellTables } from './neighbours.ts';
import { ADHESION_KERNEL_A, ADHESION_KERNEL_B, runSlotKernel, teamOf, teamWork } from './threads.ts';

/** Team slots of this stage. */
const S_POS = 32, S_MAT = 33, S_START = 34, S_COUNT = 35, S_FIRST = 36, S_CELLS = 37, S_BOX = 38, S_TF = 39, S_TI = 40,
  S_ACC = 41, S_SUMK = 42, S_ACCX = 43, S_SUMKX = 44, S_PSTART = 45, S_PJ = 46, S_CSTART = 47, S_CJ = 48, S_META = 49,
  S_NEAR = 50, S_COSTART = 51, S_COCELLS = 52, S_OSTART = 53, S_OCOUNT = 54, S_OPOS = 56, S_OMAT = 57;
/** params (Float64 entries). */
const P_N = 40, P_T = 41, P_SIZE = 42, P_INVR = 43, P_REACH2 = 44, P_PAIR2 = 45, P_CONTACT2 = 46, P_OBJECTS = 47, P_UNIFORM = 49;
/** meta (Int32): cell bounds [0..T], pair and contact lengths [T] each, pair and contact offsets [T] each. */
const MAX_T = 64;
const M_CB = 0, M_PL = M_CB + MAX_T + 1, M_CL = M_PL + MAX_T, M_PO = M_CL + MAX_T, M_CO = M_PO + MAX_T, META_WORDS = M_CO + MAX_T;

/**
 * A list of this thread's own (private memory) whose start entries go to a shared start array
 * (also density correction's listing, density-parallel.ts).
 */
export class LocalSink implements PairSink {
  start: Int32Array = new Int32Array(0);
  j = new Int32Array(1 << 14);
  length = 0;
  push(j: number): void {
    if (this.length === this.j.length) {
      const bigger = new Int32Array(Math.ceil(this.length * 1.5));
      bigger.set(this.j);
      this.j = bigger;
    }
    this.j[this.length++] = j;
  }
  reserve(total: number): void {
    if (this.j.length >= total) return;
    const bigger = new Int32Array(Math.ceil(total * 1.5));
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }
}

/** Per thread (module state is per thread): the lists of job A, read again by job B. */
const localPairs = new LocalSink(), localContacts = new LocalSink();
/** Per thread: objectAdhesionRange's scratch (made on first use: adhesion.ts imports this module). */
let objectCandidates: ObjectCandidates | null = null;

function tableView(params: Float64Array, slots: readonly SlotArray[]): TableView {
  return {
    f64: slots[S_TF] as Float64Array, i32: slots[S_TI] as Int32Array, size: params[P_SIZE], invR: params[P_INVR],
    reach2: params[P_REACH2], pairReach2: params[P_PAIR2], contactReach2: params[P_CONTACT2], uniform: params[P_UNIFORM],
  };
}

export function adhesionKernelA(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const meta = slots[S_META] as Int32Array, n = params[P_N];
  const c0 = meta[M_CB + rank], c1 = meta[M_CB + rank + 1];
  const acc = accumulator(slots[S_ACC] as Float64Array, slots[S_ACCX] as Float64Array, 3 * n, rank);
  const sumK = accumulator(slots[S_SUMK] as Float64Array, slots[S_SUMKX] as Float64Array, n, rank);
  acc.fill(0, 0, 3 * n);
  sumK.fill(0, 0, n);
  const cv: CellView = {
    start: slots[S_START] as Int32Array, count: slots[S_COUNT] as Int32Array, first: slots[S_FIRST] as Int32Array,
    cells: slots[S_CELLS] as Int32Array, box: slots[S_BOX] as Float64Array,
  };
  localPairs.start = slots[S_PSTART] as Int32Array;
  localContacts.start = slots[S_CSTART] as Int32Array;
  localPairs.length = localContacts.length = 0;
  liquidPairRange(slots[S_POS] as Float64Array, slots[S_MAT] as Uint16Array, cv, tableView(params, slots), c0, c1, acc, sumK, localPairs, localContacts);
  meta[M_PL + rank] = localPairs.length;
  meta[M_CL + rank] = localContacts.length;
}

export function adhesionKernelB(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const meta = slots[S_META] as Int32Array, n = params[P_N], T = params[P_T];
  const start = slots[S_START] as Int32Array, count = slots[S_COUNT] as Int32Array;
  const c0 = meta[M_CB + rank], c1 = meta[M_CB + rank + 1];
  const p0 = c1 > c0 ? start[c0] : 0, p1 = c1 > c0 ? start[c1 - 1] + count[c1 - 1] : 0;
  const copy = (local: LocalSink, startOut: Int32Array, jOut: Int32Array, off: number) => {
    jOut.set(local.j.subarray(0, local.length), off);
    if (off !== 0) for (let p = p0; p < p1; p++) startOut[p] += off;
  };
  copy(localPairs, slots[S_PSTART] as Int32Array, slots[S_PJ] as Int32Array, meta[M_PO + rank]);
  copy(localContacts, slots[S_CSTART] as Int32Array, slots[S_CJ] as Int32Array, meta[M_CO + rank]);
  // Sum the other threads' shares into the liquid's, over this thread's part of the particles.
  const acc = slots[S_ACC] as Float64Array;
  const [i0, i1] = shareOf(rank, T, n);
  addShares(acc, slots[S_ACCX] as Float64Array, 3 * n, T, 3 * i0, 3 * i1);
  addShares(slots[S_SUMK] as Float64Array, slots[S_SUMKX] as Float64Array, n, T, i0, i1);
  if (params[P_OBJECTS] === 0) return;
  // Liquid ← object adhesion of this thread's cells, once every thread has summed its share.
  team.barrier();
  const view: ObjectView = {
    pos: slots[S_POS] as Float64Array, mat: slots[S_MAT] as Uint16Array, near: slots[S_NEAR] as Uint8Array, start, count,
    box: slots[S_BOX] as Float64Array, cellObjStart: slots[S_COSTART] as Int32Array, cellObj: slots[S_COCELLS] as Int32Array,
    ostart: slots[S_OSTART] as Int32Array, ocount: slots[S_OCOUNT] as Int32Array,
    opos: slots[S_OPOS] as Float64Array, omat: slots[S_OMAT] as Uint16Array,
  };
  objectAdhesionRange(view, tableView(params, slots), c0, c1, acc, (objectCandidates ??= new ObjectCandidates()));
}

/** Shared scratch of a context's team. */
class Shared {
  meta = allocInt32(META_WORDS, true);
  /** The liquid cells' tables. */
  cellTables = new SharedCellTables();
  accX = allocFloat64(0, true);
  sumKX = allocFloat64(0, true);
  tables = adhesionTablesShared();
  /** Object cells near each liquid cell, and copies of the object cells and particles. */
  cellObjects = { start: allocInt32(0, true) as Int32Array, cells: allocInt32(0, true) as Int32Array };
  ostart: Int32Array = allocInt32(0, true);
  ocount: Int32Array = allocInt32(0, true);
  opos: Float64Array = allocFloat64(0, true);
  omat: Uint16Array = allocUint16(0, true);
}

function adhesionTablesShared() {
  return { f64: allocFloat64(0, true), i32: allocInt32(0, true) };
}



/**
 * Runs the adhesion stage's loops on the context's team, if it has one of ≥ 2 threads and enough
 * particles to be worth it (threads.ts teamWork); returns
 * false otherwise (computeAdhesion then runs them itself).
 */
export function parallelAdhesion(ctx: StepContext): boolean {
  const team = teamOf(ctx);
  const L = ctx.liquid, n = L.count;
  if (team === null || team.size < 2 || n < teamWork.minParticles) return false;
  const T = Math.min(team.size, MAX_T);
  const sh = ctx.keep('adhesion.shared', () => new Shared());
  // Tables on shared memory (the same numbers as adhesionTables).
  const tv = adhesionTables(ctx);
  if (sh.tables.f64.length !== tv.f64.length) sh.tables.f64 = allocFloat64(tv.f64.length, true);
  if (sh.tables.i32.length !== tv.i32.length) sh.tables.i32 = allocInt32(tv.i32.length, true);
  sh.tables.f64.set(tv.f64);
  sh.tables.i32.set(tv.i32);
  if (sh.accX.length < 3 * n * (T - 1)) {
    sh.accX = allocFloat64(Math.ceil(3 * n * 1.25) * (T - 1), true);
    sh.sumKX = allocFloat64(Math.ceil(n * 1.25) * (T - 1), true);
  }
  const pairs = ctx.cells.pairs, contacts = ctx.contacts;
  pairs.shared = contacts.shared = true;
  pairs.reset(n);
  contacts.reset(n);
  // Cut the cells into T runs of about n/T particles.
  const g = ctx.cells.grid, meta = sh.meta;
  cutCellRuns(meta, M_CB, g.count, g.cellCount, n, T);
  const p = team.params;
  p[P_N] = n; p[P_T] = T; p[P_SIZE] = tv.size; p[P_INVR] = tv.invR;
  p[P_UNIFORM] = tv.uniform; p[P_REACH2] = tv.reach2; p[P_PAIR2] = tv.pairReach2; p[P_CONTACT2] = tv.contactReach2;
  const ct = sh.cellTables;
  ct.copy(ctx.cells);
  team.setSlot(S_POS, L.pos);
  team.setSlot(S_MAT, L.material);
  team.setSlot(S_START, ct.start);
  team.setSlot(S_COUNT, ct.count);
  team.setSlot(S_FIRST, ct.first);
  team.setSlot(S_CELLS, ct.cells);
  team.setSlot(S_BOX, ct.box);
  team.setSlot(S_TF, sh.tables.f64);
  team.setSlot(S_TI, sh.tables.i32);
  team.setSlot(S_ACC, L.acc);
  team.setSlot(S_SUMK, L.scalar);
  team.setSlot(S_ACCX, sh.accX);
  team.setSlot(S_SUMKX, sh.sumKX);
  team.setSlot(S_PSTART, pairs.start);
  team.setSlot(S_CSTART, contacts.start);
  team.setSlot(S_META, meta);
  const objects = ctx.objects.count > 0;
  p[P_OBJECTS] = objects ? 1 : 0;
  if (objects) {
    const og = ctx.objectCells.grid, no = ctx.objects.count, noc = og.cellCount;
    listCellObjects(ctx, sh.cellObjects, (k) => allocInt32(k, true));
    sh.ostart = mirrorShared(sh.ostart, og.start, noc);
    sh.ocount = mirrorShared(sh.ocount, og.count, noc);
    if (sh.opos.length < 3 * no) {
      sh.opos = allocFloat64(3 * no, true);
      sh.omat = allocUint16(no, true);
    }
    sh.opos.set(ctx.objectSlotPos.subarray(0, 3 * no));
    sh.omat.set(ctx.objectSlotMat.subarray(0, no));
    team.setSlot(S_NEAR, L.nearObject);
    team.setSlot(S_COSTART, sh.cellObjects.start);
    team.setSlot(S_COCELLS, sh.cellObjects.cells);
    team.setSlot(S_OSTART, sh.ostart);
    team.setSlot(S_OCOUNT, sh.ocount);
    team.setSlot(S_OPOS, sh.opos);
    team.setSlot(S_OMAT, sh.omat);
  }
  // The shared lists of job B are not read by job A: give it the current ones.
  team.setSlot(S_PJ, pairs.j);
  team.setSlot(S_CJ, contacts.j);
  runSlotKernel(team, ADHESION_KERNEL_A);
  let tp = 0, tc = 0;
  for (let t = 0; t < T; t++) {
    meta[M_PO + t] = tp; tp += meta[M_PL + t];
    meta[M_CO + t] = tc; tc += meta[M_CL + t];
  }
  pairs.reserve(tp);
  contacts.reserve(tc);
  team.setSlot(S_PJ, pairs.j);
  team.setSlot(S_CJ, contacts.j);
  runSlotKernel(team, ADHESION_KERNEL_B);
  pairs.length = tp;
  contacts.length = tc;
  pairs.start[n] = tp;
  contacts.start[n] = tc;
  return true;
}
