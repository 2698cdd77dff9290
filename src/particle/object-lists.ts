/**
 * The object contact lists (Steele §3.4 "Object-Liquid Interaction"): per liquid particle, the
 * object particles its moves and density passes of a sub-timestep can meet, made once a
 * sub-timestep and read by the object contacts (object-contacts.ts, ~14 times a sub-timestep:
 * every move and every density pass) and friction (friction.ts).
 *
 * Entries [start[i], start[i + 1]) of `j`, by rank: the object particles numbered cell by cell in
 * (k, j, i) order of their objectCells cell, slots within a cell in order, which is the order a
 * list meets them in (StepContext.objectCellsNear scans k, j, i). `index` (the object particle) is
 * by rank; a pass reads the object particle's position, velocity and normal in the objects' own
 * arrays at index[rank]. A pass takes a list's entries in rank order, so whatever skips it makes,
 * results are bit for bit those of testing every entry in listing order.
 *
 * On the honey drop's impact a list reaches ~20 r (travel) but a contact is at 2.5 r: a list holds
 * first its near entries (within friction's touch + NEAR_SLACK · r when last sorted), then its far
 * ones, each run in rank order, far ones flagged (+ `far`); `clear` keeps a point c and a distance
 * D with every far entry at least D from c. While the particle is within D − d of c no far entry
 * is within d of it (triangle inequality), and a pass reads only the near run. When the particle
 * leaves that ball, the pass merges both runs in rank order, tests every entry, and sorts the list
 * into near and far again from where the particle is. D loses CLEAR_MARGIN · r to round-off.
 * Entries are 16-bit while the ranks fit in 15 bits (4 003 object particles on the honey drop).
 * Figures: docs/decisions.md, "Object contacts".
 */
import type { StepContext } from './context.ts';
import { allocFloat32, allocInt32, allocUint16 } from '../parallel/memory.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { objectCellLookup, objectCellsNearBoxAt, type HashedObjectCells, type ObjectCellScratch } from './object-cells.ts';
import { teamWork } from './work.ts';
import { grownRows } from './liquid.ts';
import { axisGap } from './neighbours.ts';
import type { ListStore } from './list-store.ts';

/** Object particles within this many (r + r_o), plus travel, are listed for contacts and friction (friction touches at TOUCH). */
const CONTACT_LIST_TOUCH = 1.25;
/** Friction's touching distance, (r + r_o) (friction.ts). */
export const TOUCH = 1.1;
/** List entries beyond friction's touch plus this many radii are "far". */
const NEAR_SLACK = 1;
/** Round-off allowance of the far entries' clearance, radii (setClearance). */
export const CLEAR_MARGIN = 1e-5;

/** Scratch of sortNearFar: room for the longest list (one per thread), and the contact distance, near2 and margin of the range. */
export interface NearFarScratch {
  tmp: Int32Array;
  tmpD: Float64Array;
  dc: number;
  near2: number;
  margin: number;
}

export class ObjectContactLists implements ListSink<Uint16Array | Int32Array> {
  start = new Int32Array(1);
  j: Uint16Array | Int32Array = new Uint16Array(0);
  /** Flag of a far entry (added to its rank). */
  far = 0x8000;
  length = 0;
  /** Per particle: c (x, y, z) and D, float32. */
  clear: Float32Array = new Float32Array(0);
  /** The object particle of each rank, and the first rank of each object cell. */
  index = new Int32Array(0);
  cellRank = new Int32Array(0);
  /** The longest list (object-contacts.ts sizes its scratch by it). */
  longest = 0;
  /** Per thread: the longest list of its cells (the listing job's output). */
  longestOf: Int32Array;

  /**
   * `shared`: on SharedArrayBuffers (a thread team reads and writes them). `store`: where the
   * entries live, with adhesion's pair list (list-store.ts), or null: memory of their own.
   */
  constructor(readonly shared: boolean, private readonly store: ListStore | null = null) {
    this.longestOf = allocInt32(64, shared);
  }

