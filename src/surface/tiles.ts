/**
 * The particle field on a sparse lattice: the global lattice (points h · (I, J, K)) is cut into
 * tiles of TILE³ cells, and only tiles that a particle's kernel reaches are sampled and
 * polygonized. Memory and time then follow the liquid, not its bounding box (a long diagonal
 * strand, a splash spread over a fan). Neighbouring tiles share their border samples; these are
 * bit-identical in both (same particles, same order, same coordinates h · (base + i)), so the
 * crossings agree, and vertices on tile borders are welded through their global lattice edge.
 */
import { HashGrid } from '../spatial/hash-grid.ts';
import { latticeNormal, normaliseField, splatParticles, type Kernel } from './field.ts';
import { marchingCubes, type AmbiguousFaces } from './marching-cubes.ts';
import { localKernels, splatKernels, type AnisotropicKernels } from './anisotropic.ts';
import type { Lattice } from './polygonizer.ts';

/** Cells per tile edge (raised when the kernel reaches farther than a tile). */
export const TILE = 32;

export interface TiledMesh {
  positions: Float32Array;
  indices: Uint32Array;
  /** Field-gradient normals, one per vertex. */
  normals: Float32Array;
}

export function tiledParticleField(
  kernel: Kernel,
  lambda: number,
  h: number,
  positions: ArrayLike<number>,
  volumes: ArrayLike<number> | null | undefined,
  defaultVolume: number,
  members: Int32Array,
  from: number,
  to: number,
  sigmas?: ArrayLike<number> | null,
  stretched?: AnisotropicKernels | null,
  ambiguous: AmbiguousFaces = 'join',
): TiledMesh {
  const n = to - from;
  const T = Math.max(TILE, Math.ceil(kernel.cutoff / h) + 2);
  const local = new Float64Array(3 * n);
  const localVolumes = volumes ? new Float64Array(n) : null;
  const localSigmas = sigmas ? new Float64Array(n) : null;
  // Anisotropic kernels sit at their smoothed centres: those place the particles in tiles.
  const localStretched = stretched ? localKernels(stretched, members, from, to) : null;
  const centres = stretched ? stretched.centres : positions;
  for (let m = 0; m < n; m++) {
    const p = members[from + m];
    local[3 * m] = centres[3 * p];
    local[3 * m + 1] = centres[3 * p + 1];
    local[3 * m + 2] = centres[3 * p + 2];
    if (localVolumes) localVolumes[m] = volumes![p];
    if (localSigmas) localSigmas[m] = sigmas![p];
  }
  const grid = new HashGrid(T * h);
  grid.build(local, n);

  // Candidate tiles: every occupied tile and its 26 neighbours (the kernel is shorter than a tile).
  let a0 = Infinity, b0 = Infinity, c0 = Infinity, a1 = -Infinity, b1 = -Infinity, c1 = -Infinity;
  for (let c = 0; c < grid.cellCount; c++) {
    a0 = Math.min(a0, grid.cellI[c] - 1); a1 = Math.max(a1, grid.cellI[c] + 1);
    b0 = Math.min(b0, grid.cellJ[c] - 1); b1 = Math.max(b1, grid.cellJ[c] + 1);
    c0 = Math.min(c0, grid.cellK[c] - 1); c1 = Math.max(c1, grid.cellK[c] + 1);
  }
  const na = a1 - a0 + 1, nb = b1 - b0 + 1;
  const tiles = new Map<number, number>();
  const tileList: number[] = [];
  for (let c = 0; c < grid.cellCount; c++) {
    for (let d = 0; d < 27; d++) {
      const a = grid.cellI[c] + (d % 3) - 1, b = grid.cellJ[c] + (Math.floor(d / 3) % 3) - 1, k = grid.cellK[c] + Math.floor(d / 9) - 1;
      const key = a - a0 + na * (b - b0 + nb * (k - c0));
      if (!tiles.has(key)) {
        tiles.set(key, tileList.length);
        tileList.push(a, b, k);
      }
    }
  }

  // Global lattice edges on tile borders -> vertex, for welding.
  const NI = na * T + 1, NJ = nb * T + 1;
  const I0 = a0 * T, J0 = b0 * T, K0 = c0 * T;
  const welded = new Map<number, number>();
  const out = new GrowMesh();
  const near = new Int32Array(27);
  const reach = kernel.cutoff + h;
  let list = new Int32Array(1024);
  const lattice: Lattice = { origin: [0, 0, 0], base: [0, 0, 0], spacing: h, nx: T + 1, ny: T + 1, nz: T + 1, values: new Float32Array((T + 1) ** 3) };

  for (let t = 0; t < tileList.length; t += 3) {
    const a = tileList[t], b = tileList[t + 1], k = tileList[t + 2];
    const m = grid.cellsNear((a + 0.5) * T * h, (b + 0.5) * T * h, (k + 0.5) * T * h, near, 1);
    let count = 0;
    for (let q = 0; q < m; q++) count += grid.count[near[q]];
    if (count === 0) continue;
    if (list.length < count) list = new Int32Array(2 * count);
    count = 0;
    // Only particles whose kernel box meets the tile (others would add nothing).
    const xlo = a * T * h - reach, xhi = (a + 1) * T * h + reach;
    const ylo = b * T * h - reach, yhi = (b + 1) * T * h + reach;
    const zlo = k * T * h - reach, zhi = (k + 1) * T * h + reach;
    for (let q = 0; q < m; q++) {
      const c = near[q];
      for (let s = grid.start[c]; s < grid.start[c] + grid.count[c]; s++) {
        const p = grid.order[s];
        const x = local[3 * p], y = local[3 * p + 1], z = local[3 * p + 2];
        if (x >= xlo && x <= xhi && y >= ylo && y <= yhi && z >= zlo && z <= zhi) list[count++] = p;
      }
    }
    if (count === 0) continue;
    // Same particles in the same order as every other tile sharing a sample.
    list.subarray(0, count).sort();
    lattice.base = [a * T, b * T, k * T];
    lattice.origin = [a * T * h, b * T * h, k * T * h];
    lattice.values.fill(0);
    if (localStretched) splatKernels(lattice, kernel, localStretched, localVolumes, defaultVolume, list, 0, count);
    else splatParticles(lattice, kernel, local, localVolumes, defaultVolume, list, 0, count, localSigmas);
    normaliseField(lattice, lambda);
    const piece = marchingCubes(lattice, ambiguous);
    const nv = piece.positions.length / 3;
    if (nv === 0) continue;
    const remap = new Int32Array(nv);
    const S = T + 1;
    for (let v = 0; v < nv; v++) {
      const e = piece.edges![v];
      const axis = e % 3, q = (e - axis) / 3;
      const i = q % S, j = Math.floor(q / S) % S, kk = Math.floor(q / (S * S));
      const onBorder =
        (axis !== 0 && (i === 0 || i === T)) || (axis !== 1 && (j === 0 || j === T)) || (axis !== 2 && (kk === 0 || kk === T));
      let id = -1;
      let key = 0;
      if (onBorder) {
        key = 3 * (a * T + i - I0 + NI * (b * T + j - J0 + NJ * (k * T + kk - K0))) + axis;
        id = welded.get(key) ?? -1;
      }
      if (id < 0) {
        const x = piece.positions[3 * v], y = piece.positions[3 * v + 1], z = piece.positions[3 * v + 2];
        id = out.vertex(x, y, z);
        if (!latticeNormal(lattice, x, y, z, out.normals, 3 * id)) out.normals[3 * id + 1] = 1;
        if (onBorder) welded.set(key, id);
      }
      remap[v] = id;
    }
    for (let s = 0; s < piece.indices.length; s++) out.index(remap[piece.indices[s]]);
  }
  return out.finish();
}

class GrowMesh {
  positions = new Float32Array(3 * 1024);
  normals = new Float32Array(3 * 1024);
  indices = new Uint32Array(3 * 2048);
  vertices = 0;
  indexCount = 0;

  vertex(x: number, y: number, z: number): number {
    if (3 * this.vertices + 3 > this.positions.length) {
      const p = new Float32Array(2 * this.positions.length), n = new Float32Array(2 * this.positions.length);
      p.set(this.positions);
      n.set(this.normals);
      this.positions = p;
      this.normals = n;
    }
    this.positions[3 * this.vertices] = x;
    this.positions[3 * this.vertices + 1] = y;
    this.positions[3 * this.vertices + 2] = z;
    return this.vertices++;
  }

  index(i: number): void {
    if (this.indexCount >= this.indices.length) {
      const b = new Uint32Array(2 * this.indices.length);
      b.set(this.indices);
      this.indices = b;
    }
    this.indices[this.indexCount++] = i;
  }

  finish(): TiledMesh {
    return {
      positions: this.positions.slice(0, 3 * this.vertices),
      normals: this.normals.slice(0, 3 * this.vertices),
      indices: this.indices.slice(0, this.indexCount),
    };
  }
}
