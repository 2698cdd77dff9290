/// <reference types="@webgpu/types" />
/**
 * The particle-scale velocity filter between the two pressure solves on the GPU (src/particle/
 * pressure-filter.ts; pressure.ts filterVelocity): a bi-Laplacian (hyperviscous) filter on the
 * XSPH smoothing operator (Monaghan 1989, "On the problem of penetration in particle methods",
 * J. Comput. Phys. 82, §3), over the liquid neighbours within h and the mirror images across closed
 * walls that the pressure reads (no objects),
 *
 *   (L u)_a = (1/n0) Σ_b c_ab (m̄_ab/m_a) w_ab (u_b − u_a),   c_ab = (c_a + c_b)/2,
 *
 * an image moving as its source mirrored (pressure-ghost-pairs.ts ghostFilterUpper: a's own images with c_a,
 * a neighbour's with c_ab and the pair's mass share; wgsl.ts selfGhosts, pairGhosts, on the walls
 * the first solve's wallPass left in `wall`, at the same positions),
 * and Δv = −FILTER_GAIN · L(L v), filterSteps(C) times, with c_a its liquid's strength
 * FILTER · max(0, 1 − ν δt/((2r)² FILTER_REACH)) (pressure-courant.ts LiquidFilter: P.liq[l].z,
 * written a sub-timestep), 0 next to a body (nearObject), and m̄_ab/m_a the pair's mass share
 * (liquids-wgsl.ts massShare, 1 for one liquid). Only with the position shift
 * (pressure-shift-wgsl.ts shiftsPresent: two solves and the implicit viscosity), and not
 * dispatched where every liquid's strength is 0 (honey-like liquids).
 *
 * Liquids of unequal masses (liquids.ts liquidMassesDiffer; the host leaves the dispatches out
 * otherwise, so one density runs as before): the steps filter v − D and add D back, D each slot's
 * buoyant push from the first solve's stored pressure (pressure-filter.ts buoyantPush: the pair
 * weights 2 m_b/(m_a + m_b) less 1, λ̃ 0 next to a body, weighted by 1 + min(0, cos(D, g))), kept
 * in keep[2a].xyz over the steps (free until the second solve's pressureFactor): the push that
 * sinks a heavy liquid through a lighter one lives at the interface, a particle or two thick,
 * where the bi-Laplacian would take it out (docs/decisions.md, "A heavy liquid that sinks to the floor").
 *
 * The steps (pressure-filter.ts filterSteps, docs/decisions.md "Deep water at rest"): FILTER_STEPS
 * up to the pressure Courant number C = δt √(p/ρ0)/s of FILTER_COURANT (s the liquid's closest rest
 * spacing, StepContext.restSpacing: 2r, less where a start is drawn together), then growing as C², at
 * most FILTER_MAX_STEPS, with p/ρ0 the largest first-solve pressure among the filtered slots
 * (vel.w, p/δt²). The GPU finds it with no read-back: filterBegin takes the largest by atomicMax
 * on its bits (a float ≥ 0 orders as its u32 bits), filterCount turns it into the steps, and
 * FILTER_MAX_STEPS steps are dispatched, those past the count returning at once. The count left
 * rides in stats[1] and stats[2] in turn: filterSmooth reads stats[1] and its thread 0 hands it to
 * stats[2]; filterApply reads stats[2] and its thread 0 writes one less to stats[1], so no
 * dispatch reads the word it writes. The filter runs before the second solve's pressureBegin
 * (encode.ts), which zeroes stats[1..3]; stats[0] is the judge's ω, which it sets before a pass reads it.
 *
 * The kernels run on the step's bindings in the pressure module (pressure-wgsl.ts), before the
 * second solve's take-back, as pressure.ts orders them: c_a in sc.x (free until the second solve's
 * source), L v in dx, and L(L v) gathered from dx into vel.
 *
 * Single precision: each slot's sum runs over its neighbours in bucket order in f32, where the CPU
 * sums its liquid rows in f64; C and the steps in f32, where the CPU takes them in f64.
 */
import { FILTER_COURANT, FILTER_GAIN, FILTER_MAX_STEPS, FILTER_STEPS } from '../particle/pressure-filter.ts';
import { dispatch, WORKGROUP } from './device.ts';
import { around, floatLiteral, pairGhosts, selfGhosts } from './wgsl.ts';

/** (L u)_a of the slot field `u` (pressure-filter.ts filterRange), strengths in sc.x. */
function laplacian(name: string, u: (b: string) => string): string {
  return /* wgsl */ `
fn ${name}(a: u32) -> vec3<f32> {
  let xa = pos[a].xyz;
  let ca = sc[a].x;
  let ua = ${u('a')};
  let la = liquidOf(a);
  let invH = 1.0 / P.h;
  let wa = wallOf(a);
  var s = vec3<f32>(0.0);
  ${around('P.h', `let cab = 0.5 * (ca + sc[b].x); if (cab != 0.0) {
    let wab = cab * massShare(la, liquidOf(b));
    let ub = ${u('b')};
    s += (wab * W(sqrt(d2) * invH)) * (ub - ua);
    ${pairGhosts(`var ug = ub;
      for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { ug[k] = -ug[k]; } }
      s += (wab * W(sqrt(d2) * invH)) * (ug - ua);`)}
  }`)}
  if (ca != 0.0) {
    ${selfGhosts(`var ug = ua;
      for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { ug[k] = -ug[k]; } }
      s += (ca * W(sqrt(d2) * invH)) * (ug - ua);`)}
  }
  return s * P.invN0;
}`;
}

