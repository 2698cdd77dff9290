/**
 * The pair loops of density correction (density.ts measureRange and pushRange) on a thread team
 * (src/parallel/team.ts), the pattern of adhesion-parallel.ts: thread t takes the slots
 * [n t/T, n (t+1)/T) of densityCells (contiguous per cell), accumulates both ends of its pairs
 * into arrays of its own (thread 0: the stage's), and after a barrier sums the other threads'
 * arrays into the stage's over its own slots. Each pass costs two jobs (push, measure); the O(n)
 * steps between them (the Chebyshev update, walls, keeping particles out of solids) stay on the
 * calling thread. The listing with its first measure (listDensityPairs) is two jobs too: each
 * thread lists the pairs of a run of cells into a list of its own, then copies it into place,
 * so the list is exactly one thread's (honey drop on 2 threads: the stage 80 → 74 ms a frame).
 * The sums differ from one thread's only in the order of floating-point additions; every push
 * still moves equal and opposite amounts, so Σ m Δx = 0 as on one thread.
 */
import type { StepContext } from './context.ts';
import { accumulator, addShares, allocFloat64, allocInt32, cutCellRuns, shareOf, type SlotArray, type TeamSync } from '../parallel/legacy.ts';
import { densityListRange, measureRange, pushRange, type DensityCellView } from './density.ts';
import { LocalSink } from './adhesion-parallel.ts';
import { SharedCellTables } from './neighbours.ts';
import { DENSITY_LIST_KERNEL_A, DENSITY_LIST_KERNEL_B, DENSITY_MEASURE_KERNEL, DENSITY_PUSH_KERNEL, runSlotKernel, teamOf, teamWork } from './threads.ts';

/** Team slots of this stage. */
const S_LS = 64, S_PJ = 65, S_X = 67, S_RHO = 68, S_CNT = 69, S_RHOX = 70, S_CNTX = 71,
  S_S = 72, S_INVM = 73, S_CORR = 74, S_CORRX = 75,
  S_START = 76, S_COUNT = 77, S_FIRST = 78, S_CELLS = 79, S_BOX = 80, S_META = 81;
/** params (Float64 entries). */
const P_N = 56, P_T = 57, P_HIN = 58, P_INVH = 59, P_UNIFORM = 60, P_H2 = 67;
/** meta (Int32) of the listing: cell bounds [0..T], list lengths [T], list offsets [T]. */
const MAX_T = 64;
const M_CB = 0, M_LEN = M_CB + MAX_T + 1, M_OFF = M_LEN + MAX_T, META_WORDS = M_OFF + MAX_T;

/** Made on first use (this module is in an import cycle with threads.ts). */
let localList: LocalSink | null = null;

interface MeasureArrays { ls: Int32Array; pj: Int32Array; x: Float64Array; rho: Float64Array; cnt: Int32Array }
interface PushArrays { ls: Int32Array; pj: Int32Array; x: Float64Array; s: Float64Array; invMass: Float64Array; corr: Float64Array }

/** The other threads' accumulation arrays ((T − 1) × n or 3n), on shared memory. */
class Shared {
  rhoX: Float64Array = allocFloat64(0, true);
  cntX: Int32Array = allocInt32(0, true);
  corrX: Float64Array = allocFloat64(0, true);
  /** The listing's run bounds and copies of the density cells' tables. */
  meta = allocInt32(META_WORDS, true);
  tables = new SharedCellTables();
}


/**
 * Listing job A: thread t lists the pairs of its run of cells into its own list (start entries
 * into the shared start array) and takes their first measure into its own ρ and count arrays.
 */
