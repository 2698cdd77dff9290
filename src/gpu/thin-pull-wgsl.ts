/**
 * The WGSL of the thin pull on the GPU (thin-pull.ts runs it): the CPU's stage of src/particle/thin-pull.ts and
 * thin-pull-jobs.ts (He, Wang, Zhang, Wang, Wang & Zhou 2014's two scales; DFSPH's divergence step with the sign's
 * constraint turned over, Bender & Koschier 2017; the feature-shaped filter of Yu & Turk 2013), in single
 * precision, a thread a slot, gathering where the CPU scatters: with G_ab = −W_H'(|x_ab| / H) / (H |x_ab|) (x_b − x_a)
 * (the CPU's pg, toward the neighbour), a pass's Δv of slot a is Σ_b (λ_a + λ_b) G_ab, the CPU's λ_a Σ_b G_ab plus
 * the −λ_b G_ba its neighbours' rows give it.
 *
 * Kernels, in order a sub-timestep (thin-pull.ts encodes them):
 *   thinMark   each slot: sparse (not next to a body, ρ/ρ0 of the last density correction below THIN_SPARSE); λ, Δv 0.
 *   thinShape  each sparse slot: den = |Σ G|² + Σ |G|², the weighted covariance's axes (Jacobi rotations, as
 *              surface/anisotropic.ts symmetricEigen) and the filter's reciprocal radii, flat = λ_2 / λ_0; thin where
 *              den > 0 and flat < THIN_FLAT.
 *   thinTouch  each slot not thin: touched where a thin slot is within H (only those take a Δv).
 *   THIN_PASSES times: thinLambda (thin slots: λ from D_a = Σ_b (v_a − v_b)·G_ab), thinDelta (touched slots: Δv),
 *              thinApply (sparse slots: Δv filtered over their neighbours within H with their own kernel; the other
 *              touched slots: Δv as found; into the velocities).
 *   thinRecord after density correction: ρ/ρ0 (the step's slot scalars' x) kept by particle id for the next mark.
 *
 * Neighbours within H of a slot: the sub-timestep's hashed cells (neighbours.ts) within REACH cells on each axis of
 * its cell at its present position (the CPU's R, thin-pull.ts, taken with the margin thin-pull.ts names), a bucket
 * two of those cells share visited once: bucket(c + Δ) = bucket(c) + L(Δ) mod table (L = 541 Δx + 79 Δy + 31 Δz,
 * neighbours.ts bucketOf), so which offsets repeat an earlier one's bucket does not depend on the cell, and the host
 * marks them in the parameters' skip bits.
 *
 * The bind group: 0 the parameters (Thin), 1 pos, 2 vel, 3 id, 4 bucket starts (neighbours.ts), 5 thin (per slot,
 * THIN_SECTIONS sections of the capacity), 6 rho (per particle id, ρ/ρ0), 7 sc (the step's slot scalars: wgsl.ts), 8 the
 * guarded bodies' uniform (guard-wgsl.ts bodiesWgsl; zeros where the scene has no solid body).
 */
import { WORKGROUP } from './device.ts';
import { HASH_WGSL } from './neighbours.ts';
import { SPLINE_WGSL } from './wgsl.ts';
import { bodiesWgsl } from './guard-wgsl.ts';

/** Sections of `thin` (vec4 per slot): the filter's three axes (xyz, reciprocal radius in w), the row (den, flat, λ, flags), Δv (touched in w). */
export const T_AX = 0, T_ROW = 3, T_DV = 4, THIN_SECTIONS = 5;
/** u32 words of skip bits the parameters hold: offsets up to (2 R + 1)³ ≤ 32 · SKIP_WORDS, R ≤ 4. */
export const SKIP_WORDS = 32;
/** Bytes of the parameters block (Thin below). */
export const THIN_PARAM_BYTES = 48 + 4 * SKIP_WORDS;

export const THIN_ENTRIES = ['thinMark', 'thinShape', 'thinTouch', 'thinLambda', 'thinDelta', 'thinApply', 'thinRecord'] as const;
export type ThinEntry = (typeof THIN_ENTRIES)[number];

