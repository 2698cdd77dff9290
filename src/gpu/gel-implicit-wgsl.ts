/**
 * The WGSL of the gel's implicit spring step on the GPU (gel-implicit.ts runs it): the CPU's
 * src/particle/gel-implicit.ts in single precision. Backward Euler on the springs (Peer, Gissler &
 * Teschner 2018 §4), linearized at the positions of the piece's start,
 *
 *   (M + δt² K) Δv = δt (f(x) − δt K (v + c)),
 *
 * solved matrix-free by conjugate gradients with the 3×3 block-Jacobi preconditioner, the sums
 * two-level workgroup reductions in a fixed order and the stop test judged on the GPU (a `done`
 * flag the scalar kernels set), as viscosity-wgsl.ts does. A spring's direction n, stiffness
 * k = κ (1 − L/h) along it and k max(0, 1 − L/r) across it are taken from the positions and the
 * rest length wherever a kernel needs them: both ends hold the spring with the same bits
 * (gel-wgsl.ts), and H_s = k (n nᵀ) + k_t (I − n nᵀ) does not depend on n's sign, so the two ends
 * see the same block.
 *
 * The bind group: 0 the solve's parameters (S), 1 pos, 2 vel, 3 id, 4 slot (of each id), 5 springs
 * (gel-wgsl.ts), 6 cg (per slot: CG_* sections of the capacity), 7 red (the sums: RED_* below),
 * 8 byId (per particle id: the warm start, the velocity after the last springs with its stamp in w,
 * the velocity at the sub-timestep's start), 9 the gel's parameters (gel-wgsl.ts Gel).
 */
import { WORKGROUP } from './device.ts';
import { GEL_SLOTS } from './gel-wgsl.ts';
import { twoLevelSum } from './wgsl.ts';

/** Sections of `cg` (vec4 per slot, each `capacity` long): the iterate Δv, r, the direction, A d, the carry, P⁻¹ (two vec4). */
export const GI_X = 0, GI_R = 1, GI_D = 2, GI_Q = 3, GI_C = 4, GI_I0 = 5, GI_I1 = 6, GI_SECTIONS = 7;
/** Sections of `byId`: the warm start (Δv / δt), the velocity after the last springs (its stamp in w), the velocity at the start. */
export const GI_WARM = 0, GI_AFTER = 1, GI_BEGIN = 2, GI_ID_SECTIONS = 3;
/** red: [0] (r·z, b·Pb, mass, −) of the set-up; [2] (r·z, −, goal, α); [3] (β, done, iterations, p·Ap); [5] the shift; from RED_PARTS the workgroups' partials. */
export const GI_RED_STATE = 2, GI_RED_PARTS = 8;

const BINDINGS = /* wgsl */ `
struct Solve {
  n: u32, cap: u32, last: u32, maxIter: f32,
  dt: f32, carry: f32, tol2: f32, floor2: f32,
  advance: f32, back: f32, rel2: f32, pad: f32,
}
@group(0) @binding(0) var<uniform> S: Solve;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> slot: array<u32>;
@group(0) @binding(5) var<storage, read_write> springs: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> cg: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> red: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read_write> byId: array<vec4<f32>>;
struct Gel {
  reach: f32, invReach: f32, kappa: f32, limit: f32,
  grow: f32, shrink: f32, fade: f32, invMass: f32,
  dt: f32, cap: u32, snap: u32, pad1: u32,
}
@group(0) @binding(9) var<uniform> G: Gel;
const STRIDE: u32 = ${GEL_SLOTS + 1}u;
fn sec(s: u32, a: u32) -> u32 { return s * S.cap + a; }
`;

