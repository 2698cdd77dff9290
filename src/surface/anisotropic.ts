/**
 * Anisotropic kernels for the particle field, after Yu & Turk 2013, "Reconstructing Surfaces of
 * Particle-Based Fluids Using Anisotropic Kernels" (ACM TOG 32(1), §3–4). A particle's kernel is
 * stretched along the directions its neighbours spread in and squeezed across them, so a rope one
 * particle thick is made of needles along it, whose summed field stays above the iso-level where
 * round kernels' does not (the spinner's stream, a string between drops).
 *
 * Per particle i, over the particles j of its region within R = ANISO_REACH r (i included), with
 * Yu & Turk's weights w_ij = 1 − (|x_j − x_i| / R)³ (§3.2):
 * - the weighted mean x_i^w = Σ w_ij x_j / Σ w_ij and covariance
 *   C_i = Σ w_ij (x_j − x_i^w)(x_j − x_i^w)ᵀ / Σ w_ij (§3.2), and C = R diag(σ₁ ≥ σ₂ ≥ σ₃) Rᵀ
 *   (for a symmetric C its SVD; Jacobi rotations here);
 * - with N_ε or more particles in reach: σ̃_k = max(σ_k, σ₁ / k_r) (§3.2, k_r = K_R), the axes held
 *   to a ratio of k_r; with fewer (a lone particle, a pair) the kernel is round and k_n = K_N times
 *   the width (§3.2's k_n I);
 * - G_i = R diag(1 / (a_k σ)²) Rᵀ with axis lengths a_k σ, σ the isotropic Gaussian's width
 *   (output.kernelWidth) and a_k = σ̃_k / σ̃₁;
 * - the kernel centre x̄_i = (1 − λ) x_i + λ x̄_i^w (§3.3, the Laplacian smoothing of the centres;
 *   λ = CENTRE_SMOOTHING), x̄_i^w the weighted mean over SMOOTH_REACH r;
 * - particle i adds vᵢ / (a₁a₂a₃) · (exp(−½ dᵀ G_i d) − c) for dᵀ G_i d < 2.5², d = x − x̄_i: the
 *   shifted, truncated Gaussian of field.ts stretched, with the 1 / (a₁a₂a₃) of Yu & Turk's
 *   W(r, G) = σ det(G) P(‖G r‖), so that every kernel integrates to the isotropic one's interior
 *   sum and λ-matching to Σ vᵢ (particle-surface.ts) works as before.
 *
 * Where this departs from the paper, each measured (docs/decisions.md, "Anisotropic surface
 * kernels"; splashsurf, the production tool named for it, has no anisotropic kernel at its
 * current revision, so this is written from the paper):
 * - Scale: Yu & Turk multiply Σ̃ by a fixed k_s (1400 in their units) so that a full neighbourhood
 *   gives about G = I / h. Here the longest axis keeps the isotropic width (a₁ = 1): no unit-bound
 *   constant, and no kernel reaches farther than the isotropic one (lattice margins and tiles hold).
 * - Round in the bulk: a particle with at least ROUND_AT of a full neighbourhood in reach keeps
 *   the round, wide Gaussian at its own position, blended linearly down to ROUND_FROM (where the
 *   kernel is fully stretched and smoothed). On disordered particles the wide round Gaussian's
 *   surface is smoother than stretched kernels' (normals on a drop of 10 r: 5.1° against 8–12°),
 *   so broad faces keep it; ropes, sheets, rims and small drops are stretched.
 * - Films the round kernel drops stay stretched (the paper's rule, §3.2): the rounding is scaled
 *   by 1 − (1 − f)(1 − h), f from 0 at σ₃/σ₁ = FLAT_FROM to 1 at FLAT_AT (over 8 r: one layer 0.03,
 *   two 0.12, a bulk's face 0.31), h from 0 at HOLD_FROM to 1 at HOLD_AT of the round kernels' own
 *   sum at the particle over the interior sum (one layer 0.42, two 0.67; λ ≈ 0.5). docs/decisions.md, coat69.
 * - R = 8 r is twice the engine's density support 4 r (the paper's r_i = 2 h_i); the centres are
 *   smoothed over 4 r with λ = 0.7 and k_r = 3: over 8 r, or with λ = 0.9 and k_r = 4, the centres
 *   of a rope two particles thick gather on its axis and its tube is half its particles' volume.
 * - N_ε = 5: the paper's 25 (a tenth of a full neighbourhood) leaves a rope one particle thick,
 *   7 in reach at spacing 2 r, round.
 *
 * The field is not separable, so splatting walks each lattice row inside the ellipsoid with the
 * Gaussian's ratio recurrence (two exponentials a row, two products a point). Each row starts at
 * its global lattice index, so lattice pieces that share samples (tiles.ts) compute them bit for
 * bit alike. No allocation per particle: the 3×3 solver works on module scratch.
 */
