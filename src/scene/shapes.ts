/**
 * Shapes compiled for use by both engines: signed distance (negative inside), rest-pose bounds,
 * volume and surface area. Rotations are Euler degrees applied about x, then y, then z.
 */
import type { Shape, Vec3 } from './schema.ts';
import type { TriMesh } from './scene.ts';
import { buildMeshSdf } from './mesh-sdf.ts';

export interface CompiledShape {
  readonly type: Shape['type'];
  /** Signed distance at a point in the rest pose, m: negative inside. */
  sdf(x: number, y: number, z: number): number;
  readonly bounds: { min: Vec3; max: Vec3 };
  /** m³ (Infinity for a plane). */
  readonly volume: number;
  /** m² (the drawn square for a plane). */
  readonly area: number;
  /**
   * The shape as numbers (SHAPE_CODE_WORDS: a kind, then its parameters), for code that holds no
   * closures (a spawned thread of the particle engine's team: guard-team.ts): `codedSdf` of it is
   * `sdf`, bit for bit (both call the same function). Absent for cylinders and meshes.
   */
  readonly code?: Float64Array;
}

/** Words of CompiledShape.code: the kind, then up to 18 parameters (a box: its rotation, centre and half sizes). */
export const SHAPE_CODE_WORDS = 19;
/** CompiledShape.code's kinds (its first word). */
export const CODE_SPHERE = 1, CODE_BOX = 2, CODE_CAPSULE = 3, CODE_PLANE = 4;

/** A sphere's signed distance (centre, radius). */
export function sphereSdf(x: number, y: number, z: number, cx: number, cy: number, cz: number, r: number): number {
  return Math.sqrt((x - cx) ** 2 + (y - cy) ** 2 + (z - cz) ** 2) - r;
}

/** A box's: rotation R (row-major, at R[o..o+8]), centre, half sizes. */
export function rotatedBoxSdf(
  x: number, y: number, z: number, R: ArrayLike<number>, o: number, cx: number, cy: number, cz: number, hx: number, hy: number, hz: number,
): number {
  const dx = x - cx, dy = y - cy, dz = z - cz;
  // local = Rᵀ d
  return boxSdf(
    R[o] * dx + R[o + 3] * dy + R[o + 6] * dz,
    R[o + 1] * dx + R[o + 4] * dy + R[o + 7] * dz,
    R[o + 2] * dx + R[o + 5] * dy + R[o + 8] * dz,
    hx, hy, hz,
  );
}

/** A capsule's: end a, the axis e = b − a and its squared length ll, radius. */
export function capsuleSdf(
  x: number, y: number, z: number, ax: number, ay: number, az: number, ex: number, ey: number, ez: number, ll: number, r: number,
): number {
  const px = x - ax, py = y - ay, pz = z - az;
  const t = ll > 0 ? Math.min(1, Math.max(0, (px * ex + py * ey + pz * ez) / ll)) : 0;
  const qx = px - t * ex, qy = py - t * ey, qz = pz - t * ez;
  return Math.sqrt(qx * qx + qy * qy + qz * qz) - r;
}

/** A plane's: a point on it and its unit normal. */
export function planeSdf(x: number, y: number, z: number, px: number, py: number, pz: number, nx: number, ny: number, nz: number): number {
  return (x - px) * nx + (y - py) * ny + (z - pz) * nz;
}

/** The signed distance of the shape coded at c[o..] (CompiledShape.code), at a point in its rest pose. */
export function codedSdf(c: ArrayLike<number>, o: number, x: number, y: number, z: number): number {
  switch (c[o]) {
    case CODE_SPHERE: return sphereSdf(x, y, z, c[o + 1], c[o + 2], c[o + 3], c[o + 4]);
    case CODE_BOX: return rotatedBoxSdf(x, y, z, c, o + 1, c[o + 10], c[o + 11], c[o + 12], c[o + 13], c[o + 14], c[o + 15]);
    case CODE_CAPSULE: return capsuleSdf(x, y, z, c[o + 1], c[o + 2], c[o + 3], c[o + 4], c[o + 5], c[o + 6], c[o + 7], c[o + 8]);
    case CODE_PLANE: return planeSdf(x, y, z, c[o + 1], c[o + 2], c[o + 3], c[o + 4], c[o + 5], c[o + 6]);
    default: return NaN;
  }
}

function shapeCode(kind: number, ...params: number[]): Float64Array {
  const c = new Float64Array(SHAPE_CODE_WORDS);
  c[0] = kind;
  c.set(params, 1);
  return c;
}

/** Row-major 3×3 rotation R = Rz · Ry · Rx from Euler degrees. */
export function eulerToMatrix(deg: ArrayLike<number>, out = new Float64Array(9)): Float64Array {
  const [ax, ay, az] = [deg[0], deg[1], deg[2]].map((d) => (d * Math.PI) / 180);
  const cx = Math.cos(ax), sx = Math.sin(ax);
  const cy = Math.cos(ay), sy = Math.sin(ay);
  const cz = Math.cos(az), sz = Math.sin(az);
  out[0] = cz * cy; out[1] = cz * sy * sx - sz * cx; out[2] = cz * sy * cx + sz * sx;
  out[3] = sz * cy; out[4] = sz * sy * sx + cz * cx; out[5] = sz * sy * cx - cz * sx;
  out[6] = -sy;     out[7] = cy * sx;                out[8] = cy * cx;
  return out;
}

