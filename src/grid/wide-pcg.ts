/**
 * Preconditioned conjugate gradients for symmetric positive definite systems whose rows couple more
 * than the six axis neighbours of pcg.ts: the variational viscosity (viscosity-variational.ts)
 * couples each face velocity with its own component's six neighbours and with eight samples of the
 * other two components (Batty & Bridson 2008, §4). Rows hold up to WIDE_SLOTS entries, slot 0 the
 * diagonal; unused slots have column −1. The preconditioner is symmetric Gauss–Seidel
 * (M = (D + L) D⁻¹ (D + U), SSOR with ω = 1; Saad 2003 §10.2), which needs no factorisation of the
 * wider pattern. Convergence as pcg.ts: max |r| ≤ tolerance · max |b|.
 */
import type { SolveResult } from './pcg.ts';

/** Entries per row: the diagonal, 6 same-component and 8 cross-component couplings, 1 spare. */
const SLOTS = 16;
export const WIDE_SLOTS = SLOTS;

export interface WideSystem {
  n: number;
  /** WIDE_SLOTS columns per row, −1 where unused; slot 0 is the row itself. */
  col: Int32Array;
  val: Float64Array;
  rhs: Float64Array;
}

export class WidePcg {
  private r = new Float64Array(0);
  private z = new Float64Array(0);
  private s = new Float64Array(0);
  private q = new Float64Array(0);

  private ensure(n: number): void {
    if (this.r.length >= n) return;
    const m = Math.ceil(n * 1.3) + 16;
    this.r = new Float64Array(m);
    this.z = new Float64Array(m);
    this.s = new Float64Array(m);
    this.q = new Float64Array(m);
  }

  /** Solves A x = rhs; x holds the initial guess on entry. */
  solve(A: WideSystem, x: Float64Array, tolerance: number, maxIterations: number): SolveResult {
    const n = A.n;
    this.ensure(n);
    const { r, z, s, q } = this;
    multiply(A, x, r);
    let bnorm = 0;
    for (let i = 0; i < n; i++) {
      r[i] = A.rhs[i] - r[i];
      bnorm = Math.max(bnorm, Math.abs(A.rhs[i]));
    }
    if (bnorm === 0) {
      x.fill(0, 0, n);
      return { iterations: 0, relativeResidual: 0, converged: true };
    }
    let rnorm = 0;
    for (let i = 0; i < n; i++) rnorm = Math.max(rnorm, Math.abs(r[i]));
    if (rnorm <= tolerance * bnorm) return { iterations: 0, relativeResidual: rnorm / bnorm, converged: true };
    precondition(A, r, z);
    s.set(z.subarray(0, n));
    let sigma = dot(z, r, n);
    for (let it = 1; it <= maxIterations; it++) {
      const ds = multiply(A, s, q);
      if (!(ds > 0)) return { iterations: it, relativeResidual: rnorm / bnorm, converged: false };
      const alpha = sigma / ds;
      rnorm = 0;
      for (let i = 0; i < n; i++) {
        x[i] += alpha * s[i];
        const ri = r[i] - alpha * q[i];
        r[i] = ri;
        const a = ri < 0 ? -ri : ri;
        if (a > rnorm) rnorm = a;
      }
      if (rnorm <= tolerance * bnorm) return { iterations: it, relativeResidual: rnorm / bnorm, converged: true };
      precondition(A, r, z);
      const sigmaNew = dot(z, r, n);
      const beta = sigmaNew / sigma;
      for (let i = 0; i < n; i++) s[i] = z[i] + beta * s[i];
      sigma = sigmaNew;
    }
    return { iterations: maxIterations, relativeResidual: rnorm / bnorm, converged: false };
  }
}

/** out = A v; returns v·out. */
export function multiply(A: WideSystem, v: Float64Array, out: Float64Array): number {
  const { col, val } = A;
  let vAv = 0;
  for (let i = 0; i < A.n; i++) {
    const o = SLOTS * i;
    let t = val[o] * v[i];
    for (let e = o + 1; e < o + SLOTS; e++) {
      const j = col[e];
      if (j < 0) break;
      t += val[e] * v[j];
    }
    out[i] = t;
    vAv += v[i] * t;
  }
  return vAv;
}

/** z = M⁻¹ r with M = (D + L) D⁻¹ (D + U): a forward and a backward Gauss–Seidel sweep. */
function precondition(A: WideSystem, r: Float64Array, z: Float64Array): void {
  const { col, val, n } = A;
  for (let i = 0; i < n; i++) {
    const o = SLOTS * i;
    let t = r[i];
    for (let e = o + 1; e < o + SLOTS; e++) {
      const j = col[e];
      if (j < 0) break;
      if (j < i) t -= val[e] * z[j];
    }
    z[i] = t / val[o];
  }
  for (let i = n - 1; i >= 0; i--) {
    const o = SLOTS * i;
    let t = 0;
    for (let e = o + 1; e < o + SLOTS; e++) {
      const j = col[e];
      if (j < 0) break;
      if (j > i) t += val[e] * z[j];
    }
    z[i] -= t / val[o];
  }
}

function dot(a: Float64Array, b: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
