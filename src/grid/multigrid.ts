/**
 * Multigrid preconditioner for the pressure matrix (McAdams, Sifakis & Teran 2010, "A parallel
 * multigrid Poisson solver for fluids simulation on large grids", §3–4): one geometric V-cycle from
 * a zero guess per application. Level 0 is the liquid rows of the PCG system itself; each coarser
 * level is a dense box of cells twice as wide, labelled Dirichlet (air) if any of its eight children
 * is air, otherwise interior (liquid) if any child is liquid, otherwise Neumann (solid), and carries
 * the 7-point Laplacian rediscretised on it (a cell's diagonal counts its non-Neumann neighbours).
 * Box cell 0 is the first child of coarse cell 0 on every level, and the ring of wall cells around
 * the box is coarsened with it, so that walls and open sides stay where they are. Transfers are
 * cell-centred trilinear prolongation P and restriction R = Pᵀ / 8 (times 4 for the doubled
 * spacing); the smoother is red-black Gauss-Seidel, red then black before the coarse correction and
 * black then red after, so that the cycle is the symmetric positive-definite operator conjugate
 * gradients needs. The coarsest level (a few hundred interior cells) gets symmetric sweeps.
 */
import { allocFloat64, allocInt32, allocUint8, isShared } from '../parallel/memory.ts';
import { runJob, type JobRunner } from '../parallel/run-job.ts';
import { gridWork } from './phases.ts';
import { corner, countReds, emptyRowCells, listRows, MG_DIRICHLET, MG_INTERIOR, MG_NEUMANN, NO_FLAG, ROW_CHUNK, rowsJob, wallBits, type RowCells } from './multigrid-rows.ts';
import type { SparseSystem } from './pcg.ts';

export { MG_DIRICHLET, MG_INTERIOR, MG_NEUMANN } from './multigrid-rows.ts';
const NEUMANN = MG_NEUMANN, INTERIOR = MG_INTERIOR, DIRICHLET = MG_DIRICHLET;

/** Smoothing sweeps (a red and a black half-sweep each) before and after the coarse correction. */
export const SWEEPS = 2;
/** Symmetric sweep pairs on the coarsest level. */
export const COARSEST_SWEEPS = 8;
/** A level with at most this many interior cells is the coarsest. */
const COARSEST_CELLS = 512;

/** One dense level (ℓ ≥ 1): logical nx × ny × nz cells and their ring (logical −1 and n), stored. */
class Level {
  nx = 0; ny = 0; nz = 0;
  sx = 0; sxy = 0;
  flag = new Uint8Array(0);
  x = new Float64Array(0);
  b = new Float64Array(0);
  /** Stored indices of the interior cells, red ((i + j + k) even) first. */
  cells = new Int32Array(0);
  count = 0;
  red = 0;
  diag = new Float64Array(0);
  invDiag = new Float64Array(0);
  /** Per interior cell: its parent's stored index on the next level and the parity bits of (i, j, k). */
  parent = new Int32Array(0);
  parity = new Uint8Array(0);
  /** Per interior cell: bit q set where the q-th of its eight coarse cells (see gather) is Neumann. */
  walls = new Uint8Array(0);

  resize(nx: number, ny: number, nz: number, shared = false): void {
    this.nx = nx; this.ny = ny; this.nz = nz;
    this.sx = nx + 2; this.sxy = this.sx * (ny + 2);
    const size = this.sxy * (nz + 2);
    if (this.flag.length < size || isShared(this.flag) !== shared) {
      // (Level 1's labels on shared memory where the level-0 rows are listed on a team.)
      this.flag = allocUint8(size, shared);
      this.x = new Float64Array(size);
      this.b = new Float64Array(size);
    } else this.x.fill(0, 0, size);
  }

  ensureCells(m: number): void {
    if (this.cells.length >= m) return;
    const cap = Math.ceil(m * 1.3) + 16;
    this.cells = new Int32Array(cap);
    this.diag = new Float64Array(cap);
    this.invDiag = new Float64Array(cap);
    this.parent = new Int32Array(cap);
    this.parity = new Uint8Array(cap);
    this.walls = new Uint8Array(cap);
  }
}

