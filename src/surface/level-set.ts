/**
 * A mesh from a sampled level set (Cline et al. 2005 §10: φ < 0 inside, a signed distance), through
 * the same polygonizers and resolution rule as particles: the lattice spacing is
 * output.resolution × cellSize / 2 (a cell is about a particle diameter), laid out from the first
 * sample so that at resolution 1 every sample is a lattice point. φ is resampled
 * trilinearly over the bounds of its inside samples plus a margin, intersected with the sampled box
 * (max(φ, box distance), φ continued from the nearest sample), so liquid touching the box's border
 * is closed off there. Sheets thinner than the samples can hold are meshed through the points that
 * mark them (`sheetPoints`, sheet-field.ts). Last, the solids cut it: max(φ, −d_solid) at every
 * lattice point, with the solids' exact distance at the surface's time (solid-clip.ts).
 */
import type { Mesh } from '../types/geometry.ts';
import type { OutputSettings, Vec3 } from '../scene/schema.ts';
import { latticeNormal, latticeOver } from './field.ts';
import { concatenate, type SurfaceOptions } from './particle-surface.ts';
import { polygonizers, type Lattice, type PolyMesh } from './polygonizer.ts';
import { meshSheets } from './sheet-field.ts';
import { clipBySolids, compiledShapes, solidDistance, solidSamples, type ClipSolid } from './solid-clip.ts';

export interface LevelSetInput {
  origin: Vec3;
  cellSize: number;
  dims: [number, number, number];
  /** Samples at origin + cellSize (i, j, k), index i + nx (j + ny k); negative inside. */
  phi: Float32Array | Float64Array;
  /**
   * Points (xyz) in sheets thinner than a sample spacing, which φ holds only at the samples nearest
   * them: meshed as a sheet through them (sheet-field.ts), reaching `sheetReach` sample spacings (1).
   */
  sheetPoints?: Float64Array;
  sheetReach?: number;
  /**
   * The solids at the surface's time: the drawn φ is max(φ, −d_solid) at every lattice point
   * (solid-clip.ts), so the liquid's side lies on a solid's surface, not on its cells.
   */
  solids?: readonly ClipSolid[];
  /** Colour at a point (rgb in 0..1 into out). */
  colors?: (x: number, y: number, z: number, out: Float32Array) => void;
}

type OutputLike = Pick<OutputSettings, 'resolution' | 'polygonizer' | 'colors'>;

/**
 * The lattice the polygonizer meshes for `input` (values φ / spacing, φ max'ed with the box's distance
 * and min'ed with the sheets through input.sheetPoints), or null where no sample is inside. With
 * `globalLattice` the lattice lies at the global multiples of its spacing, as before it was laid out
 * from the samples (for measuring what that placement meshed).
 */