export const FILTER_WGSL = /* wgsl */ `
${laplacian('velocityLaplacian', (b) => `vel[${b}].xyz`)}
${laplacian('filteredLaplacian', (b) => `dx[${b}].xyz`)}

@compute @workgroup_size(1) fn filterReset() { atomicStore(&stats[0], 0u); }

// Each slot's strength: its liquid's (P.liq[l].z), none next to a body (pressure.ts filterVelocity);
// the largest first-solve p/δt² (vel.w) among the slots it filters into stats[0].
@compute @workgroup_size(${WORKGROUP}) fn filterBegin(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let c = select(P.liq[liquidOf(a)].z, 0.0, nearObject(a));
  sc[a].x = c;
  let lam = vel[a].w;
  if (c > 0.0 && lam > 0.0) { atomicMax(&stats[0], bitcast<u32>(lam)); }
}

// The steps (pressure-filter.ts filterSteps) from C = δt √(p/ρ0) / s, s the liquid's closest rest
// spacing (P.clamp[0].w: StepContext.restSpacing, 2r but where a start is drawn together), into stats[1].
@compute @workgroup_size(1) fn filterCount() {
  let C = P.dt * sqrt(bitcast<f32>(atomicLoad(&stats[0]))) / P.clamp[0].w;
  var steps = ${FILTER_STEPS}u;
  if (C > ${floatLiteral(FILTER_COURANT)}) {
    let q = C / ${floatLiteral(FILTER_COURANT)};
    steps = min(${FILTER_MAX_STEPS}u, u32(ceil(${floatLiteral(FILTER_STEPS)} * q * q)));
  }
  atomicStore(&stats[1], steps);
}

// L v into dx while steps are left (stats[1]; thread 0 hands the count to filterApply in stats[2]).
@compute @workgroup_size(${WORKGROUP}) fn filterSmooth(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  let left = atomicLoad(&stats[1]);
  if (a == 0u) { atomicStore(&stats[2], left); }
  if (a >= P.n || left == 0u) { return; }
  dx[a] = vec4<f32>(velocityLaplacian(a), 0.0);
}

// Liquids of unequal masses: the first solve's buoyant push D (pressure-filter.ts buoyantPush) into
// keep[2a].xyz (free from the first solve's end to the second's pressureFactor), the pair weight
// 2 m_b/(m_a + m_b) less 1 over the liquid pairs of unequal mass, λ̃ the stored p/δt² (vel.w) but
// 0 next to a body (as takeBackPressure reads it), weighted by 1 + min(0, cos(D, g)).
@compute @workgroup_size(${WORKGROUP}) fn filterPush(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let ia = invMassOf(liquidOf(a));
  let lta = select(vel[a].w, 0.0, nearObject(a));
  let invH = 1.0 / P.h;
  let k0 = -P.dt * P.invN0;
  var d = vec3<f32>(0.0);
  ${around('P.h', `let ib = invMassOf(liquidOf(b)); let r = sqrt(d2); if (ib != ia && r > 0.0) {
    let ltb = select(vel[b].w, 0.0, nearObject(b));
    d += (k0 * (lta + ltb) * ((ia - ib) / (ia + ib)) * dW(r * invH) * invH / r) * rv;
  }`)}
  let du = length(d);
  let gg = length(P.g);
  if (du > 0.0 && gg > 0.0) {
    let c = dot(d, P.g) / (du * gg);
    if (c < 0.0) { d = d * (1.0 + c); }
  }
  keep[2u * a] = vec4<f32>(d, keep[2u * a].w);
}

// v − D before the steps (filterPushOut) and D back after them (filterPushBack).
@compute @workgroup_size(${WORKGROUP}) fn filterPushOut(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  vel[a] = vec4<f32>(vel[a].xyz - keep[2u * a].xyz, vel[a].w);
}
@compute @workgroup_size(${WORKGROUP}) fn filterPushBack(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  vel[a] = vec4<f32>(vel[a].xyz + keep[2u * a].xyz, vel[a].w);
}

// v −= FILTER_GAIN L(L v): reads dx only, so each slot writes its own velocity in place; a step counted.
@compute @workgroup_size(${WORKGROUP}) fn filterApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  let left = atomicLoad(&stats[2]);
  if (a == 0u && left > 0u) { atomicStore(&stats[1], left - 1u); }
  if (a >= P.n || left == 0u) { return; }
  vel[a] = vec4<f32>(vel[a].xyz - ${floatLiteral(FILTER_GAIN)} * filteredLaplacian(a), vel[a].w);
}
`;

export const FILTER_ENTRIES = ['filterReset', 'filterBegin', 'filterCount', 'filterSmooth', 'filterApply', 'filterPush', 'filterPushOut', 'filterPushBack'] as const;
export type FilterEntry = (typeof FILTER_ENTRIES)[number];

/**
 * The filter's dispatches over n slots: the strengths and the steps, then FILTER_MAX_STEPS
 * bi-Laplacian steps, those past filterSteps(C) idle (see the header); where `push` (the scene's
 * liquids differ in mass: liquids.ts liquidMassesDiffer), the steps on v − D, D the buoyant push,
 * added back after them. Before the second solve's pressureBegin: it uses stats[0..2].
 */
export function encodeFilter(pass: GPUComputePassEncoder, Q: Record<FilterEntry, GPUComputePipeline>, group: GPUBindGroup, n: number, push = false): void {
  dispatch(pass, Q.filterReset, group, 1, 1);
  dispatch(pass, Q.filterBegin, group, n);
  dispatch(pass, Q.filterCount, group, 1, 1);
  if (push) {
    dispatch(pass, Q.filterPush, group, n);
    dispatch(pass, Q.filterPushOut, group, n);
  }
  for (let k = 0; k < FILTER_MAX_STEPS; k++) {
    dispatch(pass, Q.filterSmooth, group, n);
    dispatch(pass, Q.filterApply, group, n);
  }
  if (push) dispatch(pass, Q.filterPushBack, group, n);
}
