/**
 * The pressure solve with the multigrid V-cycle (pcg.ts solve and iterateUnit, multigrid.ts apply;
 * McAdams, Sifakis & Teran 2010) on the grid's thread team, as one job per solve whose threads meet
 * at barriers: the start (the neighbour table with its sentinel row, r = b − A x, max |b| and
 * max |r|, the first V-cycle, s = z), then the iterations: the product, the update of x and r, the
 * red-black Gauss–Seidel half-sweeps of level 0, the residual, the prolongation and the dot
 * product each split over the rows, and the restriction with the coarse levels' V-cycle on the
 * calling thread alone (an eighth of the cells and fewer: rank 0 between two barriers).
 *
 * The sums (s·As and z·r) are taken per block of BLOCK rows, each block in row order, and the
 * blocks added in block order by every thread: the same bits on any number of threads, inline
 * included (one thread runs this job too, so one and two threads agree bit for bit); max |r| is
 * exact in any order. The start's z·r is pcg.ts solve's sequential sum, taken by the calling thread
 * alone (one pass, between two barriers). Each row's update reads only values a barrier has fixed, as in the serial
 * sweeps (a colour's rows read only the other colour), so x, r and z are one thread's.
 */
import { defineJob } from '../parallel/job.ts';
import { allocFloat64, allocInt32, isShared } from '../parallel/memory.ts';
import { runJob, type JobRunner } from '../parallel/run-job.ts';
import { COARSEST_SWEEPS as COARSEST_SWEEPS_, gather as gather_, sweep0 as sweep0_, SWEEPS as SWEEPS_, type MultigridPreconditioner } from './multigrid.ts';
import { gridWork } from './phases.ts';
import type { SolveResult } from './pcg.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const COARSEST_SWEEPS = COARSEST_SWEEPS_, gather = gather_, sweep0 = sweep0_, SWEEPS = SWEEPS_;

/** Rows a partial sum covers. */
export const BLOCK = 2048;

/** The calling thread's handle on the multigrid levels (other threads: null). */
interface Solo {
  mg: MultigridPreconditioner | null;
}

