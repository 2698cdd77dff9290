/**
 * The scene's analytic shapes on the GPU: their signed distance (src/scene/shapes.ts compileShape,
 * the same formulas in single precision) for the sinks (sinks.ts) and the signed-distance guard
 * (guard-wgsl.ts). Each shape is a record of SHAPE_VEC4 vec4s in a uniform array, written by
 * `writeShape`:
 *   0: centre (sphere, box, cylinder), point (plane) or end a (capsule); w the type (SHAPE_TYPES)
 *   1: the cylinder's axis, the plane's normal or the capsule's end b; w the radius
 *   2: the box's half sizes, or (x) the cylinder's half height and (y) its wall
 *   3–5: the box's rotation as the columns of its row-major R (local = Rᵀ (x − c))
 *   6, 7: bounds in the body's rest frame (objects.ts ObjectBody min / max); 6.w = 1 where the
 *     bounds test applies
 *   8–10: the columns of the body's pose R, 11: its translation t (motion.ts RigidPose; the
 *     identity for a sink and a static body): the shape is evaluated at Rᵀ (x − t).
 * Meshes have no formula here (a BVH query, mesh-sdf.ts): the callers refuse them by path.
 */
import type { Shape } from '../scene/schema.ts';
import type { RigidPose } from '../scene/motion.ts';
import { eulerToMatrix } from '../scene/shapes.ts';

export const SHAPE_VEC4 = 12;
/** Shape type codes of record word 3. */
export const SHAPE_TYPES = { sphere: 0, box: 1, cylinder: 2, capsule: 3, plane: 4 } as const;

/** Writes `shape` (not a mesh) into `f` at vec4 `k` (float index 4k), with its rest bounds and pose. */
export function writeShape(
  f: Float32Array, k: number, shape: Exclude<Shape, { type: 'mesh' }>,
  bounds: { min: ArrayLike<number>; max: ArrayLike<number> } | null, pose: RigidPose | null,
): void {
  const o = 4 * k;
  f.fill(0, o, o + 4 * SHAPE_VEC4);
  f[o + 3] = SHAPE_TYPES[shape.type];
  const set3 = (v: number, a: ArrayLike<number>) => { for (let i = 0; i < 3; i++) f[o + 4 * v + i] = a[i]; };
  switch (shape.type) {
    case 'sphere': set3(0, shape.center); f[o + 7] = shape.radius; break;
    case 'box': {
      set3(0, shape.center);
      set3(2, [shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2]);
      const R = eulerToMatrix(shape.rotation);
      for (let c = 0; c < 3; c++) set3(3 + c, [R[c], R[3 + c], R[6 + c]]);
      break;
    }
    case 'cylinder': {
      const l = Math.hypot(...shape.axis);
      set3(0, shape.center); set3(1, shape.axis.map((v) => v / l)); f[o + 7] = shape.radius;
      f[o + 8] = shape.height / 2; f[o + 9] = shape.wall;
      break;
    }
    case 'capsule': set3(0, shape.a); set3(1, shape.b); f[o + 7] = shape.radius; break;
    case 'plane': {
      const l = Math.hypot(...shape.normal);
      set3(0, shape.point); set3(1, shape.normal.map((v) => v / l));
      break;
    }
  }
  if (bounds) { set3(6, bounds.min); set3(7, bounds.max); f[o + 27] = 1; }
  const R = pose?.R ?? [1, 0, 0, 0, 1, 0, 0, 0, 1], t = pose?.t ?? [0, 0, 0];
  for (let c = 0; c < 3; c++) set3(8 + c, [R[c], R[3 + c], R[6 + c]]);
  set3(11, t);
}

/**
 * WGSL over the records of uniform array `rec` (vec4s): `shapeLocal(k, x)` (x in the rest frame of
 * record k), `shapeSdf(k, x)` (the signed distance, x in its rest frame), `shapeBounded(k, x, m)`
 * (x within its rest bounds grown by m, or unbounded), and the pose's rotation both ways.
 */
export function shapesWgsl(rec: string): string {
  return /* wgsl */ `
fn boxDist(p: vec3<f32>, h: vec3<f32>) -> f32 {
  let q = abs(p) - h;
  return length(max(q, vec3<f32>(0.0))) + min(max(q.x, max(q.y, q.z)), 0.0);
}
fn cylinderDist(rr: f32, a: f32, radius: f32, hh: f32) -> f32 {
  let d = vec2<f32>(rr - radius, abs(a) - hh);
  return min(max(d.x, d.y), 0.0) + length(max(d, vec2<f32>(0.0)));
}
fn shapeSdf(k: u32, x: vec3<f32>) -> f32 {
  let o = k * ${SHAPE_VEC4}u;
  let head = ${rec}[o];
  let c = head.xyz;
  let q = ${rec}[o + 1u];
  let t = u32(head.w);
  if (t == ${SHAPE_TYPES.sphere}u) { return length(x - c) - q.w; }
  if (t == ${SHAPE_TYPES.box}u) {
    let d = x - c;
    let l = vec3<f32>(dot(${rec}[o + 3u].xyz, d), dot(${rec}[o + 4u].xyz, d), dot(${rec}[o + 5u].xyz, d));
    return boxDist(l, ${rec}[o + 2u].xyz);
  }
  if (t == ${SHAPE_TYPES.cylinder}u) {
    let d = x - c;
    let n = q.xyz;
    let a = dot(d, n);
    let rr = length(d - a * n);
    let hh = ${rec}[o + 2u].x;
    let wall = ${rec}[o + 2u].y;
    let outer = cylinderDist(rr, a, q.w, hh);
    if (wall <= 0.0) { return outer; }
    // An open cup (shapes.ts): the cavity from the bottom plus the wall to past the rim.
    return max(outer, -cylinderDist(rr, a - wall, q.w - wall, hh));
  }
  if (t == ${SHAPE_TYPES.capsule}u) {
    let e = q.xyz - c;
    let p = x - c;
    let ll = dot(e, e);
    var s = 0.0;
    if (ll > 0.0) { s = clamp(dot(p, e) / ll, 0.0, 1.0); }
    return length(p - s * e) - q.w;
  }
  return dot(x - c, q.xyz);
}
// Rest frame of record k's pose: Rᵀ (x − t), and back (R v for a direction).
fn shapeLocal(k: u32, x: vec3<f32>) -> vec3<f32> {
  let o = k * ${SHAPE_VEC4}u;
  let d = x - ${rec}[o + 11u].xyz;
  return vec3<f32>(dot(${rec}[o + 8u].xyz, d), dot(${rec}[o + 9u].xyz, d), dot(${rec}[o + 10u].xyz, d));
}
fn shapeWorldDir(k: u32, v: vec3<f32>) -> vec3<f32> {
  let o = k * ${SHAPE_VEC4}u;
  return ${rec}[o + 8u].xyz * v.x + ${rec}[o + 9u].xyz * v.y + ${rec}[o + 10u].xyz * v.z;
}
fn shapeBounded(k: u32, x: vec3<f32>, m: f32) -> bool {
  let o = k * ${SHAPE_VEC4}u;
  if (${rec}[o + 6u].w == 0.0) { return true; }
  return all(x > ${rec}[o + 6u].xyz - vec3<f32>(m)) && all(x < ${rec}[o + 7u].xyz + vec3<f32>(m));
}
`;
}
