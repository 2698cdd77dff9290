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
 * is a kernel of its own after the move's `collide` (which pushes out of the object particles
 * and clamps to the walls) and after each density pass's `shift`, over every particle within a
 * body's bounds, and it clamps to the walls again (a no-op unless the guard pushed a particle past
 * one; after a move, that clamp's friction joins collide's in dx, and the face friction's hold,
 * hold.ts, runs after the guard and holds both). After a density pass its correction is added to what the walls and objects undid (`keep`,
 * pbf.ts finish). A moving body's velocity at the point is that of its material point over the
 * sub-timestep (moving-objects.ts places the bodies and rewrites the poses). Bodies given by a mesh
 * have no distance here (shapes-wgsl.ts) and are not guarded (refuse.ts says so).
 *
 * A free body takes the velocity each push removes (free-wgsl.ts). Bindings: wgsl.ts's nine, and
 * the bodies' uniform at 9 (uniform buffers have a limit of their own; the eight storage bindings
 * are all taken).
 *
 * The same module flags, at each sub-timestep's start, the liquid near a body (`markNear`, the
 * CPU's boundaries.ts markNearObjects at step.ts's nearMargin): a particle inside a body's bounds
 * grown by margin = max(objectReach, 2 travel + 4r) + r_o, and there with a signed distance under
 * GUARD · r + margin, travel = (v_max + the bodies' largest speed + |g| δt) δt (v_max the liquid's
 * largest speed, which the `speed` kernel leaves in stats[0] just before). The flag rides in pos.w
 * (liquids-wgsl.ts isNear) through the sub-timestep's second sort and is what objects.ts nearObject
 * reads: the pressure's take-back, position shift and filter, free flight and the split's filtered
 * pressure leave the liquid next to a body alone, as the CPU's stages do by L.nearObject. A body
 * given by a mesh has no distance here: near one, a particle is flagged by the object particles
 * within P.oreach instead (objects.ts nearObjectParticle; refuse.ts says so). Where the scene has
 * a mesh body, every body is tried that way too.
 */
import type { StepContext } from '../particle/context.ts';
import { GUARD } from '../particle/boundaries.ts';
import { WORKGROUP } from './device.ts';
import { SHARED_WGSL } from './wgsl.ts';
import { SHAPE_VEC4, shapesWgsl, writeShape } from './shapes-wgsl.ts';

/** Most guarded bodies (the uniform's room). */
export const MAX_GUARDED = 8;
/** Vec4s of the header: the guard's, the near test's constants, the sub-timestep's travel (TRAVEL_OFFSET). */
const HEAD_VEC4 = 3;
/** Byte offset of the sub-timestep's travel (δt; the bodies' largest speed + |g| δt) in the bodies' uniform. */
export const TRAVEL_OFFSET = 32;
/** The header, the shapes' records, and each body's pose at the sub-timestep's start (R's columns, t). */
export const GUARD_BYTES = 16 * HEAD_VEC4 + 16 * SHAPE_VEC4 * MAX_GUARDED + 16 * 4 * MAX_GUARDED;

/**
 * The guarded bodies' uniform (GUARD_BYTES: guardBodies writes it) at `binding`, as B, with the shapes' functions
 * over its records (shapes-wgsl.ts): the guard's module and the thin pull's (thin-pull-wgsl.ts) both take it.
 */
export function bodiesWgsl(binding: number): string {
  return /* wgsl */ `
struct Bodies {
  count: u32, hold: f32, eps: f32, invDt: f32,
  // objectReach, 4r, r_o (step.ts nearMargin); 1 where a body is a mesh.
  near: vec4<f32>,
  // δt; the bodies' largest speed + |g| δt (written each sub-timestep: nearTravel).
  travel: vec4<f32>,
  rec: array<vec4<f32>, ${SHAPE_VEC4 * MAX_GUARDED}>,
  prev: array<vec4<f32>, ${4 * MAX_GUARDED}>,
}
@group(0) @binding(${binding}) var<uniform> B: Bodies;
${shapesWgsl('B.rec')}`;
}

