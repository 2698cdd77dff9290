// Types for the untyped package the surface module uses.
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
