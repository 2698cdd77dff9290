/**
 * The drawn liquid's side against a cylinder body (issue 26 "Films without grid artefacts"): the
 * mesh's vertices that face sideways in the body's rest frame (|n · axis| < 0.3), between `along`
 * (m along the axis from the cylinder's centre) and within `radius` (m from the axis), their radial
 * distance and their normals' angle off the radial line. Used by tests/grid/wall-side.test.ts and
 * bench/grid-solid-clip.ts.
 */
import type { Mesh } from '../../src/types/geometry.ts';

export interface SideStats {
  count: number;
  /** Radial distance, m: mean, SD, least, most. */
  mean: number;
  sd: number;
  min: number;
  max: number;
  /** RMS angle of the normals off the radial line, degrees. */
  rmsDeg: number;
}

export interface CylinderFrame {
  center: ArrayLike<number>;
  axis: ArrayLike<number>;
  /** The body's pose: world = R · rest + t. */
  R: ArrayLike<number>;
  t: ArrayLike<number>;
}

export function cylinderSide(mesh: Mesh, body: CylinderFrame, along: [number, number], radius: [number, number]): SideStats {
  const { R, t, center: c } = body, len = Math.hypot(body.axis[0], body.axis[1], body.axis[2]);
  const axis = [body.axis[0] / len, body.axis[1] / len, body.axis[2] / len];
  const rs: number[] = [];
  let ang2 = 0;
  for (let v = 0; v < mesh.positions.length / 3; v++) {
    const x = mesh.positions[3 * v] - t[0], y = mesh.positions[3 * v + 1] - t[1], z = mesh.positions[3 * v + 2] - t[2];
    const p = [R[0] * x + R[3] * y + R[6] * z - c[0], R[1] * x + R[4] * y + R[7] * z - c[1], R[2] * x + R[5] * y + R[8] * z - c[2]];
    const m = [mesh.normals[3 * v], mesh.normals[3 * v + 1], mesh.normals[3 * v + 2]];
    const n = [R[0] * m[0] + R[3] * m[1] + R[6] * m[2], R[1] * m[0] + R[4] * m[1] + R[7] * m[2], R[2] * m[0] + R[5] * m[1] + R[8] * m[2]];
    const a = p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2];
    if (a < along[0] || a > along[1]) continue;
    const q = [p[0] - a * axis[0], p[1] - a * axis[1], p[2] - a * axis[2]], r = Math.hypot(q[0], q[1], q[2]);
    if (r < radius[0] || r > radius[1]) continue;
    if (Math.abs(n[0] * axis[0] + n[1] * axis[1] + n[2] * axis[2]) >= 0.3) continue;
    ang2 += Math.acos(Math.min(1, Math.abs(n[0] * q[0] + n[1] * q[1] + n[2] * q[2]) / r)) ** 2;
    rs.push(r);
  }
  const count = rs.length, mean = rs.reduce((s, r) => s + r, 0) / count;
  return {
    count, mean,
    sd: Math.sqrt(rs.reduce((s, r) => s + (r - mean) ** 2, 0) / count),
    min: Math.min(...rs), max: Math.max(...rs),
    rmsDeg: (Math.sqrt(ang2 / count) * 180) / Math.PI,
  };
}
