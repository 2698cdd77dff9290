/**
 * Vertex colours from coloured points near the surface (Steele et al. 2004, "Rendering": the
 * Gaussian-weighted average of nearby particle colours, so colours mix only within a kernel width
 * of where they meet), for a surface that was not made from those points: the grid's level set
 * tinted by its liquid tracers (grid/liquid-tracers.ts). A vertex with no point within 2.5 σ keeps
 * the colour it has.
 */
import { HashGrid } from '../spatial/hash-grid.ts';
import type { Mesh } from '../types/geometry.ts';
import { ATTRIBUTE_REACH } from './attributes.ts';

/** Coloured points (linear RGB) and the Gaussian width σ (m) their colours spread over. */
export interface TintSource {
  count: number;
  positions: Float32Array;
  colors: Float32Array;
  sigma: number;
}

/** Overwrites `mesh.colors` (made in `fallback` where missing) with the tint's weighted colours. */
export function tintMesh(mesh: Mesh, tint: TintSource, fallback: readonly [number, number, number]): Mesh {
  const nv = mesh.positions.length / 3;
  let colors = mesh.colors;
  if (!colors || colors.length !== 3 * nv) {
    colors = new Float32Array(3 * nv);
    for (let v = 0; v < nv; v++) colors.set(fallback, 3 * v);
  }
  if (tint.count > 0 && nv > 0) tintVertices(tint, mesh.positions, nv, colors);
  return { ...mesh, colors };
}

function tintVertices(tint: TintSource, vertices: Float32Array, vertexCount: number, colors: Float32Array): void {
  const sigma = tint.sigma, reach = ATTRIBUTE_REACH * sigma, r2 = reach * reach, k = 1 / (2 * sigma * sigma);
  const grid = new HashGrid(reach);
  grid.build(tint.positions, tint.count);
  const cells = new Int32Array(27);
  const { order, start, count } = grid;
  const P = tint.positions, C = tint.colors;
  for (let v = 0; v < vertexCount; v++) {
    const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
    const m = grid.cellsNear(x, y, z, cells, 1);
    let r = 0, g = 0, b = 0, w = 0;
    for (let q = 0; q < m; q++) {
      const c = cells[q];
      for (let s = start[c], e = start[c] + count[c]; s < e; s++) {
        const p = order[s];
        const dx = P[3 * p] - x, dy = P[3 * p + 1] - y, dz = P[3 * p + 2] - z;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 > r2) continue;
        const wp = Math.exp(-d2 * k);
        r += wp * C[3 * p];
        g += wp * C[3 * p + 1];
        b += wp * C[3 * p + 2];
        w += wp;
      }
    }
    if (w > 0) {
      colors[3 * v] = r / w;
      colors[3 * v + 1] = g / w;
      colors[3 * v + 2] = b / w;
    }
  }
}
