/**
 * The implicit field of Steele et al. 2004 ("Rendering"): f(x) = λ − Σ vᵢ w(|x − pᵢ|), with w a
 * Gaussian of width σ, clamped to [−λ, λ]. It is sampled on a lattice by letting each particle
 * splat into the lattice points its kernel reaches (cost ∝ particles × kernel points). The Gaussian
 * is separable, so a particle needs 3 × span exponentials and the rest are products.
 *
 * Stored normalised: the lattice holds f / λ = 1 − Σ vᵢ w / λ in [−1, 1], which has the same zero
 * set, is +1 wherever no particle reaches (the lattice border) and suits fixed tolerances.
 */
import type { Lattice } from './polygonizer.ts';

/** Kernel support in σ; w is shifted down by its value there so the field stays continuous. */
export const CUTOFF_SIGMAS = 2.5;

export interface Kernel {
  sigma: number;
  cutoff: number;
  /** exp(−cutoff² / 2σ²), subtracted from the Gaussian. */
  shift: number;
  /** ∫ w dV over all space: the sum Σ vᵢ w deep inside liquid whose particle volumes tile space. */
  interiorSum: number;
}

export function gaussianKernel(sigma: number): Kernel {
  const cutoff = CUTOFF_SIGMAS * sigma;
  const shift = Math.exp(-(cutoff * cutoff) / (2 * sigma * sigma));
  // Simpson's rule on the radial integral ∫ 4π s² w(s) ds.
  const n = 2000;
  const ds = cutoff / n;
  let sum = 0;
  for (let i = 0; i <= n; i++) {
    const s = i * ds;
    const f = 4 * Math.PI * s * s * (Math.exp(-(s * s) / (2 * sigma * sigma)) - shift);
    sum += (i === 0 || i === n ? 1 : i % 2 ? 4 : 2) * f;
  }
  return { sigma, cutoff, shift, interiorSum: (sum * ds) / 3 };
}

/**
 * A lattice of spacing h aligned to the global multiples of h, covering [min − margin, max + margin].
 * Values are zeroed.
 */
export function latticeOver(min: ArrayLike<number>, max: ArrayLike<number>, margin: number, h: number): Lattice {
  const lo = [0, 0, 0], n = [0, 0, 0], base = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const i0 = Math.floor((min[a] - margin) / h);
    const i1 = Math.ceil((max[a] + margin) / h);
    lo[a] = i0 * h;
    base[a] = i0;
    n[a] = i1 - i0 + 1;
  }
  const points = n[0] * n[1] * n[2];
  if (!(points <= 2 ** 28)) throw new Error(`surface lattice of ${n.join(' × ')} points is too large; raise output.resolution`);
  return { origin: [lo[0], lo[1], lo[2]], base: [base[0], base[1], base[2]], spacing: h, nx: n[0], ny: n[1], nz: n[2], values: new Float32Array(points) };
}

let gx = new Float64Array(64), gy = new Float64Array(64), gz = new Float64Array(64);

/**
 * Adds vᵢ w(|x − pᵢ|) of the particles `members[from .. to)` to the lattice values.
 * `volumes` may be null (then every particle has `defaultVolume`).
 */
