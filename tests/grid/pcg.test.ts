/** The PCG solver with the MIC(0) preconditioner on a 3D Poisson problem (the pressure matrix). */
import { describe, expect, it } from 'vitest';
import { PcgSolver, type SparseSystem } from '../../src/grid/pcg.ts';

/** −∇² on an n³ box of cells with Dirichlet zero beyond the +y face (air above), Neumann elsewhere. */
function poisson(n: number, unit: boolean): SparseSystem {
  const N = n * n * n;
  const diag = new Float64Array(N), off = new Float64Array(6 * N), nbRow = new Int32Array(6 * N).fill(-1), rhs = new Float64Array(N);
  const id = (i: number, j: number, k: number) => i + n * (j + n * k);
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const r = id(i, j, k);
    const nbs = [[i - 1, j, k], [i + 1, j, k], [i, j - 1, k], [i, j + 1, k], [i, j, k - 1], [i, j, k + 1]];
    nbs.forEach(([a, b, c], d) => {
      if (d === 3 && b === n) { diag[r]++; return; } // air: Dirichlet
      if (a < 0 || b < 0 || c < 0 || a >= n || b >= n || c >= n) return; // wall: Neumann
      diag[r]++;
      off[6 * r + d] = -1;
      nbRow[6 * r + d] = id(a, b, c);
    });
    rhs[r] = Math.sin(0.3 * i + 0.7 * j) * Math.cos(0.2 * k);
  }
  return { n: N, diag, off, nbRow, rhs, unit };
}

describe('PCG with MIC(0)', () => {
  it('solves the pressure matrix to the tolerance, in far fewer iterations than Jacobi', () => {
    const A = poisson(16, true);
    const solver = new PcgSolver();
    const x = new Float64Array(A.n);
    const mic = solver.solve(A, x, 1e-8, 1000, true);
    expect(mic.converged).toBe(true);
    const Ax = new Float64Array(A.n);
    solver.multiply(A, x, Ax);
    let res = 0, bmax = 0;
    for (let i = 0; i < A.n; i++) { res = Math.max(res, Math.abs(Ax[i] - A.rhs[i])); bmax = Math.max(bmax, Math.abs(A.rhs[i])); }
    expect(res / bmax).toBeLessThan(1e-8 * 1.01);
    const jacobi = solver.solve(A, new Float64Array(A.n), 1e-8, 1000, false);
    expect(jacobi.converged).toBe(true);
    expect(mic.iterations).toBeLessThan(0.5 * jacobi.iterations);
  });

  it('gives the same answer through the unit-coupling fast path', () => {
    const a = poisson(8, true), b = poisson(8, false);
    const xa = new Float64Array(a.n), xb = new Float64Array(b.n);
    const solver = new PcgSolver();
    const ra = solver.solve(a, xa, 1e-10, 500, true), rb = solver.solve(b, xb, 1e-10, 500, true);
    expect(ra.iterations).toBe(rb.iterations);
    for (let i = 0; i < a.n; i++) expect(xa[i]).toBeCloseTo(xb[i], 12);
  });
});