export class MultigridPreconditioner {
  /** Level-0 labels: the box (logical 0..n−1) and its ring of wall cells (−1 and n). */
  private flag0 = new Uint8Array(0);
  private nx0 = 0; private ny0 = 0; private nz0 = 0;
  private sx0 = 0; private sxy0 = 0;
  private levels: Level[] = [];
  private depth = 0;
  private n = 0;
  /** Level-0 rows, red first; per row its parent on level 1 and parity. */
  private rows = new Int32Array(0);
  private red0 = 0;
  private diag0: Float64Array = new Float64Array(0);
  private invDiag0 = new Float64Array(0);
  private parent0 = new Int32Array(0);
  private parity0 = new Uint8Array(0);
  private walls0 = new Uint8Array(0);
  /** Whether the level-0 arrays live on shared memory (a team lists the rows and reads them). */
  private shared = false;

  /**
   * Starts a build for a box of nx × ny × nz cells; returns the level-0 label array (every cell
   * NEUMANN) for the caller to fill through `index0`, for box cells and the ring around them.
   */
  begin(nx: number, ny: number, nz: number, shared = false): Uint8Array {
    this.nx0 = nx; this.ny0 = ny; this.nz0 = nz;
    this.sx0 = nx + 2; this.sxy0 = this.sx0 * (ny + 2);
    const size = this.sxy0 * (nz + 2);
    // (On shared memory where the pressure stage labels the cells on a thread team: pressure-job.ts.)
    if (this.flag0.length < size || isShared(this.flag0) !== shared) this.flag0 = allocUint8(size, shared);
    this.flag0.fill(NEUMANN, 0, size);
    this.shared = shared;
    return this.flag0;
  }

  /** Index in the label array of box cell (i, j, k), −1 ≤ i ≤ nx (likewise j, k). */
  index0(i: number, j: number, k: number): number {
    return i + 1 + this.sx0 * (j + 1 + (this.ny0 + 2) * (k + 1));
  }

  /**
   * Builds the levels for system A (unit couplings) whose row r is box cell (ri[r], rj[r], rk[r]),
   * labelled INTERIOR in the array `begin` returned.
   */
  finish(A: SparseSystem, ri: Int32Array, rj: Int32Array, rk: Int32Array, runner: JobRunner | null = null): void {
    const n = A.n, shared = this.shared;
    this.n = n;
    this.diag0 = A.diag;
    if (this.rows.length < n || isShared(this.rows) !== shared) {
      const cap = Math.ceil(n * 1.3) + 16;
      this.rows = allocInt32(cap, shared);
      this.invDiag0 = allocFloat64(cap, shared);
      this.parent0 = allocInt32(cap, shared);
      this.parity0 = allocUint8(cap, shared);
      this.walls0 = allocUint8(cap, shared);
    }
    // Coarse levels down to a few hundred interior cells.
    let depth = 0, fx = this.nx0, fy = this.ny0, fz = this.nz0, fflag = this.flag0, fsx = this.sx0, fsxy = this.sxy0;
    let interior = n;
    while (interior > COARSEST_CELLS && fx > 2 && fy > 2 && fz > 2) {
      if (this.levels.length <= depth) this.levels.push(new Level());
      const L = this.levels[depth];
      L.resize((fx + 1) >> 1, (fy + 1) >> 1, (fz + 1) >> 1, shared && depth === 0);
      interior = coarsen(fflag, fx, fy, fz, fsx, fsxy, L);
      depth++;
      fx = L.nx; fy = L.ny; fz = L.nz; fflag = L.flag; fsx = L.sx; fsxy = L.sxy;
    }
    this.depth = depth;
    // Level-0 rows, red first, with their parents on level 1: chunks of rows counted, then each
    // listed from the counts before it (on the runner's team where it has one).
    const C = depth > 0 ? this.levels[0] : null;
    const chunks = Math.ceil(n / ROW_CHUNK);
    if (this.chunkReds.length < chunks || isShared(this.chunkReds) !== shared) this.chunkReds = allocInt32(Math.ceil(chunks * 1.3) + 4, shared);
    const e = this.rowCells;
    e.ri = ri; e.rj = rj; e.rk = rk; e.diag = A.diag; e.cflag = C ? C.flag : NO_FLAG; e.rows = this.rows; e.invDiag = this.invDiag0;
    e.parent = this.parent0; e.parity = this.parity0; e.walls = this.walls0; e.reds = this.chunkReds;
    e.n = n; e.csx = C ? C.sx : 0; e.csxy = C ? C.sxy : 0;
    if (runner !== null && (shared || runner.team === null)) {
      const job = runner.bind(rowsJob), a = job.a;
      a.rows = e.rows; a.invDiag = e.invDiag; a.parent = e.parent; a.parity = e.parity; a.walls = e.walls; a.reds = e.reds;
      a.ri = ri; a.rj = rj; a.rk = rk; a.diag = A.diag; a.cflag = e.cflag;
      job.s.n = n; job.s.csx = e.csx; job.s.csxy = e.csxy;
      runJob(job, n);
    } else {
      countReds(e, 0, chunks);
      listRows(e, 0, chunks);
    }
    let red = 0;
    for (let c = 0; c < chunks; c++) red += this.chunkReds[c];
    this.red0 = red;
    for (let l = 0; l < depth; l++) listCells(this.levels[l], l + 1 < depth ? this.levels[l + 1] : null);
  }