/** Flags of the row's w (Δv's w is 1 where the slot is touched: thin, or a thin slot within H). */
const SPARSE = 1, THIN = 2;

const BINDINGS = /* wgsl */ `
struct Thin {
  n: u32, table: u32, invCell: f32, reach: i32,
  H2: f32, invH: f32, omega: f32, flatMax: f32,
  sparse: f32, cap: u32, kr: f32, allNear: u32,
  skip: array<vec4<u32>, ${SKIP_WORDS / 4}>,
}
@group(0) @binding(0) var<uniform> T: Thin;
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> start: array<u32>;
@group(0) @binding(5) var<storage, read_write> thin: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> rho: array<f32>;
@group(0) @binding(7) var<storage, read_write> sc: array<vec4<f32>>;
${bodiesWgsl(8)}
fn sec(s: u32, a: u32) -> u32 { return s * T.cap + a; }
fn flagsOf(a: u32) -> u32 { return u32(thin[sec(${T_ROW}u, a)].w); }
// W, dW: the cubic spline over q = d / H and its slope (wgsl.ts SPLINE_WGSL).
${SPLINE_WGSL}// G_ab of a pair at rv = x_a − x_b, d = |rv| > 0 (the CPU's pg: toward b).
fn grad(rv: vec3<f32>, d: f32) -> vec3<f32> { return (dW(d * T.invH) * T.invH / d) * rv; }
`;

/** The loop over the liquid slots b within H of slot a (position xa; 0 < d² < H²), the body seeing b, rv = x_a − x_b, d2. */
function withinH(body: string): string {
  return /* wgsl */ `{
    let c0 = cellOf(xa, T.invCell);
    let R = T.reach;
    var o = 0u;
    for (var di = -R; di <= R; di++) { for (var dj = -R; dj <= R; dj++) { for (var dk = -R; dk <= R; dk++) {
      let skip = (T.skip[o >> 7u][(o >> 5u) & 3u] >> (o & 31u)) & 1u;
      o++;
      if (skip != 0u) { continue; }
      let bk = bucketOf(c0 + vec3<i32>(di, dj, dk), T.table);
      for (var b = start[bk]; b < start[bk + 1u]; b++) {
        let rv = xa - pos[b].xyz;
        let d2 = dot(rv, rv);
        if (!(d2 < T.H2) || !(d2 > 0.0)) { continue; }
        ${body}
      }
    }}}
  }`;
}

/** Eigenvalues (descending) and unit eigenvectors (rows of the result) of the symmetric m (xx, yy, zz | xy, xz, yz). */
const EIGEN = /* wgsl */ `
struct Eigen { vals: vec3<f32>, vecs: mat3x3<f32> }
fn eigenOf(m0: vec3<f32>, m1: vec3<f32>) -> Eigen {
  var A = array<f32, 9>(m0.x, m1.x, m1.y, m1.x, m0.y, m1.z, m1.y, m1.z, m0.z);
  var V = array<f32, 9>(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
  for (var sweep = 0; sweep < 12; sweep++) {
    let off = A[1] * A[1] + A[2] * A[2] + A[5] * A[5];
    let diag = A[0] * A[0] + A[4] * A[4] + A[8] * A[8];
    if (off <= 1e-14 * diag || off == 0.0) { break; }
    for (var p = 0u; p < 2u; p++) { for (var q = p + 1u; q < 3u; q++) {
      let apq = A[3u * p + q];
      if (apq == 0.0) { continue; }
      let theta = (A[4u * q] - A[4u * p]) / (2.0 * apq);
      let t = select(-1.0, 1.0, theta >= 0.0) / (abs(theta) + sqrt(theta * theta + 1.0));
      let c = 1.0 / sqrt(t * t + 1.0);
      let s = t * c;
      for (var k = 0u; k < 3u; k++) {
        let akp = A[3u * k + p]; let akq = A[3u * k + q];
        A[3u * k + p] = c * akp - s * akq; A[3u * k + q] = s * akp + c * akq;
      }
      for (var k = 0u; k < 3u; k++) {
        let apk = A[3u * p + k]; let aqk = A[3u * q + k];
        A[3u * p + k] = c * apk - s * aqk; A[3u * q + k] = s * apk + c * aqk;
      }
      for (var k = 0u; k < 3u; k++) {
        let vkp = V[3u * k + p]; let vkq = V[3u * k + q];
        V[3u * k + p] = c * vkp - s * vkq; V[3u * k + q] = s * vkp + c * vkq;
      }
    }}
  }
  var e = array<f32, 3>(A[0], A[4], A[8]);
  var ax = array<u32, 3>(0u, 1u, 2u);
  for (var i = 0u; i < 2u; i++) { for (var j = i + 1u; j < 3u; j++) {
    if (e[ax[j]] > e[ax[i]]) { let t = ax[i]; ax[i] = ax[j]; ax[j] = t; }
  }}
  var out: Eigen;
  for (var k = 0u; k < 3u; k++) {
    let c = ax[k];
    out.vals[k] = e[c];
    out.vecs[k] = vec3<f32>(V[c], V[3u + c], V[6u + c]);
  }
  return out;
}
`;

