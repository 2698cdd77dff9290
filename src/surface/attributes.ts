/**
 * Vertex attributes from nearby particles (Steele et al. 2004, "Rendering" and "Results"):
 * colours the Gaussian-weighted average of nearby particle colours, so paints mix only within a
 * kernel width of where they meet; and, when the source has normals (output.normals
 * "particles"), normals the Gaussian-weighted average of nearby surface-particle normals (the
 * caller has already written the field-gradient normal, kept where no surface particle is near or
 * where the average points inward).
 *
 * The colours' Gaussian may be elliptical, aligned with the surface at the vertex (its normal as
 * the caller wrote it, the field's gradient): σ_along in the tangent plane, σ_across along the
 * normal, the reconstruction kernel of surface splatting (Zwicker et al. 2001, "Surface
 * Splatting", §3: an elliptical Gaussian in the surface's tangent frame). Narrow across, a vertex
 * takes the paint of the particles at the surface, not of those a layer beneath; wide along, a
 * patch of paint smaller than the particle spacing (one particle of another paint in a coat)
 * shows as a tint over σ_along rather than as a spot of its own colour.
 *
 * Vertex-to-particle look-ups use the shared hash grid (chosen over an octree: BENCHMARKS.md,
 * "Vertex look-ups").
 */
import { HashGrid } from '../spatial/hash-grid.ts';

export interface AttributeSource {
  count: number;
  positions: ArrayLike<number>;
  normals?: ArrayLike<number>;
  surface?: ArrayLike<number>;
  colors?: Float32Array;
}

/** Radius of the attribute kernel, in σ. */
export const ATTRIBUTE_REACH = 2.5;

/** ATTRIBUTE_REACH² / 2: the exponent d² / 2σ² at the reach. */
const HALF_REACH2 = (ATTRIBUTE_REACH * ATTRIBUTE_REACH) / 2;

/** The colours' elliptical Gaussian, m: σ in the surface's tangent plane and along its normal. */
export interface ColourKernel {
  along: number;
  across: number;
}

/**
 * Overwrites `normals` (where surface particles are near) and fills `colors` (when given) for
 * the `vertexCount` vertices in `vertices`. σ is the normals' Gaussian width, m; the colours'
 * is `colourKernel` (default: round, σ).
 */
export function vertexAttributes(
  src: AttributeSource,
  vertices: Float32Array,
  vertexCount: number,
  sigma: number,
  normals: Float32Array,
  colors: Float32Array | null,
  colourKernel: ColourKernel = { along: sigma, across: sigma },
): void {
  const wantNormals = !!src.normals;
  if (colors && src.colors && isUniform(src.colors, src.count)) {
    // One paint: every vertex gets its colour, and colours need no look-ups.
    const cr = src.colors[0], cg = src.colors[1], cb = src.colors[2];
    for (let v = 0; v < vertexCount; v++) {
      colors[3 * v] = cr;
      colors[3 * v + 1] = cg;
      colors[3 * v + 2] = cb;
    }
    colors = null;
  }
  if (!wantNormals && !colors) return;
  if (!colors) src = { ...src, colors: undefined };
  const reach = ATTRIBUTE_REACH * (colors ? Math.max(sigma, colourKernel.along, colourKernel.across) : sigma);
  const weights: Weights = {
    normalReach2: (ATTRIBUTE_REACH * sigma) ** 2,
    normalK: 1 / (2 * sigma * sigma),
    colourReach2: (ATTRIBUTE_REACH * Math.max(colourKernel.along, colourKernel.across)) ** 2,
    alongK: 1 / (2 * colourKernel.along ** 2),
    acrossK: 1 / (2 * colourKernel.across ** 2),
  };
  const acc = new Float64Array(8);
  // Cells of half the reach, 5³ around the vertex's: 0.58 of the volume that 3³ cells of the
  // reach scan.
  const grid = new HashGrid(reach / 2);
  grid.build(src.positions, src.count);
  const cells = new Int32Array(125);
  const { order, start, count } = grid;
  const inv = 2 / reach;
  // Polygonizers emit vertices in lattice order, so neighbours often share a cell: reuse its list.
  let ci = NaN, cj = NaN, ck = NaN, m = 0;
  for (let v = 0; v < vertexCount; v++) {
    const x = vertices[3 * v], y = vertices[3 * v + 1], z = vertices[3 * v + 2];
    const nx = normals[3 * v], ny = normals[3 * v + 1], nz = normals[3 * v + 2];
    acc.fill(0);
    const i = Math.floor(x * inv), j = Math.floor(y * inv), k = Math.floor(z * inv);
    if (i !== ci || j !== cj || k !== ck) {
      m = grid.cellsNear(x, y, z, cells, 2);
      ci = i;
      cj = j;
      ck = k;
    }
    for (let q = 0; q < m; q++) {
      const c = cells[q];
      for (let s = start[c], e = start[c] + count[c]; s < e; s++) accumulate(src, order[s], x, y, z, nx, ny, nz, weights, acc);
    }
    finish(acc, v, wantNormals, normals, colors);
  }
}

