/**
 * A mesh from particles (Steele et al. 2004, "Rendering"): per region, the Gaussian field sampled
 * on a lattice of spacing output.resolution × r (dense over the region's bounds, or on sparse tiles
 * when those bounds are large), polygonized, then normals and colours from the particles near
 * each vertex. Unless output.lambda is given, λ is matched per region so that the mesh encloses
 * the particles' volume Σ vᵢ (matchVolume): the paper's half-interior-sum λ is exact only for a
 * flat interface and shrinks drops and strings by about σ² × mean curvature. Vertex normals are
 * the field's gradient (output.normals "field"), which is as smooth as the surface it bounds;
 * the paper's average of nearby surface-particle normals ("particles") carries the particles'
 * noise into the shading (bench/surface-normals.bench.ts). Defaults (σ = 2.2 r, matched λ, thin
 * kernels 1.5 r, field normals) were chosen by bench/surface-quality.bench.ts and
 * bench/surface-normals.bench.ts.
 *
 * The kernel (output.surfaceKernel): "anisotropic" (default) stretches each particle's Gaussian
 * along its neighbours' spread near thin features (anisotropic.ts, Yu & Turk 2013), so that a rope
 * one particle thick between two drops is one tube where the round kernels drop it; "isotropic"
 * is the round Gaussian with the narrower thin-feature widths of adaptive.ts (Steele et al. 2004).
 * Figures: docs/decisions.md, "Anisotropic surface kernels".
 */
import type { Mesh } from '../types/geometry.ts';
import type { OutputSettings } from '../scene/schema.ts';
import { vertexAttributes } from './attributes.ts';
import { gaussianKernel, latticeNormal, latticeOver, normaliseField, splatParticles } from './field.ts';
import { polygonizers, type Lattice, type PolygonizerName, type PolyMesh } from './polygonizer.ts';
import { marchingCubes, type AmbiguousFaces } from './marching-cubes.ts';
import { groupByRegion, separatedRegions, sortSpatially } from './regions.ts';
import { adaptiveWidths } from './adaptive.ts';
import { allocKernels, anisotropicKernels, splatKernels, type AnisotropicKernels, type AnisotropyParams } from './anisotropic.ts';
import { taubinSmooth } from './smooth.ts';
import { tiledParticleField } from './tiles.ts';

export interface ParticleSurfaceInput {
  count: number;
  /** xyz per particle, m. */
  positions: Float32Array | Float64Array;
  /** Particle radius r, m. */
  radius: number;
  /** vᵢ per particle, m³ (default (2r)³, the rest lattice's cell). */
  volumes?: Float32Array;
  /** rgb per particle in 0..1. */
  colors?: Float32Array;
  /** Unit normals of surface particles, zero elsewhere. */
  normals?: Float32Array;
  /** 1 for surface particles. */
  surface?: Uint8Array;
  /** Connected region per particle (given by the caller); negative: left out. */
  regions?: Int32Array;
  regionCount?: number;
}

/** Milliseconds per stage of the last call, filled when passed in SurfaceOptions. */
export interface SurfaceTimings {
  sampling: number;
  polygonize: number;
  attributes: number;
  regions: number;
}

export interface SurfaceOptions {
  /** Overrides output.polygonizer; also reaches the `isosurface` package's marching cubes. */
  polygonizer?: PolygonizerName;
  timings?: SurfaceTimings;
  /**
   * A region whose bounding lattice has more points than this is sampled on sparse tiles
   * (tiles.ts) instead of one dense lattice; typed marching cubes only. Default 2²² points.
   */
  denseLimit?: number;
  /**
   * Per region, move λ so that the mesh encloses the particles' volume Σ vᵢ (default: on when
   * output.lambda is absent). A wide kernel otherwise pulls the surface in by about σ²·(mean
   * curvature) — small drops shrink and thin strings vanish. Dense lattices only.
   */
  volumeMatch?: boolean;
  /** Width of the Gaussian averaging surface-particle normals, particle radii (default NORMAL_WIDTH). */
  normalWidth?: number;
  /**
   * The colours' Gaussian, particle radii: σ in the surface's tangent plane (default COLOUR_ALONG)
   * and along its normal (default COLOUR_ACROSS); attributes.ts.
   */
  colourAlong?: number;
  colourAcross?: number;
  /** Overrides output.normals: vertex normals from the field's gradient or from the surface particles. */
  normals?: VertexNormals;
  /**
   * Narrowest kernel width, particle radii, given to particles with few neighbours (thin strings,
   * small drops; adaptive.ts); at or above output.kernelWidth (or 0): one width for all. Default
   * THIN_WIDTH. Isotropic kernel only.
   */
  thinWidth?: number;
  /** Taubin λ|μ pass pairs applied to the mesh (default SMOOTHING_PASSES; 0: none). */
  smoothing?: number;
  /**
   * Typed marching cubes' rule for a cell face whose inside corners lie on a diagonal (default
   * "join": a sheet about one lattice spacing thick stays whole; "separate": the rule before,
   * for measurements; marching-cubes.ts).
   */
  ambiguousFaces?: AmbiguousFaces;
  /** Overrides output.surfaceKernel. */
  kernel?: SurfaceKernel;
  /** Overrides the anisotropic kernels' constants (anisotropic.ts; measurements). */
  anisotropy?: AnisotropyParams;
}

