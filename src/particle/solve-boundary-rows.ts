/**
 * The solves' boundary rows (solve-setup.ts prepareSolve; Akinci et al. 2012 boundary handling):
 * per slot, the object particles within h, as a job over runs of the slots' cells. Each slot's row
 * is its own and the threads' lists are copied into place in order, so the rows are one thread's
 * whatever the team. The object cells are looked up in their dense block (object-cells.ts); where
 * they are hashed, the job runs on the calling thread, which alone reaches the context.
 */
import type { StageScratch, StepContext } from './context.ts';
import type { CellPairs, NeighbourList } from './neighbours.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { objectCellLookup, objectCellsNearBoxAt, type HashedObjectCells, type ObjectCellScratch } from './object-cells.ts';
import { cellCandidates, gatherCandidates, threadCandidates } from './object-candidates.ts';
import { teamWork } from './work.ts';

/** A thread's scratch: the object cells found for a cell. */
class BoundaryScratch implements ObjectCellScratch {
  nearObjectCells = new Int32Array(64);
  /** The context, where the object cells are hashed (calling thread only). */
  hashed: HashedObjectCells | null = null;
  /** The look-ups' inverse cell size and reach (ObjectCellScratch). */
  readonly query = new Float64Array(2);
  /** The cell's object slots within h of its box (object-candidates.ts); h² of the rows in cand.h2, read there (no double passed to a call). */
  readonly cand = threadCandidates();
}

export const solveBoundaryJob = defineJob({
  name: 'solve-boundary',
  arrays: {},
  inputs: {
    x: 'f64', start: 'i32', count: 'i32', order: 'i32', near: 'u8', box: 'f64',
    ostart: 'i32', ocount: 'i32', opos: 'f64', obox: 'f64', block: 'i32',
  },
  scalars: ['h', 'inv', 'nc', 'lo0', 'lo1', 'lo2', 'n0', 'n1', 'n2'],
  split: 'cells',
  cellCounts: 'count',
  balance: true, // (its lists and per-particle entries are the same at any cut: share.ts)
  lists: { list: 'i32' },
  minItems: () => teamWork.minParticles,
  scratch: () => new BoundaryScratch(),
  kernel(x) {
    boundaryRowsRange(x.a, x.s, x.from, x.to, x.lists.list, x.scratch);
  },
});

type BoundaryScalars = Record<(typeof solveBoundaryJob.scalars)[number], number>;

/**
 * The liquid cells' boxes (ctx.cells.box, 6 f64 a cell, at the positions x) for listBoundaryRows
 * over the liquid cells: the adhesion stage's lived in the stage buffer within its own call. In
 * `room` (the caller's stage scratch, past what it carved) where it has room, else in `spare`,
 * which the caller keeps (returned, grown where short).
 */
export function liquidCellBoxes(ctx: StepContext, x: Float64Array, room: StageScratch, spare: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const c = ctx.cells, nc6 = 6 * c.grid.cellCount;
  if (room.rest() >= 8 * nc6 + 8) c.box = room.f64(nc6);
  else {
    if (spare.length < nc6 || (ctx.shared && !isShared(spare))) spare = allocFloat64(Math.ceil(nc6 * 1.5), ctx.shared);
    c.box = spare;
  }
  c.updateBoxes(x);
  return spare;
}

/**
 * Object particles within h of each slot x of the cells of `dc` (the density cells, or the liquid
 * cells where the slots are the particles; only slots whose particle is flagged near a body), into
 * `list` (reset for n slots by the caller), as ranks of the object cells' slot order
 * (ctx.objectSlotPos), in the order the object cells are met (StepContext.objectCellsNear), whatever
 * the liquid cells.
 */
export function listBoundaryRows(ctx: StepContext, dc: CellPairs, x: Float64Array, n: number, list: NeighbourList): void {
  const g = dc.grid, og = ctx.objectCells.grid;
  const job = ctx.runner.bind(solveBoundaryJob), a = job.a, s = job.s;
  a.x = x; a.start = g.start; a.count = g.count; a.order = g.order; a.near = ctx.liquid.nearObject; a.box = dc.box;
  a.ostart = og.start; a.ocount = og.count; a.opos = ctx.objectSlotPos;
  s.h = ctx.densityH;
  job.inline = !objectCellLookup(ctx.objectCellBlock(), ctx.objectCells.box, og.cellSize, og.cellCount, a, s, job.scratch, ctx);
  job.lists.list = list;
  runJob(job, n, g.cellCount);
}

/** The rows of the slots of cells [c0, c1), appended to `list` (start entries at their slots). */
function boundaryRowsRange(
  v: JobArrays<typeof solveBoundaryJob>, s: BoundaryScalars, c0: number, c1: number, list: ListSink<Int32Array>, sc: BoundaryScratch,
): void {
  const { x, start, count, order, near, box, ostart, ocount, opos } = v;
  const h = s.h, ls = list.start, cand = sc.cand;
  sc.query[1] = h;
  cand.h2[0] = h * h;
  for (let c = c0; c < c1; c++) {
    const a0 = start[c], a1 = a0 + count[c];
    let any = false;
    for (let a = a0; a < a1; a++) if (near[order[a]]) any = true;
    const m = any ? objectCellsNearBoxAt(v, s, sc, box, 6 * c) : 0;
    // The cell's candidates within h of its box (object-candidates.ts); room for every one of them a slot.
    const k = m > 0 ? cellCandidates(cand, box, 6 * c, sc.nearObjectCells, m, ostart, ocount, opos) : 0;
    for (let a = a0; a < a1; a++) {
      ls[a] = list.length;
      if (k === 0 || !near[order[a]]) continue;
      list.reserve(list.length + k);
      list.length = gatherCandidates(x, a, cand.h2, 0, cand, k, list.j, list.length);
    }
  }
}