  reset(n: number, objects: number): void {
    const wide = objects > 0x7fff;
    if (this.start.length < n + 1) {
      const rows = grownRows(n + 1, this.start.length);
      this.start = allocInt32(rows, this.shared);
      if (!this.store) this.clear = allocFloat32(4 * rows, this.shared);
    }
    this.length = 0;
    if (this.store) {
      // In the store: the clearances (4 a row of `start`) first, the entries after them; the pair
      // list has written over both since the last listing, which nothing reads any more.
      this.j = this.make(Math.max(1024, this.j.length), wide);
      this.clear = this.store.front(4 * this.start.length);
    } else if (wide !== this.j instanceof Int32Array || this.j.length === 0) {
      this.j = this.make(Math.max(1024, this.j.length), wide);
    }
    this.far = wide ? 0x40000000 : 0x8000;
  }

  /** The store grew (list-store.ts): the clearances and entries at the same offsets of its new buffer. */
  rebase(buffer: ArrayBuffer | SharedArrayBuffer): void {
    const j = this.j, c = this.clear;
    this.j = j instanceof Int32Array ? new Int32Array(buffer, j.byteOffset, j.length) : new Uint16Array(buffer, j.byteOffset, j.length);
    this.clear = new Float32Array(buffer, c.byteOffset, c.length);
  }

  /** Room for `total` entries (keeping the first `length`). */
  reserve(total: number): void {
    if (total <= this.j.length) return;
    const bigger = this.make(Math.max(1024, Math.ceil(total * 1.25)), this.j instanceof Int32Array);
    bigger.set(this.j.subarray(0, this.length));
    this.j = bigger;
  }

  private make(size: number, wide: boolean): Uint16Array | Int32Array {
    if (this.store) return this.store.take(this, size, wide, this.shared, 16 * this.start.length);
    return wide ? allocInt32(size, this.shared) : allocUint16(size, this.shared);
  }

  /** The object cells' build (StepContext.objectCellsBuilt) the ranks were taken from, −1 before any. */
  private rankedBuild = -1;
  /** rank's scratch: the cells to sort, and their sort keys. */
  private cellOrder = new Int32Array(0);
  private cellKey = new Float64Array(0);

  /**
   * Ranks the object particles (cells in (k, j, i) order), once per build of the object cells
   * (they are rebuilt whenever the objects move). The cells are
   * sorted by their index in the context's dense block, which is (k, j, i) order, as keys
   * key · cells + cell in a Float64Array's own numeric sort (no allocation); where the cells are
   * hashed, by comparing (k, j, i).
   */
  rank(ctx: StepContext): void {
    if (this.rankedBuild === ctx.objectCellsBuilt) return;
    this.rankedBuild = ctx.objectCellsBuilt;
    const og = ctx.objectCells.grid, nc = og.cellCount, no = ctx.objects.count, ci = og.cellI, cj = og.cellJ, ck = og.cellK;
    if (this.cellOrder.length < nc) {
      this.cellOrder = new Int32Array(Math.ceil(nc * 1.25));
      this.cellKey = new Float64Array(this.cellOrder.length);
    }
    const cells = this.cellOrder, dense = ctx.objectCellBlock();
    if (dense !== null) {
      const key = this.cellKey.subarray(0, nc), lo = dense.lo, ni = dense.n[0], nj = dense.n[1];
      for (let c = 0; c < nc; c++) key[c] = (ci[c] - lo[0] + ni * (cj[c] - lo[1] + nj * (ck[c] - lo[2]))) * nc + c;
      key.sort();
      for (let c = 0; c < nc; c++) cells[c] = key[c] % nc;
    } else {
      for (let c = 0; c < nc; c++) cells[c] = c;
      cells.subarray(0, nc).sort((a, b) => ck[a] - ck[b] || cj[a] - cj[b] || ci[a] - ci[b]);
    }
    if (this.cellRank.length < nc) this.cellRank = new Int32Array(Math.ceil(nc * 1.25));
    if (this.index.length < no) this.index = allocInt32(no, this.shared);
    const order = og.order, index = this.index;
    let r = 0;
    for (let q = 0; q < nc; q++) {
      const c = cells[q];
      this.cellRank[c] = r;
      for (let s = og.start[c], s1 = s + og.count[c]; s < s1; s++, r++) index[r] = order[s];
    }
  }
}