  private chunkReds = new Int32Array(0);
  private readonly rowCells: RowCells = emptyRowCells();

  /** z = M⁻¹ r: one V-cycle from zero (see Preconditioner). */
  apply(r: Float64Array, z: Float64Array, nbs: Int32Array): void {
    const n = this.n, rows = this.rows, red = this.red0, inv = this.invDiag0;
    z[n] = 0;
    if (this.depth === 0) {
      z.fill(0, 0, n);
      for (let s = 0; s < COARSEST_SWEEPS; s++) { sweep0(rows, 0, red, r, z, inv, nbs); sweep0(rows, red, n, r, z, inv, nbs); }
      for (let s = 0; s < COARSEST_SWEEPS; s++) { sweep0(rows, red, n, r, z, inv, nbs); sweep0(rows, 0, red, r, z, inv, nbs); }
      return;
    }
    // Pre-smoothing; the first red half-sweep sees zero neighbours.
    for (let p = 0; p < red; p++) { const i = rows[p]; z[i] = r[i] * inv[i]; }
    sweep0(rows, red, n, r, z, inv, nbs);
    for (let s = 1; s < SWEEPS; s++) { sweep0(rows, 0, red, r, z, inv, nbs); sweep0(rows, red, n, r, z, inv, nbs); }
    // The residual, restricted: after the black half-sweep only the red rows have one.
    const C = this.levels[0], cb = C.b, csx = C.sx, csxy = C.sxy, diag = this.diag0, parent = this.parent0, parity = this.parity0, walls = this.walls0;
    cb.fill(0, 0, csxy * (C.nz + 2));
    for (let p = 0; p < red; p++) {
      const i = rows[p], o = 6 * i;
      const t = r[i] - diag[i] * z[i] + z[nbs[o]] + z[nbs[o + 1]] + z[nbs[o + 2]] + z[nbs[o + 3]] + z[nbs[o + 4]] + z[nbs[o + 5]];
      scatter(cb, parent[i], parity[i], walls[i], csx, csxy, 0.5 * t);
    }
    this.cycle(0);
    // Prolongation into the red rows only: the black half-sweep that follows overwrites the black.
    const cx = C.x;
    for (let p = 0; p < red; p++) { const i = rows[p]; z[i] += gather(cx, parent[i], parity[i], walls[i], csx, csxy); }
    for (let s = 0; s < SWEEPS; s++) { sweep0(rows, red, n, r, z, inv, nbs); sweep0(rows, 0, red, r, z, inv, nbs); }
  }

  /**
   * Level 0 as a V-cycle split over a thread team reads it (pcg-job.ts): the rows (red first),
   * their inverse diagonals, parents on level 1 and wall bits, and level 1's strides and size.
   */
  levelZero(): { n: number; depth: number; rows: Int32Array; red: number; invDiag: Float64Array; parent: Int32Array; parity: Uint8Array; walls: Uint8Array; sx: number; sxy: number; size: number } {
    const C = this.depth > 0 ? this.levels[0] : null;
    return {
      n: this.n, depth: this.depth, rows: this.rows, red: this.red0, invDiag: this.invDiag0, parent: this.parent0, parity: this.parity0, walls: this.walls0,
      sx: C ? C.sx : 0, sxy: C ? C.sxy : 0, size: C ? C.sxy * (C.nz + 2) : 0,
    };
  }

  /**
   * `apply`'s coarse correction from the red rows' residuals `t` (by row, as apply computes them
   * after pre-smoothing): their restriction to level 1, in row order, and its V-cycle; returns
   * level 1's x, which the prolongation reads. Needs depth > 0.
   */
  coarse(t: Float64Array): Float64Array {
    const rows = this.rows, red = this.red0, C = this.levels[0], cb = C.b, csx = C.sx, csxy = C.sxy;
    const parent = this.parent0, parity = this.parity0, walls = this.walls0;
    cb.fill(0, 0, csxy * (C.nz + 2));
    for (let p = 0; p < red; p++) {
      const i = rows[p];
      scatter(cb, parent[i], parity[i], walls[i], csx, csxy, 0.5 * t[i]);
    }
    this.cycle(0);
    return C.x;
  }

