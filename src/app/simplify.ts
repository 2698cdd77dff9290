/**
 * Vertex clustering (Rossignac & Borrel 1993) for display only: a mesh with more triangles than
 * software WebGL draws at an interactive rate is snapped to a uniform lattice, one vertex per
 * occupied cell (the mean position, normal and colour), and collapsed triangles are dropped.
 * Exports always use the full mesh.
 */
import type { Mesh } from '../api.ts';

export function simplifyForDisplay(m: Mesh, maxTriangles: number): Mesh {
  const idx = m.indices, p = m.positions, n = m.normals, col = m.colors;
  const nt = idx.length / 3;
  const nv = p.length / 3;
  if (nt <= maxTriangles || nv === 0) return m;
  // Mean edge length from a sample of triangles sets the lattice spacing.
  let sum = 0, count = 0;
  const stride = Math.max(1, Math.floor(nt / 500));
  for (let t = 0; t < nt; t += stride) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1];
    sum += Math.hypot(p[a] - p[b], p[a + 1] - p[b + 1], p[a + 2] - p[b + 2]);
    count++;
  }
  // Triangle count falls roughly with the square of the spacing ratio.
  const cell = (sum / count) * Math.sqrt(nt / maxTriangles) * 1.1;
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  for (let v = 0; v < nv; v++) {
    minX = Math.min(minX, p[3 * v]); minY = Math.min(minY, p[3 * v + 1]); minZ = Math.min(minZ, p[3 * v + 2]);
  }
  const clusterOf = new Int32Array(nv);
  const ids = new Map<number, number>();
  for (let v = 0; v < nv; v++) {
    const i = Math.floor((p[3 * v] - minX) / cell);
    const j = Math.floor((p[3 * v + 1] - minY) / cell);
    const k = Math.floor((p[3 * v + 2] - minZ) / cell);
    const key = (i * 4096 + j) * 4096 + k; // < 2^36: exact in a double
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    clusterOf[v] = id;
  }
  const nc = ids.size;
  const positions = new Float32Array(3 * nc), normals = new Float32Array(3 * nc);
  const colors = col ? new Float32Array(3 * nc) : undefined;
  const members = new Float32Array(nc);
  for (let v = 0; v < nv; v++) {
    const c = clusterOf[v];
    members[c]++;
    for (let a = 0; a < 3; a++) {
      positions[3 * c + a] += p[3 * v + a];
      normals[3 * c + a] += n[3 * v + a];
      if (colors && col) colors[3 * c + a] += col[3 * v + a];
    }
  }
  for (let c = 0; c < nc; c++) {
    const w = 1 / members[c];
    const len = Math.hypot(normals[3 * c], normals[3 * c + 1], normals[3 * c + 2]) || 1;
    for (let a = 0; a < 3; a++) {
      positions[3 * c + a] *= w;
      normals[3 * c + a] /= len;
      if (colors) colors[3 * c + a] *= w;
    }
  }
  const indices = new Uint32Array(idx.length);
  let o = 0;
  for (let t = 0; t < nt; t++) {
    const a = clusterOf[idx[3 * t]], b = clusterOf[idx[3 * t + 1]], c = clusterOf[idx[3 * t + 2]];
    if (a === b || b === c || a === c) continue;
    indices[o++] = a; indices[o++] = b; indices[o++] = c;
  }
  return { positions, normals, colors, indices: indices.slice(0, o) };
}
