/**
 * Mesh checks for tests and users: closed (every edge shared by exactly two triangles),
 * consistently oriented (the two triangles of an edge run it in opposite directions), outward
 * (every shell encloses positive volume, except cavities nested inside a positive shell), no
 * degenerate triangles, enclosed volume, and shells (pieces connected through shared vertices).
 */
import type { Mesh } from '../types/geometry.ts';

export interface MeshReport {
  /** Every edge is shared by exactly two triangles. */
  closed: boolean;
  /** Edges used by one triangle. */
  boundaryEdges: number;
  /** Edges used by more than two triangles. */
  nonManifoldEdges: number;
  /** Every edge shared by two triangles is run in opposite directions by them. */
  oriented: boolean;
  /** Every shell has positive signed volume, or is a cavity inside the bounds of a positive shell. */
  outward: boolean;
  /** Triangles with a repeated vertex or an area below DEGENERATE_AREA × (longest edge)². */
  degenerate: number;
  /** Signed enclosed volume (divergence theorem), m³; the volume of the solid when closed and outward. */
  volume: number;
  shells: number;
  triangles: number;
  vertices: number;
}

/** Relative area under which a triangle counts as degenerate (float32 positions resolve about 1e-7). */
export const DEGENERATE_AREA = 1e-9;

export function checkMesh(mesh: Mesh): MeshReport {
  const pos = mesh.positions;
  const idx = mesh.indices;
  const nv = pos.length / 3;
  const nt = Math.floor(idx.length / 3);

  // Half-edges keyed (min · nv + max) · 2 + direction, sorted, so each edge is one run.
  const keys = new Float64Array(3 * nt);
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      const a = idx[3 * t + e], b = idx[3 * t + ((e + 1) % 3)];
      keys[3 * t + e] = a < b ? (a * nv + b) * 2 : (b * nv + a) * 2 + 1;
    }
  }
  keys.sort();
  let boundaryEdges = 0, nonManifoldEdges = 0, misoriented = 0;
  for (let s = 0; s < keys.length; ) {
    const edge = Math.floor(keys[s] / 2);
    let e = s + 1;
    while (e < keys.length && Math.floor(keys[e] / 2) === edge) e++;
    const run = e - s;
    if (run === 1) boundaryEdges++;
    else if (run > 2) nonManifoldEdges++;
    else if (keys[s] === keys[s + 1]) misoriented++;
    s = e;
  }

  // Shells: union-find over vertices through triangles.
  const parent = new Int32Array(nv);
  for (let v = 0; v < nv; v++) parent[v] = v;
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  let degenerate = 0;
  for (let t = 0; t < nt; t++) {
    const a = idx[3 * t], b = idx[3 * t + 1], c = idx[3 * t + 2];
    const ra = find(a), rb = find(b), rc = find(c);
    parent[rb] = ra;
    parent[find(rc)] = ra;
    if (a === b || b === c || a === c) {
      degenerate++;
      continue;
    }
    const ux = pos[3 * b] - pos[3 * a], uy = pos[3 * b + 1] - pos[3 * a + 1], uz = pos[3 * b + 2] - pos[3 * a + 2];
    const vx = pos[3 * c] - pos[3 * a], vy = pos[3 * c + 1] - pos[3 * a + 1], vz = pos[3 * c + 2] - pos[3 * a + 2];
    const wx = pos[3 * c] - pos[3 * b], wy = pos[3 * c + 1] - pos[3 * b + 1], wz = pos[3 * c + 2] - pos[3 * b + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const longest = Math.max(ux * ux + uy * uy + uz * uz, vx * vx + vy * vy + vz * vz, wx * wx + wy * wy + wz * wz);
    if (Math.sqrt(cx * cx + cy * cy + cz * cz) <= 2 * DEGENERATE_AREA * longest) degenerate++;
  }

  // Signed volume and bounds per shell.
  const shellOf = new Int32Array(nv).fill(-1);
  let shells = 0;
  const used = new Uint8Array(nv);
  for (let t = 0; t < 3 * nt; t++) used[idx[t]] = 1;
  for (let v = 0; v < nv; v++) {
    if (!used[v]) continue;
    const r = find(v);
    if (shellOf[r] < 0) shellOf[r] = shells++;
    shellOf[v] = shellOf[r];
  }
  const volumes = new Float64Array(shells);
  const box = new Float64Array(6 * shells);
  for (let s = 0; s < shells; s++) box.set([Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity], 6 * s);
  for (let v = 0; v < nv; v++) {
    const s = shellOf[v];
    if (s < 0) continue;
    for (let a = 0; a < 3; a++) {
      box[6 * s + a] = Math.min(box[6 * s + a], pos[3 * v + a]);
      box[6 * s + 3 + a] = Math.max(box[6 * s + 3 + a], pos[3 * v + a]);
    }
  }
  // Relative to one vertex, so that meshes far from the origin keep their precision.
  const rx = nv > 0 ? pos[0] : 0, ry = nv > 0 ? pos[1] : 0, rz = nv > 0 ? pos[2] : 0;
  let volume = 0;
  for (let t = 0; t < nt; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2];
    const ax = pos[a] - rx, ay = pos[a + 1] - ry, az = pos[a + 2] - rz;
    const bx = pos[b] - rx, by = pos[b + 1] - ry, bz = pos[b + 2] - rz;
    const cx = pos[c] - rx, cy = pos[c + 1] - ry, cz = pos[c + 2] - rz;
    const det = ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    volumes[shellOf[idx[3 * t]]] += det / 6;
    volume += det / 6;
  }
  let outward = true;
  for (let s = 0; s < shells && outward; s++) {
    if (volumes[s] > 0) continue;
    let nested = false;
    for (let o = 0; o < shells && !nested; o++) {
      if (o === s || volumes[o] <= 0) continue;
      nested = [0, 1, 2].every((a) => box[6 * o + a] < box[6 * s + a] && box[6 * s + 3 + a] < box[6 * o + 3 + a]);
    }
    outward = nested;
  }

  return {
    closed: boundaryEdges === 0 && nonManifoldEdges === 0,
    boundaryEdges,
    nonManifoldEdges,
    oriented: misoriented === 0,
    outward,
    degenerate,
    volume,
    shells,
    triangles: nt,
    vertices: nv,
  };
}
