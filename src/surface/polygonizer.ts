/**
 * Polygonizers behind one interface: a sampled lattice in, an indexed triangle mesh out
 * (vertices shared, counter-clockwise faces the outside, field < 0 inside). The typed-array marching
 * cubes is the default; the `isosurface` package's marching cubes and surface nets stay selectable.
 */
import { isosurfaceMarchingCubes, isosurfaceSurfaceNets } from './isosurface-adapter.ts';
import { marchingCubes } from './marching-cubes.ts';

/** Field samples at origin + spacing·(i, j, k), index i + nx (j + ny k); negative inside. */
export interface Lattice {
  origin: [number, number, number];
  spacing: number;
  nx: number;
  ny: number;
  nz: number;
  values: Float32Array;
  /**
   * Integer lattice index of `origin` (origin = spacing · base) when the lattice is a piece of the
   * global lattice; samples are then computed at spacing · (base + i), bit-identical across pieces.
   */
  base?: [number, number, number];
}

export interface PolyMesh {
  /** xyz per vertex, exactly `3 · vertexCount` long. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** Per vertex, the lattice edge it lies on as 3 · (lattice point) + axis (typed marching cubes only). */
  edges?: Int32Array;
}

export type Polygonizer = (lattice: Lattice) => PolyMesh;

export type PolygonizerName = 'marching-cubes' | 'isosurface-marching-cubes' | 'surface-nets';

export const polygonizers: Record<PolygonizerName, Polygonizer> = {
  'marching-cubes': marchingCubes,
  'isosurface-marching-cubes': isosurfaceMarchingCubes,
  'surface-nets': isosurfaceSurfaceNets,
};