const KERNELS = /* wgsl */ `
// One spring of slot a (position xa) held at its k-th entry: n (from a to its partner) in xyz and
// k (r − L) in w; k − k_t and k_t in the second; the partner's slot in the third (NONE: no force).
struct Spring { n: vec3<f32>, f: f32, kl: f32, kt: f32, b: u32 }
fn spring(base: u32, k: u32, xa: vec3<f32>) -> Spring {
  let s = springs[base + 1u + k];
  let b = slot[s.x];
  var out = Spring(vec3<f32>(0.0), 0.0, 0.0, 0.0, 0xffffffffu);
  if (b == 0xffffffffu) { return out; }
  let d = pos[b].xyz - xa;
  let r = sqrt(dot(d, d));
  let L = bitcast<f32>(s.y);
  let w = 1.0 - L * G.invReach;
  if (!(r > 0.0) || !(w > 0.0)) { return out; }
  let kk = G.kappa * w;
  let kt = select(0.0, kk * (1.0 - L / r), r > L);
  out.n = d / r; out.f = kk * (r - L); out.kl = kk - kt; out.kt = kt; out.b = b;
  return out;
}
fn hmul(sp: Spring, u: vec3<f32>) -> vec3<f32> { return sp.kt * u + (sp.kl * dot(sp.n, u)) * sp.n; }
fn precondition(a: u32, r: vec3<f32>) -> vec3<f32> {
  let i0 = cg[sec(${GI_I0}u, a)];
  let i1 = cg[sec(${GI_I1}u, a)];
  return vec3<f32>(i0.x * r.x + i0.w * r.y + i1.x * r.z, i0.w * r.x + i0.y * r.y + i1.y * r.z, i1.x * r.x + i1.y * r.y + i0.z * r.z);
}

${twoLevelSum(GI_RED_PARTS, 'S.n')}
fn isDone() -> bool { return red[3].y != 0.0; }

// At the sub-timestep's start (before the body forces; gel-implicit.ts gelNoteStart): the velocity by id.
@compute @workgroup_size(${WORKGROUP}) fn giBegin(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  byId[sec(${GI_BEGIN}u, id[a])] = vel[a];
}

// The carry: S.carry times what the stages after the last springs did to the velocity (0 where not known).
@compute @workgroup_size(${WORKGROUP}) fn giCarry(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  let j = id[a];
  let after = byId[sec(${GI_AFTER}u, j)];
  var c = vec3<f32>(0.0);
  if (S.last > 0u && after.w == f32(S.last)) { c = S.carry * (byId[sec(${GI_BEGIN}u, j)].xyz - after.xyz); }
  cg[sec(${GI_C}u, a)] = vec4<f32>(c, 0.0);
}

// Slot a's row: x = the warm start δt, b = δt (f − δt K (v + c)), r = b − A x, P⁻¹ (the diagonal
// block m I + δt² Σ H_s inverted), d = P r; the partials of (r·Pr, b·Pb, the mass with springs).
@compute @workgroup_size(${WORKGROUP}) fn giSetup(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < S.n) {
    let dt = S.dt;
    let dt2 = dt * dt;
    let x = byId[sec(${GI_WARM}u, id[a])].xyz * dt;
    cg[sec(${GI_X}u, a)] = vec4<f32>(x, 0.0);
    let va = vel[a].xyz + cg[sec(${GI_C}u, a)].xyz;
    let xa = pos[a].xyz;
    let base = id[a] * STRIDE;
    let c = springs[base].x;
    var f = vec3<f32>(0.0);
    var kv = vec3<f32>(0.0);
    var kx = vec3<f32>(0.0);
    var dg = vec3<f32>(0.0);
    var off = vec3<f32>(0.0);
    for (var k = 0u; k < c; k++) {
      let sp = spring(base, k, xa);
      if (sp.b == 0xffffffffu) { continue; }
      f += sp.f * sp.n;
      kv += hmul(sp, va - vel[sp.b].xyz - cg[sec(${GI_C}u, sp.b)].xyz);
      kx += hmul(sp, x - byId[sec(${GI_WARM}u, id[sp.b])].xyz * dt);
      dg += vec3<f32>(sp.kt) + sp.kl * sp.n * sp.n;
      off += sp.kl * vec3<f32>(sp.n.x * sp.n.y, sp.n.x * sp.n.z, sp.n.y * sp.n.z);
    }
    let m = 1.0 / G.invMass;
    let b = dt * (f - dt * kv);
    let r = b - m * x - dt2 * kx;
    cg[sec(${GI_R}u, a)] = vec4<f32>(r, 0.0);
    let cxx = m + dt2 * dg.x; let cyy = m + dt2 * dg.y; let czz = m + dt2 * dg.z;
    let cxy = dt2 * off.x; let cxz = dt2 * off.y; let cyz = dt2 * off.z;
    let ixx = cyy * czz - cyz * cyz; let ixy = cxz * cyz - cxy * czz; let ixz = cxy * cyz - cxz * cyy;
    let inv = 1.0 / (cxx * ixx + cxy * ixy + cxz * ixz);
    cg[sec(${GI_I0}u, a)] = vec4<f32>(ixx * inv, (cxx * czz - cxz * cxz) * inv, (cxx * cyy - cxy * cxy) * inv, ixy * inv);
    cg[sec(${GI_I1}u, a)] = vec4<f32>(ixz * inv, (cxy * cxz - cxx * cyz) * inv, 0.0, 0.0);
    let z = precondition(a, r);
    cg[sec(${GI_D}u, a)] = vec4<f32>(z, 0.0);
    t = vec4<f32>(dot(r, z), dot(b, precondition(a, b)), select(0.0, m, c > 0u), 0.0);
  }
  groupSum(l, wg.x, t);
}
// The set-up's totals, the goal and the state (done where the warm start already meets it).
@compute @workgroup_size(${WORKGROUP}) fn giStart(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u) { return; }
  let goal = S.tol2 * t.y + S.floor2 * t.z + S.rel2 * t.y;
  red[0] = t;
  red[2] = vec4<f32>(t.x, 0.0, goal, 0.0);
  red[3] = vec4<f32>(0.0, select(0.0, 1.0, t.x <= goal), 0.0, 0.0);
}

// q = A d and the partials of d·q.
@compute @workgroup_size(${WORKGROUP}) fn giApply(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < S.n && !isDone()) {
    let p = cg[sec(${GI_D}u, a)].xyz;
    let xa = pos[a].xyz;
    let base = id[a] * STRIDE;
    let c = springs[base].x;
    var s = vec3<f32>(0.0);
    for (var k = 0u; k < c; k++) {
      let sp = spring(base, k, xa);
      if (sp.b == 0xffffffffu) { continue; }
      s += hmul(sp, p - cg[sec(${GI_D}u, sp.b)].xyz);
    }
    let q = p / G.invMass + (S.dt * S.dt) * s;
    cg[sec(${GI_Q}u, a)] = vec4<f32>(q, 0.0);
    t.x = dot(p, q);
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn giAlpha(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u || isDone()) { return; }
  if (!(t.x > 0.0)) { red[3].y = 1.0; return; }
  red[2].w = red[2].x / t.x;
  red[3].w = t.x;
}
// x += α d, r −= α q; the partials of r·Pr.
@compute @workgroup_size(${WORKGROUP}) fn giUpdate(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < S.n && !isDone()) {
    let alpha = red[2].w;
    cg[sec(${GI_X}u, a)] += alpha * cg[sec(${GI_D}u, a)];
    let r = cg[sec(${GI_R}u, a)].xyz - alpha * cg[sec(${GI_Q}u, a)].xyz;
    cg[sec(${GI_R}u, a)] = vec4<f32>(r, 0.0);
    t.x = dot(r, precondition(a, r));
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn giBeta(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u || isDone()) { return; }
  let it = red[3].z + 1.0;
  red[3].z = it;
  if (t.x <= red[2].z || it >= S.maxIter) { red[2].y = t.x; red[3].y = 1.0; return; }
  red[3].x = t.x / red[2].x;
  red[2].x = t.x;
}
// d = P r + β d.
@compute @workgroup_size(${WORKGROUP}) fn giDirection(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n || isDone()) { return; }
  cg[sec(${GI_D}u, a)] = vec4<f32>(precondition(a, cg[sec(${GI_R}u, a)].xyz) + red[3].x * cg[sec(${GI_D}u, a)].xyz, 0.0);
}

// The momentum the iterate carries over the particles with springs (the pair terms conserve it, a CG iterate does not).
@compute @workgroup_size(${WORKGROUP}) fn giShiftParts(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < S.n && springs[id[a] * STRIDE].x > 0u) {
    let m = 1.0 / G.invMass;
    t = vec4<f32>(m * cg[sec(${GI_X}u, a)].xyz, m);
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn giShiftTotal(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u) { return; }
  red[5] = select(vec4<f32>(0.0), vec4<f32>(t.xyz / t.w, 0.0), t.w > 0.0);
}
// The iterate shifted (where the particle has springs) into the velocity, and kept by id as the next warm start.
@compute @workgroup_size(${WORKGROUP}) fn giFinish(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  var x = cg[sec(${GI_X}u, a)].xyz;
  if (springs[id[a] * STRIDE].x > 0u) {
    x -= red[5].xyz;
    vel[a] = vec4<f32>(vel[a].xyz + x, vel[a].w);
  }
  byId[sec(${GI_WARM}u, id[a])] = vec4<f32>(x / S.dt, 0.0);
}
// Between two solves of a piece: the positions moved on along the solves' path, h (v + c).
@compute @workgroup_size(${WORKGROUP}) fn giAdvance(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  pos[a] = vec4<f32>(pos[a].xyz + S.advance * (vel[a].xyz + cg[sec(${GI_C}u, a)].xyz), pos[a].w);
}
// After the last of K solves: h (v + c) − δt (v + c), so that the moves end the piece where the path did.
@compute @workgroup_size(${WORKGROUP}) fn giBack(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  pos[a] = vec4<f32>(pos[a].xyz + S.back * (vel[a].xyz + cg[sec(${GI_C}u, a)].xyz), pos[a].w);
}
// Each particle's velocity after the springs, stamped with this stage's count, for the next carry.
@compute @workgroup_size(${WORKGROUP}) fn giAfter(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= S.n) { return; }
  byId[sec(${GI_AFTER}u, id[a])] = vec4<f32>(vel[a].xyz, f32(S.last + 1u));
}
`;

export const GEL_IMPLICIT_WGSL = BINDINGS + KERNELS;

export const GEL_IMPLICIT_ENTRIES = [
  'giBegin', 'giCarry', 'giSetup', 'giStart', 'giApply', 'giAlpha', 'giUpdate', 'giBeta', 'giDirection',
  'giShiftParts', 'giShiftTotal', 'giFinish', 'giAdvance', 'giBack', 'giAfter',
] as const;
export type GelImplicitEntry = (typeof GEL_IMPLICIT_ENTRIES)[number];

/** Bytes of the solve's parameters (the Solve struct). */
export const GEL_IMPLICIT_PARAM_BYTES = 48;
