/**
 * How many pieces of a drawn surface a viewer sees in a box: the shells of a triangle mesh
 * (triangles joined through shared vertices) that have a vertex inside the box and enclose at least
 * `minVolume` (a cavity, a shell of negative volume inside the liquid, is no piece; nor is a speck
 * smaller than one particle or cell). A rope drawn from spout to pile through the box is one piece,
 * joined to the pile below the box or not; a chain of beads is one per bead. The same measure for
 * both engines, on the surface `viscid run` writes and the app draws. Measures only (tests).
 */
import type { Mesh } from '../../src/types/geometry.ts';
import type { RopeWindow } from '../particle/rope-components.ts';

function find(parent: Int32Array, v: number): number {
  while (parent[v] !== v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

/** Each vertex's shell root, and each root's signed volume (m³; 0 for a vertex that is not a root). */
export function shells(mesh: Mesh): { root: Int32Array; volume: Float64Array } {
  const pos = mesh.positions, idx = mesh.indices, nv = pos.length / 3;
  const parent = new Int32Array(nv);
  for (let v = 0; v < nv; v++) parent[v] = v;
  for (let t = 0; t < idx.length; t += 3) {
    const ra = find(parent, idx[t]);
    parent[find(parent, idx[t + 1])] = ra;
    parent[find(parent, idx[t + 2])] = ra;
  }
  const root = new Int32Array(nv), volume = new Float64Array(nv);
  for (let v = 0; v < nv; v++) root[v] = find(parent, v);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    // a · (b × c) / 6: the tetrahedron to the origin, summed over a closed shell its volume.
    const cx = pos[b + 1] * pos[c + 2] - pos[b + 2] * pos[c + 1];
    const cy = pos[b + 2] * pos[c] - pos[b] * pos[c + 2];
    const cz = pos[b] * pos[c + 1] - pos[b + 1] * pos[c];
    volume[root[idx[t]]] += (pos[a] * cx + pos[a + 1] * cy + pos[a + 2] * cz) / 6;
  }
  return { root, volume };
}

const inside = (p: ArrayLike<number>, v: number, win: RopeWindow): boolean =>
  p[3 * v] >= win.min[0] && p[3 * v] <= win.max[0] && p[3 * v + 1] >= win.min[1] && p[3 * v + 1] <= win.max[1] && p[3 * v + 2] >= win.min[2] && p[3 * v + 2] <= win.max[2];

/** The mesh's shells of at least `minVolume` (m³) with a vertex in `win`. */
export function meshPieces(mesh: Mesh, win: RopeWindow, minVolume: number): number {
  const { root, volume } = shells(mesh), pos = mesh.positions;
  const seen = new Uint8Array(root.length);
  let pieces = 0;
  for (let v = 0; v < root.length; v++) {
    const r = root[v];
    if (seen[r] || volume[r] < minVolume || !inside(pos, v, win)) continue;
    seen[r] = 1;
    pieces++;
  }
  return pieces;
}

/** The lowest height (m) of the shell that holds the mesh's highest vertex (the spout's end of a pour); NaN for an empty mesh. */
export function topShellFloor(mesh: Mesh): number {
  const { root } = shells(mesh), pos = mesh.positions, n = root.length;
  let top = -1;
  for (let v = 0; v < n; v++) if (top < 0 || pos[3 * v + 1] > pos[3 * top + 1]) top = v;
  if (top < 0) return NaN;
  let low = Infinity;
  for (let v = 0; v < n; v++) if (root[v] === root[top]) low = Math.min(low, pos[3 * v + 1]);
  return low;
}
