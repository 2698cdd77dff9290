/**
 * How bumpy the drawn top of a pool is, as a viewer reads it (issue 26, "Films without grid
 * artefacts": the grid's "pebbled" puddles). The mesh's upward-facing vertices (normal y above
 * UP_COS) in a region are each compared with a plane fitted through the upward-facing vertices
 * around it, Gaussian-weighted at `scale` (a weighted least-squares plane, height y = a + b x + c z):
 *
 * Vertices whose neighbours lie on one side (the top's edge, where a puddle's rim bends down) are
 * left out.
 *
 *  - `heightRms`: the RMS of the vertices' heights above their local planes (m), what a pebble's
 *    height is;
 *  - `normalRms`: the RMS angle between each vertex's normal and its local plane's (degrees), what
 *    the shading shows.
 *
 * The plane is local, so a puddle's sloping rim and a dome's curvature stay in the fit at a scale
 * well above the cell's; bumps a cell or two across (the pebbles) are what is left.
 */
import type { Mesh } from '../../src/index.ts';

/** A vertex counts as part of the top where its normal's y component is above this (within 60° of up). */
export const UP_COS = 0.5;

export interface TopRegion {
  /** Keep a vertex at (x, y, z)? (e.g. away from a falling stream or a wall) */
  keep: (x: number, y: number, z: number) => boolean;
  /** Gaussian width of the local plane fit, m (twice the cell is a fair scale). */
  scale: number;
}

export interface TopBumps {
  vertices: number;
  heightRms: number;
  heightMax: number;
  normalRms: number;
}

/** The bumpiness of `mesh`'s top within `region`. */
export function topBumps(mesh: Mesh, region: TopRegion): TopBumps {
  const P = mesh.positions, N = mesh.normals, nv = P.length / 3;
  const top: number[] = [];
  for (let v = 0; v < nv; v++) {
    const ny = N[3 * v + 1] / (Math.hypot(N[3 * v], N[3 * v + 1], N[3 * v + 2]) || 1);
    if (ny > UP_COS && region.keep(P[3 * v], P[3 * v + 1], P[3 * v + 2])) top.push(v);
  }
  const n = top.length, s = region.scale, reach = 2 * s, bin = reach;
  // Bins in x–z of side `reach` for the neighbour search.
  const bins = new Map<number, number[]>();
  const key = (i: number, k: number) => (i + 32768) * 65536 + (k + 32768);
  for (const v of top) {
    const b = key(Math.floor(P[3 * v] / bin), Math.floor(P[3 * v + 2] / bin));
    let list = bins.get(b);
    if (!list) bins.set(b, (list = []));
    list.push(v);
  }
  let h2 = 0, hMax = 0, a2 = 0, counted = 0;
  const A = new Float64Array(9), r = new Float64Array(3), coef = new Float64Array(3);
  for (const v of top) {
    const x0 = P[3 * v], y0 = P[3 * v + 1], z0 = P[3 * v + 2];
    A.fill(0); r.fill(0);
    let wsum = 0, mx = 0, mz = 0;
    const bi = Math.floor(x0 / bin), bk = Math.floor(z0 / bin);
    for (let di = -1; di <= 1; di++) {
      for (let dk = -1; dk <= 1; dk++) {
        const list = bins.get(key(bi + di, bk + dk));
        if (!list) continue;
        for (const u of list) {
          const dx = P[3 * u] - x0, dz = P[3 * u + 2] - z0, d2 = dx * dx + dz * dz;
          if (d2 > reach * reach || Math.abs(P[3 * u + 1] - y0) > reach) continue;
          const w = Math.exp(-d2 / (2 * s * s)), dy = P[3 * u + 1] - y0;
          const f = [1, dx, dz];
          for (let a = 0; a < 3; a++) {
            r[a] += w * f[a] * dy;
            for (let b = 0; b < 3; b++) A[3 * a + b] += w * f[a] * f[b];
          }
          wsum += w; mx += w * dx; mz += w * dz;
        }
      }
    }
    // A plane needs neighbours all round the vertex: their weighted centre within a quarter of the
    // scale (a vertex at the top's edge, the rim bending down, has them on one side only).
    if (wsum < 4 || Math.hypot(mx, mz) > 0.25 * s * wsum || !solve3(A, r, coef)) continue;
    const dh = -coef[0]; // the vertex's height over its plane (the plane at dx = dz = 0 is y0 + coef[0])
    const gl = Math.hypot(coef[1], 1, coef[2]);
    const nl = Math.hypot(N[3 * v], N[3 * v + 1], N[3 * v + 2]) || 1;
    const cos = (-coef[1] * N[3 * v] + N[3 * v + 1] - coef[2] * N[3 * v + 2]) / gl / nl;
    const ang = (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
    h2 += dh * dh; hMax = Math.max(hMax, Math.abs(dh)); a2 += ang * ang; counted++;
  }
  return { vertices: counted, heightRms: counted ? Math.sqrt(h2 / counted) : 0, heightMax: hMax, normalRms: counted ? Math.sqrt(a2 / counted) : 0 };
}

/** Solves the 3 × 3 system A c = r (Cramer); false where A is singular. */
function solve3(A: Float64Array, r: Float64Array, c: Float64Array): boolean {
  const [a, b, d, e, f, g, h, i, j] = A;
  const det = a * (f * j - g * i) - b * (e * j - g * h) + d * (e * i - f * h);
  if (!(Math.abs(det) > 1e-30)) return false;
  c[0] = (r[0] * (f * j - g * i) - b * (r[1] * j - g * r[2]) + d * (r[1] * i - f * r[2])) / det;
  c[1] = (a * (r[1] * j - g * r[2]) - r[0] * (e * j - g * h) + d * (e * r[2] - r[1] * h)) / det;
  c[2] = (a * (f * r[2] - r[1] * i) - b * (e * r[2] - r[1] * h) + r[0] * (e * i - f * h)) / det;
  return true;
}