  /** One V-cycle on `levels[l]`, from zero. */
  private cycle(l: number): void {
    const L = this.levels[l];
    const { cells, invDiag, x, b, sx, sxy, count, red } = L;
    if (l === this.depth - 1) {
      for (let p = 0; p < count; p++) x[cells[p]] = 0;
      for (let s = 0; s < COARSEST_SWEEPS; s++) { sweepL(cells, 0, red, x, b, invDiag, sx, sxy); sweepL(cells, red, count, x, b, invDiag, sx, sxy); }
      for (let s = 0; s < COARSEST_SWEEPS; s++) { sweepL(cells, red, count, x, b, invDiag, sx, sxy); sweepL(cells, 0, red, x, b, invDiag, sx, sxy); }
      return;
    }
    for (let p = 0; p < red; p++) { const c = cells[p]; x[c] = b[c] * invDiag[p]; }
    sweepL(cells, red, count, x, b, invDiag, sx, sxy);
    for (let s = 1; s < SWEEPS; s++) { sweepL(cells, 0, red, x, b, invDiag, sx, sxy); sweepL(cells, red, count, x, b, invDiag, sx, sxy); }
    const C = this.levels[l + 1];
    const { parent, parity, diag, walls } = L;
    const cb = C.b, csx = C.sx, csxy = C.sxy;
    cb.fill(0, 0, csxy * (C.nz + 2));
    for (let p = 0; p < red; p++) {
      const c = cells[p];
      const t = b[c] - diag[p] * x[c] + x[c - 1] + x[c + 1] + x[c - sx] + x[c + sx] + x[c - sxy] + x[c + sxy];
      scatter(cb, parent[p], parity[p], walls[p], csx, csxy, 0.5 * t);
    }
    this.cycle(l + 1);
    const cx = C.x;
    for (let p = 0; p < red; p++) x[cells[p]] += gather(cx, parent[p], parity[p], walls[p], csx, csxy);
    for (let s = 0; s < SWEEPS; s++) { sweepL(cells, red, count, x, b, invDiag, sx, sxy); sweepL(cells, 0, red, x, b, invDiag, sx, sxy); }
  }
}

/** Gauss-Seidel over rows[from..to) of the level-0 system (one colour: no row there reads another). */
export function sweep0(rows: Int32Array, from: number, to: number, r: Float64Array, z: Float64Array, inv: Float64Array, nbs: Int32Array): void {
  for (let p = from; p < to; p++) {
    const i = rows[p], o = 6 * i;
    z[i] = (r[i] + z[nbs[o]] + z[nbs[o + 1]] + z[nbs[o + 2]] + z[nbs[o + 3]] + z[nbs[o + 4]] + z[nbs[o + 5]]) * inv[i];
  }
}

/** Gauss-Seidel over cells[from..to) of a dense level (non-interior cells hold zero). */
function sweepL(cells: Int32Array, from: number, to: number, x: Float64Array, b: Float64Array, inv: Float64Array, sx: number, sxy: number): void {
  for (let p = from; p < to; p++) {
    const c = cells[p];
    x[c] = (b[c] + x[c - 1] + x[c + 1] + x[c - sx] + x[c + sx] + x[c - sxy] + x[c + sxy]) * inv[p];
  }
}

/** The eight coarse cells of a fine cell: q = 0 its parent, bit 0 of q the x neighbour, bit 1 y, bit 2 z. */
/** Trilinear weight of coarse cell q: 3/4 along an axis to the parent, 1/4 to the neighbour. */
const WEIGHT = new Float64Array(8);
for (let q = 0; q < 8; q++) WEIGHT[q] = (q & 1 ? 0.25 : 0.75) * (q & 2 ? 0.25 : 0.75) * (q & 4 ? 0.25 : 0.75);

/**
 * Adds v times the trilinear weights of a fine cell to its eight coarse cells (Pᵀ). A Neumann
 * coarse cell's weight goes to the parent: across a wall the correction is continued by the
 * parent's value (zero normal derivative) instead of by a zero.
 */
