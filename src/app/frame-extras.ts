/**
 * The parts of a frame besides the surface, as fresh typed arrays the simulation worker transfers
 * to the page: points (thinned for display), velocity debug lines, liquid-cell outlines and
 * smoke splats.
 */
import * as viscid from '../index.ts';
import type { FluidPoints, Scene, Simulation } from '../index.ts';
import type { FrameMessage } from './protocol.ts';
import { viewBounds } from './scene-info.ts';

/** More points than this are thinned (every k-th) for display: software WebGL draws ~1e5 sprites. */
const MAX_DRAWN_POINTS = 150_000;

export function points(fp: FluidPoints): FrameMessage['points'] {
  const stride = Math.max(1, Math.ceil(fp.count / MAX_DRAWN_POINTS));
  const n = Math.ceil(fp.count / stride);
  const positions = new Float32Array(3 * n);
  const aux = new Float32Array(3 * n);
  const p = fp.positions, v = fp.velocities;
  for (let o = 0, i = 0; i < fp.count; i += stride, o++) {
    positions[3 * o] = p[3 * i]; positions[3 * o + 1] = p[3 * i + 1]; positions[3 * o + 2] = p[3 * i + 2];
    aux[3 * o] = fp.materials[i];
    aux[3 * o + 1] = fp.surface ? fp.surface[i] : -1;
    aux[3 * o + 2] = Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  }
  return { count: n, total: fp.count, positions, aux };
}

export function velocityLines(s: Simulation, sc: Scene): Float32Array {
  const { min, max } = viewBounds(sc);
  const n = 10;
  const out = new Float32Array(n * n * n * 6);
  const spacing = Math.min(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / n;
  let maxSpeed = 1e-9;
  const vel: number[][] = [];
  const p = [0, 0, 0];
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    p[0] = min[0] + ((i + 0.5) * (max[0] - min[0])) / n;
    p[1] = min[1] + ((j + 0.5) * (max[1] - min[1])) / n;
    p[2] = min[2] + ((k + 0.5) * (max[2] - min[2])) / n;
    const v = s.velocityAt(p);
    vel.push([p[0], p[1], p[2], v[0], v[1], v[2]]);
    maxSpeed = Math.max(maxSpeed, Math.hypot(v[0], v[1], v[2]));
  }
  const scale = spacing / maxSpeed;
  let o = 0;
  for (const [x, y, z, vx, vy, vz] of vel) {
    if (!Number.isFinite(vx + vy + vz) || Math.hypot(vx, vy, vz) < maxSpeed * 1e-3) continue;
    out[o++] = x; out[o++] = y; out[o++] = z;
    out[o++] = x + vx * scale; out[o++] = y + vy * scale; out[o++] = z + vz * scale;
  }
  return out.slice(0, o);
}

const MAX_CELLS = 8_000;

/** More smoke cells than this are thinned (every k-th, splats grown to match) for display. */
const MAX_SMOKE_SPLATS = 40_000;

/** The smoke-holding cells and their densities (grid smoke), or null for engines without densities. */
export function smokeSplats(fp: FluidPoints, sc: Scene): FrameMessage['smoke'] {
  const d = fp.densities;
  if (!d) return null;
  const stride = Math.max(1, Math.ceil(fp.count / MAX_SMOKE_SPLATS));
  const n = Math.ceil(fp.count / stride);
  const positions = new Float32Array(3 * n), density = new Float32Array(n);
  const p = fp.positions;
  for (let o = 0, i = 0; i < fp.count; i += stride, o++) {
    positions[3 * o] = p[3 * i]; positions[3 * o + 1] = p[3 * i + 1]; positions[3 * o + 2] = p[3 * i + 2];
    density[o] = d[i];
  }
  return { count: n, positions, density, cellSize: sc.grid.cellSize * Math.cbrt(stride) };
}
const CUBE_EDGES = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];

/**
 * Outlines of the grid cells that hold markers, on the grid engine's lattice (origin at the
 * estimated grid bounds, as src/grid/domain.ts places it): Cline §4's liquid cells.
 */
export function cellLines(fp: FluidPoints, sc: Scene): Float32Array {
  const h = sc.grid.cellSize;
  const origin = viscid.estimateScene(sc).gridBounds.min;
  const seen = new Set<number>();
  const cells: number[] = [];
  for (let q = 0; q < fp.count && cells.length < 3 * MAX_CELLS; q++) {
    const i = Math.floor((fp.positions[3 * q] - origin[0]) / h);
    const j = Math.floor((fp.positions[3 * q + 1] - origin[1]) / h);
    const k = Math.floor((fp.positions[3 * q + 2] - origin[2]) / h);
    if (i < -512 || i >= 512 || j < -512 || j >= 512 || k < -512 || k >= 512) continue;
    const key = ((i + 512) * 1024 + (j + 512)) * 1024 + (k + 512);
    if (seen.has(key)) continue;
    seen.add(key);
    cells.push(i, j, k);
  }
  const out = new Float32Array((cells.length / 3) * 72);
  let o = 0;
  for (let c = 0; c < cells.length; c += 3) {
    for (const [a, b] of CUBE_EDGES) {
      for (const corner of [a, b]) {
        out[o++] = origin[0] + (cells[c] + (corner & 1)) * h;
        out[o++] = origin[1] + (cells[c + 1] + ((corner >> 1) & 1)) * h;
        out[o++] = origin[2] + (cells[c + 2] + ((corner >> 2) & 1)) * h;
      }
    }
  }
  return out;
}
