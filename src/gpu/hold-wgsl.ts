/**
 * The WGSL of the static-wall holds on the GPU (hold.ts runs it): the liquid's bodies and each
 * body's projection of src/particle/body-hold.ts (Bender, Kugelstadt, Weiler & Koschier 2019, §4:
 * a static wall's net push may slow a body's motion along it and its turn about the axis across
 * it, and stop them, not drive or reverse them), for the implicit viscosity's walls
 * (src/particle/viscosity-weiler-wall-hold.ts) and the moves' face friction
 * (src/particle/wall-friction-hold.ts).
 *
 * The bodies (src/particle/liquid-bodies.ts: the liquid connected through the pairs closer than
 * CONTACT_REACH radii): connected components over the sorted slots by hooking and pointer jumping
 * in one pass (Jaiganesh & Burtscher 2018, "A High-Performance Connected Components Implementation
 * for GPUs", ECL-CC): every slot starts as its own parent; each slot, for every neighbour within
 * the reach, finds both roots and hooks the larger under the smaller by compare-and-swap, retried
 * from the new root where another thread hooked it first (the parent of a slot is always a smaller
 * slot of its body, so the trees never cycle and a hook that fails has seen progress); a last pass
 * points every slot at its root. The root is then the smallest slot of its body, as the CPU labels
 * a body by its smallest index. Once a sub-timestep, after the sort (the slots keep their order
 * over the viscosity solve and the moves).
 *
 * The sums (float atomics are not in WGSL): each body's 20 sums of body-hold.ts (weight, momentum,
 * the wall's change of it, flags, Σ w x, the angular momentum, the wall's torque, Σ w |x⊥|²), at its
 * root's entry, as 64-bit fixed-point integers of HOLD_SCALE per unit, each two u32 atomics (the
 * low word's carry added to the high word): integer addition, so the sums do not depend on the
 * order the threads add in, nor on their grouping: a workgroup's slots of the body of its first slot
 * (the slots are sorted by cell: a large body fills whole workgroups) sum in workgroup memory first
 * and add to the body's words once (holdSum, holdFlags), so a body of N slots takes N / WORKGROUP
 * global additions a word, not N on the same address; or a thread's run of HOLD_RUN slots in
 * registers first (holdSumRun, holdFlagsRun); or each slot straight (holdSumDirect, holdFlagsDirect).
 * hold.ts defaultSums picks the first on a GPU, the last on a CPU adapter (SwiftShader). Positions are taken about the root's position (a body's own size, not
 * the domain's, so the angular sums lose no digits to a far origin). Range: |Σ| < 2^63 / HOLD_SCALE
 * = 1.3e8 per sum (weights are the liquid's mass or density over the first liquid's, 1 with one
 * liquid: 1.3e8 particles at 1 m/s, or a million at 10 m/s a metre from the root); resolution
 * 1.5e-11 a term (each term rounded to it: a particle's 1 µm/s is held to 1.5e-5 of itself).
 *
 * Bindings: 0 the step's parameters, 1 pos, 2 vel, 3 share (per slot: from H.share the change the
 * wall made (xyz, m/s) and the slot's flags (w, a float of the bits: bit k against a closed wall across axis k);
 * from H.before the velocity before the wall and the weight; or, H.before = NONE, the velocity
 * before is vel − change and the weight the mass), 4 label (the parent slot, then the root; past
 * P.cap the held counts), 5 sums (BODY_WORDS a slot: a root's body), 6 wall, 7 start, 8 H.
 */
import { WORKGROUP } from './device.ts';
import { around, floatLiteral, withBindings } from './wgsl.ts';
import { CONTACT_REACH } from '../particle/context.ts';

/** Fixed-point units per unit of a sum (2^36; see the header). */
export const HOLD_SCALE = 2 ** 36;
/** u32 words of a body's sums: 20 sums of two words (body-hold.ts BODY_STRIDE; the flags one word). */
export const BODY_WORDS = 40;
/** Words past P.cap in the label buffer: the bodies held by the solve's hold and by the friction's, and a spare. */
export const HOLD_COUNTS = 4;
/** Slots a thread of holdSumRun / holdFlagsRun takes in turn. */
export const HOLD_RUN = 32;
/** H.before's value for "the velocity before is vel less the change". */
export const NONE = 0xffffffff;

