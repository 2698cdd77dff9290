/**
 * paint-drops' blue cap read from the surface mesh (tests/particle/paint-drops.test.ts): the outward faces within 30°
 * of straight up over the ball (centre at the origin, within 6 cm of it), each vertex's blue share from its red
 * channel (between yellow's and blue's linear red: red and yellow vertices read low), pale under 0.85. The pale
 * vertices are of two kinds, told apart over the mesh's edges: those joined through pale vertices to the non-blue
 * coat beyond 40° from up are the cap's rim, where the blue drop's edge meets the paints under it (its place in the
 * 30° cone is where the blue spread to: docs/decisions.md, "A mixing check over round-off draws"); the rest are
 * islands, pale spots closed in by blue: paint left inside the blue coat, a speckle.
 */
import type { Mesh } from '../../src/types/geometry.ts';

export interface BlueCap {
  /** Vertices of the cap. */
  cap: number;
  /** Shares of them: pale, pale on the rim, pale in islands. */
  pale: number;
  rim: number;
  islands: number;
}

/** The cap of `mesh` (vertex colours linear), with the paints' linear colours `palette` (3 a material) and their indices. */
export function blueCap(mesh: Mesh, palette: ArrayLike<number>, blue: number, yellow: number): BlueCap {
  const P = mesh.positions, C = mesh.colors!, N = mesh.normals, I = mesh.indices, nv = P.length / 3;
  const cos30 = Math.cos(Math.PI / 6), cos40 = Math.cos((40 * Math.PI) / 180);
  const yr = palette[3 * yellow], br = palette[3 * blue];
  const pale = new Uint8Array(nv);
  for (let v = 0; v < nv; v++) pale[v] = (C[3 * v] - yr) / (br - yr) < 0.85 ? 1 : 0;
  // Pale vertices joined by the mesh's edges (union–find), and which groups reach beyond 40° from up.
  const parent = Int32Array.from({ length: nv }, (_, i) => i);
  const find = (a: number): number => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (let t = 0; t < I.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = I[t + e], b = I[t + ((e + 1) % 3)];
      if (pale[a] && pale[b]) parent[find(a)] = find(b);
    }
  }
  const coat = new Uint8Array(nv);
  for (let v = 0; v < nv; v++) {
    if (pale[v] && P[3 * v + 1] < Math.hypot(P[3 * v], P[3 * v + 1], P[3 * v + 2]) * cos40) coat[find(v)] = 1;
  }
  let cap = 0, rim = 0, islands = 0;
  for (let v = 0; v < nv; v++) {
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2], d = Math.hypot(x, y, z);
    if (d > 0.06 || y < d * cos30) continue;
    if ((N[3 * v] * x + N[3 * v + 1] * y + N[3 * v + 2] * z) / d < 0.5) continue;
    cap++;
    if (!pale[v]) continue;
    if (coat[find(v)]) rim++;
    else islands++;
  }
  const k = Math.max(1, cap);
  return { cap, pale: (rim + islands) / k, rim: rim / k, islands: islands / k };
}
