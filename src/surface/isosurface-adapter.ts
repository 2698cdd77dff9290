/**
 * The `isosurface` package behind the Polygonizer interface. Its potential is a per-point callback
 * (here a lattice look-up; marching cubes calls it 8 times per cell) and its output is an array of
 * arrays, which we copy into typed arrays. Its marching cubes emits separate vertices per cell, so
 * they are welded by the lattice edge they lie on; surface nets already share vertices.
 */
import { marchingCubes, surfaceNets } from 'isosurface';
import type { Lattice, PolyMesh } from './polygonizer.ts';

/** Keeps samples off exactly zero so every crossing lies strictly inside its lattice edge. */
const NUDGE = 1e-5;

function lookup(lattice: Lattice, sign: number): (x: number, y: number, z: number) => number {
  const { nx, ny, values, spacing } = lattice;
  const [ox, oy, oz] = lattice.origin;
  const inv = 1 / spacing;
  return (x, y, z) => {
    const i = Math.round((x - ox) * inv), j = Math.round((y - oy) * inv), k = Math.round((z - oz) * inv);
    const v = values[i + nx * (j + ny * k)];
    return sign * (v >= 0 ? Math.max(v, NUDGE) : Math.min(v, -NUDGE));
  };
}

function bounds(lattice: Lattice): [[number, number, number], [number, number, number]] {
  const [ox, oy, oz] = lattice.origin;
  const h = lattice.spacing;
  return [[ox, oy, oz], [ox + h * lattice.nx, oy + h * lattice.ny, oz + h * lattice.nz]];
}

export function isosurfaceMarchingCubes(lattice: Lattice): PolyMesh {
  const { nx, ny, nz, spacing } = lattice;
  const [ox, oy, oz] = lattice.origin;
  // The package marks a corner inside when the potential is positive.
  const mesh = marchingCubes([nx, ny, nz], lookup(lattice, -1), bounds(lattice));
  const inv = 1 / spacing;
  const weld = new Int32Array(3 * nx * ny * nz).fill(-1);
  const remap = new Int32Array(mesh.positions.length);
  const positions = new Float32Array(3 * mesh.positions.length);
  let count = 0;
  const u = [0, 0, 0];
  for (let v = 0; v < mesh.positions.length; v++) {
    const p = mesh.positions[v];
    u[0] = (p[0] - ox) * inv;
    u[1] = (p[1] - oy) * inv;
    u[2] = (p[2] - oz) * inv;
    // The crossing's axis is the coordinate farthest from a lattice plane.
    let axis = 0, far = -1;
    for (let a = 0; a < 3; a++) {
      const d = Math.abs(u[a] - Math.round(u[a]));
      if (d > far) { far = d; axis = a; }
    }
    const i = axis === 0 ? Math.floor(u[0]) : Math.round(u[0]);
    const j = axis === 1 ? Math.floor(u[1]) : Math.round(u[1]);
    const k = axis === 2 ? Math.floor(u[2]) : Math.round(u[2]);
    const key = 3 * (i + nx * (j + ny * k)) + axis;
    if (weld[key] < 0) {
      weld[key] = count;
      positions[3 * count] = p[0];
      positions[3 * count + 1] = p[1];
      positions[3 * count + 2] = p[2];
      count++;
    }
    remap[v] = weld[key];
  }
  return { positions: positions.slice(0, 3 * count), indices: copyCells(mesh.cells, remap, true) };
}

export function isosurfaceSurfaceNets(lattice: Lattice): PolyMesh {
  const mesh = surfaceNets([lattice.nx, lattice.ny, lattice.nz], lookup(lattice, 1), bounds(lattice));
  const positions = new Float32Array(3 * mesh.positions.length);
  for (let v = 0; v < mesh.positions.length; v++) {
    const p = mesh.positions[v];
    positions[3 * v] = p[0];
    positions[3 * v + 1] = p[1];
    positions[3 * v + 2] = p[2];
  }
  return { positions, indices: copyCells(mesh.cells, null, false) };
}

/** Triangles (quads are split) into a typed array; `flip` reverses the winding. */
function copyCells(cells: number[][], remap: Int32Array | null, flip: boolean): Uint32Array {
  let n = 0;
  for (const c of cells) n += 3 * (c.length - 2);
  const out = new Uint32Array(n);
  let w = 0;
  for (const c of cells) {
    for (let t = 1; t < c.length - 1; t++) {
      const a = c[0], b = flip ? c[t + 1] : c[t], d = flip ? c[t] : c[t + 1];
      out[w++] = remap ? remap[a] : a;
      out[w++] = remap ? remap[b] : b;
      out[w++] = remap ? remap[d] : d;
    }
  }
  return out;
}