export type SurfaceKernel = NonNullable<OutputSettings['surfaceKernel']>;

/** The kernel when output.surfaceKernel is absent (the schema's default). */
export const DEFAULT_SURFACE_KERNEL: SurfaceKernel = 'anisotropic';

/** Default narrowest adaptive kernel width, particle radii. */
export const THIN_WIDTH = 1.5;

/** Default Taubin smoothing passes (smooth.ts). */
export const SMOOTHING_PASSES = 0;

/** Default Gaussian width of the vertex-attribute filter, particle radii (Steele: "a much smaller kernel"). */
export const NORMAL_WIDTH = 1.5;
/**
 * Default σ of the colours' Gaussian in the surface's tangent plane, particle radii: 1.5 spacings,
 * so that one particle of another paint in a coat is a tint over about three spacings, not a spot.
 */
export const COLOUR_ALONG = 3;
/**
 * Default σ of the colours' Gaussian along the surface's normal, particle radii: the surface's
 * outer layer of particles (about r beneath a flat face) weighs exp(−1/2), the layer beneath it
 * (about 3 r) exp(−9/2), a fiftieth as much. Figures: docs/decisions.md, "A thin coat reads its
 * own paint".
 */
export const COLOUR_ACROSS = 1;
/** Relative volume error at which volume matching stops. */
export const VOLUME_TOLERANCE = 0.01;

export type VertexNormals = OutputSettings['normals'];

export type OutputLike = Pick<OutputSettings, 'resolution' | 'polygonizer' | 'kernelWidth' | 'colors'> & { lambda?: number; normals?: VertexNormals; surfaceKernel?: SurfaceKernel };