/** The kernels' constants: reaches² (m²) and 1 / 2σ² (m⁻²) of the normals' and the colours' Gaussians. */
interface Weights {
  normalReach2: number;
  normalK: number;
  colourReach2: number;
  alongK: number;
  acrossK: number;
}

/**
 * Adds particle p's Gaussian-weighted normal (surface particles) and colour to acc = [n xyz,
 * n weight, rgb, c weight]; (nx, ny, nz) is the vertex's unit normal, which aligns the colours'
 * Gaussian.
 */
function accumulate(src: AttributeSource, p: number, x: number, y: number, z: number, nx: number, ny: number, nz: number, k: Weights, acc: Float64Array): void {
  const pos = src.positions;
  const dx = pos[3 * p] - x, dy = pos[3 * p + 1] - y, dz = pos[3 * p + 2] - z;
  const d2 = dx * dx + dy * dy + dz * dz;
  const pn = src.normals;
  if (pn && d2 <= k.normalReach2 && (!src.surface || src.surface[p])) {
    const w = Math.exp(-d2 * k.normalK);
    const ax = pn[3 * p], ay = pn[3 * p + 1], az = pn[3 * p + 2];
    if (ax !== 0 || ay !== 0 || az !== 0) {
      acc[0] += w * ax;
      acc[1] += w * ay;
      acc[2] += w * az;
      acc[3] += w;
    }
  }
  const pc = src.colors;
  if (pc && d2 <= k.colourReach2) {
    // Distance along the normal, and in the tangent plane: d² = across² + along².
    // Within the ellipsoid of ATTRIBUTE_REACH σ on each axis, as the round kernel within its sphere.
    const across = dx * nx + dy * ny + dz * nz;
    const across2 = across * across;
    const e = (d2 - across2) * k.alongK + across2 * k.acrossK;
    if (e > HALF_REACH2) return;
    const w = Math.exp(-e);
    acc[4] += w * pc[3 * p];
    acc[5] += w * pc[3 * p + 1];
    acc[6] += w * pc[3 * p + 2];
    acc[7] += w;
  }
}

function finish(acc: Float64Array, v: number, wantNormals: boolean, normals: Float32Array, colors: Float32Array | null): void {
  if (wantNormals && acc[3] > 0) {
    const len = Math.hypot(acc[0], acc[1], acc[2]);
    // Normals that cancel (thin sheets) or point into the field are worse than the gradient.
    const dot = acc[0] * normals[3 * v] + acc[1] * normals[3 * v + 1] + acc[2] * normals[3 * v + 2];
    if (len > 0.2 * acc[3] && dot > 0) {
      normals[3 * v] = acc[0] / len;
      normals[3 * v + 1] = acc[1] / len;
      normals[3 * v + 2] = acc[2] / len;
    }
  }
  if (colors) {
    const inv = acc[7] > 0 ? 1 / acc[7] : 0;
    colors[3 * v] = acc[4] * inv;
    colors[3 * v + 1] = acc[5] * inv;
    colors[3 * v + 2] = acc[6] * inv;
  }
}

function isUniform(c: Float32Array, n: number): boolean {
  for (let p = 1; p < n; p++) {
    if (c[3 * p] !== c[0] || c[3 * p + 1] !== c[1] || c[3 * p + 2] !== c[2]) return false;
  }
  return n > 0;
}