const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> share: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> label: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> sums: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
// share, before: the first vec4 of the change and flags, of the velocity before and the weight (NONE: vel − change, the mass);
// target: the first vec4 the hold is taken back from (NONE: vel); count: the label word past P.cap that counts the bodies held.
struct Hold { share: u32, before: u32, into: u32, count: u32 }
@group(0) @binding(8) var<uniform> H: Hold;
const NONE: u32 = ${NONE}u;
const WORDS: u32 = ${BODY_WORDS}u;
`;

const KERNELS = /* wgsl */ `
// ---- The bodies (see the header) ----
fn rootOf(a: u32) -> u32 {
  var x = a;
  var p = atomicLoad(&label[x]);
  while (p != x) {
    x = p;
    p = atomicLoad(&label[x]);
  }
  return x;
}
@compute @workgroup_size(${WORKGROUP}) fn labelInit(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  atomicStore(&label[a], a);
}
// Hooks the bodies of a and of every liquid slot b > a within CONTACT_REACH radii (each pair once).
@compute @workgroup_size(${WORKGROUP}) fn labelHook(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  ${around(`${floatLiteral(CONTACT_REACH)} * P.r`, `
    if (b > a) {
      var ra = rootOf(a);
      var rb = rootOf(b);
      loop {
        if (ra == rb) { break; }
        let lo = min(ra, rb);
        let hi = max(ra, rb);
        let r = atomicCompareExchangeWeak(&label[hi], hi, lo);
        if (r.exchanged) { break; }
        // hi was hooked (or the exchange failed spuriously): from the roots again.
        ra = rootOf(lo);
        rb = rootOf(hi);
      }
    }`)}
}
@compute @workgroup_size(${WORKGROUP}) fn labelRoot(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  atomicStore(&label[a], rootOf(a));
}

// ---- The sums, 64-bit fixed point (see the header) ----
// x in units as a 64-bit two's-complement integer (low word, high word).
fn fixed64(x: f32) -> vec2<u32> {
  // The magnitude's two words (both exact: a float's bits below 2^32 and above), then the sign in integers.
  let m = abs(round(x * ${floatLiteral(HOLD_SCALE)}));
  let mh = floor(m * ${floatLiteral(2 ** -32)});
  var lo = u32(m - mh * 4294967296.0);
  var hi = u32(mh);
  if (x < 0.0) {
    lo = ~lo + 1u;
    hi = ~hi + select(0u, 1u, lo == 0u);
  }
  return vec2<u32>(lo, hi);
}
// Adds the 64-bit v to the pair at word w of sums (the low word's carry, from the old word atomicAdd returns, to the high word).
fn addPair(w: u32, v: vec2<u32>) {
  let old = atomicAdd(&sums[w], v.x);
  let carry = select(0u, 1u, old + v.x < old);
  atomicAdd(&sums[w + 1u], v.y + carry);
}
// Adds x (units) to sum k of the body at root r.
fn add64(r: u32, k: u32, x: f32) { addPair(r * WORDS + 2u * k, fixed64(x)); }

// A workgroup's sums of its lead body (the body of its first slot, holdSum): the same pairs in workgroup memory.
var<workgroup> groupSums: array<atomic<u32>, ${BODY_WORDS}>;
var<workgroup> groupFlags: atomic<u32>;
fn addGroup(k: u32, x: f32) {
  let v = fixed64(x);
  let old = atomicAdd(&groupSums[2u * k], v.x);
  let carry = select(0u, 1u, old + v.x < old);
  atomicAdd(&groupSums[2u * k + 1u], v.y + carry);
}
// Sum k of body r: the workgroup's where r is its lead body (lead), else the body's own.
fn put(r: u32, lead: bool, k: u32, x: f32) {
  if (lead) { addGroup(k, x); } else { add64(r, k, x); }
}
// Sum k of the body at root r, in units.
fn sum64(r: u32, k: u32) -> f32 {
  let w = r * WORDS + 2u * k;
  var lo = atomicLoad(&sums[w]);
  var hi = atomicLoad(&sums[w + 1u]);
  // The magnitude in integers first (two's complement over the pair), so a small negative sum keeps its digits.
  let negative = (hi & 0x80000000u) != 0u;
  if (negative) {
    lo = ~lo + 1u;
    hi = ~hi + select(0u, 1u, lo == 0u);
  }
  let m = f32(hi) * ${floatLiteral(2 ** 32 / HOLD_SCALE)} + f32(lo) * ${floatLiteral(1 / HOLD_SCALE)};
  return select(m, -m, negative);
}
fn flagsOf(r: u32) -> u32 { return atomicLoad(&sums[r * WORDS + 14u]); }

fn changeOf(a: u32) -> vec4<f32> { return share[H.share + a]; }
// The velocity before the wall (xyz) and the weight (w).
fn beforeOf(a: u32) -> vec4<f32> {
  if (H.before == NONE) {
    return vec4<f32>(vel[a].xyz - changeOf(a).xyz, 1.0 / invMassOf(liquidOf(a)));
  }
  return share[H.before + a];
}