export function levelSetLattice(input: LevelSetInput, output: Pick<OutputSettings, 'resolution'>, globalLattice = false): Lattice | null {
  const { origin, cellSize: dx, dims, phi } = input;
  const [gx, gy, gz] = dims;
  if (!(gx >= 2 && gy >= 2 && gz >= 2)) throw new Error(`level set dims must be at least 2 × 2 × 2, got ${dims.join(' × ')}`);
  if (phi.length !== gx * gy * gz) throw new Error(`level set has ${phi.length} samples, dims ${dims.join(' × ')} need ${gx * gy * gz}`);
  const h = (output.resolution * dx) / 2;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < gz; k++) {
    for (let j = 0; j < gy; j++) {
      for (let i = 0; i < gx; i++) {
        if (!(phi[i + gx * (j + gy * k)] < 0)) continue;
        if (i < lo[0]) lo[0] = i;
        if (i > hi[0]) hi[0] = i;
        if (j < lo[1]) lo[1] = j;
        if (j > hi[1]) hi[1] = j;
        if (k < lo[2]) lo[2] = k;
        if (k > hi[2]) hi[2] = k;
      }
    }
  }
  const sheets = input.sheetPoints, sheetCount = sheets ? sheets.length / 3 : 0;
  // The lattice also covers the sheets' points (a sheet's samples may all be positive).
  for (let p = 0; p < sheetCount; p++) {
    for (let a = 0; a < 3; a++) {
      const g = Math.round((sheets![3 * p + a] - origin[a]) / dx);
      if (g < lo[a]) lo[a] = Math.max(0, g);
      if (g > hi[a]) hi[a] = Math.min(dims[a] - 1, g);
    }
  }
  if (lo[0] === Infinity) return null;
  // The lattice is laid out from the first sample, not from the global multiples of h: with h = dx/2
  // every sample is a lattice point, so a layer of liquid centres thinner than a cell (a sheet the
  // particle level set holds at φ = −0.1 dx) is sampled where φ is negative instead of a fraction of a
  // cell beside it, where trilinear φ is already positive and the layer was meshed as lace.
  const lattice = globalLattice
    ? latticeOver(lo.map((v, a) => origin[a] + dx * v), hi.map((v, a) => origin[a] + dx * v), dx + 2 * h, h)
    : latticeOver(lo.map((v) => dx * v), hi.map((v) => dx * v), dx + 2 * h, h);
  if (!globalLattice) {
    for (let a = 0; a < 3; a++) lattice.origin[a] += origin[a];
    delete lattice.base; // no longer a piece of the global lattice
  }

  const { nx, ny, nz, values } = lattice;
  const inv = 1 / dx, invH = 1 / h;
  const boxMax = [origin[0] + dx * (gx - 1), origin[1] + dx * (gy - 1), origin[2] + dx * (gz - 1)];
  const solids = input.solids && input.solids.length > 0 ? input.solids : null;
  // The samples the lattice reads (its extent, a sample beyond).
  const from = [0, 1, 2].map((a) => Math.max(0, Math.floor((lattice.origin[a] - origin[a]) * inv) - 1));
  const to = [0, 1, 2].map((a) => Math.min(dims[a] - 1, Math.ceil((lattice.origin[a] + h * ([nx, ny, nz][a] - 1) - origin[a]) * inv) + 1));
  const inSolid = solids ? solidSamples(solids, origin, dx, dims, from, to) : null, shapes = solids ? compiledShapes(solids) : [];
  for (let k = 0; k < nz; k++) {
    const z = lattice.origin[2] + h * k;
    for (let j = 0; j < ny; j++) {
      const y = lattice.origin[1] + h * j;
      for (let i = 0; i < nx; i++) {
        const x = lattice.origin[0] + h * i;
        const cx = clamp(x, origin[0], boxMax[0]), cy = clamp(y, origin[1], boxMax[1]), cz = clamp(z, origin[2], boxMax[2]);
        const u = (cx - origin[0]) * inv, v = (cy - origin[1]) * inv, w = (cz - origin[2]) * inv;
        let f = trilinear(phi, gx, gy, gz, u, v, w);
        if (inSolid && touchesSolid(inSolid, gx, gy, gz, u, v, w) && solidDistance(solids!, shapes, x, y, z) > 0) f = besideSolids(phi, inSolid, gx, gy, gz, u, v, w, f);
        const box = boxDistance(x, y, z, origin, boxMax);
        values[i + nx * (j + ny * k)] = Math.max(f, box) * invH;
      }
    }
  }
  if (sheetCount > 0) meshSheets(lattice, sheets!, sheetCount, (input.sheetReach ?? 1) * dx);
  if (solids) clipBySolids(lattice, solids);
  return lattice;
}

export function levelSetSurface(input: LevelSetInput, output: OutputLike, options: SurfaceOptions = {}): Mesh {
  const polygonize = polygonizers[options.polygonizer ?? output.polygonizer];
  const timings = options.timings;
  const t0 = performance.now();
  const lattice = levelSetLattice(input, output);
  if (!lattice) return { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0), ...(output.colors && input.colors ? { colors: new Float32Array(0) } : {}) };
  const t1 = performance.now();
  const piece: PolyMesh = polygonize(lattice);
  const t2 = performance.now();
  const nv = piece.positions.length / 3;
  const normals = new Float32Array(3 * nv);
  for (let v = 0; v < nv; v++) {
    if (!latticeNormal(lattice, piece.positions[3 * v], piece.positions[3 * v + 1], piece.positions[3 * v + 2], normals, 3 * v)) normals[3 * v + 1] = 1;
  }
  const mesh = concatenate([piece], [normals]);
  if (output.colors && input.colors) {
    const colors = new Float32Array(3 * nv);
    const rgb = new Float32Array(3);
    for (let v = 0; v < nv; v++) {
      input.colors(mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2], rgb);
      colors.set(rgb, 3 * v);
    }
    mesh.colors = colors;
  }
  if (timings) {
    timings.regions = 0;
    timings.sampling = t1 - t0;
    timings.polygonize = t2 - t1;
    timings.attributes = performance.now() - t2;
  }
  return mesh;
}

/** Signed distance to the box [lo, hi], negative inside. */
function boxDistance(x: number, y: number, z: number, lo: ArrayLike<number>, hi: ArrayLike<number>): number {
  const dx = Math.max(lo[0] - x, x - hi[0]), dy = Math.max(lo[1] - y, y - hi[1]), dz = Math.max(lo[2] - z, z - hi[2]);
  const outside = Math.hypot(Math.max(dx, 0), Math.max(dy, 0), Math.max(dz, 0));
  return outside > 0 ? outside : Math.max(dx, dy, dz);
}

/**
 * φ at (x, y, z) as the mesher reads it: trilinear in the samples, continued from the nearest
 * sample outside the sampled box, beside and in the solids as levelSetLattice reads it (for
 * measures of a surface job, e.g. the open share of a film).
 */
