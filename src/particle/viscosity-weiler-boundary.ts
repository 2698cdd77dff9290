/**
 * The implicit viscosity's object rows (viscosity-weiler.ts; Weiler, Koschier, Brand & Bender 2018
 * with object particles as boundary particles, Akinci et al. 2012): for each liquid particle
 * flagged near a body, the object slots within its pair support h, as a job over runs of the
 * liquid cells (the particles are sorted by cell, so a run of cells is a run of particles). Each
 * particle's row is its own and the threads' lists are copied into place in order, so the rows are
 * one thread's whatever the team: per cell, the object cells within the largest support of the box
 * of its flagged particles and their slots within that support of the box, then each particle's
 * slots within its material's h among those, in the order the object cells are met
 * (object-candidates.ts: the lists of a scan per particle, entry for entry). The object cells are
 * looked up in their dense block (object-cells.ts); where they are hashed, the job runs on the
 * calling thread, which alone reaches the context.
 */
import type { StepContext } from './context.ts';
import type { NeighbourList } from './neighbours.ts';
import type { ImplicitViscosityState } from './viscosity-weiler.ts';
import { allocFloat32, allocFloat64, isShared } from '../parallel/memory.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { objectCellLookup, objectCellsNearBoxAt, type HashedObjectCells, type ObjectCellScratch } from './object-cells.ts';
import { cellCandidates, gatherCandidates, threadCandidates } from './object-candidates.ts';
import { teamWork } from './work.ts';

/** A thread's scratch: the object cells found for a cell, and the box of its flagged particles. */
class RowScratch implements ObjectCellScratch {
  nearObjectCells = new Int32Array(64);
  hashed: HashedObjectCells | null = null;
  /** The look-ups' inverse cell size and reach (ObjectCellScratch). */
  readonly query = new Float64Array(2);
  readonly box = new Float64Array(6);
  /** The cell's object slots within the largest h of its flagged particles' box (object-candidates.ts). */
  readonly cand = threadCandidates();
}

export const viscosityBoundaryJob = defineJob({
  name: 'viscosity-boundary',
  arrays: {},
  inputs: {
    pos: 'f64', start: 'i32', count: 'i32', near: 'u8', mat: 'u16', ph2: 'f64',
    ostart: 'i32', ocount: 'i32', opos: 'f64', obox: 'f64', block: 'i32',
  },
  scalars: ['hmax', 'stride', 'inv', 'nc', 'lo0', 'lo1', 'lo2', 'n0', 'n1', 'n2'],
  split: 'cells',
  cellCounts: 'count',
  balance: true, // (its lists and per-particle entries are the same at any cut: share.ts)
  lists: { list: 'i32' },
  minItems: () => teamWork.minParticles,
  scratch: () => new RowScratch(),
  kernel(x) {
    objectRowsRange(x.a, x.s, x.from, x.to, x.lists.list, x.scratch);
  },
});

type RowScalars = Record<(typeof viscosityBoundaryJob.scalars)[number], number>;

/**
 * The object rows of the n liquid particles (sorted by ctx.cells), into `list` (reset for n rows by
 * the caller): object slots as ranks of the object cells' slot order, `opos` their positions (on
 * shared memory for a team), ph2 the squared supports per material pair (stride nm + 1 on the
 * diagonal), hmax the largest.
 */
export function listObjectRows(ctx: StepContext, ph2: Float64Array, hmax: number, opos: Float64Array, n: number, list: NeighbourList): void {
  const g = ctx.cells.grid, og = ctx.objectCells.grid, L = ctx.liquid;
  const job = ctx.runner.bind(viscosityBoundaryJob), a = job.a, s = job.s;
  a.pos = L.pos; a.start = g.start; a.count = g.count; a.near = L.nearObject; a.mat = L.material; a.ph2 = ph2;
  a.ostart = og.start; a.ocount = og.count; a.opos = opos;
  s.hmax = hmax;
  s.stride = ctx.mass.length + 1;
  job.inline = !objectCellLookup(ctx.objectCellBlock(), ctx.objectCells.box, og.cellSize, og.cellCount, a, s, job.scratch, ctx);
  job.lists.list = list;
  runJob(job, n, g.cellCount);
}

