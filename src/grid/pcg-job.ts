/**
 * The pressure solve's conjugate-gradient iterations with the multigrid V-cycle (pcg.ts
 * iterateUnit, multigrid.ts apply; McAdams, Sifakis & Teran 2010) on the grid's thread team, as
 * one job per solve whose threads meet at barriers: the product, the update of x and r, the
 * red-black Gauss–Seidel half-sweeps of level 0, the residual, the prolongation and the dot
 * product each split over the rows, and the restriction with the coarse levels' V-cycle on the
 * calling thread alone (an eighth of the cells and fewer: rank 0 between two barriers).
 *
 * The sums (s·As and z·r) are taken per block of BLOCK rows, each block in row order, and the
 * blocks added in block order by every thread: the same bits on any number of threads, inline
 * included (one thread runs this job too, so one and two threads agree bit for bit); max |r| is
 * exact in any order. Each row's update reads only values a barrier has fixed, as in the serial
 * sweeps (a colour's rows read only the other colour), so x, r and z are one thread's.
 */
import { defineJob } from '../parallel/job.ts';
import { allocFloat64, isShared } from '../parallel/memory.ts';
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
  arrays: { x: 'f64', r: 'f64', z: 'f64', s: 'f64', t: 'f64', cx: 'f64', partial: 'f64', out: 'f64' },
  inputs: { diag: 'f64', nbs: 'i32', rows: 'i32', inv: 'f64', parent: 'i32', parity: 'u8', walls: 'u8' },
  scalars: ['n', 'red', 'depth', 'csx', 'csxy', 'csize', 'tolerance', 'bnorm', 'rnorm', 'sigma', 'maxIterations'],
  split: 'ranks',
  minItems: () => gridWork.minCells,
  scratch: (): Solo => ({ mg: null }),
  kernel(w) {
    const { x, r, z, s, t, cx, partial, out, diag, nbs, rows, inv, parent, parity, walls } = w.a;
    const n = w.s.n, red = w.s.red, depth = w.s.depth, csx = w.s.csx, csxy = w.s.csxy, csize = w.s.csize;
    const tolerance = w.s.tolerance, bnorm = w.s.bnorm, maxIterations = w.s.maxIterations;
    let rnorm = w.s.rnorm, sigma = w.s.sigma;
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
    const done = (it: number, converged: boolean) => {
      if (R === 0) { out[0] = it; out[1] = rnorm; out[2] = converged ? 1 : 0; }
    };
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
      // z = M⁻¹ r: the V-cycle (multigrid.ts apply), its half-sweeps split by colour.
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
  out = new Float64Array(3);

  ensure(n: number, csize: number, shared: boolean): void {
    if (this.x.length < n || isShared(this.out) !== shared) {
      const m = Math.ceil(n * 1.3) + 16;
      this.x = allocFloat64(m, shared);
      this.t = allocFloat64(m, shared);
      this.partial = allocFloat64(3 * Math.ceil(m / BLOCK), shared);
      this.out = allocFloat64(3, shared);
    }
    if (this.cx.length < csize || isShared(this.cx) !== shared) this.cx = allocFloat64(Math.ceil(csize * 1.3) + 16, shared);
  }
}

/**
 * pcg.ts iterateUnit with the multigrid `mg` on the runner (its team, or inline): the same
 * iterations, the sums taken per block. r, z and s must be on shared memory where there is a team.
 */
export function pcgOnTeam(
  runner: JobRunner, own: PcgTeamArrays, mg: MultigridPreconditioner,
  sys: { n: number; diag: Float64Array }, nbs: Int32Array, x: Float64Array, r: Float64Array, z: Float64Array, s: Float64Array,
  tolerance: number, maxIterations: number, bnorm: number, rnorm: number, sigma: number,
): SolveResult {
  const n = sys.n, L = mg.levelZero();
  own.ensure(n + 1, L.size, runner.team !== null);
  own.x.set(x.subarray(0, n));
  const job = runner.bind(pcgJob), a = job.a, v = job.s;
  job.scratch.mg = mg;
  a.x = own.x; a.r = r; a.z = z; a.s = s; a.t = own.t; a.cx = own.cx; a.partial = own.partial; a.out = own.out;
  a.diag = sys.diag; a.nbs = nbs; a.rows = L.rows; a.inv = L.invDiag; a.parent = L.parent; a.parity = L.parity; a.walls = L.walls;
  v.n = n; v.red = L.red; v.depth = L.depth; v.csx = L.sx; v.csxy = L.sxy; v.csize = L.size;
  v.tolerance = tolerance; v.bnorm = bnorm; v.rnorm = rnorm; v.sigma = sigma; v.maxIterations = maxIterations;
  runJob(job, n);
  x.set(own.x.subarray(0, n));
  const out = own.out;
  return { iterations: out[0], relativeResidual: out[1] / bnorm, converged: out[2] === 1 };
}