import { HashGrid } from '../spatial/hash-grid.ts';
import { regionPositions } from './adaptive.ts';
import { CUTOFF_SIGMAS, gaussianKernel, splatParticles, type Kernel } from './field.ts';
import type { Lattice } from './polygonizer.ts';

/** Neighbourhood radius of the covariance, particle radii. */
export const ANISO_REACH = 8;
/** Largest ratio of a kernel's longest axis to its shortest (Yu & Turk's k_r). */
export const K_R = 3;
/** Width of a sparse particle's round kernel, in isotropic widths (Yu & Turk's k_n). */
export const K_N = 0.5;
/** Fewest particles in reach (itself included) for a stretched kernel (Yu & Turk's N_ε). */
export const N_EPS = 5;
/** Fractions of a full neighbourhood (the rest lattice's count in reach) where kernels start to round, and are round. */
export const ROUND_FROM = 0.15, ROUND_AT = 0.3;
/** σ₃ / σ₁ and the round kernels' own sum over the interior sum under which a film stays stretched (header). */
export const FLAT_FROM = 0.2, FLAT_AT = 0.3, HOLD_FROM = 0.5, HOLD_AT = 0.6;
export const SMOOTH_REACH = 4; // radius of the centres' weighted mean, particle radii
/** Laplacian smoothing of the kernel centres (Yu & Turk's λ). */
export const CENTRE_SMOOTHING = 0.7;

/** Per-particle kernels, indexed like the particle positions. */
export interface AnisotropicKernels {
  centres: Float64Array; // x̄ᵢ, 3 per particle
  /** G / σ² packed as xx, yy, zz, xy, xz, yz (6 per particle): dᵀ G d in units of σ². */
  form: Float64Array;
  /** Half-extent of the kernel's support box along x, y, z (3 per particle), m. */
  extent: Float64Array;
  /** 1 / (a₁a₂a₃): keeps each kernel's integral that of the isotropic Gaussian. */
  weight: Float64Array;
  /** 1 where the kernel is the round isotropic one at the particle (splatted separably). */
  round: Uint8Array;
}

export interface AnisotropyParams {
  reach?: number;
  /** Radius of the centre smoothing's weighted mean, particle radii. */
  smoothReach?: number;
  /** Fractions of a full neighbourhood's count between which kernels blend from stretched to round (0, 0: never round). */
  roundFrom?: number; roundAt?: number;
  /** FLAT_FROM / FLAT_AT (0, 0: the count alone) and HOLD_FROM / HOLD_AT (0, 0: every film stretched). */
  flatFrom?: number; flatAt?: number; holdFrom?: number; holdAt?: number;
  kr?: number; kn?: number; nEps?: number; smoothing?: number;
}

export function allocKernels(count: number): AnisotropicKernels {
  return { centres: new Float64Array(3 * count), form: new Float64Array(6 * count), extent: new Float64Array(3 * count), weight: new Float64Array(count), round: new Uint8Array(count) };
}

// Scratch of the 3×3 eigen-solver: matrix (row-major) and eigenvectors (columns).
const A = new Float64Array(9), V = new Float64Array(9), eig = new Float64Array(3), axis = new Int32Array(3);

/**
 * Eigenvalues (eig) and eigenvectors (columns of V) of the symmetric 3×3 matrix in A, by cyclic
 * Jacobi rotations; A is destroyed. Sorted descending into `axis` (indices of eig / V's columns).
 */