function normalize(v: ArrayLike<number>): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  if (!(l > 0)) throw new Error('a direction vector must not be zero');
  return [v[0] / l, v[1] / l, v[2] / l];
}

/** Two unit vectors perpendicular to n and to each other. */
export function perpendicularBasis(n: Vec3): [Vec3, Vec3] {
  const a: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = normalize([n[1] * a[2] - n[2] * a[1], n[2] * a[0] - n[0] * a[2], n[0] * a[1] - n[1] * a[0]]);
  const v: Vec3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
  return [u, v];
}

/** Bounds of the 8 corners of a local box [−h, h] under rotation R and translation c. */
function rotatedBoxBounds(R: Float64Array, c: Vec3, h: Vec3): { min: Vec3; max: Vec3 } {
  const e: Vec3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    e[i] = Math.abs(R[3 * i]) * h[0] + Math.abs(R[3 * i + 1]) * h[1] + Math.abs(R[3 * i + 2]) * h[2];
  }
  return { min: [c[0] - e[0], c[1] - e[1], c[2] - e[2]], max: [c[0] + e[0], c[1] + e[1], c[2] + e[2]] };
}

function boxSdf(px: number, py: number, pz: number, hx: number, hy: number, hz: number): number {
  const qx = Math.abs(px) - hx, qy = Math.abs(py) - hy, qz = Math.abs(pz) - hz;
  const ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0, oz = qz > 0 ? qz : 0;
  // sqrt, not Math.hypot: these run per particle per move (the guard), and hypot is several times slower.
  const outside = Math.sqrt(ox * ox + oy * oy + oz * oz);
  return outside + Math.min(Math.max(qx, qy, qz), 0);
}

/** Signed distance of a finite cylinder along local y: radial distance r, axial a, half-height hh. */
function cylinderSdf(r: number, a: number, radius: number, hh: number): number {
  const dx = r - radius, dy = Math.abs(a) - hh;
  const ox = dx > 0 ? dx : 0, oy = dy > 0 ? dy : 0;
  return Math.min(Math.max(dx, dy), 0) + Math.sqrt(ox * ox + oy * oy);
}

/** Applies a mesh shape's scale, rotation and translation to its file's vertices. */
export function transformMeshShape(
  shape: Extract<Shape, { type: 'mesh' }>,
  mesh: TriMesh,
): TriMesh {
  const s = typeof shape.scale === 'number' ? [shape.scale, shape.scale, shape.scale] : shape.scale;
  const R = eulerToMatrix(shape.rotation);
  const t = shape.translate;
  const src = mesh.positions;
  const out = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    const x = src[i] * s[0], y = src[i + 1] * s[1], z = src[i + 2] * s[2];
    out[i] = R[0] * x + R[1] * y + R[2] * z + t[0];
    out[i + 1] = R[3] * x + R[4] * y + R[5] * z + t[1];
    out[i + 2] = R[6] * x + R[7] * y + R[8] * z + t[2];
  }
  return { positions: out, indices: mesh.indices };
}

/** Volume (divergence theorem) and area of a closed triangle mesh. */
export function meshVolumeArea(mesh: TriMesh): { volume: number; area: number } {
  const p = mesh.positions, ix = mesh.indices;
  let volume = 0, area = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    const ax = p[a], ay = p[a + 1], az = p[a + 2];
    const bx = p[b] - ax, by = p[b + 1] - ay, bz = p[b + 2] - az;
    const cx = p[c] - ax, cy = p[c + 1] - ay, cz = p[c + 2] - az;
    const nx = by * cz - bz * cy, ny = bz * cx - bx * cz, nz = bx * cy - by * cx;
    area += 0.5 * Math.hypot(nx, ny, nz);
    volume += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6;
  }
  return { volume: Math.abs(volume), area };
}

