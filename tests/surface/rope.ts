/** Ropes of particles for the surface tests and bench/aniso-surface.bench.ts. */
import { checkMesh } from '../../src/index.ts';
import type { Mesh } from '../../src/types/geometry.ts';

export interface Rope {
  count: number;
  positions: Float32Array;
  /** Unit axis of the rope (through the origin). */
  axis: [number, number, number];
  /** Half length of the rope, m. */
  half: number;
}

/**
 * A rope along a tilted axis through the origin, `thick` particles across (1: a line; 2: a 2 × 2
 * bundle), 41 particles long at spacing 2r, jittered by ±0.2 r, between two drops of radius 6.5 r
 * (`drops` false: the rope alone).
 */
export function rope(r: number, thick: number, seed = 5, drops = true): Rope {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
  const u: [number, number, number] = [Math.cos(0.3), Math.sin(0.3) * 0.6, Math.sin(0.3) * 0.8];
  const lv = Math.hypot(u[1], u[0]);
  const v = [-u[1] / lv, u[0] / lv, 0];
  const w = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const pos: number[] = [];
  const L = 20;
  const put = (t: number, p: number, q: number) => {
    for (let a = 0; a < 3; a++) pos.push(t * u[a] + p * v[a] + q * w[a] + 0.4 * r * rand());
  };
  for (let i = -L; i <= L; i++) {
    for (let a = 0; a < thick; a++) for (let b = 0; b < thick; b++) put(2 * r * i, (a - (thick - 1) / 2) * 2 * r, (b - (thick - 1) / 2) * 2 * r);
  }
  if (drops) {
    for (const c of [-1, 1]) {
      for (let i = -7; i <= 7; i++) for (let j = -7; j <= 7; j++) for (let k = -7; k <= 7; k++) {
        if (2 * Math.hypot(i, j, k) <= 13) put(c * (2 * L + 6) * r + 2 * r * i, 2 * r * j, 2 * r * k);
      }
    }
  }
  return { count: pos.length / 3, positions: new Float32Array(pos), axis: u, half: 2 * L * r };
}

/**
 * The mesh along the middle three quarters of a rope: vertices within 4 r of its axis, the
 * fraction of 2 r bins along it holding one (1: unbroken), their mean distance from the axis (in r),
 * and the whole mesh's shells.
 */
export function ropeReport(mesh: Mesh, rope: Rope, r: number): { shells: number; closed: boolean; vertices: number; coverage: number; radius: number } {
  const P = mesh.positions, u = rope.axis;
  const span = 0.75 * rope.half;
  const bins = new Uint8Array(Math.round(span / r));
  let vertices = 0, radius = 0;
  for (let k = 0; k < P.length / 3; k++) {
    const x = P[3 * k], y = P[3 * k + 1], z = P[3 * k + 2];
    const t = x * u[0] + y * u[1] + z * u[2];
    const d = Math.hypot(x - t * u[0], y - t * u[1], z - t * u[2]);
    if (Math.abs(t) < span && d < 4 * r) {
      vertices++;
      radius += d;
      bins[Math.min(bins.length - 1, Math.floor((t + span) / (2 * r)))] = 1;
    }
  }
  const rep = checkMesh(mesh);
  let covered = 0;
  for (const b of bins) covered += b;
  return { shells: rep.shells, closed: rep.closed, vertices, coverage: covered / bins.length, radius: vertices ? radius / vertices / r : 0 };
}

/** Mean angle, degrees, between a mesh's vertex normals and the radial direction from the origin. */
export function sphereNormalError(mesh: Mesh): number {
  const P = mesh.positions, N = mesh.normals;
  const n = P.length / 3;
  let sum = 0;
  for (let v = 0; v < n; v++) {
    const l = Math.hypot(P[3 * v], P[3 * v + 1], P[3 * v + 2]) * Math.hypot(N[3 * v], N[3 * v + 1], N[3 * v + 2]);
    const c = (P[3 * v] * N[3 * v] + P[3 * v + 1] * N[3 * v + 1] + P[3 * v + 2] * N[3 * v + 2]) / l;
    sum += (Math.acos(Math.min(1, Math.max(-1, c))) * 180) / Math.PI;
  }
  return n ? sum / n : 0;
}
