/**
 * The WGSL of the implicit viscosity on the GPU (viscosity-solve.ts runs it): backward Euler on
 * the SPH viscosity Laplacian of Weiler, Koschier, Brand & Bender 2018, "A Physically Consistent
 * Implicit Viscosity Solver for SPH Fluids" (Computer Graphics Forum 37(2), §4, eq. 8–10), the
 * system of src/particle/viscosity-weiler-solve.ts row for row:
 *
 *   ρ v_i + Σ_j e_ij x_ij (x_ij · (v_i − v_j)) + T X_i T v_i + walls = ρ v*_i,
 *   e_ij = δt K μ F(|x_ij|) q_i q_j,   F(r) = −W′(r) / (r (r² + 0.01 h²)),
 *
 * solved matrix-free by conjugate gradients with the 3×3 block-Jacobi preconditioner (the paper's
 * §4 solver as SPlisHSPlasH runs it). Each product A v is a gather over the neighbours within the
 * viscosity support h (wgsl.ts `around`; a full row each, so every slot writes only its own entry),
 * its coefficients computed once a solve by viscSetup into the slot's list and summed from it in the
 * same order (viscosity-list-wgsl.ts; from the positions where the list did not fit). The object
 * terms are X_i = Σ_b e_ib x_ib x_ibᵀ over the static object particles within h (e_ib with the
 * Akinci volume γ_b and the body's friction), taken on the body's tangent plane, T = I − n nᵀ with n
 * the direction of Σ_b e_ib x_ib, and T X_i T v_b (the body particles' velocities, moving-objects.ts,
 * zero for a still body; objects.ts objectVel) on the right-hand side; the closed walls are mirror
 * ghosts of the liquid, "slip" moving with M v_j, "noslip" with −v_j (the symmetric B form of
 * viscosity-weiler-solve.ts). Still walls only (refuse.ts): they add nothing to the right-hand side.
 * q are the volumes (V/V0 = ρ0/ρ below the rest density: volumesWgsl, viscosity-volumes.ts), on the
 * liquid pairs and the ghosts (q of the particle mirrored), not on the object terms. The part of a
 * no-slip wall the ghosts leave uncovered where a free surface cuts the kernel is a diagonal term
 * on the axes along the wall (src/particle/viscosity-weiler-wall-cover.ts: coverWgsl, set up in
 * viscSetup into CG_WD, read by the products), in rows with a ghost.
 *
 * The dot products are two-level workgroup reductions, fixed in order (so a run's sums do not
 * depend on scheduling): each workgroup of WORKGROUP slots sums its threads' terms in workgroup
 * memory (a tree of barriers) into one partial, and one workgroup then sums the partials the same
 * way and takes the step's scalars (α, β, the stop test). A `done` flag the scalar kernels set
 * turns the later dispatches into no-ops; the host reads it back every CHECK_EVERY iterations
 * (viscosity-solve.ts).
 *
 * Bindings (withBindings, wgsl.ts): 0 the step's parameters, 1 pos, 2 vel (v* until the end), 3 id
 * (each slot's particle), 4 cg (vec4 per slot in sections of P.cap: CG_X the iterate, CG_R the
 * residual, CG_D the direction, CG_Q = A d, CG_B the right-hand side, CG_I0 / CG_I1 the inverse
 * diagonal block, CG_N the body's normal, then CG_C the warm start and CG_RHO ρ/ρ0 by particle
 * id, CG_VOL q by slot, CG_WD the wall cover's diagonal by slot and in w the walls its ghosts are of, as bits; from CG_SECTIONS the
 * products' lists by slot: viscosity-list-wgsl.ts), 5 red (the solve's constants and scalars, then the workgroups' partial
 * sums: RED_* below), 6 wall, 7 start, 8 the temperatures by particle id (temperature.ts; a
 * stand-in where no liquid has a law, never read).
 */
import { WORKGROUP } from './device.ts';
import { around, twoLevelSum, withBindings } from './wgsl.ts';
import { aroundObjects } from './objects.ts';
import { FACTOR_WGSL } from './temperature.ts';
import { VOLUME_FLOOR } from '../particle/viscosity-weiler-volumes.ts';
import { coverWgsl } from './viscosity-cover-wgsl.ts';
import { holdShareWgsl } from './viscosity-hold-wgsl.ts';
import { productsWgsl } from './viscosity-list-wgsl.ts';

