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
 * latticeCubicSum that lies in the rows beyond the face (0.150 at h = 2 spacings).
 */
export function latticeFaceDeficit(spacing: number, h: number): number {
  const m = Math.ceil(h / spacing);
  let beyond = 0;
  for (let i = -m; i <= m; i++) {
    for (let j = 1; j <= m; j++) {
      for (let k = -m; k <= m; k++) beyond += cubicSpline((spacing * Math.hypot(i, j, k)) / h);
    }
  }
  return beyond / latticeCubicSum(spacing, h);
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