const KERNELS = /* wgsl */ `${bodiesWgsl(9)}
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
// After a move's collide: the guard, then the walls' clamp again, whose friction (where the guard put
// the particle past a face) and faces are added to collide's in dx, for the face friction's hold that
// runs after this (hold.ts friction: the two rubs held as one, as the CPU's walls run once, after its guard).
@compute @workgroup_size(${WORKGROUP}) fn guardMove(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  guard(a);
  let c = wallClamp(a, P.keep);
  dx[a] = vec4<f32>(dx[a].xyz + c.xyz, f32(u32(dx[a].w) | u32(c.w)));
}
// After a density pass's shift: what it undid counted with the walls' and the objects' (keep[2a + 1]).
@compute @workgroup_size(${WORKGROUP}) fn guardPass(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let before = pos[a].xyz;
  guard(a);
  _ = wallClamp(a, 1.0);
  keep[2u * a + 1u] = vec4<f32>(keep[2u * a + 1u].xyz + pos[a].xyz - before, keep[2u * a + 1u].w);
}
// The near flag (see the header; boundaries.ts markNearObjects), after the sort and the speed kernel.
@compute @workgroup_size(${WORKGROUP}) fn markNear(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let travel = (bitcast<f32>(atomicLoad(&stats[0])) + B.travel.y) * B.travel.x;
  let margin = max(B.near.x, 2.0 * travel + B.near.y) + B.near.z;
  let reach = B.hold + margin;
  let x = pos[a].xyz;
  var near = false;
  for (var k = 0u; k < B.count; k++) {
    let l = shapeLocal(k, x);
    // Not "≥ reach": a NaN distance keeps the particle flagged (as on the CPU).
    if (shapeBounded(k, l, margin) && !(shapeSdf(k, l) >= reach)) { near = true; break; }
  }
  if (!near && B.near.w != 0.0) { near = nearObjectParticle(a); }
  pos[a].w = withNear(a, near);
}
`;

export const GUARD_WGSL = SHARED_WGSL + KERNELS;
export const GUARD_ENTRIES = ['guardMove', 'guardPass', 'markNear'] as const;
export type GuardEntry = (typeof GUARD_ENTRIES)[number];

/**
 * The bodies' uniform (GUARD_BYTES) for `ctx`'s solid bodies with a formula (its count, u32 0: 0
 * where every body is a mesh), at their poses of the sub-timestep of length `dt` (pose at its end,
 * prevPose at its start), and the near test's constants; null where the scene has no solid body.
 * The travel is written apart (nearTravel).
 */
export function guardBodies(ctx: StepContext, dt = 0): ArrayBuffer | null {
  if (ctx.objects.bodies.length === 0) return null;
  const data = new ArrayBuffer(GUARD_BYTES), u = new Uint32Array(data), f = new Float32Array(data);
  let count = 0, meshes = false;
  ctx.objects.bodies.forEach((b, j) => {
    const shape = b.shape;
    if (shape.type === 'mesh') { meshes = true; return; }
    if (count === MAX_GUARDED) throw new Error(`more than ${MAX_GUARDED} solid bodies: the WebGPU backend guards ${MAX_GUARDED}`);
    writeShape(f, HEAD_VEC4 + SHAPE_VEC4 * count, shape, b, b.pose);
    const q = 4 * (HEAD_VEC4 + SHAPE_VEC4 * MAX_GUARDED + 4 * count), R = b.prevPose.R;
    for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) f[q + 4 * c + k] = R[3 * k + c];
    for (let k = 0; k < 3; k++) f[q + 12 + k] = b.prevPose.t[k];
    f[q + 15] = (ctx.freeBodies?.freeOf[j] ?? -1) + 1;
    count++;
  });
  u[0] = count; f[1] = GUARD * ctx.r; f[2] = 0.05 * ctx.r; f[3] = dt > 0 ? 1 / dt : 0;
  f[4] = ctx.objectReach; f[5] = 4 * ctx.r; f[6] = ctx.ro; f[7] = meshes ? 1 : 0;
  return data;
}

/**
 * The sub-timestep's travel for markNear into `out` (4 floats, written at TRAVEL_OFFSET): δt and the
 * bodies' largest speed + |g| δt (step.ts travel without the liquid's speed, which the GPU adds).
 */
export function nearTravel(ctx: StepContext, dt: number, out: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const g = ctx.scene.gravity;
  out[0] = dt; out[1] = ctx.objects.maxSpeed + Math.hypot(g[0], g[1], g[2]) * dt; out[2] = 0; out[3] = 0;
  return out;
}
