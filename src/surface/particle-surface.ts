/**
 * A mesh from particles (Steele et al. 2004, "Rendering"): per region, the Gaussian field sampled
 * on a lattice of spacing output.resolution × r (dense over the region's bounds, or on sparse tiles
 * when those bounds are large), polygonized, then normals and colours from the particles near
 * each vertex.
 */
import type { Mesh } from '../api.ts';
import type { OutputSettings } from '../scene/schema.ts';
import { vertexAttributes, type NeighbourLookup } from './attributes.ts';
import { gaussianKernel, latticeNormal, latticeOver, normaliseField, splatParticles } from './field.ts';
import { polygonizers, type PolygonizerName, type PolyMesh } from './polygonizer.ts';
import { groupByRegion, separatedRegions, sortSpatially } from './regions.ts';
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
  /** Connected region per particle (src/particle/regions.ts); negative: left out. */
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
  lookup?: NeighbourLookup;
  timings?: SurfaceTimings;
  /**
   * A region whose bounding lattice has more points than this is sampled on sparse tiles
   * (tiles.ts) instead of one dense lattice; typed marching cubes only. Default 2²² points.
   */
  denseLimit?: number;
}

type OutputLike = Pick<OutputSettings, 'resolution' | 'polygonizer' | 'kernelWidth' | 'colors'> & { lambda?: number };

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
  const polygonize = polygonizers[options.polygonizer ?? output.polygonizer];
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

  const pieces: PolyMesh[] = [];
  const gradients: Float32Array[] = [];
  const min = [0, 0, 0], max = [0, 0, 0];
  for (let g = 0; g < groups.count; g++) {
    const from = groups.start[g], to = groups.start[g + 1];
    if (to === from) continue;
    t0 = performance.now();
    sortSpatially(positions, groups.members, from, to, 2 * h);
    min.fill(Infinity);
    max.fill(-Infinity);
    for (let m = from; m < to; m++) {
      const p = groups.members[m];
      for (let a = 0; a < 3; a++) {
        const x = positions[3 * p + a];
        if (x < min[a]) min[a] = x;
        if (x > max[a]) max[a] = x;
      }
    }
    // One spacing beyond the kernel's reach, so the lattice border is outside (f = λ).
    const margin = kernel.cutoff + h;
    let points = 1;
    for (let a = 0; a < 3; a++) points *= Math.ceil((max[a] + margin) / h) - Math.floor((min[a] - margin) / h) + 1;
    if (points > (options.denseLimit ?? 2 ** 22) && polygonize === polygonizers['marching-cubes']) {
      const tiled = tiledParticleField(kernel, lambda, h, positions, input.volumes, defaultVolume, groups.members, from, to);
      if (timings) timings.sampling += performance.now() - t0;
      pieces.push(tiled);
      gradients.push(tiled.normals);
      continue;
    }
    const lattice = latticeOver(min, max, margin, h);
    splatParticles(lattice, kernel, positions, input.volumes, defaultVolume, groups.members, from, to);
    normaliseField(lattice, lambda);
    t1 = performance.now();
    const piece = polygonize(lattice);
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
  const vertexCount = mesh.positions.length / 3;
  const colors = output.colors && input.colors ? new Float32Array(3 * vertexCount) : null;
  if (vertexCount > 0) {
    vertexAttributes(
      { count, positions, normals: input.normals, surface: input.surface, colors: input.colors },
      mesh.positions,
      vertexCount,
      kernel.sigma,
      mesh.normals,
      colors,
      options.lookup,
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