export function particleSurface(input: ParticleSurfaceInput, output: OutputLike, options: SurfaceOptions = {}): Mesh {
  const { count, positions, radius: r } = input;
  if (!(r > 0)) throw new Error(`particle radius must be positive, got ${r}`);
  if (positions.length < 3 * count) throw new Error(`${count} particles need ${3 * count} coordinates, got ${positions.length}`);
  for (let i = 0; i < 3 * count; i++) {
    if (!Number.isFinite(positions[i])) throw new Error(`particle ${Math.floor(i / 3)} has a non-finite coordinate (${positions[i]})`);
  }
  const h = output.resolution * r;
  const kernel = gaussianKernel(output.kernelWidth * r);
  const lambda = output.lambda ?? kernel.interiorSum / 2;
  const defaultVolume = 8 * r * r * r;
  const polygonizer = options.polygonizer ?? output.polygonizer;
  // Typed marching cubes joins the inside corners of an ambiguous face here: a thin sheet stays whole.
  const ambiguous = options.ambiguousFaces ?? 'join';
  const polygonize = polygonizer === 'marching-cubes' ? (lattice: Lattice) => marchingCubes(lattice, ambiguous) : polygonizers[polygonizer];
  const timings = options.timings;
  let t0 = performance.now();

  let regionOf: Int32Array, regionCount: number;
  if (input.regions) {
    regionOf = input.regions;
    regionCount = input.regionCount ?? 0;
    for (let p = 0; p < count; p++) regionCount = Math.max(regionCount, regionOf[p] + 1);
  } else {
    ({ regionOf, count: regionCount } = separatedRegions(positions, count, 2 * kernel.cutoff));
  }
  const groups = groupByRegion(regionOf, count, regionCount);
  let t1 = performance.now();
  if (timings) {
    timings.regions = t1 - t0;
    timings.sampling = timings.polygonize = timings.attributes = 0;
  }

  const anisotropic = (options.kernel ?? output.surfaceKernel ?? DEFAULT_SURFACE_KERNEL) === 'anisotropic';
  const thin = (options.thinWidth ?? THIN_WIDTH) * r;
  const sigmas = !anisotropic && thin > 0 && thin < kernel.sigma ? new Float64Array(count) : null;
  const stretched: AnisotropicKernels | null = anisotropic ? allocKernels(count) : null;
  // Kernel centres: the particles, or the anisotropic kernels' smoothed centres.
  const centres = stretched ? stretched.centres : positions;
  const pieces: PolyMesh[] = [];
  const gradients: Float32Array[] = [];
  const min = [0, 0, 0], max = [0, 0, 0];
  for (let g = 0; g < groups.count; g++) {
    const from = groups.start[g], to = groups.start[g + 1];
    if (to === from) continue;
    t0 = performance.now();
    sortSpatially(positions, groups.members, from, to, 2 * h);
    if (stretched) anisotropicKernels(positions, groups.members, from, to, r, kernel.sigma, stretched, options.anisotropy);
    min.fill(Infinity);
    max.fill(-Infinity);
    for (let m = from; m < to; m++) {
      const p = groups.members[m];
      for (let a = 0; a < 3; a++) {
        const x = centres[3 * p + a];
        if (x < min[a]) min[a] = x;
        if (x > max[a]) max[a] = x;
      }
    }
    if (sigmas) adaptiveWidths(positions, groups.members, from, to, r, kernel.sigma, thin, sigmas, input.surface);
    // One spacing beyond the kernel's reach, so the lattice border is outside (f = λ).
    const margin = kernel.cutoff + h;
    let points = 1;
    for (let a = 0; a < 3; a++) points *= Math.ceil((max[a] + margin) / h) - Math.floor((min[a] - margin) / h) + 1;
    if (points > (options.denseLimit ?? 2 ** 22) && polygonizer === 'marching-cubes') {
      const tiled = tiledParticleField(kernel, lambda, h, positions, input.volumes, defaultVolume, groups.members, from, to, sigmas, stretched, ambiguous);
      if (timings) timings.sampling += performance.now() - t0;
      pieces.push(tiled);
      gradients.push(tiled.normals);
      continue;
    }
    const lattice = latticeOver(min, max, margin, h);
    if (stretched) splatKernels(lattice, kernel, stretched, input.volumes, defaultVolume, groups.members, from, to);
    else splatParticles(lattice, kernel, positions, input.volumes, defaultVolume, groups.members, from, to, sigmas);
    t1 = performance.now();
    let piece: PolyMesh;
    if (options.volumeMatch ?? output.lambda === undefined) {
      let target = 0;
      if (input.volumes) for (let m = from; m < to; m++) target += input.volumes[groups.members[m]];
      else target = (to - from) * defaultVolume;
      piece = matchVolume(lattice, lambda, target, polygonize);
    } else {
      normaliseField(lattice, lambda);
      piece = polygonize(lattice);
    }
    const t2 = performance.now();
    const nv = piece.positions.length / 3;
    const grad = new Float32Array(3 * nv);
    for (let v = 0; v < nv; v++) {
      const x = piece.positions[3 * v], y = piece.positions[3 * v + 1], z = piece.positions[3 * v + 2];
      if (!latticeNormal(lattice, x, y, z, grad, 3 * v)) grad[3 * v + 1] = 1;
    }
    const t3 = performance.now();
    if (timings) {
      timings.sampling += t1 - t0;
      timings.polygonize += t2 - t1;
      timings.attributes += t3 - t2;
    }
    pieces.push(piece);
    gradients.push(grad);
  }

  t0 = performance.now();
  const mesh = concatenate(pieces, gradients);
  taubinSmooth(mesh.positions, mesh.indices, options.smoothing ?? SMOOTHING_PASSES);
  const vertexCount = mesh.positions.length / 3;
  const colors = output.colors && input.colors ? new Float32Array(3 * vertexCount) : null;
  const particleNormals = (options.normals ?? output.normals ?? 'field') === 'particles' ? input.normals : undefined;
  if (vertexCount > 0) {
    vertexAttributes(
      { count, positions, normals: particleNormals, surface: input.surface, colors: input.colors },
      mesh.positions,
      vertexCount,
      (options.normalWidth ?? NORMAL_WIDTH) * r,
      mesh.normals,
      colors,
      { along: (options.colourAlong ?? COLOUR_ALONG) * r, across: (options.colourAcross ?? COLOUR_ACROSS) * r },
    );
  }
  if (colors) mesh.colors = colors;
  if (timings) timings.attributes += performance.now() - t0;
  return mesh;
}

