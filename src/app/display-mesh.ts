/**
 * The mesh the page draws of a frame's full surface mesh: simplified above MAX_DRAWN_TRIANGLES,
 * in fresh arrays that can be transferred, with the winding its normals agree with. Made in the
 * simulation worker (sim.worker.ts) or in the mesh worker (mesh.worker.ts).
 */
import type { Mesh } from '../index.ts';
import type { FrameMessage } from './protocol.ts';
import { simplifyForDisplay } from './simplify.ts';

/** 'ccw' when triangle winding agrees with the vertex normals (the usual case), else 'cw'. */
export function windingOf(m: Mesh): 'ccw' | 'cw' {
  const p = m.positions, n = m.normals, idx = m.indices;
  let agree = 0;
  const step = Math.max(1, Math.floor(idx.length / 3 / 2000)) * 3; // a sample is enough
  for (let t = 0; t + 2 < idx.length; t += step) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
    const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    const d = cx * (n[a] + n[b] + n[c]) + cy * (n[a + 1] + n[b + 1] + n[c + 1]) + cz * (n[a + 2] + n[b + 2] + n[c + 2]);
    agree += d > 0 ? 1 : d < 0 ? -1 : 0;
  }
  return agree >= 0 ? 'ccw' : 'cw';
}

/** Above this many triangles the drawn mesh is simplified (exports keep the full mesh). */
export const MAX_DRAWN_TRIANGLES = 50_000;

export function displayMesh(full: Mesh): FrameMessage['mesh'] {
  const m = simplifyForDisplay(full, MAX_DRAWN_TRIANGLES);
  const fresh = m !== full; // simplifyForDisplay's arrays are new and can be transferred as they are
  return {
    positions: fresh ? m.positions : m.positions.slice(),
    normals: fresh ? m.normals : m.normals.slice(),
    colors: m.colors ? (fresh ? m.colors : m.colors.slice()) : undefined,
    indices: fresh ? m.indices : m.indices.slice(),
    frontFace: windingOf(m),
    fullTriangles: full.indices.length / 3,
  };
}