export function objectListsOf(ctx: StepContext): ObjectContactLists {
  return (ctx.objectLists ??= new ObjectContactLists(ctx.shared, ctx.listStore));
}

/**
 * Records c = (x, y, z) rounded to float32 and D = (the nearest far entry's distance from (x, y, z),
 * √min2) − |(x, y, z) − c| − margin, rounded down: |c − o| ≥ |p − o| − |p − c|.
 */
export function setClearance(clear: Float32Array, i: number, x: number, y: number, z: number, min2: number, margin: number): void {
  const cx = Math.fround(x), cy = Math.fround(y), cz = Math.fround(z);
  clear[4 * i] = cx; clear[4 * i + 1] = cy; clear[4 * i + 2] = cz;
  const d = Math.sqrt(min2) - Math.sqrt((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) - margin;
  const f = Math.fround(d);
  clear[4 * i + 3] = f <= d ? f : d - Math.abs(d) * 2 ** -23;
}

/** True when (x, y, z) is certainly farther than d from every far entry of i's list. */
export function clearOf(clear: Float32Array, i: number, x: number, y: number, z: number, d: number): boolean {
  const free = clear[4 * i + 3] - d;
  if (!(free > 0)) return false;
  const dx = x - clear[4 * i], dy = y - clear[4 * i + 1], dz = z - clear[4 * i + 2];
  return dx * dx + dy * dy + dz * dz < free * free;
}

/** Squared distance below which a list entry is near (ObjectContactLists). */
export function near2Of(ctx: StepContext): number {
  const d = TOUCH * (ctx.r + ctx.ro) + NEAR_SLACK * ctx.r;
  return d * d;
}

/**
 * Lists, per liquid particle, the object particles the moves and density correction of this
 * sub-timestep can meet, after viscosity, when each particle's velocity is known. A particle's
 * list reaches 1.25 (r + r_o) (contact; friction touches at 1.1) plus one radius (density
 * correction's displacements) plus twice its own travel bound (|v| + g δt + the fastest object
 * speed) δt; particles not flagged near a body (markNearObjects) get none. Adhesion is left out of
 * the bound: near a solid it mostly presses particles that contacts hold. A particle a list misses
 * is still kept out of solids by the signed-distance guard. Each list comes out in rank order,
 * split into its near and far runs, with its clearance.
 */
export function listObjectContacts(ctx: StepContext, dt: number): void {
  const L = ctx.liquid, n = L.count, O = ctx.objects;
  const list = objectListsOf(ctx);
  list.reset(n, O.count);
  if (O.count === 0) {
    list.start.fill(0, 0, n + 1);
    return;
  }
  list.rank(ctx);
  const og = ctx.objectCells.grid, cg = ctx.cells.grid, dense = ctx.objectCellBlock();
  const job = ctx.runner.bind(objectListsJob), a = job.a, s = job.s;
  a.pos = L.pos; a.vel = L.vel; a.near = L.nearObject; a.start = cg.start; a.count = cg.count;
  a.ostart = og.start; a.ocount = og.count; a.cellRank = list.cellRank; a.opos = ctx.objectSlotPos; a.clear = list.clear;
  a.longest = list.longestOf;
  s.base = CONTACT_LIST_TOUCH * (ctx.r + ctx.ro) + ctx.r; s.g = Math.hypot(...ctx.scene.gravity); s.dt = dt; s.vo = O.maxSpeed;
  s.near2 = near2Of(ctx); s.margin = CLEAR_MARGIN * ctx.r; s.farBit = list.far;
  // The object cells are looked up in their dense block; where they are hashed instead
  // (StepContext.objectCellBlock null), through the context, which only this thread can reach.
  job.inline = !objectCellLookup(dense, ctx.objectCells.box, og.cellSize, og.cellCount, a, s, job.scratch, ctx);
  job.lists.list = list;
  const grown = ctx.listStore.grown;
  runJob(job, n, cg.cellCount);
  if (ctx.listStore.grown !== grown && list.clear.buffer !== a.clear.buffer) {
    // The store grew while the kernel wrote the clearances into its old buffer (one thread: the
    // entries grow as they are listed): list again, into the buffer now large enough.
    list.reset(n, O.count);
    a.clear = list.clear;
    job.lists.list = list;
    runJob(job, n, cg.cellCount);
  }
  let longest = 0;
  for (let t = 0; t < (job.teamed ? job.size : 1); t++) longest = Math.max(longest, list.longestOf[t]);
  list.start[n] = list.length;
  list.longest = longest;
}

/** A thread's scratch of the listing: one liquid cell's candidates (ranks, positions), far entries and their squared distances, and the object cells found. */
class ListScratch implements ObjectCellScratch {
  cand = new Int32Array(0);
  candPos = new Float64Array(0);
  tmp = new Int32Array(0);
  tmpD = new Float64Array(0);
  /** The box of the cell's particles (objectCellsNearBoxAt). */
  box = new Float64Array(6);
  nearObjectCells = new Int32Array(64);
  /** The context, where the object cells are hashed (calling thread only). */
  hashed: HashedObjectCells | null = null;
  /** The look-ups' inverse cell size and reach (ObjectCellScratch). */
  readonly query = new Float64Array(2);
}

/** The listing over a run of liquid cells (the object cells and particles are read-only copies on a team). */
export const objectListsJob = defineJob({
  name: 'object-lists',
  arrays: { clear: 'f32', longest: 'i32' },
  inputs: {
    pos: 'f64', vel: 'f64', near: 'u8', start: 'i32', count: 'i32', ostart: 'i32', ocount: 'i32', cellRank: 'i32',
    opos: 'f64', obox: 'f64', block: 'i32',
  },
  scalars: ['base', 'g', 'dt', 'vo', 'near2', 'margin', 'farBit', 'inv', 'nc', 'lo0', 'lo1', 'lo2', 'n0', 'n1', 'n2'],
  split: 'cells',
  cellCounts: 'count',
  balance: true, // (its lists and per-particle entries are the same at any cut: share.ts)
  lists: { list: 'index' },
  minItems: () => teamWork.minParticles,
  scratch: () => new ListScratch(),
  kernel(x) {
    x.a.longest[x.rank] = contactListRange(x.a, x.s, x.from, x.to, x.lists.list, x.scratch);
  },
});

type ListScalars = Record<(typeof objectListsJob.scalars)[number], number>;

/**
 * The lists of the particles of liquid cells [c0, c1), appended to `out` (start entries at their
 * particles), their clearances into a.clear. Returns the longest list.
 */
function contactListRange(a: JobArrays<typeof objectListsJob>, s: ListScalars, c0: number, c1: number, out: ListSink, scratch: ListScratch): number {
  const { pos, vel, near, start, count: cnt, ostart, ocount: ocnt, cellRank, opos, clear } = a;
  const base = s.base, g = s.g, dt = s.dt, vo = s.vo, near2 = s.near2, margin = s.margin, farBit = s.farBit;
  const ls = out.start;
  let tmp = scratch.tmp, lj = out.j, len = out.length, longest = 0;
  for (let c = c0; c < c1; c++) {
    const i0 = start[c], i1 = i0 + cnt[c];
    if (i1 === i0) continue;
    // The reach of the cell's fastest particle picks the object cells: those overlapping the
    // cell's flagged particles' box grown by it, whose own particle box is within that reach.
    let v2max = -1, bx0 = Infinity, by0 = Infinity, bz0 = Infinity, bx1 = -Infinity, by1 = -Infinity, bz1 = -Infinity;
    for (let i = i0; i < i1; i++) {
      if (!near[i]) continue;
      const v2 = vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2];
      if (v2 > v2max) v2max = v2;
      const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
      if (x < bx0) bx0 = x;
      if (x > bx1) bx1 = x;
      if (y < by0) by0 = y;
      if (y > by1) by1 = y;
      if (z < bz0) bz0 = z;
      if (z > bz1) bz1 = z;
    }
    if (v2max < 0) {
      for (let i = i0; i < i1; i++) ls[i] = len;
      continue;
    }
    const reachMax = base + 2 * (Math.sqrt(v2max) + g * dt + vo) * dt;
    const cellBox = scratch.box;
    cellBox[0] = bx0; cellBox[1] = by0; cellBox[2] = bz0; cellBox[3] = bx1; cellBox[4] = by1; cellBox[5] = bz1;
    scratch.query[1] = reachMax;
    const m = objectCellsNearBoxAt(a, s, scratch, cellBox, 0);
    const cellsFound = scratch.nearObjectCells;
    // The cell's candidates: object particles within reachMax of its particle box (no particle of
    // the cell is nearer to one than the box; the test is widened by 1e-9 against round-off), by
    // rank, their positions packed; each particle of the cell then tests only those.
    const cut2 = (reachMax * (1 + 1e-9)) ** 2;
    let most = 0;
    for (let q = 0; q < m; q++) most += ocnt[cellsFound[q]];
    if (scratch.cand.length < most) {
      scratch.cand = new Int32Array(Math.ceil(most * 1.25));
      scratch.candPos = new Float64Array(3 * scratch.cand.length);
    }
    const cand = scratch.cand, cpos = scratch.candPos;
    let nc = 0;
    for (let q = 0; q < m; q++) {
      const oc = cellsFound[q], s0 = ostart[oc], r0 = cellRank[oc] - s0;
      for (let k = s0, s1 = s0 + ocnt[oc]; k < s1; k++) {
        // Written whether or not it is a candidate (cand has room for all), so that the coin toss is not a branch.
        const x = opos[3 * k], y = opos[3 * k + 1], z = opos[3 * k + 2];
        const ex = axisGap(bx0, bx1, x), ey = axisGap(by0, by1, y), ez = axisGap(bz0, bz1, z);
        cand[nc] = r0 + k;
        cpos[3 * nc] = x; cpos[3 * nc + 1] = y; cpos[3 * nc + 2] = z;
        nc += +(ex * ex + ey * ey + ez * ez < cut2);
      }
    }
    out.length = len;
    out.reserve(len + nc * (i1 - i0));
    lj = out.j;
    if (tmp.length < nc) {
      tmp = scratch.tmp = new Int32Array(Math.ceil(nc * 1.25));
      scratch.tmpD = new Float64Array(tmp.length);
    }
    const tmpD = scratch.tmpD;
    for (let i = i0; i < i1; i++) {
      ls[i] = len;
      if (nc === 0 || !near[i]) continue;
      const xi = pos[3 * i], yi = pos[3 * i + 1], zi = pos[3 * i + 2];
      const vi = Math.sqrt(vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2]);
      const reach = base + 2 * (vi + g * dt + vo) * dt, reach2 = reach * reach;
      // Without branching (whether a candidate is near, far or out of reach is a coin toss): each
      // candidate is written as a near entry and as a far one, and each run's length advances over
      // those it takes (near2 < reach2: a near entry is in reach). lj has room for every candidate.
      let min2 = Infinity, nf = 0;
      for (let k = 0; k < nc; k++) {
        const dx = cpos[3 * k] - xi, dy = cpos[3 * k + 1] - yi, dz = cpos[3 * k + 2] - zi;
        const d2 = dx * dx + dy * dy + dz * dz, c = cand[k];
        const isNear = +(d2 < near2);
        lj[len] = c;
        len += isNear;
        tmp[nf] = c + farBit;
        tmpD[nf] = d2;
        nf += +(d2 < reach2) - isNear;
      }
      for (let k = 0; k < nf; k++) {
        lj[len++] = tmp[k];
        min2 = Math.min(min2, tmpD[k]);
      }
      if (len > ls[i]) {
        setClearance(clear, i, xi, yi, zi, min2, margin);
        if (len - ls[i] > longest) longest = len - ls[i];
      }
    }
    out.length = len;
  }
  out.length = len;
  return longest;
}