function scatter(b: Float64Array, base: number, bits: number, walls: number, sx: number, sxy: number, v: number): void {
  if (walls !== 0) {
    let w0 = WEIGHT[0];
    for (let q = 1; q < 8; q++) {
      if (walls & (1 << q)) w0 += WEIGHT[q];
      else b[corner(base, bits, q, sx, sxy)] += WEIGHT[q] * v;
    }
    b[base] += w0 * v;
    return;
  }
  const ox = bits & 1 ? 1 : -1, oy = bits & 2 ? sx : -sx, oz = bits & 4 ? sxy : -sxy;
  const w27 = v * (27 / 64), w9 = v * (9 / 64), w3 = v * (3 / 64), w1 = v * (1 / 64);
  b[base] += w27;
  b[base + ox] += w9; b[base + oy] += w9; b[base + oz] += w9;
  b[base + ox + oy] += w3; b[base + ox + oz] += w3; b[base + oy + oz] += w3;
  b[base + ox + oy + oz] += w1;
}

/** The trilinear value at a fine cell from its eight coarse cells (P; the transpose of scatter). */
export function gather(x: Float64Array, base: number, bits: number, walls: number, sx: number, sxy: number): number {
  if (walls !== 0) {
    let w0 = WEIGHT[0], t = 0;
    for (let q = 1; q < 8; q++) {
      if (walls & (1 << q)) w0 += WEIGHT[q];
      else t += WEIGHT[q] * x[corner(base, bits, q, sx, sxy)];
    }
    return t + w0 * x[base];
  }
  const ox = bits & 1 ? 1 : -1, oy = bits & 2 ? sx : -sx, oz = bits & 4 ? sxy : -sxy;
  return (27 / 64) * x[base] + (9 / 64) * (x[base + ox] + x[base + oy] + x[base + oz])
    + (3 / 64) * (x[base + ox + oy] + x[base + ox + oz] + x[base + oy + oz]) + (1 / 64) * x[base + ox + oy + oz];
}

/** Labels level C, ring included, from the fine labels; returns its number of interior cells. */
function coarsen(fflag: Uint8Array, fx: number, fy: number, fz: number, fsx: number, fsxy: number, C: Level): number {
  const { flag, sx, sxy, nx, ny, nz } = C;
  let interior = 0;
  for (let K = -1; K <= nz; K++) for (let J = -1; J <= ny; J++) for (let I = -1; I <= nx; I++) {
    let label = NEUMANN;
    for (let q = 0; q < 8 && label !== DIRICHLET; q++) {
      const i = 2 * I + (q & 1), j = 2 * J + ((q >> 1) & 1), k = 2 * K + (q >> 2);
      if (i < -1 || j < -1 || k < -1 || i > fx || j > fy || k > fz) continue;
      const f = fflag[i + 1 + fsx * (j + 1) + fsxy * (k + 1)];
      if (f !== NEUMANN) label = f;
    }
    flag[I + 1 + sx * (J + 1) + sxy * (K + 1)] = label;
    if (label === INTERIOR) interior++;
  }
  C.ensureCells(interior);
  C.count = interior;
  return interior;
}

/** The interior cells of L (red first), their diagonals and their parents on the next level C. */
function listCells(L: Level, C: Level | null): void {
  const { flag, sx, sxy, nx, ny, nz, cells, diag, invDiag, parent, parity } = L;
  let p = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = (j + k + pass) & 1; i < nx; i += 2) {
      const c = i + 1 + sx * (j + 1) + sxy * (k + 1);
      if (flag[c] !== INTERIOR) continue;
      cells[p] = c;
      const dg = (flag[c - 1] !== NEUMANN ? 1 : 0) + (flag[c + 1] !== NEUMANN ? 1 : 0) + (flag[c - sx] !== NEUMANN ? 1 : 0)
        + (flag[c + sx] !== NEUMANN ? 1 : 0) + (flag[c - sxy] !== NEUMANN ? 1 : 0) + (flag[c + sxy] !== NEUMANN ? 1 : 0);
      diag[p] = dg;
      invDiag[p] = dg > 0 ? 1 / dg : 0;
      if (C) {
        parent[p] = (i >> 1) + 1 + C.sx * ((j >> 1) + 1) + C.sxy * ((k >> 1) + 1);
        parity[p] = (i & 1) | ((j & 1) << 1) | ((k & 1) << 2);
        L.walls[p] = wallBits(C.flag, parent[p], parity[p], C.sx, C.sxy);
      }
      p++;
    }
    if (pass === 0) L.red = p;
  }
}
