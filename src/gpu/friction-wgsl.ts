/**
 * Friction against the static objects on the GPU (objects.ts), as the CPU engine has it:
 *   - the surface test (src/particle/surface.ts; Steele et al. 2004, "Rendering", after Stora et
 *     al.): N = p − c over the neighbours within h, a particle on the surface when the neighbours on
 *     N's side (within the angle θ) are at most t_s of the rest; a lone particle is on it, one with
 *     a balanced neighbourhood (|N| < 0.1 h) is not. Two gathers: `surfaceNormal` (N into dx, the
 *     neighbour count in dx.w), `surfaceFlag` (the flag into pos.w's lowest bit, beside the liquid's index: liquids-wgsl.ts; the sort carries it), on
 *     the first sub-timestep of a frame, as step.ts runs markSurface;
 *   - friction in every move (friction.ts, Steele §3.4): a surface particle within TOUCH (r + r_o)
 *     of an object particle keeps (1 − f)^(30 δt) of its velocity relative to it (objects.ts objectVel), f the
 *     friction of that object particle's body (in vel.w of the object slots: objects.ts);
 *   - the objects' share of the exchange (boundary-viscosity.ts objectViscosity): after the
 *     exchange's sweeps, the tangential velocity of a particle near objects relaxes toward theirs
 *     (their weighted mean velocity) by exp(−2 A Σ_s γ_s f_s t_s³ · 2 · 1/(2Σk)), t_s = 1 − d²/h_v², A the sub-timestep's
 *     exchange, the normal the weighted mean of the object particles' normals.
 * Where two bodies of different friction touch a particle, the move's friction takes the first
 * object particle its loop meets, not the lowest rank of the CPU's contact list.
 */
import { SURFACE_MIN_DISPLACEMENT } from '../particle/surface.ts';
import { WORKGROUP } from './device.ts';
import { around, SHARED_WGSL } from './wgsl.ts';
import { aroundObjects } from './objects.ts';

const KERNELS = /* wgsl */ `
@compute @workgroup_size(${WORKGROUP}) fn surfaceNormal(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  var s = vec3<f32>(0.0);
  var k = 0.0;
  ${around('P.h', `s -= rv; k += 1.0;`)}
  let nv = -s / (k + 1.0);
  let len = length(nv);
  var nrm = vec3<f32>(0.0);
  if (k > 0.0 && len >= ${SURFACE_MIN_DISPLACEMENT} * P.h && len > 0.0) { nrm = nv / len; }
  dx[a] = vec4<f32>(nrm, k);
}
@compute @workgroup_size(${WORKGROUP}) fn surfaceFlag(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let na = dx[a].xyz;
  let k = dx[a].w;
  var side = 0.0;
  ${around('P.h', `if (d2 > 0.0 && dot(-rv, na) >= P.sinTheta * sqrt(d2)) { side += 1.0; }`)}
  var surface = true;
  if (k > 0.0) { surface = any(na != vec3<f32>(0.0)) && side <= P.surfaceRatio * (1.0 + k - side); }
  pos[a].w = withSurface(a, surface);
}
@compute @workgroup_size(${WORKGROUP}) fn objectViscosity(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || P.exA <= 0.0 || sc[a].z <= 0.0) { return; }
  let xa = pos[a].xyz;
  let inv2 = 1.0 / (P.hv * P.hv);
  var wf = 0.0;
  var ws = 0.0;
  var usum = vec3<f32>(0.0);
  var nsum = vec3<f32>(0.0);
  var fo = 0.0;
  ${aroundObjects('P.hv', `let t = 1.0 - d2 * inv2; let w = pos[o].w * t * t * t; ws += w; wf += w * objectFriction(o); usum += w * objectVel(o); nsum += w * vel[o].xyz; fo = max(fo, objectFree(o));`)}
  if (wf == 0.0) { return; }
  let nl = length(nsum);
  var nrm = vec3<f32>(0.0);
  if (nl > 0.0) { nrm = nsum / nl; }
  let keepT = exp(-2.0 * P.exA * wf * 2.0 * sc[a].z);
  // The velocity relative to the objects' weighted mean, its tangential part relaxed.
  let u = usum / ws;
  let v = vel[a].xyz - u;
  let vn = dot(v, nrm) * nrm;
  let nv = u + vn + (v - vn) * keepT;
  // A free body among the objects takes the change back (free-wgsl.ts; the CPU's capture / release).
  toFree(a, fo, nv - vel[a].xyz);
  vel[a] = vec4<f32>(nv, vel[a].w);
}
`;

export const FRICTION_WGSL = SHARED_WGSL + KERNELS;
export const FRICTION_ENTRIES = ['surfaceNormal', 'surfaceFlag', 'objectViscosity'] as const;
export type FrictionEntry = (typeof FRICTION_ENTRIES)[number];
