/**
 * The multigrid preconditioner's level-0 listing (multigrid.ts MultigridPreconditioner.finish) as a
 * job of the grid's thread team: the rows in red-first order, their inverse diagonals and their
 * places on level 1, in chunks, with the same order as the serial listing. Also the cells' labels
 * and the corner arithmetic that multigrid.ts shares with it.
 */
import type { JobArgs } from '../parallel/job.ts';
import { definePhasedJob, gridWork } from './phases.ts';

export const MG_NEUMANN = 0;
export const MG_INTERIOR = 1;
export const MG_DIRICHLET = 2;

/** Coarse cell q (bits: which neighbour along x, y, z) of a fine cell with parent `base` and parity `bits`. */
export function corner(base: number, bits: number, q: number, sx: number, sxy: number): number {
  return base + (q & 1 ? (bits & 1 ? 1 : -1) : 0) + (q & 2 ? (bits & 2 ? sx : -sx) : 0) + (q & 4 ? (bits & 4 ? sxy : -sxy) : 0);
}

/** Bit q set where coarse cell q of a fine cell is Neumann (a wall or solid). */
export function wallBits(flag: Uint8Array, base: number, bits: number, sx: number, sxy: number): number {
  let m = 0;
  for (let q = 1; q < 8; q++) if (flag[corner(base, bits, q, sx, sxy)] === MG_NEUMANN) m |= 1 << q;
  return m;
}

/** Rows a chunk of the level-0 listing covers. */
export const ROW_CHUNK = 1024;
export const NO_FLAG = new Uint8Array(0);

/** What the level-0 listing reads and writes (MultigridPreconditioner.finish). */
export interface RowCells {
  ri: Int32Array; rj: Int32Array; rk: Int32Array; diag: Float64Array;
  /** Level 1's labels (length 0 where there is no level 1). */
  cflag: Uint8Array;
  rows: Int32Array; invDiag: Float64Array; parent: Int32Array; parity: Uint8Array; walls: Uint8Array;
  /** Red rows ((i + j + k) even) per chunk. */
  reds: Int32Array;
  n: number; csx: number; csxy: number;
}

export const emptyRowCells = (): RowCells => ({
  ri: new Int32Array(0), rj: new Int32Array(0), rk: new Int32Array(0), diag: new Float64Array(0), cflag: NO_FLAG,
  rows: new Int32Array(0), invDiag: new Float64Array(0), parent: new Int32Array(0), parity: new Uint8Array(0), walls: new Uint8Array(0),
  reds: new Int32Array(0), n: 0, csx: 0, csxy: 0,
});

/** The red rows of chunks [from, to). */
export function countReds(e: RowCells, from: number, to: number): void {
  const { ri, rj, rk, reds, n } = e;
  for (let ch = from; ch < to; ch++) {
    let m = 0;
    for (let r = ch * ROW_CHUNK, end = Math.min(n, r + ROW_CHUNK); r < end; r++) if (((ri[r] + rj[r] + rk[r]) & 1) === 0) m++;
    reds[ch] = m;
  }
}

/**
 * Chunks [from, to) of the level-0 rows: each row at its place in the red-first order (its chunk's
 * reds after every earlier chunk's, its blacks after every red and every earlier chunk's blacks,
 * each in row order: the serial listing's order), with its inverse diagonal and, where there is a
 * level 1, its parent, parity and wall bits there.
 */
export function listRows(e: RowCells, from: number, to: number): void {
  const { ri, rj, rk, diag, cflag, rows, invDiag, parent, parity, walls, reds, n, csx, csxy } = e;
  const chunks = Math.ceil(n / ROW_CHUNK);
  let allRed = 0;
  for (let ch = 0; ch < chunks; ch++) allRed += reds[ch];
  for (let ch = from; ch < to; ch++) {
    let pr = 0;
    for (let q = 0; q < ch; q++) pr += reds[q];
    let pb = allRed + ch * ROW_CHUNK - pr;
    for (let r = ch * ROW_CHUNK, end = Math.min(n, r + ROW_CHUNK); r < end; r++) {
      const i = ri[r], j = rj[r], k = rk[r];
      if (((i + j + k) & 1) === 0) rows[pr++] = r;
      else rows[pb++] = r;
      invDiag[r] = diag[r] > 0 ? 1 / diag[r] : 0;
      if (cflag.length > 0) {
        const p = (i >> 1) + 1 + csx * ((j >> 1) + 1) + csxy * ((k >> 1) + 1), b = (i & 1) | ((j & 1) << 1) | ((k & 1) << 2);
        parent[r] = p;
        parity[r] = b;
        walls[r] = wallBits(cflag, p, b, csx, csxy);
      }
    }
  }
}

type RowsX = JobArgs<
  { rows: 'i32'; invDiag: 'f64'; parent: 'i32'; parity: 'u8'; walls: 'u8'; reds: 'i32' },
  { ri: 'i32'; rj: 'i32'; rk: 'i32'; diag: 'f64'; cflag: 'u8' },
  'n' | 'csx' | 'csxy', Record<never, never>, RowCells
>;
const rowChunks = (x: RowsX) => Math.ceil(x.s.n / ROW_CHUNK);

/** The level-0 listing as two passes over chunks of rows (countReds, listRows). */
export const rowsJob = definePhasedJob({
  name: 'grid-multigrid-rows',
  arrays: { rows: 'i32', invDiag: 'f64', parent: 'i32', parity: 'u8', walls: 'u8', reds: 'i32' },
  inputs: { ri: 'i32', rj: 'i32', rk: 'i32', diag: 'f64', cflag: 'u8' },
  scalars: ['n', 'csx', 'csxy'],
  minItems: () => gridWork.minCells,
  scratch: emptyRowCells,
  prepare(x) {
    const e = x.scratch, a = x.a;
    e.ri = a.ri; e.rj = a.rj; e.rk = a.rk; e.diag = a.diag; e.cflag = a.cflag; e.rows = a.rows; e.invDiag = a.invDiag;
    e.parent = a.parent; e.parity = a.parity; e.walls = a.walls; e.reds = a.reds; e.n = x.s.n; e.csx = x.s.csx; e.csxy = x.s.csxy;
  },
  phases: [
    { items: rowChunks, run: (x, from, to) => countReds(x.scratch, from, to) },
    { items: rowChunks, run: (x, from, to) => listRows(x.scratch, from, to) },
  ],
});