/** ghostReach's margin over h (the proof in its comment needs > 1; the rest covers rounding many times over). */
export const GHOST_REACH = 1.1;

/** Sections of the cg buffer, in vec4 slots of the capacity P.cap (CG_C and CG_RHO are indexed by particle id). */
export const CG_X = 0, CG_R = 1, CG_D = 2, CG_Q = 3, CG_B = 4, CG_I0 = 5, CG_I1 = 6, CG_N = 7, CG_C = 8, CG_RHO = 9, CG_VOL = 10, CG_WD = 11, CG_SECTIONS = 12;
/**
 * The red buffer (vec4 entries): [0] (K μ δt, ρ of the first liquid: liquids-wgsl.ts scales them for each, tol², floor) and [1] (maxIter, the lists' entries, −, −) from the
 * host; [2] (r·z, r·r, goal, α); [3] (β, done, iterations, p·Ap); [4] (|b − A v*|², |b|², −, −);
 * [5] the momentum shift; from RED_PARTS the workgroups' partial sums.
 */
export const RED_STATE = 2, RED_PARTS = 8;

const BINDINGS = /* wgsl */ `
@group(0) @binding(1) var<storage, read_write> pos: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> vel: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> id: array<u32>;
@group(0) @binding(4) var<storage, read_write> cg: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> red: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> wall: array<vec4<f32>>;
@group(0) @binding(7) var<storage, read_write> start: array<u32>;
@group(0) @binding(8) var<storage, read_write> temp: array<f32>;
`;

/**
 * The volumes (viscosity-volumes.ts; src/particle/viscosity-weiler-volumes.ts): viscVolumes, the
 * solve's first kernel, takes each slot's q = volumeRatio(ρ/ρ0) from ρ/ρ0 kept by particle id
 * (CG_RHO) into CG_VOL; vq(a, b) = q_a q_b multiplies a liquid pair's coefficient and the ghost of b
 * seen from a (b = a: a's own).
 */
function volumesWgsl(): string {
  return /* wgsl */ `
fn volumeRatio(d: f32) -> f32 { return select(1.0, 1.0 / max(d, ${VOLUME_FLOOR}), d < 1.0); }
fn vq(a: u32, b: u32) -> f32 { return cg[sec(${CG_VOL}u, a)].x * cg[sec(${CG_VOL}u, b)].x; }
@compute @workgroup_size(${WORKGROUP}) fn viscVolumes(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n) { return; }
  cg[sec(${CG_VOL}u, a)] = vec4<f32>(volumeRatio(cg[sec(${CG_RHO}u, id[a])].x), 0.0, 0.0, 0.0);
}`;
}