/** The rows of the particles of cells [c0, c1), appended to `list` (start entries at their particles). */
function objectRowsRange(
  v: JobArrays<typeof viscosityBoundaryJob>, s: RowScalars, c0: number, c1: number, list: ListSink<Int32Array>, sc: RowScratch,
): void {
  const { pos, start, count, near, mat, ph2, ostart, ocount, opos } = v;
  const ls = list.start, stride = s.stride, box = sc.box, cand = sc.cand;
  sc.query[1] = s.hmax;
  // The boxes' test at the largest h² of any material (each particle's own is at most that).
  let h2max = 0;
  for (let k = 0; k < ph2.length; k += stride) if (ph2[k] > h2max) h2max = ph2[k];
  cand.h2[0] = h2max;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + count[c];
    // The box of the cell's flagged particles (boundary-viscosity.ts objectCellsNearCell).
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity, any = false;
    for (let i = i0; i < i1; i++) {
      if (!near[i]) continue;
      any = true;
      const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; if (z < z0) z0 = z; if (z > z1) z1 = z;
    }
    let m = 0;
    if (any) {
      box[0] = x0; box[1] = y0; box[2] = z0; box[3] = x1; box[4] = y1; box[5] = z1;
      m = objectCellsNearBoxAt(v, s, sc, box, 0);
    }
    // The cell's candidates; room for every one of them a particle (gatherCandidates writes each).
    const k = m > 0 ? cellCandidates(cand, box, 0, sc.nearObjectCells, m, ostart, ocount, opos) : 0;
    for (let i = i0; i < i1; i++) {
      ls[i] = list.length;
      if (k === 0 || !near[i]) continue;
      list.reserve(list.length + k);
      list.length = gatherCandidates(pos, i, ph2, mat[i] * stride, cand, k, list.j, list.length);
    }
  }
}

/**
 * Memory idle through one call of the stage, lent to what lives only within it: regions of buffers
 * the context holds anyway (applyImplicitViscosity: the stage buffer past this call's pair codes,
 * the list store past the pair list's entries). Views are carved one after another in the first
 * region with room, 8-byte aligned; none is read after the call (applyImplicitViscosity lets them
 * go at its end).
 */
export class CallRoom {
  private readonly buffers: (ArrayBuffer | SharedArrayBuffer)[] = [];
  private readonly at: number[] = [];
  /** The region restI32 lent, which `taken` carves from. */
  private lent = -1;

  /** The region of `buffer` from byte `from` to its end, where one is on shared memory or need not be. */
  add(buffer: ArrayBufferLike, from: number, shared: boolean): void {
    if (shared && !(buffer instanceof SharedArrayBuffer)) return;
    this.buffers.push(buffer as ArrayBuffer | SharedArrayBuffer);
    this.at.push(8 * Math.ceil(from / 8));
  }

  private left(r: number): number {
    return Math.max(0, this.buffers[r].byteLength - this.at[r]);
  }

  /** The first region with `bytes` left (−1: none). */
  private fit(bytes: number): number {
    for (let r = 0; r < this.buffers.length; r++) if (this.left(r) >= bytes) return r;
    return -1;
  }

  private carve(r: number, bytes: number): number {
    const at = this.at[r];
    this.at[r] += 8 * Math.ceil(bytes / 8);
    return at;
  }

  /** n 32-bit integers, or null where no region has them. */
  i32(n: number): Int32Array<ArrayBuffer> | null {
    const r = this.fit(4 * n);
    return r < 0 ? null : (new Int32Array(this.buffers[r], this.carve(r, 4 * n), n) as Int32Array<ArrayBuffer>);
  }

  /** n single-precision numbers, or null where no region has them. */
  f32(n: number): Float32Array<ArrayBuffer> | null {
    const r = this.fit(4 * n);
    return r < 0 ? null : (new Float32Array(this.buffers[r], this.carve(r, 4 * n), n) as Float32Array<ArrayBuffer>);
  }

  /** n 16-bit integers, or null where no region has them. */
  u16(n: number): Uint16Array<ArrayBuffer> | null {
    const r = this.fit(2 * n);
    return r < 0 ? null : (new Uint16Array(this.buffers[r], this.carve(r, 2 * n), n) as Uint16Array<ArrayBuffer>);
  }

  /** Every 32-bit integer left in the largest region (at least `least`; else null), to be marked used by `taken`. */
  restI32(least: number): Int32Array<ArrayBuffer> | null {
    let best = -1;
    for (let r = 0; r < this.buffers.length; r++) if (best < 0 || this.left(r) > this.left(best)) best = r;
    if (best < 0 || this.left(best) < 4 * least) return null;
    this.lent = best;
    return new Int32Array(this.buffers[best], this.at[best], this.left(best) >> 2) as Int32Array<ArrayBuffer>;
  }

