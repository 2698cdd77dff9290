/**
 * How much of a ball a liquid film covers, read from a surface mesh: the share of directions from
 * the ball's centre (on a Fibonacci sphere) with a mesh vertex within `shell` of its surface,
 * on the whole ball and on its upper half.
 */
import type { Mesh } from '../../src/api.ts';

export function filmCoverage(mesh: Mesh, centre: readonly number[], radius: number, shell: number, directions = 400): { all: number; top: number } {
  const dirs: number[][] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < directions; i++) {
    const y = 1 - (2 * (i + 0.5)) / directions, r = Math.sqrt(1 - y * y);
    dirs.push([Math.cos(golden * i) * r, y, Math.sin(golden * i) * r]);
  }
  const hit = new Uint8Array(directions);
  const cosMax = Math.cos(Math.sqrt((4 * Math.PI) / directions));
  const p = mesh.positions;
  for (let v = 0; v < p.length; v += 3) {
    const x = p[v] - centre[0], y = p[v + 1] - centre[1], z = p[v + 2] - centre[2];
    const d = Math.hypot(x, y, z);
    if (d < radius || d > radius + shell) continue;
    for (let i = 0; i < directions; i++) {
      if (hit[i]) continue;
      if ((x * dirs[i][0] + y * dirs[i][1] + z * dirs[i][2]) / d >= cosMax) hit[i] = 1;
    }
  }
  let all = 0, top = 0, nTop = 0;
  for (let i = 0; i < directions; i++) {
    all += hit[i];
    if (dirs[i][1] > 0) { nTop++; top += hit[i]; }
  }
  return { all: all / directions, top: top / nTop };
}