function symmetricEigen(): void {
  V.fill(0);
  V[0] = V[4] = V[8] = 1;
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    const diag = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
    if (off <= 1e-24 * diag || off === 0) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        const apq = A[3 * p + q];
        if (apq === 0) continue;
        const app = A[4 * p], aqq = A[4 * q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < 3; k++) {
          // Columns p, q of A (then rows, by symmetry).
          const akp = A[3 * k + p], akq = A[3 * k + q];
          A[3 * k + p] = c * akp - s * akq;
          A[3 * k + q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = A[3 * p + k], aqk = A[3 * q + k];
          A[3 * p + k] = c * apk - s * aqk;
          A[3 * q + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = V[3 * k + p], vkq = V[3 * k + q];
          V[3 * k + p] = c * vkp - s * vkq;
          V[3 * k + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  eig[0] = A[0]; eig[1] = A[4]; eig[2] = A[8];
  axis[0] = 0; axis[1] = 1; axis[2] = 2;
  for (let a = 0; a < 2; a++) {
    for (let b = a + 1; b < 3; b++) {
      if (eig[axis[b]] > eig[axis[a]]) {
        const t = axis[a];
        axis[a] = axis[b];
        axis[b] = t;
      }
    }
  }
}

/** Exported for the tests: eigenvalues, descending, of a symmetric matrix (xx, yy, zz, xy, xz, yz). */
export function eigenvaluesOf(m: ArrayLike<number>): [number, number, number] {
  A[0] = m[0]; A[4] = m[1]; A[8] = m[2];
  A[1] = A[3] = m[3]; A[2] = A[6] = m[4]; A[5] = A[7] = m[5];
  symmetricEigen();
  return [eig[axis[0]], eig[axis[1]], eig[axis[2]]];
}

/**
 * Eigenvalues, descending, into vals[0..3) and their unit eigenvectors into vecs (vecs[3k .. 3k + 3)
 * the k-th) of a symmetric matrix (xx, yy, zz, xy, xz, yz): the particle engine's sheet test
 * (particle/sheet-shift.ts) reads a neighbourhood's principal axes with it.
 */
export function eigenSystemOf(m: ArrayLike<number>, vals: Float64Array, vecs: Float64Array): void {
  A[0] = m[0]; A[4] = m[1]; A[8] = m[2];
  A[1] = A[3] = m[3]; A[2] = A[6] = m[4]; A[5] = A[7] = m[5];
  symmetricEigen();
  for (let k = 0; k < 3; k++) {
    const c = axis[k];
    vals[k] = eig[c];
    vecs[3 * k] = V[c]; vecs[3 * k + 1] = V[3 + c]; vecs[3 * k + 2] = V[6 + c];
  }
}

/**
 * Fills `out` for the particles members[from .. to) (each a region's particles only: the grid
 * holds that region, so other regions do not count as neighbours). `sigma` is the isotropic width.
 */
export function anisotropicKernels(
  positions: ArrayLike<number>,
  members: Int32Array,
  from: number,
  to: number,
  r: number,
  sigma: number,
  out: AnisotropicKernels,
  params: AnisotropyParams = {},
): void {
  const reach = (params.reach ?? ANISO_REACH) * r, reach2 = reach * reach, inv3 = 1 / (reach * reach * reach);
  const kr = params.kr ?? K_R, kn = params.kn ?? K_N, nEps = params.nEps ?? N_EPS, lambda = params.smoothing ?? CENTRE_SMOOTHING;
  const smoothR = Math.min(params.smoothReach ?? SMOOTH_REACH, params.reach ?? ANISO_REACH) * r;
  const smooth2 = smoothR * smoothR, invS3 = 1 / (smoothR * smoothR * smoothR);
  // A full neighbourhood on the rest lattice (spacing 2 r): the ball's volume over (2 r)³.
  const full = ((4 / 3) * Math.PI * reach2 * Math.sqrt(reach2)) / (8 * r * r * r);
  const roundFrom = (params.roundFrom ?? ROUND_FROM) * full, roundAt = (params.roundAt ?? ROUND_AT) * full;
  const flatFrom = params.flatFrom ?? FLAT_FROM, flatAt = params.flatAt ?? FLAT_AT, holdFrom = params.holdFrom ?? HOLD_FROM, holdAt = params.holdAt ?? HOLD_AT;
  const roundKernelOf = gaussianKernel(sigma), interior = roundKernelOf.interiorSum, holdShift = roundKernelOf.shift;
  const hold2 = roundKernelOf.cutoff * roundKernelOf.cutoff, holdInv = 1 / (2 * sigma * sigma), vol = 8 * r * r * r;
  const n = to - from;
  const local = regionPositions(positions, members, from, to);
  const grid = new HashGrid(reach);
  grid.build(local, n);
  const cells = new Int32Array(27);
  const { centres, form, extent, weight } = out;
  const C = CUTOFF_SIGMAS * sigma;
  for (let cell = 0; cell < grid.cellCount; cell++) {
    const k = grid.neighborCells(cell, cells, 1);
    for (let s0 = grid.start[cell], e0 = s0 + grid.count[cell]; s0 < e0; s0++) {
      const m = grid.order[s0];
      const x = local[3 * m], y = local[3 * m + 1], z = local[3 * m + 2];
      // Σw, Σw d, Σw d dᵀ with d = x_j − x_i (relative, for precision).
      let sw = 0, mx = 0, my = 0, mz = 0, cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0, count = 0;
      let tw = 0, tx = 0, ty = 0, tz = 0;
      for (let q = 0; q < k; q++) {
        const nc = cells[q];
        for (let s = grid.start[nc], e = s + grid.count[nc]; s < e; s++) {
          const o = 3 * grid.order[s];
          const dx = local[o] - x, dy = local[o + 1] - y, dz = local[o + 2] - z;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= reach2) continue;
          const w = 1 - d2 * Math.sqrt(d2) * inv3;
          sw += w;
          mx += w * dx; my += w * dy; mz += w * dz;
          cxx += w * dx * dx; cyy += w * dy * dy; czz += w * dz * dz;
          cxy += w * dx * dy; cxz += w * dx * dz; cyz += w * dy * dz;
          count++;
          if (d2 < smooth2) {
            const ws = 1 - d2 * Math.sqrt(d2) * invS3;
            tw += ws;
            tx += ws * dx; ty += ws * dy; tz += ws * dz;
          }
        }
      }
      const p = members[from + m];
      const inv = 1 / sw;
      mx *= inv; my *= inv; mz *= inv;
      // round: 0 stretched … 1 the isotropic kernel at the particle.
      let round = roundAt > roundFrom ? Math.min(1, Math.max(0, (count - roundFrom) / (roundAt - roundFrom))) : 0;
      const stretchable = count >= nEps;
      if (stretchable) {
        A[0] = cxx * inv - mx * mx; A[4] = cyy * inv - my * my; A[8] = czz * inv - mz * mz;
        A[1] = A[3] = cxy * inv - mx * my;
        A[2] = A[6] = cxz * inv - mx * mz;
        A[5] = A[7] = cyz * inv - my * mz;
        // A film the round kernels would drop keeps its flattened kernel (header); a kernel the count
        // rounds in a neighbourhood clearly not flat (closed-form σ₃/σ₁) needs no Jacobi solve.
        const gate = round > 0 && flatAt > flatFrom && !(round === 1 && flatness() >= flatAt);
        if (gate || round < 1) symmetricEigen();
        if (gate) {
          const s1 = eig[axis[0]], flat = s1 > 0 ? eig[axis[2]] / s1 : 1;
          const notFlat = Math.min(1, Math.max(0, (flat - flatFrom) / (flatAt - flatFrom)));
          // The round kernels' own sum at the particle over the interior sum (films only: a second pass).
          let held = 0;
          if (notFlat < 1 && holdAt > holdFrom) for (let q = 0; q < k; q++) held += heldSum(local, grid, cells[q], x, y, z, hold2, holdInv, holdShift);
          const holds = holdAt > holdFrom ? Math.min(1, Math.max(0, ((held * vol) / interior - holdFrom) / (holdAt - holdFrom))) : 0;
          round *= 1 - (1 - notFlat) * (1 - holds);
        }
      }
      if (round === 1) {
        roundKernel(out, p, x, y, z, C);
        continue;
      }
      out.round[p] = 0;
      const lam = lambda * (1 - round);
      centres[3 * p] = x + (lam * tx) / tw;
      centres[3 * p + 1] = y + (lam * ty) / tw;
      centres[3 * p + 2] = z + (lam * tz) / tw;
      const f = 6 * p, g = 3 * p;
      if (!stretchable) {
        // Round, k_n times the width: G = I / (k_n σ)², in units of σ².
        const a2 = 1 / (kn * kn);
        form[f] = form[f + 1] = form[f + 2] = a2;
        form[f + 3] = form[f + 4] = form[f + 5] = 0;
        extent[g] = extent[g + 1] = extent[g + 2] = kn * C;
        weight[p] = 1 / (kn * kn * kn);
        continue;
      }
      const s1 = eig[axis[0]];
      if (!(s1 > 0)) {
        form[f] = form[f + 1] = form[f + 2] = 1;
        form[f + 3] = form[f + 4] = form[f + 5] = 0;
        extent[g] = extent[g + 1] = extent[g + 2] = C;
        weight[p] = 1;
        continue;
      }
      let gxx = 0, gyy = 0, gzz = 0, gxy = 0, gxz = 0, gyz = 0, exx = 0, eyy = 0, ezz = 0, prod = 1;
      for (let a = 0; a < 3; a++) {
        const c = axis[a];
        const stretched = Math.max(eig[c], s1 / kr) / s1;
        const ak = stretched + round * (1 - stretched);
        prod *= ak;
        const ia2 = 1 / (ak * ak), ak2 = ak * ak;
        const ux = V[c], uy = V[3 + c], uz = V[6 + c];
        gxx += ia2 * ux * ux; gyy += ia2 * uy * uy; gzz += ia2 * uz * uz;
        gxy += ia2 * ux * uy; gxz += ia2 * ux * uz; gyz += ia2 * uy * uz;
        // G⁻¹'s diagonal: the support box of the ellipsoid dᵀ G d ≤ C².
        exx += ak2 * ux * ux; eyy += ak2 * uy * uy; ezz += ak2 * uz * uz;
      }
      form[f] = gxx; form[f + 1] = gyy; form[f + 2] = gzz;
      form[f + 3] = gxy; form[f + 4] = gxz; form[f + 5] = gyz;
      extent[g] = C * Math.sqrt(exx);
      extent[g + 1] = C * Math.sqrt(eyy);
      extent[g + 2] = C * Math.sqrt(ezz);
      weight[p] = 1 / prod;
    }
  }
}

/** σ₃ / σ₁ of the symmetric matrix in A, in closed form (the trigonometric solution of its cubic); A is kept. */
function flatness(): number {
  const q = (A[0] + A[4] + A[8]) / 3, off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
  const a = A[0] - q, b = A[4] - q, c = A[8] - q, pp = Math.sqrt((a * a + b * b + c * c + 2 * off) / 6);
  if (!(pp > 0)) return 1;
  const det = (a * (b * c - A[5] * A[5]) - A[1] * (A[1] * c - A[5] * A[2]) + A[2] * (A[1] * A[5] - b * A[2])) / (pp * pp * pp);
  const phi = Math.acos(Math.min(1, Math.max(-1, det / 2))) / 3, s1 = q + 2 * pp * Math.cos(phi);
  return s1 > 0 ? (q + 2 * pp * Math.cos(phi + (2 * Math.PI) / 3)) / s1 : 1; // Smith 1961, CACM 4(4)
}

function heldSum(local: Float64Array, grid: HashGrid, cell: number, x: number, y: number, z: number, r2: number, inv: number, shift: number): number {
  let sum = 0;
  for (let s = grid.start[cell], e = s + grid.count[cell], o = 0, d2 = 0; s < e; s++) if ((d2 = (local[(o = 3 * grid.order[s])] - x) ** 2 + (local[o + 1] - y) ** 2 + (local[o + 2] - z) ** 2) < r2) sum += Math.exp(-d2 * inv) - shift;
  return sum;
}

function roundKernel(out: AnisotropicKernels, p: number, x: number, y: number, z: number, C: number): void {
  out.centres[3 * p] = x;
  out.centres[3 * p + 1] = y;
  out.centres[3 * p + 2] = z;
  out.form[6 * p] = out.form[6 * p + 1] = out.form[6 * p + 2] = 1;
  out.form[6 * p + 3] = out.form[6 * p + 4] = out.form[6 * p + 5] = 0;
  out.extent[3 * p] = out.extent[3 * p + 1] = out.extent[3 * p + 2] = C;
  out.weight[p] = 1;
  out.round[p] = 1;
}

let roundList = new Int32Array(0), stretchedList = new Int32Array(0);

/**
 * Splats members[from .. to): round kernels through the separable Gaussian (field.ts), stretched
 * ones through splatAnisotropic, each in the members' order.
 */
export function splatKernels(
  lattice: Lattice,
  kernel: Kernel,
  kernels: AnisotropicKernels,
  volumes: ArrayLike<number> | null | undefined,
  defaultVolume: number,
  members: Int32Array,
  from: number,
  to: number,
): void {
  const n = to - from;
  if (roundList.length < n) {
    roundList = new Int32Array(n);
    stretchedList = new Int32Array(n);
  }
  let a = 0, b = 0;
  for (let m = from; m < to; m++) {
    const p = members[m];
    if (kernels.round[p]) roundList[a++] = p;
    else stretchedList[b++] = p;
  }
  splatParticles(lattice, kernel, kernels.centres, volumes, defaultVolume, roundList, 0, a);
  splatAnisotropic(lattice, kernel, kernels, volumes, defaultVolume, stretchedList, 0, b);
}

/** The kernels of members[from .. to) copied to local indices 0 .. to − from (for tiles.ts). */
export function localKernels(k: AnisotropicKernels, members: Int32Array, from: number, to: number): AnisotropicKernels {
  const n = to - from, out = allocKernels(n);
  for (let m = 0; m < n; m++) {
    const p = members[from + m];
    for (let a = 0; a < 3; a++) {
      out.centres[3 * m + a] = k.centres[3 * p + a];
      out.extent[3 * m + a] = k.extent[3 * p + a];
    }
    for (let a = 0; a < 6; a++) out.form[6 * m + a] = k.form[6 * p + a];
    out.weight[m] = k.weight[p];
    out.round[m] = k.round[p];
  }
  return out;
}

/**
 * Adds each particle's stretched kernel vᵢ / (a₁a₂a₃) · (exp(−½ dᵀ G d) − c) to the lattice, for
 * members[from .. to). `volumes` may be null (then every particle has `defaultVolume`).
 */
export function splatAnisotropic(
  lattice: Lattice,
  kernel: Kernel,
  kernels: AnisotropicKernels,
  volumes: ArrayLike<number> | null | undefined,
  defaultVolume: number,
  members: Int32Array,
  from: number,
  to: number,
): void {
  const { nx, ny, nz, spacing: h, values } = lattice;
  const [ox, oy, oz] = lattice.origin;
  const [bx, by, bz] = lattice.base ?? [0, 0, 0];
  const sx = lattice.base ? 0 : ox, sy = lattice.base ? 0 : oy, sz = lattice.base ? 0 : oz;
  const { centres, form, extent, weight } = kernels;
  const c = kernel.shift, inv2 = 1 / (kernel.sigma * kernel.sigma), C2 = CUTOFF_SIGMAS * CUTOFF_SIGMAS;
  const nxy = nx * ny;
  for (let m = from; m < to; m++) {
    const p = members[m];
    const px = centres[3 * p], py = centres[3 * p + 1], pz = centres[3 * p + 2];
    // q(d) = dᵀ G d / σ²: the Gaussian is exp(−q / 2), the support q < C².
    const f = 6 * p;
    const gxx = form[f] * inv2, gyy = form[f + 1] * inv2, gzz = form[f + 2] * inv2;
    const gxy = form[f + 3] * inv2, gxz = form[f + 4] * inv2, gyz = form[f + 5] * inv2;
    const v = (volumes ? volumes[p] : defaultVolume) * weight[p];
    const Ry = extent[3 * p + 1], Rz = extent[3 * p + 2];
    // Global lattice indices (sample at s + h·g), clipped to this lattice.
    const j0 = Math.max(by, Math.ceil((py - Ry - sy) / h)), j1 = Math.min(by + ny - 1, Math.floor((py + Ry - sy) / h));
    const k0 = Math.max(bz, Math.ceil((pz - Rz - sz) / h)), k1 = Math.min(bz + nz - 1, Math.floor((pz + Rz - sz) / h));
    const step = Math.exp(-gxx * h * h);
    for (let gk = k0; gk <= k1; gk++) {
      const dz = sz + h * gk - pz;
      for (let gj = j0; gj <= j1; gj++) {
        const dy = sy + h * gj - py;
        // Row: q(dx) = gxx dx² + 2 b dx + q0; inside where q < C².
        const b = gxy * dy + gxz * dz;
        const q0 = gyy * dy * dy + gzz * dz * dz + 2 * gyz * dy * dz;
        const disc = b * b - gxx * (q0 - C2);
        if (disc <= 0) continue;
        const root = Math.sqrt(disc);
        const g0 = Math.ceil((px + (-b - root) / gxx - sx) / h), g1 = Math.floor((px + (-b + root) / gxx - sx) / h);
        if (g1 < g0 || g0 > bx + nx - 1 || g1 < bx) continue;
        const dx0 = sx + h * g0 - px;
        // w(g + 1) = w(g) · ρ(g), ρ(g + 1) = ρ(g) · exp(−gxx h²).
        let w = Math.exp(-0.5 * (gxx * dx0 * dx0 + 2 * b * dx0 + q0));
        let ratio = Math.exp(-0.5 * (gxx * (2 * dx0 * h + h * h) + 2 * b * h));
        const row = nx * (gj - by) + nxy * (gk - bz) - bx;
        const last = Math.min(g1, bx + nx - 1);
        for (let g = g0; g <= last; g++) {
          if (g >= bx) {
            const wc = w - c;
            if (wc > 0) values[row + g] += v * wc;
          }
          w *= ratio;
          ratio *= step;
        }
      }
    }
  }
}