  /** Marks the first `used` entries of the restI32 view as carved. */
  taken(used: number): void {
    this.carve(this.lent, 4 * used);
  }

  /** Whether `a` is a view of one of the regions' buffers (lent). */
  holds(a: ArrayBufferView): boolean {
    return this.buffers.includes(a.buffer as ArrayBuffer | SharedArrayBuffer);
  }
}

/** The boundary rows' starts and entries between calls (they live within one: CallRoom, the object contact lists' starts). */
const NO_STARTS = new Int32Array(0), NO_ENTRIES = new Int32Array(0);

/**
 * The object slots within each liquid particle's support (particles flagged near a body), listed
 * by a job (listObjectRows), with, on a thread team, the slot positions copied to shared memory.
 * The starts in the object contact lists' starts where they have room (those lists are made after
 * viscosity, read by the moves and density correction and made again before anything reads them:
 * step.ts), else in `room`, else in memory of the rows' own; the entries in the rest of the
 * room's largest region, growing into memory of their own past it (NeighbourList.reserve).
 * Returns the object count.
 */
export function listBoundary(ctx: StepContext, st: ImplicitViscosityState, n: number, room: CallRoom): number {
  const O = ctx.objects, no = O.count, bl = st.boundary;
  bl.shared = ctx.shared;
  const ol = ctx.objectLists;
  if (ol !== undefined && ol.start.length >= n + 1 && (!ctx.shared || isShared(ol.start))) bl.start = ol.start;
  else bl.start = room.i32(n + 1) ?? bl.start;
  if (no > 0) bl.j = room.restI32(1024) ?? bl.j;
  bl.reset(n);
  if (no === 0) {
    bl.start.fill(0, 0, n + 1);
    return 0;
  }
  let opos = ctx.objectSlotPos;
  if (ctx.shared && !(opos.buffer instanceof SharedArrayBuffer)) {
    if (st.opos.length < 3 * no) st.opos = allocFloat64(3 * no, true);
    st.opos.set(ctx.objectSlotPos.subarray(0, 3 * no));
    opos = st.opos;
  }
  const nm = ctx.mass.length;
  let hmax = 0;
  for (let a = 0; a < nm; a++) hmax = Math.max(hmax, st.ph[a * (nm + 1)]);
  listObjectRows(ctx, st.ph2, hmax, opos, n, bl);
  bl.start[n] = bl.length;
  if (room.holds(bl.j)) room.taken(bl.length);
  return no;
}

/**
 * Each boundary entry's coefficient (single precision, written by the solve's set-up): in `room`
 * where the entries left it enough, else in the state (st.bcoef, kept for the next call, let go
 * once a call finds room again).
 */
export function boundaryCoefs(ctx: StepContext, st: ImplicitViscosityState, room: CallRoom): Float32Array {
  const bn = st.boundary.length, lent = room.f32(bn);
  if (lent) {
    st.bcoef = NO_COEFS;
    return lent;
  }
  if (st.bcoef.length < bn || (ctx.shared && !(st.bcoef.buffer instanceof SharedArrayBuffer))) st.bcoef = allocFloat32(bn, ctx.shared);
  return st.bcoef;
}

const NO_COEFS = new Float32Array(0);

/** At the end of the call: the views of the room and of the object contact lists' starts let go (the rows' own memory kept). */
export function returnRoom(ctx: StepContext, st: ImplicitViscosityState, room: CallRoom): void {
  const bl = st.boundary, gl = st.ghosts;
  if (room.holds(bl.start) || bl.start === ctx.objectLists?.start) bl.start = NO_STARTS;
  if (room.holds(bl.j)) bl.j = NO_ENTRIES;
  if (room.holds(gl.start)) gl.start = NO_STARTS;
  // One thread's compacted rows (viscosity-weiler-rows.ts lendRows): the starts lent, the entries lent (in the
  // pair codes' room, the stage buffer) or grown past it into memory of their own (kept).
  if (room.holds(st.rows.start)) st.rows.start = NO_STARTS;
  if (room.holds(st.rows.j)) st.rows.j = NO_SLOTS;
  // A team's cross rows' coefficients (viscosity-weiler-team-rows.ts countTeamRows).
  if (room.holds(st.teamRows.xc)) st.teamRows.xc = NO_SLOTS;
}

const NO_SLOTS = new Uint16Array(0);