export const pcgJob = defineJob({
  name: 'grid-pcg-multigrid',
  arrays: { x: 'f64', r: 'f64', z: 'f64', s: 'f64', t: 'f64', cx: 'f64', partial: 'f64', out: 'f64', nbs: 'i32' },
  inputs: { diag: 'f64', nbRow: 'i32', rhs: 'f64', rows: 'i32', inv: 'f64', parent: 'i32', parity: 'u8', walls: 'u8' },
  scalars: ['n', 'red', 'depth', 'csx', 'csxy', 'csize', 'tolerance', 'maxIterations'],
  split: 'ranks',
  minItems: () => gridWork.minCells,
  scratch: (): Solo => ({ mg: null }),
  kernel(w) {
    const { x, r, z, s, t, cx, partial, out, nbs, diag, nbRow, rhs, rows, inv, parent, parity, walls } = w.a;
    const n = w.s.n, red = w.s.red, depth = w.s.depth, csx = w.s.csx, csxy = w.s.csxy, csize = w.s.csize;
    const tolerance = w.s.tolerance, maxIterations = w.s.maxIterations;
    const R = w.rank, T = w.size, nb = Math.ceil(n / BLOCK);
    // This thread's blocks of rows, red rows and black rows.
    const b0 = Math.floor((nb * R) / T), b1 = Math.floor((nb * (R + 1)) / T);
    const p0 = Math.floor((red * R) / T), p1 = Math.floor((red * (R + 1)) / T);
    const q0 = red + Math.floor(((n - red) * R) / T), q1 = red + Math.floor(((n - red) * (R + 1)) / T);
    // Three partial-sum arrays in turn (s·As, max |r|, z·r), so that no thread overwrites a block
    // another is still adding up.
    const PA = 0, PB = nb, PC = 2 * nb;
    const sumOf = (at: number) => {
      let v = 0;
      for (let b = 0; b < nb; b++) v += partial[at + b];
      return v;
    };
    let bnorm = 0, rnorm = 0, sigma = 0;
    const done = (it: number, converged: boolean) => {
      if (R === 0) { out[0] = it; out[1] = rnorm; out[2] = converged ? 1 : 0; out[3] = bnorm; }
    };
    // z = M⁻¹ r: the V-cycle (multigrid.ts apply), its half-sweeps split by colour; ends at a barrier.
    const vcycle = () => {
      if (depth === 0) {
        for (let b = b0; b < b1; b++) z.fill(0, b * BLOCK, Math.min(n, (b + 1) * BLOCK));
        for (let k = 0; k < COARSEST_SWEEPS; k++) {
          w.barrier(); sweep0(rows, p0, p1, r, z, inv, nbs);
          w.barrier(); sweep0(rows, q0, q1, r, z, inv, nbs);
        }
        for (let k = 0; k < COARSEST_SWEEPS; k++) {
          w.barrier(); sweep0(rows, q0, q1, r, z, inv, nbs);
          w.barrier(); sweep0(rows, p0, p1, r, z, inv, nbs);
        }
      } else {
        jacobiRed(rows, p0, p1, r, z, inv);
        w.barrier(); sweep0(rows, q0, q1, r, z, inv, nbs);
        for (let k = 1; k < SWEEPS; k++) {
          w.barrier(); sweep0(rows, p0, p1, r, z, inv, nbs);
          w.barrier(); sweep0(rows, q0, q1, r, z, inv, nbs);
        }
        w.barrier();
        // The red rows' residuals (after the black half-sweep only they have one).
        redResiduals(rows, p0, p1, r, z, diag, nbs, t);
        w.barrier();
        if (R === 0) cx.set(w.scratch.mg!.coarse(t).subarray(0, csize));
        w.barrier();
        prolong(rows, p0, p1, z, cx, parent, parity, walls, csx, csxy);
        for (let k = 0; k < SWEEPS; k++) {
          w.barrier(); sweep0(rows, q0, q1, r, z, inv, nbs);
          w.barrier(); sweep0(rows, p0, p1, r, z, inv, nbs);
        }
      }
      w.barrier();
    };
    // The start (pcg.ts solve): missing neighbours pointed at row n (0 in x, s and z), r = b − A x.
    startBlocks(diag, nbRow, nbs, x, rhs, r, partial, PA, PB, n, b0, b1);
    w.barrier();
    for (let b = 0; b < nb; b++) {
      if (partial[PA + b] > bnorm) bnorm = partial[PA + b];
      if (partial[PB + b] > rnorm) rnorm = partial[PB + b];
    }
    if (bnorm === 0) {
      for (let b = b0; b < b1; b++) x.fill(0, b * BLOCK, Math.min(n, (b + 1) * BLOCK));
      rnorm = 0;
      return done(0, true);
    }
    if (rnorm <= tolerance * bnorm) return done(0, true);
    vcycle();
    for (let i = b0 * BLOCK, e = Math.min(n, b1 * BLOCK); i < e; i++) s[i] = z[i];
    if (R === 0) partial[PC] = dot(z, r, n);
    w.barrier();
    sigma = partial[PC];
    // (The iterations' first sum goes to PA, which no thread reads again before its next barrier.)
    for (let it = 1; it <= maxIterations; it++) {
      // z = A s and s·z per block.
      matvecBlocks(diag, nbs, s, z, partial, PA, n, b0, b1);
      w.barrier();
      const ds = sumOf(PA);
      if (!(ds > 0)) return done(it, false);
      const alpha = sigma / ds;
      // x += α s, r −= α z; max |r| per block.
      stepBlocks(x, r, s, z, alpha, partial, PB, n, b0, b1);
      w.barrier();
      rnorm = 0;
      for (let b = 0; b < nb; b++) if (partial[PB + b] > rnorm) rnorm = partial[PB + b];
      if (rnorm <= tolerance * bnorm) return done(it, true);
      vcycle();
      // z·r per block, then s = z + β s.
      dotBlocks(z, r, partial, PC, n, b0, b1);
      w.barrier();
      const sigmaNew = sumOf(PC);
      const beta = sigmaNew / sigma;
      direction(s, z, beta, b0 * BLOCK, Math.min(n, b1 * BLOCK));
      sigma = sigmaNew;
      w.barrier();
    }
    done(maxIterations, false);
  },
});