export function densityListKernelA(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const n = params[P_N], meta = slots[S_META] as Int32Array;
  const R = slots[S_RHO] as Float64Array, C = slots[S_CNT] as Int32Array, RX = slots[S_RHOX] as Float64Array, CX = slots[S_CNTX] as Int32Array;
  const rho = accumulator(R, RX, n, rank), cnt = accumulator(C, CX, n, rank);
  rho.fill(0, 0, n);
  cnt.fill(0, 0, n);
  const list = (localList ??= new LocalSink());
  list.start = slots[S_LS] as Int32Array;
  list.length = 0;
  const view: DensityCellView = {
    start: slots[S_START] as Int32Array, count: slots[S_COUNT] as Int32Array, first: slots[S_FIRST] as Int32Array,
    cells: slots[S_CELLS] as Int32Array, box: slots[S_BOX] as Float64Array,
  };
  densityListRange(view, slots[S_X] as Float64Array, meta[M_CB + rank], meta[M_CB + rank + 1], params[P_H2], params[P_HIN], params[P_INVH], list, rho, cnt);
  meta[M_LEN + rank] = list.length;
}

/** Listing job B: thread t copies its list into place and shifts its start entries, then sums the ρ and counts of its share of slots. */
export function densityListKernelB(rank: number, _team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const n = params[P_N], T = params[P_T], meta = slots[S_META] as Int32Array;
  const start = slots[S_START] as Int32Array, count = slots[S_COUNT] as Int32Array, ls = slots[S_LS] as Int32Array;
  const c0 = meta[M_CB + rank], c1 = meta[M_CB + rank + 1];
  const off = meta[M_OFF + rank], list = localList!;
  (slots[S_PJ] as Int32Array).set(list.j.subarray(0, list.length), off);
  if (off !== 0 && c1 > c0) for (let a = start[c0], a1 = start[c1 - 1] + count[c1 - 1]; a < a1; a++) ls[a] += off;
  const [a0, a1] = shareOf(rank, T, n);
  addShares(slots[S_RHO] as Float64Array, slots[S_RHOX] as Float64Array, n, T, a0, a1);
  addShares(slots[S_CNT] as Int32Array, slots[S_CNTX] as Int32Array, n, T, a0, a1);
}

interface ListArrays { x: Float64Array; rho: Float64Array; cnt: Int32Array }

/**
 * listDensityPairs on the context's team (densityCells built, X copied and the boxes updated):
 * the list of ctx.densityPairs exactly as one thread makes it, the first measure summed in another
 * order. False without a team.
 */
export function parallelListDensity(ctx: StepContext, n: number, h2: number, hIn: number, invH: number, a: ListArrays): boolean {
  const team = teamFor(ctx, n, a);
  if (team === null) return false;
  const T = Math.min(team.size, MAX_T), sh = sharedOf(ctx, n, T), p = team.params;
  const list = ctx.densityPairs, dc = ctx.densityCells, g = dc.grid, nc = g.cellCount, meta = sh.meta;
  if (!(list.start.buffer instanceof SharedArrayBuffer)) return false;
  cutCellRuns(meta, M_CB, g.count, nc, n, T);
  const ct = sh.tables;
  ct.copy(dc);
  p[P_N] = n; p[P_T] = T; p[P_H2] = h2; p[P_HIN] = hIn; p[P_INVH] = invH;
  team.setSlot(S_X, a.x);
  team.setSlot(S_RHO, a.rho);
  team.setSlot(S_CNT, a.cnt);
  team.setSlot(S_RHOX, sh.rhoX);
  team.setSlot(S_CNTX, sh.cntX);
  team.setSlot(S_LS, list.start);
  team.setSlot(S_START, ct.start);
  team.setSlot(S_COUNT, ct.count);
  team.setSlot(S_FIRST, ct.first);
  team.setSlot(S_CELLS, ct.cells);
  team.setSlot(S_BOX, ct.box);
  team.setSlot(S_META, meta);
  runSlotKernel(team, DENSITY_LIST_KERNEL_A);
  let total = 0;
  for (let t = 0; t < T; t++) {
    meta[M_OFF + t] = total;
    total += meta[M_LEN + t];
  }
  list.reserve(total);
  team.setSlot(S_PJ, list.j);
  runSlotKernel(team, DENSITY_LIST_KERNEL_B);
  list.length = total;
  list.start[n] = total;
  return true;
}

function sharedOf(ctx: StepContext, n: number, T: number): Shared {
  const sh = ctx.keep('density.shared', () => new Shared());
  if (sh.rhoX.length < n * (T - 1)) {
    const m = Math.ceil(n * 1.25) * (T - 1);
    sh.rhoX = allocFloat64(m, true);
    sh.cntX = allocInt32(m, true);
    sh.corrX = allocFloat64(3 * m, true);
  }
  return sh;
}

