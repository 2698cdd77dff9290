/**
 * A run's points drawn where it has no surface to draw: the points files `viscid run --points`
 * writes (binary PLY, io/ply.ts `pointsToPLY`; legacy ASCII VTK, io/vtk.ts) read back, and each
 * point made a small octahedron ("splat") the rasterizer shades like any mesh. Smoke has no liquid
 * surface (the grid's smoke is a set of marker points, Cline et al. 2005 §9), so a smoke run's tiles
 * show its points; so do the tiles of a run that wrote points and no meshes.
 */
import { fromPLY } from '../io/ply-read.ts';
import type { Mesh } from '../types/geometry.ts';

export type PointsFormat = 'ply' | 'vtk';

/** The format of a points file by its extension, or null. */
export function pointsFormat(file: string): PointsFormat | null {
  const m = /\.(ply|vtk)$/i.exec(file);
  return m ? (m[1].toLowerCase() as PointsFormat) : null;
}

/** The positions (xyz xyz …) of a points file. */
export function readFramePoints(format: PointsFormat, bytes: Uint8Array): Float32Array {
  if (format === 'ply') return fromPLY(bytes).positions;
  return vtkPoints(new TextDecoder().decode(bytes));
}

/** The POINTS block of a legacy ASCII VTK file. */
export function vtkPoints(text: string): Float32Array {
  const head = /^POINTS\s+(\d+)\s+\w+\s*$/m.exec(text);
  if (!head) throw new Error('no POINTS block');
  const n = Number(head[1]);
  const out = new Float32Array(3 * n);
  // The coordinates follow the header, whitespace-separated, 3n numbers over any number of lines.
  let at = head.index + head[0].length, k = 0;
  const number = /[-+0-9.eE]+/g;
  number.lastIndex = at;
  while (k < 3 * n) {
    const m = number.exec(text);
    if (!m) throw new Error(`POINTS ${n}: only ${k} of ${3 * n} coordinates`);
    const v = Number(m[0]);
    if (!Number.isFinite(v)) throw new Error(`POINTS: "${m[0]}" is not a number`);
    out[k++] = v;
    at = number.lastIndex;
  }
  return out;
}

/** The six corners of an octahedron of radius 1 and its eight faces (outward, counter-clockwise). */
const CORNERS = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];
const FACES = [0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5];

/** Each point as an octahedron of radius `size` in one linear colour: 6 vertices and 8 triangles a point. */
export function pointSplats(positions: ArrayLike<number>, size: number, color: readonly [number, number, number]): Mesh {
  const n = Math.floor(positions.length / 3);
  const p = new Float32Array(18 * n), nrm = new Float32Array(18 * n), c = new Float32Array(18 * n), idx = new Uint32Array(24 * n);
  for (let i = 0; i < n; i++) {
    for (let v = 0; v < 6; v++) {
      for (let k = 0; k < 3; k++) {
        const o = 18 * i + 3 * v + k;
        p[o] = positions[3 * i + k] + size * CORNERS[3 * v + k];
        nrm[o] = CORNERS[3 * v + k];
        c[o] = color[k];
      }
    }
    for (let f = 0; f < 24; f++) idx[24 * i + f] = 6 * i + FACES[f];
  }
  return { positions: p, normals: nrm, colors: c, indices: idx };
}