/** z = A s over blocks [b0, b1) and each block's s·z into partial[at + b]. */
function matvecBlocks(diag: Float64Array, nbs: Int32Array, s: Float64Array, z: Float64Array, partial: Float64Array, at: number, n: number, b0: number, b1: number): void {
  for (let b = b0; b < b1; b++) {
    let ds = 0;
    for (let i = b * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
      const o = 6 * i, si = s[i];
      const v = diag[i] * si - s[nbs[o]] - s[nbs[o + 1]] - s[nbs[o + 2]] - s[nbs[o + 3]] - s[nbs[o + 4]] - s[nbs[o + 5]];
      z[i] = v;
      ds += si * v;
    }
    partial[at + b] = ds;
  }
}

/**
 * The start over blocks [b0, b1): nbs from nbRow (n for a missing neighbour), r = b − A x (pcg.ts
 * multiply's sum in its order: a missing neighbour reads x[n] = 0), each block's max |b| into
 * partial[atB + b] and max |r| into partial[atR + b].
 */
function startBlocks(diag: Float64Array, nbRow: Int32Array, nbs: Int32Array, x: Float64Array, rhs: Float64Array, r: Float64Array, partial: Float64Array, atB: number, atR: number, n: number, b0: number, b1: number): void {
  for (let o = 6 * b0 * BLOCK, e = 6 * Math.min(n, b1 * BLOCK); o < e; o++) {
    const m = nbRow[o];
    nbs[o] = m >= 0 ? m : n;
  }
  for (let b = b0; b < b1; b++) {
    let mb = 0, mr = 0;
    for (let i = b * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
      const o = 6 * i;
      const v = diag[i] * x[i] - x[nbs[o]] - x[nbs[o + 1]] - x[nbs[o + 2]] - x[nbs[o + 3]] - x[nbs[o + 4]] - x[nbs[o + 5]];
      const bi = rhs[i], ri = bi - v;
      r[i] = ri;
      const ab = bi < 0 ? -bi : bi, ar = ri < 0 ? -ri : ri;
      if (ab > mb) mb = ab;
      if (ar > mr) mr = ar;
    }
    partial[atB + b] = mb;
    partial[atR + b] = mr;
  }
}

/** z·r in row order (pcg.ts dot). */
function dot(z: Float64Array, r: Float64Array, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) v += z[i] * r[i];
  return v;
}

/** x += α s, r −= α z over blocks [b0, b1); each block's max |r| into partial[at + b]. */
function stepBlocks(x: Float64Array, r: Float64Array, s: Float64Array, z: Float64Array, alpha: number, partial: Float64Array, at: number, n: number, b0: number, b1: number): void {
  for (let b = b0; b < b1; b++) {
    let m = 0;
    for (let i = b * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) {
      x[i] += alpha * s[i];
      const ri = r[i] - alpha * z[i];
      r[i] = ri;
      const a = ri < 0 ? -ri : ri;
      if (a > m) m = a;
    }
    partial[at + b] = m;
  }
}

/** Each block's z·r into partial[at + b]. */
function dotBlocks(z: Float64Array, r: Float64Array, partial: Float64Array, at: number, n: number, b0: number, b1: number): void {
  for (let b = b0; b < b1; b++) {
    let v = 0;
    for (let i = b * BLOCK, e = Math.min(n, i + BLOCK); i < e; i++) v += z[i] * r[i];
    partial[at + b] = v;
  }
}

/** s = z + β s over rows [from, to). */
function direction(s: Float64Array, z: Float64Array, beta: number, from: number, to: number): void {
  for (let i = from; i < to; i++) s[i] = z[i] + beta * s[i];
}

/** The first red half-sweep from z = 0 (apply's): z = r / diag over red rows[p0, p1). */
function jacobiRed(rows: Int32Array, p0: number, p1: number, r: Float64Array, z: Float64Array, inv: Float64Array): void {
  for (let p = p0; p < p1; p++) { const i = rows[p]; z[i] = r[i] * inv[i]; }
}