const KERNELS = /* wgsl */ `
${FACTOR_WGSL}
// Sections of P.cap slots: the liquid may grow to it (sources.ts) and the warm start is kept by
// particle id, below it too.
fn sec(k: u32, a: u32) -> u32 { return k * P.cap + a; }

${volumesWgsl()}

// F(r) for r² = d2 < h² (viscosity-weiler-solve.ts pairFactor; 0 at r = 0).
fn pairF(d2: f32, h: f32) -> f32 {
  if (!(d2 > 0.0)) { return 0.0; }
  let r = sqrt(d2);
  let sigma = 8.0 / (3.14159265358979 * h * h * h);
  return (-sigma * dW(r / h)) / (h * r * (d2 + 0.01 * h * h));
}

// Wall face f's plane (f = 2 axis + 1 for the upper side) and b's mirror ghost in it as seen from a,
// x′ = x_a − M x_b (b = a: a's own).
fn wallPlane(f: u32) -> f32 {
  if ((f & 1u) == 1u) { return P.hi[f >> 1u]; }
  return P.lo[f >> 1u];
}
fn wallGhost(xa: vec3<f32>, xb: vec3<f32>, f: u32) -> vec3<f32> {
  let axis = f >> 1u;
  var g = xa - xb;
  g[axis] = xa[axis] + xb[axis] - 2.0 * wallPlane(f);
  return g;
}

// The closed walls across which a neighbour of a (within h) can have a ghost within h of a, as bits
// of P.walls: those a is nearer than GHOST_REACH h to, or beyond. Across a wall a is u ≥ GHOST_REACH h
// inside of, the ghost of any b within h is x′_axis = u + u_b > (2 GHOST_REACH − 1) h > h from a, so
// the loops below skip it as their own test would (the same terms in the same order).
fn ghostReach(xa: vec3<f32>) -> u32 {
  var m = 0u;
  for (var f = 0u; f < 6u; f++) {
    let axis = f >> 1u;
    let u = select(xa[axis] - P.lo[axis], P.hi[axis] - xa[axis], (f & 1u) == 1u);
    if (u < ${GHOST_REACH} * P.hv) { m = m | (1u << f); }
  }
  return m & P.walls;
}

// The closed walls' mirror ghosts of b as seen from a (b = a: a's own): x′ = x_a − M x_b within h, across
// the walls of wm (ghostReach), in the walls' order.
fn ghostTerms(xa: vec3<f32>, xb: vec3<f32>, va: vec3<f32>, vb: vec3<f32>, pk: f32, wm: u32) -> vec3<f32> {
  var s = vec3<f32>(0.0);
  let h = P.hv;
  for (var m = wm; m != 0u; m = m & (m - 1u)) {
    let f = firstTrailingBit(m);
    let g = wallGhost(xa, xb, f);
    let g2 = dot(g, g);
    if (g2 >= h * h) { continue; }
    s += ghostTerm(g, pk * pairF(g2, h), f, va, vb);
  }
  return s;
}

// A symmetric 3×3 block: d the diagonal (xx, yy, zz), o the rest (xy, xz, yz).
struct Sym { d: vec3<f32>, o: vec3<f32> }
fn outer(c: f32, x: vec3<f32>) -> Sym { return Sym(c * x * x, c * vec3<f32>(x.x * x.y, x.x * x.z, x.y * x.z)); }
fn symAdd(a: Sym, b: Sym) -> Sym { return Sym(a.d + b.d, a.o + b.o); }
fn symMul(m: Sym, v: vec3<f32>) -> vec3<f32> {
  return vec3<f32>(m.d.x * v.x + m.o.x * v.y + m.o.y * v.z, m.o.x * v.x + m.d.y * v.y + m.o.z * v.z, m.o.y * v.x + m.o.z * v.y + m.d.z * v.z);
}

// The ghosts' share of a's diagonal block (setupRow): x′x′ᵀ, or B (the entries pairing the wall's
// axis with another dropped) for a no-slip wall; f = 2 for a's own ghost.
fn ghostDiag(xa: vec3<f32>, xb: vec3<f32>, f: f32, pk: f32, wm: u32) -> Sym {
  var s = Sym(vec3<f32>(0.0), vec3<f32>(0.0));
  let h = P.hv;
  for (var m = wm; m != 0u; m = m & (m - 1u)) {
    let k = firstTrailingBit(m);
    let axis = k >> 1u;
    let g = wallGhost(xa, xb, k);
    let g2 = dot(g, g);
    if (g2 >= h * h) { continue; }
    var t = outer(f * pk * pairF(g2, h), g);
    if ((P.sticky & (1u << k)) != 0u) {
      if (axis == 0u) { t.o.x = 0.0; t.o.y = 0.0; } else if (axis == 1u) { t.o.x = 0.0; t.o.z = 0.0; } else { t.o.y = 0.0; t.o.z = 0.0; }
    }
    s = symAdd(s, t);
  }
  return s;
}

${coverWgsl()}

${productsWgsl({ WD: CG_WD, N: CG_N, head: CG_SECTIONS }, [
  ['applyStarX', (b) => `vel[${b}].xyz`, (b) => `cg[sec(${CG_X}u, ${b})].xyz`], ['applyD', (b) => `cg[sec(${CG_D}u, ${b})].xyz`]])}

// z = P r, P the inverse diagonal block of slot a.
fn precondition(a: u32, r: vec3<f32>) -> vec3<f32> {
  let i0 = cg[sec(${CG_I0}u, a)];
  let i1 = cg[sec(${CG_I1}u, a)];
  return symMul(Sym(i0.xyz, vec3<f32>(i0.w, i1.x, i1.y)), r);
}

// The sums in two levels (wgsl.ts twoLevelSum).
${twoLevelSum(RED_PARTS, 'P.n')}
fn isDone() -> bool { return red[3].y != 0.0; }

// Row a's diagonal block (inverted), the body's normal, b = ρ v* and the warm start x = v* + the
// change the last solve made to the same particle (viscosity-weiler-solve.ts setupRow).
@compute @workgroup_size(${WORKGROUP}) fn viscSetup(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let la = liquidOf(a);
  let fa = factorOf(a);
  let pk = red[0].x * viscRatio(la, la) * fa;
  let rho = red[0].y * rhoRatioOf(la);
  let h = P.hv;
  var dg = Sym(vec3<f32>(rho), vec3<f32>(0.0));
  let wm = ghostReach(xa);
  var gw = ghostWallBits(xa, xa, wm);
  // The wall cover (coverWgsl), where a wall is no-slip: per wall, the ghosts' drag along it and their
  // density, summed in the same neighbour loop as the diagonal block.
  let covered = (P.walls & P.sticky) != 0u;
  var present: array<f32, 6>;
  var wsum: array<f32, 6>;
  var ghosts = false;
  if (covered) { ghosts = coverGhost(xa, xa, 0.0, wm, &present, &wsum); }
  // The products' list (viscosity-list-wgsl.ts): each neighbour's group in the loop's order, then a's own ghosts'.
  var lk = 0u;
  ${around('P.hv', `let pkb = red[0].x * viscRatio(la, liquidOf(b)) * factorMean(fa, factorOf(b)) * vq(a, b); let xb = pos[b].xyz; let e = pkb * pairF(d2, h); lk = listGroup(a, lk, b, e, xa, xb, pkb, wm); dg = symAdd(dg, outer(e, rv)); dg = symAdd(dg, ghostDiag(xa, xb, 1.0, pkb, wm)); gw = gw | ghostWallBits(xa, xb, wm); if (covered) { ghosts = coverGhost(xa, xb, pkb, wm, &present, &wsum) || ghosts; }`)}
  dg = symAdd(dg, ghostDiag(xa, xa, 2.0, pk * vq(a, a), wm));
  let k1 = lk;
  lk = listGroup(a, lk, a, 0.0, xa, xa, pk * vq(a, a), wm);
  var fits = lk <= u32(red[1].y);
  var nob = 0u;
  var wd = vec3<f32>(0.0);
  if (covered && ghosts) { wd = wallCover(xa, pk * cg[sec(${CG_VOL}u, a)].x, &present, &wsum); }
  // w: the walls a has ghosts of (the holds' flags: viscHoldShare).
  cg[sec(${CG_WD}u, a)] = vec4<f32>(wd, f32(gw));
  dg.d += wd;
  var nrm = vec3<f32>(0.0);
  var bo = vec3<f32>(0.0);
  if (P.om > 0u) {
    var X = Sym(vec3<f32>(0.0), vec3<f32>(0.0));
    var ns = vec3<f32>(0.0);
    ${aroundObjects('P.hv', `let c = pk * pos[o].w * objectFriction(o) * pairF(d2, h); X = symAdd(X, outer(c, rv)); ns += c * rv; fits = fits && listObject(a, lk, nob, o, c); nob++;`)}
    let nl = length(ns);
    if (nl > 0.0) {
      nrm = ns / nl;
      // T X T v_b into b: each body particle's velocity along the surface (objectVel: zero for a
      // still body), as viscosity-weiler-solve.ts setupRow adds it.
      var ub = vec3<f32>(0.0);
      ${aroundObjects('P.hv', `let c = pk * pos[o].w * objectFriction(o) * pairF(d2, h); let wv = objectVel(o); ub += (c * dot(rv, wv - dot(wv, nrm) * nrm)) * rv;`)}
      bo = ub - dot(ub, nrm) * nrm;
      // T X T = X − n wᵀ − w nᵀ + (nᵀ X n) n nᵀ, w = X n.
      let w = symMul(X, nrm);
      let q = dot(nrm, w);
      dg.d += X.d - 2.0 * nrm * w + q * nrm * nrm;
      dg.o += X.o - vec3<f32>(nrm.x * w.y + w.x * nrm.y, nrm.x * w.z + w.x * nrm.z, nrm.y * w.z + w.y * nrm.z)
        + q * vec3<f32>(nrm.x * nrm.y, nrm.x * nrm.z, nrm.y * nrm.z);
    }
  }
  cg[sec(${CG_SECTIONS}u, a)] = vec4<f32>(f32(k1), select(-1.0, f32(lk), fits), f32(nob), 0.0);
  let dxx = dg.d.x; let dyy = dg.d.y; let dzz = dg.d.z; let dxy = dg.o.x; let dxz = dg.o.y; let dyz = dg.o.z;
  let cxx = dyy * dzz - dyz * dyz;
  let cxy = dxz * dyz - dxy * dzz;
  let cxz = dxy * dyz - dxz * dyy;
  let inv = 1.0 / (dxx * cxx + dxy * cxy + dxz * cxz);
  cg[sec(${CG_I0}u, a)] = vec4<f32>(cxx, dxx * dzz - dxz * dxz, dxx * dyy - dxy * dxy, cxy) * inv;
  cg[sec(${CG_I1}u, a)] = vec4<f32>(cxz, dxy * dxz - dxx * dyz, 0.0, 0.0) * inv;
  cg[sec(${CG_N}u, a)] = vec4<f32>(nrm, 0.0);
  let vs = vel[a].xyz;
  cg[sec(${CG_B}u, a)] = vec4<f32>(rho * vs + bo, 0.0);
  cg[sec(${CG_X}u, a)] = vec4<f32>(vs + cg[sec(${CG_C}u, id[a])].xyz, 0.0);
}

// r = b − A x, d = z = P r; the partials of (r·z, r·r, |b − A v*|², |b|²).
@compute @workgroup_size(${WORKGROUP}) fn viscStart(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < P.n) {
    let b = cg[sec(${CG_B}u, a)].xyz;
    var ax: array<vec3<f32>, 2>;
    if (listed(a)) { ax = applyStarXListed(a); } else { ax = applyStarX(a); }
    let e = b - ax[0];
    let r = b - ax[1];
    let z = precondition(a, r);
    cg[sec(${CG_R}u, a)] = vec4<f32>(r, 0.0);
    cg[sec(${CG_D}u, a)] = vec4<f32>(z, 0.0);
    t = vec4<f32>(dot(r, z), dot(r, r), dot(e, e), dot(b, b));
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn viscStartTotal(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u) { return; }
  // The stop test of viscosity-weiler-solve.ts: |r|² ≤ tol² |b − A v*|² + floor |b|².
  let goal = red[0].z * t.z + red[0].w * t.w;
  red[2] = vec4<f32>(t.x, t.y, goal, 0.0);
  red[3] = vec4<f32>(0.0, select(0.0, 1.0, t.y <= goal), 0.0, 0.0);
  red[4] = vec4<f32>(t.z, t.w, 0.0, 0.0);
}

// q = A d and the partials of d·q.
@compute @workgroup_size(${WORKGROUP}) fn viscApply(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < P.n && !isDone()) {
    var q: vec3<f32>;
    if (listed(a)) { q = applyDListed(a); } else { q = applyD(a); }
    cg[sec(${CG_Q}u, a)] = vec4<f32>(q, 0.0);
    t.x = dot(cg[sec(${CG_D}u, a)].xyz, q);
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn viscAlpha(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u || isDone()) { return; }
  if (!(t.x > 0.0)) { red[3].y = 1.0; return; }
  red[2].w = red[2].x / t.x;
  red[3].w = t.x;
}

// x += α d, r −= α q, z = P r; the partials of (r·z, r·r).
@compute @workgroup_size(${WORKGROUP}) fn viscUpdate(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < P.n && !isDone()) {
    let alpha = red[2].w;
    cg[sec(${CG_X}u, a)] += alpha * cg[sec(${CG_D}u, a)];
    let r = cg[sec(${CG_R}u, a)].xyz - alpha * cg[sec(${CG_Q}u, a)].xyz;
    cg[sec(${CG_R}u, a)] = vec4<f32>(r, 0.0);
    t = vec4<f32>(dot(r, precondition(a, r)), dot(r, r), 0.0, 0.0);
  }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn viscBeta(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u || isDone()) { return; }
  let it = red[3].z + 1.0;
  red[3].z = it;
  red[2].y = t.y;
  if (t.y <= red[2].z || it >= red[1].x) { red[3].y = 1.0; return; }
  red[3].x = t.x / red[2].x;
  red[2].x = t.x;
}
// d = z + β d.
@compute @workgroup_size(${WORKGROUP}) fn viscDirection(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n || isDone()) { return; }
  let z = precondition(a, cg[sec(${CG_R}u, a)].xyz);
  cg[sec(${CG_D}u, a)] = vec4<f32>(z + red[3].x * cg[sec(${CG_D}u, a)].xyz, 0.0);
}

// The residual's sum over the liquid's mass (Σ ρ_a in w): the momentum the iterate lacks (viscosity-weiler-solve.ts).
@compute @workgroup_size(${WORKGROUP}) fn viscShiftParts(@builtin(global_invocation_id) gi: vec3<u32>, @builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wg: vec3<u32>) {
  let a = gi.x;
  var t = vec4<f32>(0.0);
  if (a < P.n) { t = vec4<f32>(cg[sec(${CG_R}u, a)].xyz, rhoRatioOf(liquidOf(a))); }
  groupSum(l, wg.x, t);
}
@compute @workgroup_size(${WORKGROUP}) fn viscShiftTotal(@builtin(local_invocation_index) l: u32) {
  let t = totalSum(l);
  if (l != 0u) { return; }
  red[5] = vec4<f32>(t.xyz / (red[0].y * t.w), 0.0);
}
// The solution shifted, kept as the velocity; its change from v* kept by particle for the next warm start.
@compute @workgroup_size(${WORKGROUP}) fn viscFinish(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n) { return; }
  let x = cg[sec(${CG_X}u, a)].xyz + red[5].xyz;
  cg[sec(${CG_C}u, id[a])] = vec4<f32>(x - vel[a].xyz, 0.0);
  vel[a] = vec4<f32>(x, vel[a].w);
}
`;