/** One mesh from per-region pieces; `normals` are per-vertex arrays matching the pieces. */
export function concatenate(pieces: PolyMesh[], normals: Float32Array[]): Mesh {
  let nv = 0, ni = 0;
  for (const p of pieces) {
    nv += p.positions.length / 3;
    ni += p.indices.length;
  }
  const mesh: Mesh = { positions: new Float32Array(3 * nv), normals: new Float32Array(3 * nv), indices: new Uint32Array(ni) };
  let v = 0, i = 0;
  for (let q = 0; q < pieces.length; q++) {
    const p = pieces[q];
    mesh.positions.set(p.positions, 3 * v);
    mesh.normals.set(normals[q], 3 * v);
    for (let t = 0; t < p.indices.length; t++) mesh.indices[i + t] = p.indices[t] + v;
    v += p.positions.length / 3;
    i += p.indices.length;
  }
  return mesh;
}

/** Signed volume enclosed by a polygonizer's mesh (divergence theorem). */
export function meshVolume(mesh: { positions: ArrayLike<number>; indices: ArrayLike<number> }): number {
  const P = mesh.positions, I = mesh.indices;
  let v = 0;
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2];
    v += P[a] * (P[b + 1] * P[c + 2] - P[b + 2] * P[c + 1]) - P[a + 1] * (P[b] * P[c + 2] - P[b + 2] * P[c]) + P[a + 2] * (P[b] * P[c + 1] - P[b + 1] * P[c]);
  }
  return v / 6;
}

const BINS = 2048;
const histogram = new Float64Array(BINS + 1);

/**
 * Polygonizes the raw sums S in `lattice` at the λ whose surface encloses `target` (within
 * VOLUME_TOLERANCE, at most 4 polygonizations), leaving f/λ = 1 − S/λ in the lattice. The first
 * guess corrects λ₀'s mesh volume by the change in the count of lattice points with S > λ (a
 * histogram of S); then secant steps on the mesh volume. λ stays within [λ₀/50, 2λ₀].
 */
export function matchVolume(lattice: Lattice, lambda0: number, target: number, polygonize: (l: Lattice) => PolyMesh): PolyMesh {
  const raw = lattice.values.slice();
  const values = lattice.values;
  const at = (lambda: number): PolyMesh => {
    const inv = 1 / lambda;
    for (let i = 0; i < raw.length; i++) {
      const f = 1 - raw[i] * inv;
      values[i] = f < -1 ? -1 : f;
    }
    return polygonize(lattice);
  };
  let piece = at(lambda0);
  let v0 = meshVolume(piece);
  if (!(target > 0) || Math.abs(v0 / target - 1) < VOLUME_TOLERANCE) return piece;
  let top = 0;
  for (let i = 0; i < raw.length; i++) if (raw[i] > top) top = raw[i];
  if (!(top > 0)) return piece;
  // Histogram of S over [0, top]; cells[b] = points with S in bin b.
  histogram.fill(0);
  const scale = BINS / top;
  for (let i = 0; i < raw.length; i++) if (raw[i] > 0) histogram[Math.min(BINS - 1, Math.floor(raw[i] * scale))]++;
  const cell = lattice.spacing ** 3;
  // Volume by count above level L (linear within a bin).
  const countAbove = (L: number): number => {
    const x = Math.min(BINS, Math.max(0, L * scale)), b = Math.floor(x);
    let n = b < BINS ? histogram[b] * (1 - (x - b)) : 0;
    for (let q = b + 1; q < BINS; q++) n += histogram[q];
    return n * cell;
  };
  const lo = lambda0 / 50, hi = Math.min(2 * lambda0, 0.999 * top);
  // Find L with countAbove(L) = countAbove(λ₀) + (target − v0), by bisection (countAbove decreases).
  const want = countAbove(lambda0) + (target - v0);
  let a = lo, b = hi;
  for (let it = 0; it < 40; it++) {
    const m = 0.5 * (a + b);
    if (countAbove(m) > want) a = m;
    else b = m;
  }
  let l1 = 0.5 * (a + b);
  let l0 = lambda0;
  for (let it = 0; it < 3; it++) {
    piece = at(l1);
    const v1 = meshVolume(piece);
    if (Math.abs(v1 / target - 1) < VOLUME_TOLERANCE || v1 === v0) break;
    const next = l1 + ((target - v1) * (l1 - l0)) / (v1 - v0);
    l0 = l1;
    v0 = v1;
    l1 = Math.min(hi, Math.max(lo, next));
    if (l1 === l0) break;
  }
  return piece;
}
