/** The multigrid V-cycle as the pressure solve's preconditioner (src/grid/multigrid.ts). */
import { describe, expect, it } from 'vitest';
import { MG_DIRICHLET, MG_INTERIOR, MG_NEUMANN, MultigridPreconditioner } from '../../src/grid/multigrid.ts';
import { PcgSolver, type SparseSystem } from '../../src/grid/pcg.ts';

type Label = (i: number, j: number, k: number) => number;

/**
 * The pressure matrix of an n³ box whose cells (and ring of wall cells, −1 and n) are labelled by
 * `label`: a row per interior cell in (k, j, i) order, diagonal = non-Neumann neighbours.
 */
function system(n: number, label: Label, seed = 1): { A: SparseSystem; mg: MultigridPreconditioner } {
  const at = (i: number, j: number, k: number) => (i < -1 || j < -1 || k < -1 || i > n || j > n || k > n ? MG_NEUMANN : label(i, j, k));
  const row = new Map<number, number>();
  const key = (i: number, j: number, k: number) => i + 1 + (n + 2) * (j + 1 + (n + 2) * (k + 1));
  const cells: [number, number, number][] = [];
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    if (at(i, j, k) !== MG_INTERIOR) continue;
    row.set(key(i, j, k), cells.length);
    cells.push([i, j, k]);
  }
  const m = cells.length;
  const diag = new Float64Array(m), off = new Float64Array(6 * m), nbRow = new Int32Array(6 * m).fill(-1), rhs = new Float64Array(m);
  const ri = new Int32Array(m), rj = new Int32Array(m), rk = new Int32Array(m);
  const mg = new MultigridPreconditioner();
  const flag = mg.begin(n, n, n);
  for (let k = -1; k <= n; k++) for (let j = -1; j <= n; j++) for (let i = -1; i <= n; i++) flag[mg.index0(i, j, k)] = at(i, j, k);
  let s = seed;
  const random = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
  cells.forEach(([i, j, k], r) => {
    ri[r] = i; rj[r] = j; rk[r] = k;
    const nbs = [[i - 1, j, k], [i + 1, j, k], [i, j - 1, k], [i, j + 1, k], [i, j, k - 1], [i, j, k + 1]];
    nbs.forEach(([a, b, c], d) => {
      const l = at(a, b, c);
      if (l === MG_NEUMANN) return;
      diag[r]++;
      if (l === MG_INTERIOR) {
        off[6 * r + d] = -1;
        nbRow[6 * r + d] = row.get(key(a, b, c))!;
      }
    });
    rhs[r] = Math.sin(0.3 * i + 0.7 * j) * Math.cos(0.2 * k) + random();
  });
  const A: SparseSystem = { n: m, diag, off, nbRow, rhs, unit: true };
  mg.finish(A, ri, rj, rk);
  return { A, mg };
}

/** Liquid below y = n/2 with air above, walls around, except a solid block on the floor. */
const tank = (n: number): Label => (i, j, k) => {
  if (i < 0 || k < 0 || i >= n || k >= n || j < 0) return MG_NEUMANN;
  if (i >= n / 4 && i < n / 2 && k >= n / 4 && k < n / 2 && j < n / 4) return MG_NEUMANN;
  return j < n / 2 ? MG_INTERIOR : MG_DIRICHLET;
};

/** A ball of liquid in air, in a box open on every side. */
const ball = (n: number): Label => (i, j, k) => {
  const c = (n - 1) / 2;
  return Math.hypot(i - c, j - c, k - c) < 0.4 * n ? MG_INTERIOR : MG_DIRICHLET;
};

function maxResidual(A: SparseSystem, x: Float64Array): number {
  const Ax = new Float64Array(A.n + 1);
  new PcgSolver().multiply(A, x, Ax);
  let res = 0, b = 0;
  for (let i = 0; i < A.n; i++) { res = Math.max(res, Math.abs(Ax[i] - A.rhs[i])); b = Math.max(b, Math.abs(A.rhs[i])); }
  return res / b;
}

describe('multigrid preconditioner', () => {
  it('is symmetric and positive definite (as conjugate gradients needs) on an irregular domain', () => {
    for (const label of [tank(20), ball(20)]) {
      const { A, mg } = system(20, label);
      let s = 7;
      const random = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
      const nbs = new Int32Array(6 * A.n).map((_, o) => (A.nbRow[o] >= 0 ? A.nbRow[o] : A.n));
      const a = new Float64Array(A.n).map(random), b = new Float64Array(A.n).map(random);
      const za = new Float64Array(A.n + 1), zb = new Float64Array(A.n + 1);
      mg.apply(a, za, nbs);
      mg.apply(b, zb, nbs);
      let ab = 0, ba = 0, aa = 0;
      for (let i = 0; i < A.n; i++) { ab += za[i] * b[i]; ba += a[i] * zb[i]; aa += za[i] * a[i]; }
      expect(Math.abs(ab - ba)).toBeLessThan(1e-12 * Math.abs(aa));
      expect(aa).toBeGreaterThan(0);
      expect(za[A.n]).toBe(0);
    }
  });

  it('solves to the tolerance in under half of MIC(0)\'s iterations, with the same answer', () => {
    for (const label of [tank(32), ball(32)]) {
      const { A, mg } = system(32, label);
      const solver = new PcgSolver();
      const xm = new Float64Array(A.n + 1), xg = new Float64Array(A.n + 1);
      const mic = solver.solve(A, xm, 1e-8, 1000, true);
      const multi = solver.solve(A, xg, 1e-8, 1000, mg);
      expect(multi.converged).toBe(true);
      expect(maxResidual(A, xg)).toBeLessThan(1e-8 * 1.01);
      expect(multi.iterations).toBeLessThan(mic.iterations / 2);
      let diff = 0, size = 0;
      for (let i = 0; i < A.n; i++) { diff = Math.max(diff, Math.abs(xg[i] - xm[i])); size = Math.max(size, Math.abs(xm[i])); }
      expect(diff).toBeLessThan(1e-6 * size);
    }
  });

  it('needs about as many iterations on a finer grid, where MIC(0) needs more', () => {
    const its = [16, 32].map((n) => {
      const { A, mg } = system(n, tank(n));
      const solver = new PcgSolver();
      return [solver.solve(A, new Float64Array(A.n + 1), 1e-6, 1000, mg).iterations, solver.solve(A, new Float64Array(A.n + 1), 1e-6, 1000, true).iterations];
    });
    expect(its[1][0]).toBeLessThanOrEqual(its[0][0] + 2);
    expect(its[1][1]).toBeGreaterThan(its[0][1] + 4);
  });

  it('preconditions a closed container (no Dirichlet cell: the constant projected out)', () => {
    const n = 16;
    const { A, mg } = system(n, (i, j, k) => (i < 0 || j < 0 || k < 0 || i >= n || j >= n || k >= n ? MG_NEUMANN : MG_INTERIOR));
    let mean = 0;
    for (let i = 0; i < A.n; i++) mean += A.rhs[i] / A.n;
    for (let i = 0; i < A.n; i++) A.rhs[i] -= mean;
    A.component = new Int32Array(A.n);
    A.closed = new Uint8Array([1]);
    const x = new Float64Array(A.n + 1);
    const r = new PcgSolver().solve(A, x, 1e-8, 1000, mg);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeLessThan(30);
    expect(maxResidual(A, x)).toBeLessThan(1e-8 * 1.01);
  });
});