export function densityMeasureKernel(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const n = params[P_N], T = params[P_T];
  const R = slots[S_RHO] as Float64Array, C = slots[S_CNT] as Int32Array, RX = slots[S_RHOX] as Float64Array, CX = slots[S_CNTX] as Int32Array;
  const rho = accumulator(R, RX, n, rank), cnt = accumulator(C, CX, n, rank);
  rho.fill(0, 0, n);
  cnt.fill(0, 0, n);
  const [a0, a1] = shareOf(rank, T, n);
  measureRange(slots[S_LS] as Int32Array, slots[S_PJ] as Int32Array, slots[S_X] as Float64Array, a0, a1, params[P_HIN], params[P_INVH], rho, cnt);
  team.barrier();
  addShares(R, RX, n, T, a0, a1);
  addShares(C, CX, n, T, a0, a1);
}

export function densityPushKernel(rank: number, team: TeamSync, slots: readonly SlotArray[], params: Float64Array): void {
  const n = params[P_N], T = params[P_T];
  const C = slots[S_CORR] as Float64Array, CX = slots[S_CORRX] as Float64Array;
  const corr = accumulator(C, CX, 3 * n, rank);
  corr.fill(0, 0, 3 * n);
  const [a0, a1] = shareOf(rank, T, n);
  pushRange(
    slots[S_LS] as Int32Array, slots[S_PJ] as Int32Array, slots[S_X] as Float64Array,
    slots[S_S] as Float64Array, slots[S_INVM] as Float64Array, params[P_UNIFORM] === 1, a0, a1, params[P_HIN], corr,
  );
  team.barrier();
  addShares(C, CX, 3 * n, T, 3 * a0, 3 * a1);
}

/** The context's team when it has one worth using and every array is on shared memory. */
function teamFor(ctx: StepContext, n: number, arrays: object) {
  const team = teamOf(ctx);
  if (team === null || team.size < 2 || n < teamWork.minParticles) return null;
  for (const a of Object.values(arrays) as ArrayBufferView[]) if (!(a.buffer instanceof SharedArrayBuffer)) return null;
  return team;
}

/** Runs measureRange over every slot on the context's team, summed into a.rho and a.cnt; false without a team. */
export function parallelMeasure(ctx: StepContext, n: number, hIn: number, invH: number, a: MeasureArrays): boolean {
  const team = teamFor(ctx, n, a);
  if (team === null) return false;
  const T = team.size, sh = sharedOf(ctx, n, T), p = team.params;
  p[P_N] = n; p[P_T] = T; p[P_HIN] = hIn; p[P_INVH] = invH;
  team.setSlot(S_LS, a.ls);
  team.setSlot(S_PJ, a.pj);
  team.setSlot(S_X, a.x);
  team.setSlot(S_RHO, a.rho);
  team.setSlot(S_CNT, a.cnt);
  team.setSlot(S_RHOX, sh.rhoX);
  team.setSlot(S_CNTX, sh.cntX);
  runSlotKernel(team, DENSITY_MEASURE_KERNEL);
  return true;
}

/** Runs pushRange over every slot on the context's team, summed into a.corr; false without a team. */
export function parallelPush(ctx: StepContext, n: number, hIn: number, uniform: boolean, a: PushArrays): boolean {
  const team = teamFor(ctx, n, a);
  if (team === null) return false;
  const T = team.size, sh = sharedOf(ctx, n, T), p = team.params;
  p[P_N] = n; p[P_T] = T; p[P_HIN] = hIn; p[P_UNIFORM] = uniform ? 1 : 0;
  team.setSlot(S_LS, a.ls);
  team.setSlot(S_PJ, a.pj);
  team.setSlot(S_X, a.x);
  team.setSlot(S_S, a.s);
  team.setSlot(S_INVM, a.invMass);
  team.setSlot(S_CORR, a.corr);
  team.setSlot(S_CORRX, sh.corrX);
  runSlotKernel(team, DENSITY_PUSH_KERNEL);
  return true;
}
