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
}

export interface PolyMesh {
  /** xyz per vertex, exactly `3 · vertexCount` long. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
}

export type Polygonizer = (lattice: Lattice) => PolyMesh;

export type PolygonizerName = 'marching-cubes' | 'isosurface-marching-cubes' | 'surface-nets';

export const polygonizers: Record<PolygonizerName, Polygonizer> = {
  'marching-cubes': marchingCubes,
  'isosurface-marching-cubes': isosurfaceMarchingCubes,
  'surface-nets': isosurfaceSurfaceNets,
};
