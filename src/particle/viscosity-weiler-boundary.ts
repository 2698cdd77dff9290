/**
 * The implicit viscosity's object rows (viscosity-weiler.ts; Weiler, Koschier, Brand & Bender 2018
 * with object particles as boundary particles, Akinci et al. 2012): for each liquid particle
 * flagged near a body, the object slots within its pair support h, as a job over runs of the
 * liquid cells (the particles are sorted by cell, so a run of cells is a run of particles). Each
 * particle's row is its own and the threads' lists are copied into place in order, so the rows are
 * one thread's whatever the team: per cell, the object cells within the largest support of the box
 * of its flagged particles, each particle's slots within its material's h in the order the object
 * cells are met (gatherObjectSlots). The object cells are looked up in their dense block
 * (object-cells.ts); where they are hashed, the job runs on the calling thread, which alone reaches
 * the context.
 */
import type { StepContext } from './context.ts';
import type { NeighbourList } from './neighbours.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { runJob } from '../parallel/run-job.ts';
import { gatherObjectSlots, objectCellLookup, objectCellsNearBoxAt, type HashedObjectCells, type ObjectCellScratch } from './object-cells.ts';
import { teamWork } from './work.ts';

/** A thread's scratch: the object cells found for a cell, and the box of its flagged particles. */
class RowScratch implements ObjectCellScratch {
  nearObjectCells = new Int32Array(64);
  hashed: HashedObjectCells | null = null;
  /** The look-ups' inverse cell size and reach (ObjectCellScratch). */
  readonly query = new Float64Array(2);
  readonly box = new Float64Array(6);
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
  const { pos, start, count, near, mat, ph2, ostart, ocount, opos, obox } = v;
  const ls = list.start, stride = s.stride, box = sc.box;
  sc.query[1] = s.hmax;
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
    const oc = sc.nearObjectCells;
    // Room for every candidate of a particle of the cell (gatherObjectSlots writes each one).
    let room = 0;
    for (let q = 0; q < m; q++) room += ocount[oc[q]];
    for (let i = i0; i < i1; i++) {
      ls[i] = list.length;
      if (m === 0 || !near[i]) continue;
      list.reserve(list.length + room);
      list.length = gatherObjectSlots(pos, i, ph2, mat[i] * stride, oc, m, obox, ostart, ocount, opos, list.j, list.length);
    }
  }
}
