/**
 * The drawn liquid cut by the solids it touches: φ_draw = max(φ, −d_solid) at every point of the
 * mesher's lattice, with d_solid the solids' exact signed distance (negative inside) at the frame's
 * pose, so the drawn surface meets a solid's own surface where the liquid lies against it, not the
 * staircase of the solid's cells that φ runs through (the CSG difference of the liquid's and the
 * collider's level sets, as production FLIP meshers draw liquid against colliders; e.g. Y. K. Li,
 * "PIC/FLIP Simulator Meshing Pipeline", 2014: meshes "that fit correctly into solid boundaries").
 * The solids travel as plain data (the scene's shape, its loaded mesh file, the pose) so that a mesh
 * worker can clip a surface job as the engine's own thread does, bit for bit.
 */
import type { Shape } from '../scene/schema.ts';
import type { TriMesh } from '../scene/scene.ts';
import { compileShape, type CompiledShape } from '../scene/shapes.ts';
import type { Lattice } from './polygonizer.ts';

/** A solid as the mesher clips by it: its rest-pose shape and its pose at the surface's time. */
export interface ClipSolid {
  /** The scene's shape, in the rest pose. */
  shape: Shape;
  /** The loaded file of a `mesh` shape. */
  mesh?: TriMesh;
  /** Rotation (3×3 row-major) and translation: world = R · rest + t. */
  R: Float64Array;
  t: Float64Array;
}

/**
 * Lattice points further than this many spacings from a solid (by its bounds), or already this far
 * into the air, keep their value: the clip can move neither the sign nor a vertex there.
 */
const REACH = 3;

/** Compiled shapes by the ClipSolid's shape object (the engine's thread passes the same one each frame). */
const compiled = new WeakMap<object, CompiledShape>();

/** The solids' shapes, compiled once per surface (a mesh's distance field on first use). */
export function compiledShapes(solids: readonly ClipSolid[]): CompiledShape[] {
  return solids.map(compiledShape);
}

function compiledShape(solid: ClipSolid): CompiledShape {
  let c = compiled.get(solid.shape);
  if (!c) {
    c = compileShape(solid.shape, solid.shape.type === 'mesh' && solid.mesh ? { [solid.shape.file]: solid.mesh } : {});
    compiled.set(solid.shape, c);
  }
  return c;
}

/** The index range [lo, hi] (inclusive, per axis) over a solid's posed bounds plus `margin`; all of it for a plane. */
function rangeOver(solid: ClipSolid, shape: CompiledShape, origin: ArrayLike<number>, h: number, n: ArrayLike<number>, margin: number, lo: number[], hi: number[]): void {
  const b = shape.bounds, R = solid.R, t = solid.t;
  for (let a = 0; a < 3; a++) {
    lo[a] = 0; hi[a] = n[a] - 1;
    if (shape.type === 'plane') continue;
    let wmin = t[a], wmax = t[a];
    for (let e = 0; e < 3; e++) {
      const r = R[3 * a + e], p = r * b.min[e], q = r * b.max[e];
      wmin += Math.min(p, q); wmax += Math.max(p, q);
    }
    lo[a] = Math.max(0, Math.floor((wmin - margin - origin[a]) / h));
    hi[a] = Math.min(n[a] - 1, Math.ceil((wmax + margin - origin[a]) / h));
  }
}

/**
 * 1 for each sample (origin + spacing · (i, j, k)), of those in [from, to] per axis, inside a
 * solid: the samples the engine's solid cells hold, whose φ (the mean of their liquid and air
 * neighbours, grid/redistance.ts fillSolidPhi) the mesher reads outside the solids only where the
 * others do not read air (level-set.ts).
 */
export function solidSamples(
  solids: readonly ClipSolid[], origin: ArrayLike<number>, spacing: number, dims: ArrayLike<number>,
  from: ArrayLike<number>, to: ArrayLike<number>,
): Uint8Array {
  const gx = dims[0], gy = dims[1], flags = new Uint8Array(dims[0] * dims[1] * dims[2]);
  const lo = [0, 0, 0], hi = [0, 0, 0];
  for (const solid of solids) {
    const shape = compiledShape(solid), R = solid.R, t = solid.t, sdf = shape.sdf;
    rangeOver(solid, shape, origin, spacing, dims, spacing, lo, hi);
    for (let a = 0; a < 3; a++) { lo[a] = Math.max(lo[a], from[a]); hi[a] = Math.min(hi[a], to[a]); }
    for (let k = lo[2]; k <= hi[2]; k++) {
      const dz = origin[2] + spacing * k - t[2];
      for (let j = lo[1]; j <= hi[1]; j++) {
        const dy = origin[1] + spacing * j - t[1];
        for (let i = lo[0]; i <= hi[0]; i++) {
          const dx = origin[0] + spacing * i - t[0];
          if (sdf(R[0] * dx + R[3] * dy + R[6] * dz, R[1] * dx + R[4] * dy + R[7] * dz, R[2] * dx + R[5] * dy + R[8] * dz) < 0) flags[i + gx * (j + gy * k)] = 1;
        }
      }
    }
  }
  return flags;
}

/** The least signed distance to the solids at a world point (negative inside one). */
export function solidDistance(solids: readonly ClipSolid[], shapes: readonly CompiledShape[], x: number, y: number, z: number): number {
  let best = Infinity;
  for (let b = 0; b < solids.length; b++) {
    const R = solids[b].R, t = solids[b].t, dx = x - t[0], dy = y - t[1], dz = z - t[2];
    const d = shapes[b].sdf(R[0] * dx + R[3] * dy + R[6] * dz, R[1] * dx + R[4] * dy + R[7] * dz, R[2] * dx + R[5] * dy + R[8] * dz);
    if (d < best) best = d;
  }
  return best;
}

/** Lattice values (φ / spacing) max'ed with −d / spacing of each solid near the liquid. */
export function clipBySolids(lattice: Lattice, solids: readonly ClipSolid[]): void {
  const { nx, ny, nz, spacing: h, values, origin } = lattice;
  const invH = 1 / h, margin = REACH * h;
  const lo = [0, 0, 0], hi = [0, 0, 0];
  for (const solid of solids) {
    const shape = compiledShape(solid), R = solid.R, t = solid.t;
    rangeOver(solid, shape, origin, h, [nx, ny, nz], margin, lo, hi);
    const sdf = shape.sdf;
    for (let k = lo[2]; k <= hi[2]; k++) {
      const z = origin[2] + h * k;
      for (let j = lo[1]; j <= hi[1]; j++) {
        const y = origin[1] + h * j;
        for (let i = lo[0]; i <= hi[0]; i++) {
          const p = i + nx * (j + ny * k), v = values[p];
          if (v >= REACH) continue;
          const x = origin[0] + h * i;
          // The rest-pose point: Rᵀ (x − t).
          const dx = x - t[0], dy = y - t[1], dz = z - t[2];
          const d = sdf(R[0] * dx + R[3] * dy + R[6] * dz, R[1] * dx + R[4] * dy + R[7] * dz, R[2] * dx + R[5] * dy + R[8] * dz);
          const cut = -d * invH;
          if (cut > v) values[p] = cut;
        }
      }
    }
  }
}
