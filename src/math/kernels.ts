/**
 * Smoothing kernels of the particle engine (Steele et al. 2004 §3.2–3.5). All take a distance and a
 * support h and are zero at and beyond h.
 */

/**
 * The viscosity weight k: a compact Gaussian-like bump (1 − q²)³, q = d/h. The paper uses "a
 * piece-wise approximation of a gaussian"; this one is smooth, has no exp, and its
 * second moment is ⟨d²⟩ = 3h²/11 (used by calibration.ts).
 */
export function gaussLike(d: number, h: number): number {
  const q2 = (d * d) / (h * h);
  return q2 >= 1 ? 0 : gaussLikeTimes(1, q2);
}

/** Same, from the squared distance (the hot loops have d² already). */
export function gaussLike2(d2: number, invH2: number): number {
  const q2 = d2 * invH2;
  return q2 >= 1 ? 0 : gaussLikeTimes(1, q2);
}

/**
 * c · (1 − q²)³ from q² = d²/h², for q² < 1 (the caller tests the support: the engine's pair
 * loops do so without branching). The one definition of the kernel's shape; the product is taken
 * in this order, ((c s) s) s, which the engine's results depend on bit for bit.
 */
export function gaussLikeTimes(c: number, q2: number): number {
  const s = 1 - q2;
  return c * s * s * s;
}

/** The density kernel ω: a linear ramp, ω(0) = 1, ω(h) = 0 (Steele §3.5: other shapes were unstable). */
export function ramp(d: number, h: number): number {
  return d >= h ? 0 : 1 - d / h;
}

/** ρ0: Σ ω over the 26 neighbours of a cubic lattice of the given spacing. */
export function latticeRestDensity(spacing: number, h: number): number {
  let rho = 0;
  for (let i = -1; i <= 1; i++) {
    for (let j = -1; j <= 1; j++) {
      for (let k = -1; k <= 1; k++) {
        if (i === 0 && j === 0 && k === 0) continue;
        rho += ramp(spacing * Math.hypot(i, j, k), h);
      }
    }
  }
  return rho;
}

/**
 * Mean ω of the neighbours a particle on a flat free surface of the rest lattice lacks (the 9 on
 * the far side): density.ts fills missing neighbours with it, so such a particle reads exactly ρ0.
 */
export function latticeMissingWeight(spacing: number, h: number): number {
  let present = 0;
  for (let i = -1; i <= 0; i++) {
    for (let j = -1; j <= 1; j++) {
      for (let k = -1; k <= 1; k++) {
        if (i === 0 && j === 0 && k === 0) continue;
        present += ramp(spacing * Math.hypot(i, j, k), h);
      }
    }
  }
  return (latticeRestDensity(spacing, h) - present) / 9;
}

/**
 * The cubic spline of Monaghan (1992) in q = d/h over a support h (SPlisHSPlasH's "CubicKernel"),
 * unnormalized: w(0) = 1, w(½) = ¼, w(1) = 0; position-based fluids (src/particle/pbf.ts) divide
 * sums of it by the rest lattice's sum, so the 8/(π h³) normalization never matters.
 */
export function cubicSpline(q: number): number {
  if (q >= 1) return 0;
  if (q <= 0.5) return 6 * q * q * (q - 1) + 1;
  const s = 1 - q;
  return 2 * s * s * s;
}

/** dw/dq of cubicSpline (≤ 0; 0 at q = 0 and from q = 1 on). */
export function cubicSplineSlope(q: number): number {
  if (q >= 1) return 0;
  if (q <= 0.5) return q * (18 * q - 12);
  const s = 1 - q;
  return -6 * s * s;
}

/**
 * 1 − ρ̂ of the outer row of a flat face of a cubic lattice of the given spacing: the share of
 * latticeSolveSum (the solves' kernel, solveW) that lies in the rows beyond the face (0.150 at h = 2 spacings).
 */
export function latticeFaceDeficit(spacing: number, h: number): number {
  const m = Math.ceil(h / spacing);
  let beyond = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = 1; j <= m; j++) {
      for (let k = -m; k <= m; k++) beyond += solveW((spacing * Math.hypot(i, j, k)) / h);
    }
  }
  return beyond / latticeSolveSum(spacing, h);
}

/** Σ cubicSpline(d/h) over a cubic lattice of the given spacing, the particle itself included (its rest number density). */
export function latticeCubicSum(spacing: number, h: number): number {
  const m = Math.ceil(h / spacing);
  let sum = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = -m; j <= m; j++) {
      for (let k = -m; k <= m; k++) sum += cubicSpline((spacing * Math.hypot(i, j, k)) / h);
    }
  }
  return sum;
}

/**
 * Shape of the density kernel of the pressure stage and of PBF density correction (the kernel
 * their passes differentiate), over the same support h: 0 the cubic spline above; 2 and 4 the
 * Wendland C2 and C4 functions (Wendland 1995), whose Fourier transforms are non-negative, so that
 * a positive pressure does not draw particles into pairs or a lattice out of shape (Dehnen & Aly
 * 2012, "Improving convergence in smoothed particle hydrodynamics simulations without pairing
 * instability", MNRAS 425, §3–4). Unnormalized as the cubic spline is, w(0) = 1: the solves divide
 * by the rest lattice's sum. Set per simulation by the particle engine (particle.pressureKernel).
 */
export let solveKernel: 0 | 2 | 4 = 0;

/** particle.pressureKernel's names. */
export const SOLVE_KERNELS = { cubic: 0, 'wendland-c2': 2, 'wendland-c4': 4 } as const;

export function setSolveKernel(kind: 0 | 2 | 4): void {
  solveKernel = kind;
}

/** Wendland C2 in q = d/h: (1 − q)⁴ (1 + 4q); C4: (1 − q)⁶ (1 + 6q + 35q²/3). 0 from q = 1 on. */
export function wendland(kind: 2 | 4, q: number): number {
  if (q >= 1) return 0;
  const t = 1 - q, t2 = t * t, t4 = t2 * t2;
  return kind === 2 ? t4 * (1 + 4 * q) : t4 * t2 * (1 + 6 * q + (35 / 3) * q * q);
}

/** dw/dq of wendland: −20 q (1 − q)³; −(56/3) q (1 + 5q) (1 − q)⁵. */
export function wendlandSlope(kind: 2 | 4, q: number): number {
  if (q >= 1) return 0;
  const t = 1 - q, t3 = t * t * t;
  return kind === 2 ? -20 * q * t3 : -(56 / 3) * q * (1 + 5 * q) * t3 * t * t;
}

/** The solves' kernel w(q) (solveKernel): cubicSpline's bits where it is the cubic spline. */
export function solveW(q: number): number {
  return solveKernel === 0 ? cubicSpline(q) : wendland(solveKernel, q);
}

/** dw/dq of solveW. */
export function solveSlope(q: number): number {
  return solveKernel === 0 ? cubicSplineSlope(q) : wendlandSlope(solveKernel, q);
}

/** Σ solveW(d/h) over a cubic lattice of the given spacing, the particle itself included: the solves' n0 (latticeCubicSum's bits for the cubic spline). */
export function latticeSolveSum(spacing: number, h: number): number {
  if (solveKernel === 0) return latticeCubicSum(spacing, h);
  const m = Math.ceil(h / spacing);
  let sum = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = -m; j <= m; j++) {
      for (let k = -m; k <= m; k++) sum += solveW((spacing * Math.hypot(i, j, k)) / h);
    }
  }
  return sum;
}