const KERNELS = /* wgsl */ `
@compute @workgroup_size(${WORKGROUP}) fn thinRecord(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  rho[id[a]] = sc[a].x;
}

// Next to a body (the CPU's thin-pull.ts rule): flagged near one (pos.w's bit 2: liquids-wgsl.ts isNear, guard-wgsl.ts
// markNear; every slot where T.allNear, the tests' hook) and within GUARD r + objectReach + r_o of a guarded body's
// surface at the present position (particle/boundaries.ts withinReachOfBody); where the scene has a mesh body
// (no distance on the GPU: B.near.w) the flag alone.
fn nextToBody(a: u32) -> bool {
  if ((u32(pos[a].w) & 2u) == 0u && T.allNear == 0u) { return false; }
  if (B.near.w != 0.0) { return true; }
  let reach = B.hold + B.near.x + B.near.z;
  let x = pos[a].xyz;
  for (var k = 0u; k < B.count; k++) {
    let l = shapeLocal(k, x);
    // Not "≥ reach": a NaN distance counts as within (as on the CPU).
    if (shapeBounded(k, l, reach) && !(shapeSdf(k, l) >= reach)) { return true; }
  }
  return false;
}

// Sparse: ρ/ρ0 of the last density correction under THIN_SPARSE, and not next to a body.
@compute @workgroup_size(${WORKGROUP}) fn thinMark(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  let sparse = rho[id[a]] < T.sparse && !nextToBody(a);
  thin[sec(${T_ROW}u, a)] = vec4<f32>(0.0, 0.0, 0.0, select(0.0, ${SPARSE}.0, sparse));
  thin[sec(${T_DV}u, a)] = vec4<f32>(0.0);
}

// A sparse slot's den, flatness and filter (thin-pull-jobs.ts shapeRow): the spline-weighted covariance of its
// neighbours within H about their weighted centroid (self weighted W(0) = 1), its axes, radii H max(√(λ_k / λ_0), 1 / k_r);
// fewer than 3 neighbours: isotropic of support H, flat 0.
@compute @workgroup_size(${WORKGROUP}) fn thinShape(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n || flagsOf(a) == 0u) { return; }
  let xa = pos[a].xyz;
  var sg = vec3<f32>(0.0);
  var sg2 = 0.0;
  var w = 1.0;
  var c = vec3<f32>(0.0);
  var m0 = vec3<f32>(0.0);
  var m1 = vec3<f32>(0.0);
  var count = 0u;
  ${withinH(`
    let d = sqrt(d2);
    let g = grad(rv, d);
    sg += g; sg2 += dot(g, g);
    let u = -rv;
    let wk = W(d * T.invH);
    w += wk; c += wk * u;
    m0 += wk * u * u; m1 += wk * vec3<f32>(u.x * u.y, u.x * u.z, u.y * u.z);
    count++;`)}
  let den = dot(sg, sg) + sg2;
  c = c / w;
  m0 = m0 / w - c * c;
  m1 = m1 / w - vec3<f32>(c.x * c.y, c.x * c.z, c.y * c.z);
  var flatness = 0.0;
  var axes = mat3x3<f32>(vec3<f32>(1.0, 0.0, 0.0), vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(0.0, 0.0, 1.0));
  var inv = vec3<f32>(T.invH);
  if (count >= 3u) {
    let e = eigenOf(m0, m1);
    axes = e.vecs;
    let l0 = max(e.vals[0], 1e-30);
    flatness = max(e.vals[2], 0.0) / l0;
    for (var k = 0u; k < 3u; k++) { inv[k] = T.invH / max(sqrt(max(e.vals[k], 0.0) / l0), 1.0 / T.kr); }
  }
  for (var k = 0u; k < 3u; k++) { thin[sec(${T_AX}u + k, a)] = vec4<f32>(axes[k], inv[k]); }
  let thinRow = den > 0.0 && flatness < T.flatMax;
  thin[sec(${T_ROW}u, a)] = vec4<f32>(den, flatness, 0.0, f32(${SPARSE}u | select(0u, ${THIN}u, thinRow)));
  thin[sec(${T_DV}u, a)].w = select(0.0, 1.0, thinRow);
}

fn nearThin(a: u32) -> bool {
  let xa = pos[a].xyz;
  ${withinH(`if ((flagsOf(b) & ${THIN}u) != 0u) { return true; }`)}
  return false;
}
@compute @workgroup_size(${WORKGROUP}) fn thinTouch(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  if ((flagsOf(a) & ${THIN}u) != 0u || !nearThin(a)) { return; }
  thin[sec(${T_DV}u, a)].w = 1.0;
}

// λ_a = −ω D_a / den_a where D_a = Σ_b (v_a − v_b)·G_ab < 0 (the liquid opening up), else 0; thin slots only.
@compute @workgroup_size(${WORKGROUP}) fn thinLambda(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  let row = thin[sec(${T_ROW}u, a)];
  if ((u32(row.w) & ${THIN}u) == 0u) { return; }
  let xa = pos[a].xyz;
  let va = vel[a].xyz;
  var D = 0.0;
  ${withinH(`D += dot(va - vel[b].xyz, grad(rv, sqrt(d2)));`)}
  thin[sec(${T_ROW}u, a)].z = select(0.0, -T.omega * D / row.x, D < 0.0);
}

// Δv_a = Σ_b (λ_a + λ_b) G_ab over the touched slots (the others' stays 0).
@compute @workgroup_size(${WORKGROUP}) fn thinDelta(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  if (thin[sec(${T_DV}u, a)].w == 0.0) { return; }
  let xa = pos[a].xyz;
  let la = thin[sec(${T_ROW}u, a)].z;
  var dv = vec3<f32>(0.0);
  ${withinH(`let lb = thin[sec(${T_ROW}u, b)].z; if (la + lb != 0.0) { dv += (la + lb) * grad(rv, sqrt(d2)); }`)}
  thin[sec(${T_DV}u, a)] = vec4<f32>(dv, 1.0);
}

// A sparse slot's Δv filtered by its own kernel over its neighbours' (self weighted 1); the other touched slots' as found.
@compute @workgroup_size(${WORKGROUP}) fn thinApply(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= T.n) { return; }
  if ((flagsOf(a) & ${SPARSE}u) == 0u) {
    let dv = thin[sec(${T_DV}u, a)];
    if (dv.w != 0.0) { vel[a] = vec4<f32>(vel[a].xyz + dv.xyz, vel[a].w); }
    return;
  }
  let xa = pos[a].xyz;
  let a0 = thin[sec(${T_AX}u, a)];
  let a1 = thin[sec(${T_AX + 1}u, a)];
  let a2 = thin[sec(${T_AX + 2}u, a)];
  var w = 1.0;
  var s = thin[sec(${T_DV}u, a)].xyz;
  ${withinH(`
    let u = vec3<f32>(dot(rv, a0.xyz) * a0.w, dot(rv, a1.xyz) * a1.w, dot(rv, a2.xyz) * a2.w);
    let wk = W(length(u));
    w += wk;
    s += wk * thin[sec(${T_DV}u, b)].xyz;`)}
  vel[a] = vec4<f32>(vel[a].xyz + s / w, vel[a].w);
}
`;

export const THIN_WGSL = BINDINGS + HASH_WGSL + EIGEN + KERNELS;