/** The residual of red rows[p0, p1) into t (apply's, before the restriction's factor ½). */
function redResiduals(rows: Int32Array, p0: number, p1: number, r: Float64Array, z: Float64Array, diag: Float64Array, nbs: Int32Array, t: Float64Array): void {
  for (let p = p0; p < p1; p++) {
    const i = rows[p], o = 6 * i;
    t[i] = r[i] - diag[i] * z[i] + z[nbs[o]] + z[nbs[o + 1]] + z[nbs[o + 2]] + z[nbs[o + 3]] + z[nbs[o + 4]] + z[nbs[o + 5]];
  }
}

/** The prolongation into red rows[p0, p1) from level 1's x (apply's). */
function prolong(rows: Int32Array, p0: number, p1: number, z: Float64Array, cx: Float64Array, parent: Int32Array, parity: Uint8Array, walls: Uint8Array, csx: number, csxy: number): void {
  for (let p = p0; p < p1; p++) { const i = rows[p]; z[i] += gather(cx, parent[i], parity[i], walls[i], csx, csxy); }
}

/** The job's own arrays: x's copy, the residuals, level 1's x and the partial sums (shared on a team). */
export class PcgTeamArrays {
  x = new Float64Array(0);
  t = new Float64Array(0);
  cx = new Float64Array(0);
  partial = new Float64Array(0);
  out = new Float64Array(4);
  /** The rows' neighbours with n for a missing one (pcg.ts sentinelRows), written by the job. */
  nbs = new Int32Array(0);

  ensure(n: number, csize: number, shared: boolean): void {
    if (this.x.length < n || isShared(this.out) !== shared) {
      const m = Math.ceil(n * 1.3) + 16;
      this.x = allocFloat64(m, shared);
      this.t = allocFloat64(m, shared);
      this.partial = allocFloat64(3 * Math.ceil(m / BLOCK), shared);
      this.out = allocFloat64(4, shared);
      this.nbs = allocInt32(6 * m, shared);
    }
    if (this.cx.length < csize || isShared(this.cx) !== shared) this.cx = allocFloat64(Math.ceil(csize * 1.3) + 16, shared);
  }
}

/**
 * pcg.ts solve with the multigrid `mg`, unit couplings and no closed component, on the runner (its
 * team, or inline): the same start and iterations, the iterations' sums taken per block. r, z and s
 * must be on shared memory where there is a team.
 */
export function pcgOnTeam(
  runner: JobRunner, own: PcgTeamArrays, mg: MultigridPreconditioner,
  sys: { n: number; diag: Float64Array; nbRow: Int32Array; rhs: Float64Array }, x: Float64Array, r: Float64Array, z: Float64Array, s: Float64Array,
  tolerance: number, maxIterations: number,
): SolveResult {
  const n = sys.n, L = mg.levelZero();
  own.ensure(n + 1, L.size, runner.team !== null);
  own.x.set(x.subarray(0, n));
  // Row n, which missing neighbours point at, stays 0 in x, s and z.
  own.x[n] = 0; s[n] = 0; z[n] = 0;
  const job = runner.bind(pcgJob), a = job.a, v = job.s;
  job.scratch.mg = mg;
  a.x = own.x; a.r = r; a.z = z; a.s = s; a.t = own.t; a.cx = own.cx; a.partial = own.partial; a.out = own.out; a.nbs = own.nbs;
  a.diag = sys.diag; a.nbRow = sys.nbRow; a.rhs = sys.rhs; a.rows = L.rows; a.inv = L.invDiag; a.parent = L.parent; a.parity = L.parity; a.walls = L.walls;
  v.n = n; v.red = L.red; v.depth = L.depth; v.csx = L.sx; v.csxy = L.sxy; v.csize = L.size;
  v.tolerance = tolerance; v.maxIterations = maxIterations;
  runJob(job, n);
  x.set(own.x.subarray(0, n));
  const out = own.out, bnorm = out[3];
  return { iterations: out[0], relativeResidual: bnorm > 0 ? out[1] / bnorm : 0, converged: out[2] === 1 };
}