export function splatParticles(
  lattice: Lattice,
  kernel: Kernel,
  positions: ArrayLike<number>,
  volumes: ArrayLike<number> | null | undefined,
  defaultVolume: number,
  members: Int32Array,
  from: number,
  to: number,
  sigmas?: ArrayLike<number> | null,
): void {
  const { nx, ny, nz, spacing: h, values } = lattice;
  const [ox, oy, oz] = lattice.origin;
  const [bx, by, bz] = lattice.base ?? [0, 0, 0];
  // Sample coordinates: h · (base + i) when the lattice is a piece of the global one, so that
  // pieces sharing points compute them identically.
  const sx = lattice.base ? 0 : ox, sy = lattice.base ? 0 : oy, sz = lattice.base ? 0 : oz;
  // With per-particle widths σᵢ ≤ σ (thin features, adaptiveWidths), particle i's kernel is the
  // same shape scaled to σᵢ and its weight raised by (σ/σᵢ)³, so that its integral — and the
  // interior sum — stay those of σ.
  let R = kernel.cutoff, inv2s2 = 1 / (2 * kernel.sigma * kernel.sigma), scale = 1;
  const c = kernel.shift;
  const span = Math.ceil((2 * R) / h) + 2;
  if (gx.length < span) {
    gx = new Float64Array(span);
    gy = new Float64Array(span);
    gz = new Float64Array(span);
  }
  const nxy = nx * ny;
  for (let m = from; m < to; m++) {
    const p = members[m];
    const px = positions[3 * p], py = positions[3 * p + 1], pz = positions[3 * p + 2];
    if (sigmas) {
      const si = Math.min(kernel.sigma, sigmas[p]), q = kernel.sigma / si;
      R = CUTOFF_SIGMAS * si;
      inv2s2 = 1 / (2 * si * si);
      scale = q * q * q;
    }
    const v = (volumes ? volumes[p] : defaultVolume) * scale;
    const i0 = Math.max(0, Math.ceil((px - R - ox) / h)), i1 = Math.min(nx - 1, Math.floor((px + R - ox) / h));
    const j0 = Math.max(0, Math.ceil((py - R - oy) / h)), j1 = Math.min(ny - 1, Math.floor((py + R - oy) / h));
    const k0 = Math.max(0, Math.ceil((pz - R - oz) / h)), k1 = Math.min(nz - 1, Math.floor((pz + R - oz) / h));
    for (let i = i0; i <= i1; i++) {
      const d = sx + h * (bx + i) - px;
      gx[i - i0] = Math.exp(-d * d * inv2s2);
    }
    for (let j = j0; j <= j1; j++) {
      const d = sy + h * (by + j) - py;
      gy[j - j0] = Math.exp(-d * d * inv2s2);
    }
    for (let k = k0; k <= k1; k++) {
      const d = sz + h * (bz + k) - pz;
      gz[k - k0] = Math.exp(-d * d * inv2s2);
    }
    for (let k = k0; k <= k1; k++) {
      const wz = gz[k - k0];
      if (wz <= c) continue;
      for (let j = j0; j <= j1; j++) {
        const wyz = wz * gy[j - j0];
        if (wyz <= c) continue;
        const row = nx * j + nxy * k;
        for (let i = i0; i <= i1; i++) {
          const w = wyz * gx[i - i0] - c;
          if (w > 0) values[row + i] += v * w;
        }
      }
    }
  }
}

/** Turns accumulated sums S into f / λ = 1 − S / λ, clamped at −1 (Steele: clamped inside). */
export function normaliseField(lattice: Lattice, lambda: number): void {
  const values = lattice.values;
  const inv = 1 / lambda;
  for (let i = 0; i < values.length; i++) {
    const f = 1 - values[i] * inv;
    values[i] = f < -1 ? -1 : f;
  }
}

/**
 * Outward field gradient at (x, y, z), trilinearly interpolated from central differences, written
 * normalised into out[o .. o + 3). Returns false (and writes nothing) where the gradient vanishes.
 */
export function latticeNormal(lattice: Lattice, x: number, y: number, z: number, out: Float32Array, o: number): boolean {
  const { nx, ny, nz, spacing: h, values } = lattice;
  const u = (x - lattice.origin[0]) / h, v = (y - lattice.origin[1]) / h, w = (z - lattice.origin[2]) / h;
  const i = Math.min(nx - 2, Math.max(0, Math.floor(u)));
  const j = Math.min(ny - 2, Math.max(0, Math.floor(v)));
  const k = Math.min(nz - 2, Math.max(0, Math.floor(w)));
  const fu = u - i, fv = v - j, fw = w - k;
  let gxs = 0, gys = 0, gzs = 0;
  for (let c = 0; c < 8; c++) {
    const ci = i + (c & 1), cj = j + ((c >> 1) & 1), ck = k + ((c >> 2) & 1);
    const weight = (c & 1 ? fu : 1 - fu) * ((c >> 1) & 1 ? fv : 1 - fv) * ((c >> 2) & 1 ? fw : 1 - fw);
    if (weight === 0) continue;
    const p = ci + nx * (cj + ny * ck);
    const xm = ci > 0 ? p - 1 : p, xp = ci < nx - 1 ? p + 1 : p;
    const ym = cj > 0 ? p - nx : p, yp = cj < ny - 1 ? p + nx : p;
    const zm = ck > 0 ? p - nx * ny : p, zp = ck < nz - 1 ? p + nx * ny : p;
    gxs += (weight * (values[xp] - values[xm])) / (xp - xm || 1);
    gys += (weight * (values[yp] - values[ym])) / ((yp - ym) / nx || 1);
    gzs += (weight * (values[zp] - values[zm])) / ((zp - zm) / (nx * ny) || 1);
  }
  const len = Math.hypot(gxs, gys, gzs);
  if (!(len > 0)) return false;
  out[o] = gxs / len;
  out[o + 1] = gys / len;
  out[o + 2] = gzs / len;
  return true;
}