export function levelSetAt(input: LevelSetInput, x: number, y: number, z: number): number {
  const { origin, cellSize, dims, phi } = input, [gx, gy, gz] = dims, inv = 1 / cellSize;
  const u = clamp((x - origin[0]) * inv, 0, gx - 1), v = clamp((y - origin[1]) * inv, 0, gy - 1), w = clamp((z - origin[2]) * inv, 0, gz - 1);
  const f = trilinear(phi, gx, gy, gz, u, v, w);
  const solids = input.solids;
  if (!solids || solids.length === 0) return f;
  // Beside and in the solids as levelSetLattice reads them.
  let inSolid = solidFlags.get(input);
  if (!inSolid) solidFlags.set(input, (inSolid = solidSamples(solids, origin, cellSize, dims, [0, 0, 0], [gx - 1, gy - 1, gz - 1])));
  const d = solidDistance(solids, compiledShapes(solids), x, y, z);
  const g = d > 0 && touchesSolid(inSolid, gx, gy, gz, u, v, w) ? besideSolids(phi, inSolid, gx, gy, gz, u, v, w, f) : f;
  return Math.max(g, -d);
}

/** levelSetAt's solid samples of each input it was asked about. */
const solidFlags = new WeakMap<LevelSetInput, Uint8Array>();

function clamp(x: number, a: number, b: number): number {
  return x < a ? a : x > b ? b : x;
}

/** Whether a solid sample is a corner of the sample cell holding (u, v, w). */
function touchesSolid(solid: Uint8Array, gx: number, gy: number, gz: number, u: number, v: number, w: number): boolean {
  const i = Math.min(gx - 2, Math.floor(u)), j = Math.min(gy - 2, Math.floor(v)), k = Math.min(gz - 2, Math.floor(w));
  const p = i + gx * (j + gy * k), sy = gx, sz = gx * gy;
  return (solid[p] | solid[p + 1] | solid[p + sy] | solid[p + sy + 1] | solid[p + sz] | solid[p + sz + 1] | solid[p + sy + sz] | solid[p + sy + sz + 1]) !== 0;
}

/**
 * φ at a point outside the solids whose sample cell has a solid corner: the trilinear φ (`plain`)
 * unless the corners outside the solids alone (their weights renormalised) read air, then that.
 * A solid sample's φ is the mean of its liquid and air neighbours (grid/redistance.ts
 * fillSolidPhi), so across a wall a cell or so thick it carries the liquid's φ < 0 past the wall's
 * far side, where the clip (−d < 0 there) keeps it: cup-pour's cup drew slivers of honey outside
 * its wall where it tipped. Read beside the wall, the far side reads the air it lies in; on the
 * liquid's side the trilinear φ stays, which the clip puts on the wall.
 */
function besideSolids(phi: ArrayLike<number>, solid: Uint8Array, gx: number, gy: number, gz: number, u: number, v: number, w: number, plain: number): number {
  const i = Math.min(gx - 2, Math.floor(u)), j = Math.min(gy - 2, Math.floor(v)), k = Math.min(gz - 2, Math.floor(w));
  const p = i + gx * (j + gy * k), sy = gx, sz = gx * gy;
  const fu = u - i, fv = v - j, fw = w - k;
  let sum = 0, weight = 0;
  for (let c = 0; c < 8; c++) {
    const q = p + (c & 1) + (c & 2 ? sy : 0) + (c & 4 ? sz : 0);
    if (solid[q]) continue;
    const wt = (c & 1 ? fu : 1 - fu) * (c & 2 ? fv : 1 - fv) * (c & 4 ? fw : 1 - fw);
    sum += wt * phi[q]; weight += wt;
  }
  if (!(weight > 0)) return plain;
  const beside = sum / weight;
  return beside > 0 && beside > plain ? beside : plain;
}

function trilinear(phi: ArrayLike<number>, gx: number, gy: number, gz: number, u: number, v: number, w: number): number {
  // u, v, w are clamped into the sampled box by the caller.
  const i = Math.min(gx - 2, Math.floor(u)), j = Math.min(gy - 2, Math.floor(v)), k = Math.min(gz - 2, Math.floor(w));
  const fu = u - i, fv = v - j, fw = w - k;
  const p = i + gx * (j + gy * k), sy = gx, sz = gx * gy;
  const c00 = phi[p] + fu * (phi[p + 1] - phi[p]);
  const c10 = phi[p + sy] + fu * (phi[p + sy + 1] - phi[p + sy]);
  const c01 = phi[p + sz] + fu * (phi[p + sz + 1] - phi[p + sz]);
  const c11 = phi[p + sy + sz] + fu * (phi[p + sy + sz + 1] - phi[p + sy + sz]);
  const c0 = c00 + fv * (c10 - c00), c1 = c01 + fv * (c11 - c01);
  return c0 + fw * (c1 - c0);
}
