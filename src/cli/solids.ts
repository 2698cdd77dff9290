/**
 * The solid objects of a frame as one mesh in world space (`viscid run --solids`), so moving
 * objects (a spinner, a fan, a dipper) can be rendered beside the liquid in Blender or Houdini.
 * Each solid's rest-pose mesh is moved by its rigid transform and coloured with its material.
 */
import type { Mesh, SolidView } from '../index.ts';

export function solidsMesh(solids: readonly SolidView[]): Mesh {
  let nv = 0;
  let ni = 0;
  for (const s of solids) {
    nv += s.mesh.positions.length / 3;
    ni += s.mesh.indices.length;
  }
  const positions = new Float32Array(3 * nv);
  const normals = new Float32Array(3 * nv);
  const colors = new Float32Array(3 * nv);
  const indices = new Uint32Array(ni);
  let v = 0;
  let t = 0;
  for (const s of solids) {
    const m = s.transform; // column-major 4×4, rigid
    const p = s.mesh.positions, n = s.mesh.normals;
    const count = p.length / 3;
    for (let i = 0; i < count; i++) {
      const x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
      const o = 3 * (v + i);
      positions[o] = m[0] * x + m[4] * y + m[8] * z + m[12];
      positions[o + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      positions[o + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      const nx = n[3 * i], ny = n[3 * i + 1], nz = n[3 * i + 2];
      const rx = m[0] * nx + m[4] * ny + m[8] * nz;
      const ry = m[1] * nx + m[5] * ny + m[9] * nz;
      const rz = m[2] * nx + m[6] * ny + m[10] * nz;
      const len = Math.hypot(rx, ry, rz) || 1;
      normals[o] = rx / len;
      normals[o + 1] = ry / len;
      normals[o + 2] = rz / len;
      colors[o] = s.color[0];
      colors[o + 1] = s.color[1];
      colors[o + 2] = s.color[2];
    }
    const idx = s.mesh.indices;
    for (let k = 0; k < idx.length; k++) indices[t + k] = idx[k] + v;
    v += count;
    t += idx.length;
  }
  return { positions, normals, colors, indices };
}
