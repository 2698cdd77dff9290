/**
 * The solves' boundary rows (solve-setup.ts prepareSolve; Akinci et al. 2012 boundary handling):
 * per slot, the object particles within h, as a job over runs of the slots' cells. Each slot's row
 * is its own and the threads' lists are copied into place in order, so the rows are one thread's
 * whatever the team. The object cells are looked up in their dense block (object-cells.ts); where
 * they are hashed, the job runs on the calling thread, which alone reaches the context.
 */
import type { StepContext } from './context.ts';
import type { CellPairs, NeighbourList } from './neighbours.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { objectCellLookup, objectCellsNearBoxAt, type HashedObjectCells, type ObjectCellScratch } from './object-cells.ts';
import { teamWork } from './work.ts';

/** A thread's scratch: the object cells found for a cell. */
class BoundaryScratch implements ObjectCellScratch {
  nearObjectCells = new Int32Array(64);
  /** The context, where the object cells are hashed (calling thread only). */
  hashed: HashedObjectCells | null = null;
  /** The look-ups' inverse cell size and reach (ObjectCellScratch). */
  readonly query = new Float64Array(2);
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
  lists: { list: 'i32' },
  minItems: () => teamWork.minParticles,
  scratch: () => new BoundaryScratch(),
  kernel(x) {
    boundaryRowsRange(x.a, x.s, x.from, x.to, x.lists.list, x.scratch);
  },
});

type BoundaryScalars = Record<(typeof solveBoundaryJob.scalars)[number], number>;

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
  const { x, start, count, order, near, box, ostart, ocount, opos, obox } = v;
  const h = s.h, h2 = h * h, ls = list.start;
  sc.query[1] = h;
  for (let c = c0; c < c1; c++) {
    const a0 = start[c], a1 = a0 + count[c];
    let any = false;
    for (let a = a0; a < a1; a++) if (near[order[a]]) any = true;
    const m = any ? objectCellsNearBoxAt(v, s, sc, box, 6 * c) : 0;
    const oc = sc.nearObjectCells;
    // Room for every candidate of a slot of the cell, checked once per slot.
    let room = 0;
    for (let q = 0; q < m; q++) room += ocount[oc[q]];
    for (let a = a0; a < a1; a++) {
      ls[a] = list.length;
      if (m === 0 || !near[order[a]]) continue;
      list.reserve(list.length + room);
      const lj = list.j;
      let len = list.length;
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      // neighbours.ts boxDistance2 and gatherWithin, written out so that no coordinate is passed
      // to a call as a double (V8 boxes one it does not inline: 0.4 MB a honey drop frame).
      for (let q = 0; q < m; q++) {
        const cc = oc[q], b = 6 * cc;
        let ex = obox[b] - xa, ey = obox[b + 1] - ya, ez = obox[b + 2] - za;
        if (ex < 0) { ex = xa - obox[b + 3]; if (ex < 0) ex = 0; }
        if (ey < 0) { ey = ya - obox[b + 4]; if (ey < 0) ey = 0; }
        if (ez < 0) { ez = za - obox[b + 5]; if (ez < 0) ez = 0; }
        if (ex * ex + ey * ey + ez * ez >= h2) continue;
        for (let o = ostart[cc], o1 = o + ocount[cc]; o < o1; o++) {
          const dx = opos[3 * o] - xa, dy = opos[3 * o + 1] - ya, dz = opos[3 * o + 2] - za;
          lj[len] = o;
          len += +(dx * dx + dy * dy + dz * dz < h2);
        }
      }
      list.length = len;
    }
  }
}
