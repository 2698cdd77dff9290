/**
 * The box the grid engine works in (Cline §3.1: explicit bounds the liquid cannot leave) and its
 * walls. Cells (i, j, k) with 0 ≤ i < nx… are inside; cells beyond a wall face are solid, beyond an
 * open face air. Integer keys (for sorting cells lexicographically) cover the box plus a margin.
 */
import type { Boundary, Vec3 } from '../scene/schema.ts';
import type { Scene } from '../scene/scene.ts';
import { estimateScene } from '../scene/estimate.ts';

export const NOSLIP = 0;
export const SLIP = 1;
export const OPEN = 2;
export const MOVING = 3;

/** Cells beyond the box that may exist (buffer cells past an open face). */
export const MARGIN = 12;

export interface GridDomain {
  origin: Vec3;
  h: number;
  n: [number, number, number];
  /** Per face (xmin, xmax, ymin, ymax, zmin, zmax): NOSLIP, SLIP, OPEN or MOVING. */
  kind: Int32Array;
  /** Wall velocity per face, xyz (MOVING faces). */
  wallVelocity: Float64Array;
}

function boundaryKind(b: Boundary): number {
  if (typeof b === 'string') return b === 'noslip' ? NOSLIP : b === 'slip' ? SLIP : OPEN;
  return MOVING;
}

export function makeDomain(scene: Scene): GridDomain {
  const h = scene.grid.cellSize;
  const bounds = estimateScene(scene).gridBounds;
  const n: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) n[a] = Math.max(1, Math.round((bounds.max[a] - bounds.min[a]) / h));
  const kind = new Int32Array(6);
  const wallVelocity = new Float64Array(18);
  const faces = ['xmin', 'xmax', 'ymin', 'ymax', 'zmin', 'zmax'] as const;
  for (let f = 0; f < 6; f++) {
    const b: Boundary = scene.domain ? (scene.domain.faces[faces[f]] ?? scene.domain.boundary) : (bounds.derivedFaces?.[f] ?? 'noslip');
    kind[f] = boundaryKind(b);
    if (typeof b !== 'string') for (let a = 0; a < 3; a++) wallVelocity[3 * f + a] = a === f >> 1 ? 0 : b.velocity[a];
  }
  return { origin: [...bounds.min], h, n, kind, wallVelocity };
}

/** Lexicographic key of a cell (k slowest), valid within the box plus MARGIN. */
export function cellKey(d: GridDomain, i: number, j: number, k: number): number {
  const W = d.n[0] + 2 * MARGIN, H = d.n[1] + 2 * MARGIN;
  return i + MARGIN + W * (j + MARGIN + H * (k + MARGIN));
}

export function keyToCell(d: GridDomain, key: number, out: Int32Array): void {
  const W = d.n[0] + 2 * MARGIN, H = d.n[1] + 2 * MARGIN;
  const i = key % W;
  const r = (key - i) / W;
  const j = r % H;
  out[0] = i - MARGIN;
  out[1] = j - MARGIN;
  out[2] = (r - j) / H - MARGIN;
}

export function inMargin(d: GridDomain, i: number, j: number, k: number): boolean {
  return i >= -MARGIN && j >= -MARGIN && k >= -MARGIN && i < d.n[0] + MARGIN && j < d.n[1] + MARGIN && k < d.n[2] + MARGIN;
}

export function inBox(d: GridDomain, i: number, j: number, k: number): boolean {
  return i >= 0 && j >= 0 && k >= 0 && i < d.n[0] && j < d.n[1] && k < d.n[2];
}

/**
 * 0 inside the box; 1..6 for the face (xmin..zmax) a cell lies beyond; 7 beyond two or more faces.
 */
export function wallOf(d: GridDomain, i: number, j: number, k: number): number {
  // (Written out per axis: an array of the three indices here was garbage at every cell of every rebuild.)
  let w = 0, m = 0;
  const n = d.n;
  if (i < 0) { w = 1; m++; } else if (i >= n[0]) { w = 2; m++; }
  if (j < 0) { w = 3; m++; } else if (j >= n[1]) { w = 4; m++; }
  if (k < 0) { w = 5; m++; } else if (k >= n[2]) { w = 6; m++; }
  return m > 1 ? 7 : w;
}

/** Whether a cell outside the box is solid wall (closed face) rather than open air. */
export function isWallSolid(d: GridDomain, wall: number): boolean {
  if (wall === 0) return false;
  if (wall === 7) return true;
  return d.kind[wall - 1] !== OPEN;
}
