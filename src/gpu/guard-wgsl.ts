/// <reference types="@webgpu/types" />
/**
 * The signed-distance guard on the GPU (src/particle/boundaries.ts signedDistanceGuard): a liquid
 * particle whose centre is nearer a solid body than GUARD · r (its signed distance, shapes-wgsl.ts)
 * is put back to GUARD · r along the distance's gradient (central differences 0.05 r apart, in the
 * body's rest frame, as on the CPU) and loses its velocity into the body. It catches what the
 * object particles let through: a strong adhesion to a body pulls liquid between them
 * (docs/decisions.md, "static objects"). Bodies in scene order, each moving the particle in turn.
 *
 * On the CPU the guard runs after the object contacts and before the domain walls, in every move
 * and after every density pass (step.ts keepOut), over the particles flagged near a body; here it
 * is a kernel of its own after the move's `translate` (which pushes out of the object particles
 * and clamps to the walls) and after each density pass's `shift`, over every particle within a
 * body's bounds, and it clamps to the walls again (a no-op unless the guard pushed a particle past
 * one). After a density pass its correction is added to what the walls and objects undid (`keep`,
 * pbf.ts finish). A moving body's velocity at the point is that of its material point over the
 * sub-timestep (moving-objects.ts places the bodies and rewrites the poses). Bodies given by a mesh
 * have no distance here (shapes-wgsl.ts) and are not guarded (refuse.ts says so).
 *
 * A free body takes the velocity each push removes (free-wgsl.ts). Bindings: wgsl.ts's nine, and
 * the bodies' uniform at 9 (uniform buffers have a limit of their own; the eight storage bindings
 * are all taken).
 */
import type { StepContext } from '../particle/context.ts';
import { GUARD } from '../particle/boundaries.ts';
import { WORKGROUP } from './device.ts';
import { SHARED_WGSL } from './wgsl.ts';
import { SHAPE_VEC4, shapesWgsl, writeShape } from './shapes-wgsl.ts';

/** Most guarded bodies (the uniform's room). */
export const MAX_GUARDED = 8;
/** The header, the shapes' records, and each body's pose at the sub-timestep's start (R's columns, t). */
export const GUARD_BYTES = 16 + 16 * SHAPE_VEC4 * MAX_GUARDED + 16 * 4 * MAX_GUARDED;

const KERNELS = /* wgsl */ `
struct Bodies {
  count: u32, hold: f32, eps: f32, invDt: f32,
  rec: array<vec4<f32>, ${SHAPE_VEC4 * MAX_GUARDED}>,
  prev: array<vec4<f32>, ${4 * MAX_GUARDED}>,
}
@group(0) @binding(9) var<uniform> B: Bodies;
${shapesWgsl('B.rec')}
fn guard(a: u32) {
  var x = pos[a].xyz;
  var v = vel[a].xyz;
  let e = B.eps;
  for (var k = 0u; k < B.count; k++) {
    var l = shapeLocal(k, x);
    if (!shapeBounded(k, l, B.hold)) { continue; }
    let s = shapeSdf(k, l);
    if (!(s < B.hold)) { continue; }
    var gr = vec3<f32>(
      shapeSdf(k, l + vec3<f32>(e, 0.0, 0.0)) - shapeSdf(k, l - vec3<f32>(e, 0.0, 0.0)),
      shapeSdf(k, l + vec3<f32>(0.0, e, 0.0)) - shapeSdf(k, l - vec3<f32>(0.0, e, 0.0)),
      shapeSdf(k, l + vec3<f32>(0.0, 0.0, e)) - shapeSdf(k, l - vec3<f32>(0.0, 0.0, e)));
    let gl = length(gr);
    if (!(gl > 0.0)) { continue; }
    gr = gr / gl;
    let o = k * ${SHAPE_VEC4}u;
    l += (B.hold - s) * gr;
    x = shapeWorldDir(k, l) + B.rec[o + 11u].xyz;
    let nrm = shapeWorldDir(k, gr);
    // The body's velocity at the point: the move of its material point over the sub-timestep
    // (objects.ts moveTo; zero for a static body, whose two poses are the same).
    let q = 4u * k;
    let x0 = B.prev[q].xyz * l.x + B.prev[q + 1u].xyz * l.y + B.prev[q + 2u].xyz * l.z + B.prev[q + 3u].xyz;
    let vb = (x - x0) * B.invDt;
    let vn = dot(v - vb, nrm);
    // A free body (its index + 1 in prev's fourth w: free-wgsl.ts) takes the change back.
    if (vn < 0.0) { v -= vn * nrm; toFree(a, B.prev[q + 3u].w, -vn * nrm); }
  }
  pos[a] = vec4<f32>(x, pos[a].w);
  vel[a] = vec4<f32>(v, vel[a].w);
}
// After a move's translate.
@compute @workgroup_size(${WORKGROUP}) fn guardMove(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  guard(a);
  wallClamp(a, P.keep);
}
// After a density pass's shift: what it undid counted with the walls' and the objects' (keep[2a + 1]).
@compute @workgroup_size(${WORKGROUP}) fn guardPass(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let before = pos[a].xyz;
  guard(a);
  wallClamp(a, 1.0);
  keep[2u * a + 1u] = vec4<f32>(keep[2u * a + 1u].xyz + pos[a].xyz - before, keep[2u * a + 1u].w);
}
`;

export const GUARD_WGSL = SHARED_WGSL + KERNELS;
export const GUARD_ENTRIES = ['guardMove', 'guardPass'] as const;
export type GuardEntry = (typeof GUARD_ENTRIES)[number];

/**
 * The bodies' uniform (GUARD_BYTES) for `ctx`'s solid bodies with a formula, at their poses of the
 * sub-timestep of length `dt` (pose at its end, prevPose at its start); null where none.
 */
export function guardBodies(ctx: StepContext, dt = 0): ArrayBuffer | null {
  const data = new ArrayBuffer(GUARD_BYTES), u = new Uint32Array(data), f = new Float32Array(data);
  let count = 0;
  ctx.objects.bodies.forEach((b, j) => {
    const shape = b.shape;
    if (shape.type === 'mesh') return;
    if (count === MAX_GUARDED) throw new Error(`more than ${MAX_GUARDED} solid bodies: the WebGPU backend guards ${MAX_GUARDED}`);
    writeShape(f, 1 + SHAPE_VEC4 * count, shape, b, b.pose);
    const q = 4 * (1 + SHAPE_VEC4 * MAX_GUARDED + 4 * count), R = b.prevPose.R;
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) f[q + 4 * c + k] = R[3 * k + c];
    for (let k = 0; k < 3; k++) f[q + 12 + k] = b.prevPose.t[k];
    f[q + 15] = (ctx.freeBodies?.freeOf[j] ?? -1) + 1;
    count++;
  });
  if (count === 0) return null;
  u[0] = count; f[1] = GUARD * ctx.r; f[2] = 0.05 * ctx.r; f[3] = dt > 0 ? 1 / dt : 0;
  return data;
}
