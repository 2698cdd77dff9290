/**
 * Typed-array marching cubes over a dense lattice: one pass over the cells, vertices shared
 * through a two-layer cache of lattice-edge crossings, output in growable typed arrays. The
 * tables (mc-tables.ts) make the result watertight and outward-oriented wherever the field is
 * positive on the lattice border, under either rule for a face whose inside corners lie on a
 * diagonal: "separate" them (the default) or "join" them (the particle surface's: a sheet about
 * one lattice spacing thick and tilted to the lattice is sampled inside only through diagonal
 * neighbours, and separating them perforates it; docs/decisions.md, "The particle surface's thin
 * sheets").
 */
import { EDGE_AXIS, EDGE_CORNER, TRI_COUNT, TRI_COUNT_JOIN, TRI_TABLE, TRI_TABLE_JOIN } from './mc-tables.ts';
import type { Lattice, PolyMesh } from './polygonizer.ts';

/** What an ambiguous cell face does with its two inside corners. */
export type AmbiguousFaces = 'separate' | 'join';

/** Crossings closer than this (in edge lengths) to a lattice point are moved off it, so no triangle degenerates. */
const EDGE_CLAMP = 1e-3;

let positions: Float32Array = new Float32Array(3 * 4096);
let indices: Uint32Array = new Uint32Array(3 * 8192);
let edges: Int32Array = new Int32Array(4096);
let cache0 = new Int32Array(0);
let cache1 = new Int32Array(0);

export function marchingCubes(lattice: Lattice, ambiguous: AmbiguousFaces = 'separate'): PolyMesh {
  const table = ambiguous === 'join' ? TRI_TABLE_JOIN : TRI_TABLE, counts = ambiguous === 'join' ? TRI_COUNT_JOIN : TRI_COUNT;
  const { nx, ny, nz, values, spacing: h } = lattice;
  const [ox, oy, oz] = lattice.origin;
  const nxy = nx * ny;
  if (cache0.length < 3 * nxy) {
    cache0 = new Int32Array(3 * nxy);
    cache1 = new Int32Array(3 * nxy);
  }
  cache0.fill(-1, 0, 3 * nxy);
  cache1.fill(-1, 0, 3 * nxy);
  const stride = [1, nx, nxy];
  // Per cell edge: offset of its first corner within that corner's layer, and which layer (0/1).
  const edgeOffset = new Int32Array(12);
  const edgeLayer = new Uint8Array(12);
  for (let e = 0; e < 12; e++) {
    const c = EDGE_CORNER[e];
    edgeOffset[e] = 3 * ((c & 1) + nx * ((c >> 1) & 1)) + EDGE_AXIS[e];
    edgeLayer[e] = (c >> 2) & 1;
  }
  let vertexCount = 0;
  let indexCount = 0;

  for (let k = 0; k < nz - 1; k++) {
    const here = k & 1 ? cache1 : cache0;
    const above = k & 1 ? cache0 : cache1;
    if (k > 0) above.fill(-1, 0, 3 * nxy);
    for (let j = 0; j < ny - 1; j++) {
      let p = nx * (j + ny * k);
      for (let i = 0; i < nx - 1; i++, p++) {
        let m = 0;
        if (values[p] < 0) m |= 1;
        if (values[p + 1] < 0) m |= 2;
        if (values[p + nx] < 0) m |= 4;
        if (values[p + nx + 1] < 0) m |= 8;
        if (values[p + nxy] < 0) m |= 16;
        if (values[p + nxy + 1] < 0) m |= 32;
        if (values[p + nxy + nx] < 0) m |= 64;
        if (values[p + nxy + nx + 1] < 0) m |= 128;
        if (m === 0 || m === 255) continue;
        const tris = counts[m];
        if (indexCount + 3 * tris > indices.length) indices = growU32(indices, indexCount + 3 * tris);
        const base = 3 * (i + nx * j);
        for (let v = 0; v < 3 * tris; v++) {
          const e = table[16 * m + v];
          const cache = edgeLayer[e] ? above : here;
          const slot = base + edgeOffset[e];
          let id = cache[slot];
          if (id < 0) {
            const a = EDGE_AXIS[e];
            const c = EDGE_CORNER[e];
            const q = p + (c & 1) + nx * ((c >> 1) & 1) + nxy * ((c >> 2) & 1);
            const f0 = values[q];
            let t = f0 / (f0 - values[q + stride[a]]);
            if (t < EDGE_CLAMP) t = EDGE_CLAMP;
            else if (t > 1 - EDGE_CLAMP) t = 1 - EDGE_CLAMP;
            if (3 * vertexCount + 3 > positions.length) positions = growF32(positions, 3 * vertexCount + 3);
            positions[3 * vertexCount] = ox + h * (i + (c & 1) + (a === 0 ? t : 0));
            positions[3 * vertexCount + 1] = oy + h * (j + ((c >> 1) & 1) + (a === 1 ? t : 0));
            positions[3 * vertexCount + 2] = oz + h * (k + ((c >> 2) & 1) + (a === 2 ? t : 0));
            if (vertexCount >= edges.length) edges = growI32(edges, vertexCount + 1);
            edges[vertexCount] = 3 * q + a;
            id = vertexCount++;
            cache[slot] = id;
          }
          indices[indexCount++] = id;
        }
      }
    }
  }
  return { positions: positions.slice(0, 3 * vertexCount), indices: indices.slice(0, indexCount), edges: edges.slice(0, vertexCount) };
}

function growF32(a: Float32Array, need: number): Float32Array {
  const b = new Float32Array(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}

function growI32(a: Int32Array, need: number): Int32Array {
  const b = new Int32Array(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}

function growU32(a: Uint32Array, need: number): Uint32Array {
  const b = new Uint32Array(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}
