/**
 * The solve's liquid rows over the density cells (solve-setup.ts prepareSolve, where the rows do not
 * come from adhesion's pair list): each slot's upper half, the slots b > a within h, as a job over
 * runs of density cells (the cubic spline's support h; the rows' use: pressure-half.ts).
 */
import { cellsAroundInBlock, type CellPairs, spanGap } from './neighbours.ts';
import { defineJob, type JobArrays, type ListSink } from '../parallel/job.ts';
import { teamWork } from './work.ts';
/** A thread's scratch of the row listing: the row cells of the cell at hand; the cells where they are hashed (calling thread only). */
class RowListScratch {
  cells = new Int32Array(27);
  hashed: CellPairs | null = null;
}

/**
 * The solve's liquid rows as a job over runs of density cells (each row is its own slot's, so the
 * threads' lists, copied into place in order, are one thread's list). Each cell's row cells
 * (rowCellsAt) are found by the thread that lists the cell, in the density cells' dense block
 * (CellPairs.denseBlock; where they are hashed, the job runs on the calling thread).
 */
export const solveListJob = defineJob({
  name: 'solve-list',
  arrays: {},
  inputs: { x: 'f64', start: 'i32', count: 'i32', box: 'f64', block: 'i32', ci: 'i32', cj: 'i32', ck: 'i32' },
  scalars: ['h2', 'reach', 'lo0', 'lo1', 'lo2', 'si', 'sj'],
  split: 'cells',
  cellCounts: 'count', balance: true, // (its lists are the same at any cut: share.ts)
  lists: { list: 'index' },
  minItems: () => teamWork.minParticles,
  scratch: () => new RowListScratch(),
  kernel(x) {
    liquidRowsRange(x.a, x.s, x.from, x.to, x.lists.list, x.scratch);
  },
});

type ListScalars = Record<(typeof solveListJob.scalars)[number], number>;

/**
 * The row cells of cell c, into sc.cells (returns how many): the cells within reach of c (in
 * CellPairs.around's order: di, then dj, then dk) that hold no slot below c's first (the upper
 * parts' rows meet no other: liquidRowsRange) and whose particle box lies within h of c's.
 */
function rowCellsAt(v: JobArrays<typeof solveListJob>, s: ListScalars, sc: RowListScratch, c: number): number {
  const { box, block, ci, cj, ck, start } = v, R = s.reach, h2 = s.h2, s0 = start[c];
  if (sc.cells.length < (2 * R + 1) ** 3) sc.cells = new Int32Array((2 * R + 1) ** 3);
  const out = sc.cells;
  let m: number;
  if (sc.hashed !== null) m = sc.hashed.around(c, out);
  else {
    const si = s.si, sj = s.sj, b = (ci[c] - s.lo0 + R) * si + (cj[c] - s.lo1 + R) * sj + (ck[c] - s.lo2 + R);
    m = cellsAroundInBlock(block, b, R, si, sj, out);
  }
  const cb = 6 * c, x0 = box[cb], y0 = box[cb + 1], z0 = box[cb + 2], x1 = box[cb + 3], y1 = box[cb + 4], z1 = box[cb + 5];
  let k = 0;
  for (let q = 0; q < m; q++) {
    const c2 = out[q], bb = 6 * c2;
    if (start[c2] < s0) continue;
    const ex = spanGap(box[bb], box[bb + 3], x0, x1), ey = spanGap(box[bb + 1], box[bb + 4], y0, y1), ez = spanGap(box[bb + 2], box[bb + 5], z0, z1);
    if (ex * ex + ey * ey + ez * ez < h2) out[k++] = c2;
  }
  return k;
}

/**
 * The upper halves of the liquid neighbour rows over the density cells [c0, c1): every slot b > a
 * within h of slot a, rows appended in slot order (cells are runs of slots, so a row cell either
 * lies wholly above the slot's own cell or not at all), each row in the order of its cell's row
 * cells (rowCellsAt) and of the slots within a cell; rowsFromHalf (solve-pair-rows.ts) makes the
 * full rows from them. Every slot of every row cell is a candidate: testing each row cell's box
 * against the slot first (to pass over a cell out of its reach) was a coin toss
 * per slot and cell, and the rows came out in 0.73–0.82 of the time without it (docs/decisions.md,
 * "PBF's cost"); rowCellsAt has passed over the cells out of reach of the whole cell. The rows'
 * entries are 16- or 32-bit (slot-rows.ts).
 */
function liquidRowsRange(
  v: JobArrays<typeof solveListJob>, s: ListScalars, c0: number, c1: number, list: ListSink<Int32Array | Uint16Array>, sc: RowListScratch,
): void {
  const { x, start, count } = v, h2 = s.h2;
  const ls = list.start;
  let lj = list.j, len = list.length;
  for (let c = c0; c < c1; c++) {
    const k1 = rowCellsAt(v, s, sc, c), cells = sc.cells;
    let room = 0;
    for (let k = 0; k < k1; k++) room += count[cells[k]];
    for (let a = start[c], a1 = a + count[c]; a < a1; a++) {
      if (len + room > lj.length) {
        list.length = len;
        list.reserve(len + room);
        lj = list.j;
      }
      ls[a] = len;
      const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
      for (let k = 0; k < k1; k++) {
        const c2 = cells[k];
        // The slot's own cell from the slot on; the other cells, above it (rowCellsAt), whole.
        len = gatherSlots(x, xa, ya, za, h2, c2 === c ? a + 1 : start[c2], start[c2] + count[c2], lj, len);
      }
    }
  }
  list.length = len;
}

/** neighbours.ts gatherWithin into rows of 16- or 32-bit entries: the slots b of [b0, b1) nearer than √r2, every candidate written, the length advanced over those in reach. */
function gatherSlots(x: Float64Array, x0: number, y0: number, z0: number, r2: number, b0: number, b1: number, lj: Int32Array | Uint16Array, len: number): number {
  for (let b = b0; b < b1; b++) {
    const dx = x[3 * b] - x0, dy = x[3 * b + 1] - y0, dz = x[3 * b + 2] - z0;
    lj[len] = b;
    len += +(dx * dx + dy * dy + dz * dz < r2);
  }
  return len;
}