// A root's entry cleared (every slot is its own root or points at one: a root clears for its body).
@compute @workgroup_size(${WORKGROUP}) fn holdClear(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&label[a]) != a) { return; }
  for (var k = 0u; k < WORDS; k++) { atomicStore(&sums[a * WORDS + k], 0u); }
}
// The walls each body is against (the flags of its slots): the workgroup's lead body's (its first slot's)
// or'd in workgroup memory first, then once into the body's word.
@compute @workgroup_size(${WORKGROUP}) fn holdFlags(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = g.x;
  let first = wg.x * ${WORKGROUP}u;
  let lead = atomicLoad(&label[min(first, P.cap - 1u)]);
  if (l == 0u) { atomicStore(&groupFlags, 0u); }
  workgroupBarrier();
  if (a < P.n) {
    let f = u32(changeOf(a).w);
    let r = atomicLoad(&label[a]);
    if (f != 0u) {
      if (r == lead) { atomicOr(&groupFlags, f); } else { atomicOr(&sums[r * WORDS + 14u], f); }
    }
  }
  workgroupBarrier();
  if (l == 0u && first < P.n) {
    let f = atomicLoad(&groupFlags);
    if (f != 0u) { atomicOr(&sums[lead * WORDS + 14u], f); }
  }
}
// The sums of the bodies against a wall (body-hold.ts's layout; positions about the root's). The
// slots of the workgroup's lead body (the body of its first slot: the slots are sorted by cell, so a
// large body fills whole workgroups) sum in workgroup memory and add to the body's words once, 19
// global pairs a workgroup instead of 19 a slot on the same 38 words; the rest add to theirs. Integer
// sums: the same bits in any grouping.
@compute @workgroup_size(${WORKGROUP}) fn holdSum(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = g.x;
  let first = wg.x * ${WORKGROUP}u;
  let lead = atomicLoad(&label[min(first, P.cap - 1u)]);
  if (l < WORDS) { atomicStore(&groupSums[l], 0u); }
  workgroupBarrier();
  if (a < P.n) {
    let r = atomicLoad(&label[a]);
    if (flagsOf(r) != 0u) {
      let o = r == lead;
      let bw = beforeOf(a);
      let w = bw.w;
      let v = bw.xyz;
      let J = w * changeOf(a).xyz;
      let x = pos[a].xyz - pos[r].xyz;
      put(r, o, 0u, w);
      put(r, o, 1u, w * v.x); put(r, o, 2u, w * v.y); put(r, o, 3u, w * v.z);
      put(r, o, 4u, J.x); put(r, o, 5u, J.y); put(r, o, 6u, J.z);
      put(r, o, 8u, w * x.x); put(r, o, 9u, w * x.y); put(r, o, 10u, w * x.z);
      let L = w * cross(x, v);
      put(r, o, 11u, L.x); put(r, o, 12u, L.y); put(r, o, 13u, L.z);
      let T = cross(x, J);
      put(r, o, 14u, T.x); put(r, o, 15u, T.y); put(r, o, 16u, T.z);
      let x2 = x * x;
      put(r, o, 17u, w * (x2.y + x2.z)); put(r, o, 18u, w * (x2.z + x2.x)); put(r, o, 19u, w * (x2.x + x2.y));
    }
  }
  workgroupBarrier();
  // Sum 7's words are the flags' (holdFlags): not summed.
  if (l < WORDS / 2u && l != 7u && first < P.n) {
    let v = vec2<u32>(atomicLoad(&groupSums[2u * l]), atomicLoad(&groupSums[2u * l + 1u]));
    if (v.x != 0u || v.y != 0u) { addPair(lead * WORDS + 2u * l, v); }
  }
}
// ---- The sums a run at a time: each thread takes RUN consecutive slots in turn, adds the terms of
// each body in registers (the same 64-bit integers) and adds them to the body's words where the body
// changes and at the run's end: RUN times fewer global additions on a body's words, no barrier.
fn add2(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}
fn flushRun(r: u32, acc: ptr<function, array<vec2<u32>, 20>>) {
  for (var k = 0u; k < 20u; k++) {
    let v = (*acc)[k];
    if (k != 7u && (v.x != 0u || v.y != 0u)) { addPair(r * WORDS + 2u * k, v); }
    (*acc)[k] = vec2<u32>(0u);
  }
}
@compute @workgroup_size(${WORKGROUP}) fn holdSumRun(@builtin(global_invocation_id) g: vec3<u32>) {
  let a0 = g.x * ${HOLD_RUN}u;
  if (a0 >= P.n) { return; }
  var acc: array<vec2<u32>, 20>;
  var cur = NONE;
  for (var i = 0u; i < ${HOLD_RUN}u; i++) {
    let a = a0 + i;
    if (a >= P.n) { break; }
    let r = atomicLoad(&label[a]);
    if (flagsOf(r) == 0u) { continue; }
    if (r != cur) {
      if (cur != NONE) { flushRun(cur, &acc); }
      cur = r;
    }
    let bw = beforeOf(a);
    let w = bw.w;
    let v = bw.xyz;
    let J = w * changeOf(a).xyz;
    let x = pos[a].xyz - pos[r].xyz;
    let L = w * cross(x, v);
    let T = cross(x, J);
    let x2 = x * x;
    acc[0] = add2(acc[0], fixed64(w));
    acc[1] = add2(acc[1], fixed64(w * v.x)); acc[2] = add2(acc[2], fixed64(w * v.y)); acc[3] = add2(acc[3], fixed64(w * v.z));
    acc[4] = add2(acc[4], fixed64(J.x)); acc[5] = add2(acc[5], fixed64(J.y)); acc[6] = add2(acc[6], fixed64(J.z));
    acc[8] = add2(acc[8], fixed64(w * x.x)); acc[9] = add2(acc[9], fixed64(w * x.y)); acc[10] = add2(acc[10], fixed64(w * x.z));
    acc[11] = add2(acc[11], fixed64(L.x)); acc[12] = add2(acc[12], fixed64(L.y)); acc[13] = add2(acc[13], fixed64(L.z));
    acc[14] = add2(acc[14], fixed64(T.x)); acc[15] = add2(acc[15], fixed64(T.y)); acc[16] = add2(acc[16], fixed64(T.z));
    acc[17] = add2(acc[17], fixed64(w * (x2.y + x2.z))); acc[18] = add2(acc[18], fixed64(w * (x2.z + x2.x))); acc[19] = add2(acc[19], fixed64(w * (x2.x + x2.y)));
  }
  if (cur != NONE) { flushRun(cur, &acc); }
}
@compute @workgroup_size(${WORKGROUP}) fn holdFlagsRun(@builtin(global_invocation_id) g: vec3<u32>) {
  let a0 = g.x * ${HOLD_RUN}u;
  if (a0 >= P.n) { return; }
  var cur = NONE;
  var f = 0u;
  for (var i = 0u; i < ${HOLD_RUN}u; i++) {
    let a = a0 + i;
    if (a >= P.n) { break; }
    let r = atomicLoad(&label[a]);
    if (r != cur) {
      if (f != 0u) { atomicOr(&sums[cur * WORDS + 14u], f); }
      cur = r;
      f = 0u;
    }
    f = f | u32(changeOf(a).w);
  }
  if (f != 0u) { atomicOr(&sums[cur * WORDS + 14u], f); }
}
// The same sums with every slot's terms added to its body's words (hold.ts's option groupSums: false, for A/B).
@compute @workgroup_size(${WORKGROUP}) fn holdSumDirect(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let r = atomicLoad(&label[a]);
  if (flagsOf(r) == 0u) { return; }
  let bw = beforeOf(a);
  let w = bw.w;
  let v = bw.xyz;
  let J = w * changeOf(a).xyz;
  let x = pos[a].xyz - pos[r].xyz;
  add64(r, 0u, w);
  add64(r, 1u, w * v.x); add64(r, 2u, w * v.y); add64(r, 3u, w * v.z);
  add64(r, 4u, J.x); add64(r, 5u, J.y); add64(r, 6u, J.z);
  add64(r, 8u, w * x.x); add64(r, 9u, w * x.y); add64(r, 10u, w * x.z);
  let L = w * cross(x, v);
  add64(r, 11u, L.x); add64(r, 12u, L.y); add64(r, 13u, L.z);
  let T = cross(x, J);
  add64(r, 14u, T.x); add64(r, 15u, T.y); add64(r, 16u, T.z);
  let x2 = x * x;
  add64(r, 17u, w * (x2.y + x2.z)); add64(r, 18u, w * (x2.z + x2.x)); add64(r, 19u, w * (x2.x + x2.y));
}
// The flags with every slot's or'd into its body's word (groupSums: false).
@compute @workgroup_size(${WORKGROUP}) fn holdFlagsDirect(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let f = u32(changeOf(a).w);
  if (f != 0u) { atomicOr(&sums[atomicLoad(&label[a]) * WORDS + 14u], f); }
}
// Per body (its root's thread): body-hold.ts holdBodies with the momenta from before the wall. The
// result over the sums' words 0–9 as floats (the uniform velocity, ω, the centre about the root) and
// word 10 (1: held); word 14, the flags, stays.
@compute @workgroup_size(${WORKGROUP}) fn holdProject(@builtin(global_invocation_id) g: vec3<u32>) {
  let r = g.x;
  if (r >= P.n || atomicLoad(&label[r]) != r) { return; }
  let flags = flagsOf(r);
  if (flags == 0u) { return; }
  let M = sum64(r, 0u);
  let P0 = vec3<f32>(sum64(r, 1u), sum64(r, 2u), sum64(r, 3u));
  let J = vec3<f32>(sum64(r, 4u), sum64(r, 5u), sum64(r, 6u));
  let c = vec3<f32>(sum64(r, 8u), sum64(r, 9u), sum64(r, 10u)) / M;
  let L = vec3<f32>(sum64(r, 11u), sum64(r, 12u), sum64(r, 13u));
  let T = vec3<f32>(sum64(r, 14u), sum64(r, 15u), sum64(r, 16u));
  let I = vec3<f32>(sum64(r, 17u), sum64(r, 18u), sum64(r, 19u));
  // About the centre: Σ w (x − c) × v = Σ w x × v − c × Σ w v; I_c = Σ w |x⊥|² − M |c⊥|².
  let Jt = T - cross(c, J);
  let Lt = L - cross(c, P0);
  let Ic = I - M * vec3<f32>(c.y * c.y + c.z * c.z, c.z * c.z + c.x * c.x, c.x * c.x + c.y * c.y);
  var spin = vec3<f32>(0.0);
  var u = vec3<f32>(0.0);
  var any = false;
  for (var k = 0u; k < 3u; k++) {
    // The turn only about the axis across the one wall the body is against.
    var turn = 0.0;
    if (flags == (1u << k) && Ic[k] > 0.0) {
      if (Jt[k] * Lt[k] > 0.0 || Lt[k] == 0.0) { turn = Jt[k]; } else if (abs(Jt[k]) > abs(Lt[k])) { turn = Jt[k] + Lt[k]; }
      spin[k] = turn / Ic[k];
    }
    // Not across a wall the body is against (the wall's push off it is the pressure's).
    var excess = 0.0;
    if ((flags & (1u << k)) == 0u) {
      if (J[k] * P0[k] > 0.0 || P0[k] == 0.0) { excess = J[k]; } else if (abs(J[k]) > abs(P0[k])) { excess = J[k] + P0[k]; }
      u[k] = excess / M;
    }
    if (turn != 0.0 || excess != 0.0) { any = true; }
  }
  let base = r * WORDS;
  for (var k = 0u; k < 3u; k++) {
    atomicStore(&sums[base + k], bitcast<u32>(u[k]));
    atomicStore(&sums[base + 3u + k], bitcast<u32>(spin[k]));
    atomicStore(&sums[base + 6u + k], bitcast<u32>(c[k]));
  }
  atomicStore(&sums[base + 10u], select(0u, 1u, any));
  if (any) { atomicAdd(&label[P.cap + H.count], 1u); }
}
// Every slot of a held body less the uniform velocity and the rigid turn ω × (x − c) that take the excess back.
@compute @workgroup_size(${WORKGROUP}) fn holdApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let r = atomicLoad(&label[a]);
  let base = r * WORDS;
  if (flagsOf(r) == 0u || atomicLoad(&sums[base + 10u]) == 0u) { return; }
  var f: array<f32, 9>;
  for (var k = 0u; k < 9u; k++) { f[k] = bitcast<f32>(atomicLoad(&sums[base + k])); }
  let x = pos[a].xyz - pos[r].xyz - vec3<f32>(f[6], f[7], f[8]);
  let d = vec3<f32>(f[0], f[1], f[2]) + cross(vec3<f32>(f[3], f[4], f[5]), x);
  if (H.into == NONE) { vel[a] = vec4<f32>(vel[a].xyz - d, vel[a].w); }
  else { share[H.into + a] = vec4<f32>(share[H.into + a].xyz - d, share[H.into + a].w); }
}
`;

export const HOLD_WGSL = withBindings(BINDINGS) + KERNELS;

export const HOLD_ENTRIES = ['labelInit', 'labelHook', 'labelRoot', 'holdClear', 'holdFlags', 'holdSum', 'holdProject', 'holdApply', 'holdFlagsDirect', 'holdSumDirect', 'holdFlagsRun', 'holdSumRun'] as const;
export type HoldEntry = (typeof HOLD_ENTRIES)[number];