/**
 * The free bodies' share of the solve (viscosity-weiler.ts bodyReaction; Akinci et al. 2012 §5):
 * the change the object terms of free bodies made to slot a, −(1/ρ) Σ_b e_ib T x_ib (T x_ib ·
 * (v_a − v_b)) at the solution, and the body (its index + 1: wall[o].w, free-wgsl.ts), into the
 * CG_Q section (free once the solve is over), which free-bodies.ts sums as it sums `keep`'s. After
 * the shift and before the walls' hold (viscosity-solve.ts), as the CPU takes bodyReaction before
 * holdWallDrag: v_a is the shifted solution, not the held velocity.
 */
const FREE_SHARE = /* wgsl */ `
@compute @workgroup_size(${WORKGROUP}) fn viscFree(@builtin(global_invocation_id) gi: vec3<u32>) {
  let a = gi.x;
  if (a >= P.n) { return; }
  var dv = vec3<f32>(0.0);
  var k1 = 0.0;
  if (P.nfree > 0u) {
    let xa = pos[a].xyz;
    let va = cg[sec(${CG_X}u, a)].xyz + red[5].xyz;
    let nrm = cg[sec(${CG_N}u, a)].xyz;
    let la = liquidOf(a);
    let pk = red[0].x * viscRatio(la, la) * factorOf(a);
    let h = P.hv;
    ${aroundObjects('P.hv', `
      let fo = wall[o].w;
      if (fo > 0.0) {
        let c = pk * pos[o].w * objectFriction(o) * pairF(d2, h);
        var w = va - objectVel(o);
        w -= dot(w, nrm) * nrm;
        let t = rv - dot(rv, nrm) * nrm;
        dv -= (c * dot(t, w)) * t;
        k1 = fo;
      }`)}
    dv = dv / (red[0].y * rhoRatioOf(la));
  }
  cg[sec(${CG_Q}u, a)] = vec4<f32>(dv, k1);
}
`;

export const VISCOSITY_WGSL = withBindings(BINDINGS) + KERNELS + FREE_SHARE + holdShareWgsl({ X: CG_X, R: CG_R, D: CG_D, B: CG_B, N: CG_N, WD: CG_WD });

export const VISCOSITY_ENTRIES = [
  'viscVolumes', 'viscSetup', 'viscStart', 'viscStartTotal', 'viscApply', 'viscAlpha', 'viscUpdate', 'viscBeta', 'viscDirection',
  'viscShiftParts', 'viscShiftTotal', 'viscHoldShare', 'viscFinish', 'viscFree',
] as const;
export type ViscosityEntry = (typeof VISCOSITY_ENTRIES)[number];
