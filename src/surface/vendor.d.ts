// Types for the two untyped packages the surface module uses.
declare module 'isosurface' {
  export interface IsoMesh {
    positions: number[][];
    cells: number[][];
  }
  type Potential = (x: number, y: number, z: number) => number;
  type Bounds = [[number, number, number], [number, number, number]];
  export function marchingCubes(dims: [number, number, number], potential: Potential, bounds?: Bounds): IsoMesh;
  export function surfaceNets(dims: [number, number, number], potential: Potential, bounds?: Bounds): IsoMesh;
  export function marchingTetrahedra(dims: [number, number, number], potential: Potential, bounds?: Bounds): IsoMesh;
}

declare module 'd3-octree' {
  export interface Octree<T> {
    addAll(data: T[]): this;
    findAllWithinRadius(x: number, y: number, z: number, radius: number): T[];
    find(x: number, y: number, z: number, radius?: number): T | undefined;
  }
  export function octree<T>(
    data: T[],
    x: (d: T) => number,
    y: (d: T) => number,
    z: (d: T) => number,
  ): Octree<T>;
}