export function compileShape(shape: Shape, meshes: Record<string, TriMesh> = {}): CompiledShape {
  switch (shape.type) {
    case 'sphere': {
      const [cx, cy, cz] = shape.center, r = shape.radius;
      return {
        type: 'sphere',
        sdf: (x, y, z) => sphereSdf(x, y, z, cx, cy, cz, r),
        code: shapeCode(CODE_SPHERE, cx, cy, cz, r),
        bounds: { min: [cx - r, cy - r, cz - r], max: [cx + r, cy + r, cz + r] },
        volume: (4 / 3) * Math.PI * r ** 3,
        area: 4 * Math.PI * r * r,
      };
    }
    case 'box': {
      const R = eulerToMatrix(shape.rotation);
      const [cx, cy, cz] = shape.center;
      const h: Vec3 = [shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2];
      return {
        type: 'box',
        sdf: (x, y, z) => rotatedBoxSdf(x, y, z, R, 0, cx, cy, cz, h[0], h[1], h[2]),
        code: shapeCode(CODE_BOX, ...R, cx, cy, cz, h[0], h[1], h[2]),
        bounds: rotatedBoxBounds(R, shape.center, h),
        volume: shape.size[0] * shape.size[1] * shape.size[2],
        area: 2 * (shape.size[0] * shape.size[1] + shape.size[1] * shape.size[2] + shape.size[0] * shape.size[2]),
      };
    }
    case 'cylinder': {
      const n = normalize(shape.axis);
      const [cx, cy, cz] = shape.center;
      const r = shape.radius, hh = shape.height / 2, wall = shape.wall;
      const sdf = (x: number, y: number, z: number) => {
        const dx = x - cx, dy = y - cy, dz = z - cz;
        const a = dx * n[0] + dy * n[1] + dz * n[2];
        const rx = dx - a * n[0], ry = dy - a * n[1], rz = dz - a * n[2];
        const rr = Math.sqrt(rx * rx + ry * ry + rz * rz);
        const outer = cylinderSdf(rr, a, r, hh);
        if (wall <= 0) return outer;
        // An open cup: the cavity runs from the bottom plus the wall to past the open top.
        const innerHalf = hh; // cavity height (2hh − wall) + wall of overshoot above the rim
        const cavity = cylinderSdf(rr, a - (wall + innerHalf - hh), r - wall, innerHalf);
        return Math.max(outer, -cavity);
      };
      const e = (k: number) => hh * Math.abs(n[k]) + r * Math.sqrt(Math.max(0, 1 - n[k] * n[k]));
      const inner = wall > 0 ? Math.PI * (r - wall) ** 2 * (2 * hh - wall) : 0;
      return {
        type: 'cylinder',
        sdf,
        bounds: { min: [cx - e(0), cy - e(1), cz - e(2)], max: [cx + e(0), cy + e(1), cz + e(2)] },
        volume: Math.PI * r * r * 2 * hh - inner,
        area:
          wall > 0
            ? 2 * Math.PI * r * 2 * hh + Math.PI * r * r + 2 * Math.PI * (r - wall) * (2 * hh - wall) + Math.PI * (r - wall) ** 2 + Math.PI * (r * r - (r - wall) ** 2)
            : 2 * Math.PI * r * 2 * hh + 2 * Math.PI * r * r,
      };
    }
    case 'capsule': {
      const [ax, ay, az] = shape.a, [bx, by, bz] = shape.b, r = shape.radius;
      const ex = bx - ax, ey = by - ay, ez = bz - az;
      const ll = ex * ex + ey * ey + ez * ez;
      const len = Math.sqrt(ll);
      return {
        type: 'capsule',
        sdf: (x, y, z) => capsuleSdf(x, y, z, ax, ay, az, ex, ey, ez, ll, r),
        code: shapeCode(CODE_CAPSULE, ax, ay, az, ex, ey, ez, ll, r),
        bounds: {
          min: [Math.min(ax, bx) - r, Math.min(ay, by) - r, Math.min(az, bz) - r],
          max: [Math.max(ax, bx) + r, Math.max(ay, by) + r, Math.max(az, bz) + r],
        },
        volume: Math.PI * r * r * len + (4 / 3) * Math.PI * r ** 3,
        area: 2 * Math.PI * r * len + 4 * Math.PI * r * r,
      };
    }
    case 'plane': {
      const n = normalize(shape.normal);
      const [px, py, pz] = shape.point;
      const [u, v] = perpendicularBasis(n);
      const ext = shape.extent;
      const e = (k: number) => ext * (Math.abs(u[k]) + Math.abs(v[k]));
      return {
        type: 'plane',
        sdf: (x, y, z) => planeSdf(x, y, z, px, py, pz, n[0], n[1], n[2]),
        code: shapeCode(CODE_PLANE, px, py, pz, n[0], n[1], n[2]),
        bounds: { min: [px - e(0), py - e(1), pz - e(2)], max: [px + e(0), py + e(1), pz + e(2)] },
        volume: Infinity,
        area: 4 * ext * ext,
      };
    }
    case 'mesh': {
      const loaded = meshes[shape.file];
      if (!loaded) throw new Error(`mesh file '${shape.file}' was not loaded with the scene`);
      const mesh = transformMeshShape(shape, loaded);
      const { volume, area } = meshVolumeArea(mesh);
      const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
      for (let i = 0; i < mesh.positions.length; i += 3) {
        for (let k = 0; k < 3; k++) {
          min[k] = Math.min(min[k], mesh.positions[i + k]);
          max[k] = Math.max(max[k], mesh.positions[i + k]);
        }
      }
      let field: ((x: number, y: number, z: number) => number) | undefined;
      return {
        type: 'mesh',
        // Built on first use: estimating a scene needs only volume and area.
        sdf: (x, y, z) => (field ??= buildMeshSdf(mesh))(x, y, z),
        bounds: { min, max },
        volume,
        area,
      };
    }
  }
}
