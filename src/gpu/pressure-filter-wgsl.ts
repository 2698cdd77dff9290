/// <reference types="@webgpu/types" />
/**
 * The particle-scale velocity filter between the two pressure solves on the GPU (src/particle/
 * pressure-filter.ts; pressure.ts filterVelocity): a bi-Laplacian (hyperviscous) filter on the
 * XSPH smoothing operator (Monaghan 1989, "On the problem of penetration in particle methods",
 * J. Comput. Phys. 82, §3), over the liquid neighbours within h (no ghosts, no objects),
 *
 *   (L u)_a = (1/n0) Σ_b c_ab w_ab (u_b − u_a),   c_ab = (c_a + c_b)/2,
 *
 * and Δv = −FILTER_GAIN · L(L v), FILTER_STEPS times, with c_a the liquid's strength
 * FILTER · max(0, 1 − ν δt/((2r)² FILTER_REACH)) (filterStrengths, P.filterStrength, written a sub-timestep
 * by params.ts), 0 next to a body (nearObject). Only with the position shift (pressure-shift-wgsl.ts
 * shiftsPresent: two solves and the implicit viscosity), and not dispatched where the strength is 0
 * (honey-like liquids). The kernels run on the step's bindings in the pressure module
 * (pressure-wgsl.ts), before the second solve's take-back, as pressure.ts orders them: c_a in sc.x
 * (free until the second solve's source), L v in dx, and L(L v) gathered from dx into vel.
 *
 * Single precision: each slot's sum runs over its neighbours in bucket order in f32, where the CPU
 * sums its liquid rows in f64; the one liquid has a uniform mass, so the mass ratio of
 * filterRange is 1 here.
 */
import type { Scene } from '../scene/scene.ts';
import { FILTER_GAIN, FILTER_STEPS, filterStrengths } from '../particle/pressure-filter.ts';
import { liquidViscosity } from '../particle/viscosity-weiler.ts';
import { dispatch, WORKGROUP } from './device.ts';
import { around, floatLiteral } from './wgsl.ts';

/** (L u)_a of the slot field `u` (pressure-filter.ts filterRange), strengths in sc.x. */
function laplacian(name: string, u: (b: string) => string): string {
  return /* wgsl */ `
fn ${name}(a: u32) -> vec3<f32> {
  let xa = pos[a].xyz;
  let ca = sc[a].x;
  let ua = ${u('a')};
  let invH = 1.0 / P.h;
  var s = vec3<f32>(0.0);
  ${around('P.h', `let cab = 0.5 * (ca + sc[b].x); if (cab != 0.0) { s += (cab * W(sqrt(d2) * invH)) * (${u('b')} - ua); }`)}
  return s * P.invN0;
}`;
}

export const FILTER_WGSL = /* wgsl */ `
${laplacian('velocityLaplacian', (b) => `vel[${b}].xyz`)}
${laplacian('filteredLaplacian', (b) => `dx[${b}].xyz`)}

// Each slot's strength: the liquid's (P.filterStrength), none next to a body (pressure.ts filterVelocity).
@compute @workgroup_size(${WORKGROUP}) fn filterBegin(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  sc[a].x = select(P.filterStrength, 0.0, nearObject(a));
}

// L v into dx.
@compute @workgroup_size(${WORKGROUP}) fn filterSmooth(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  dx[a] = vec4<f32>(velocityLaplacian(a), 0.0);
}

// v −= FILTER_GAIN L(L v): reads dx only, so each slot writes its own velocity in place.
@compute @workgroup_size(${WORKGROUP}) fn filterApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  vel[a] = vec4<f32>(vel[a].xyz - ${floatLiteral(FILTER_GAIN)} * filteredLaplacian(a), vel[a].w);
}
`;

export const FILTER_ENTRIES = ['filterBegin', 'filterSmooth', 'filterApply'] as const;
export type FilterEntry = (typeof FILTER_ENTRIES)[number];

/**
 * The filter's strength c for the scene's one liquid at sub-timestep dt (pressure-filter.ts
 * filterStrengths, from its kinematic viscosity as the implicit solve takes it: liquidViscosity).
 */
export function filterStrength(scene: Scene, r: number, dt: number): number {
  const name = scene.materialNames.find((m) => scene.materials[m].kind === 'liquid');
  const material = name === undefined ? undefined : scene.materials[name];
  if (!material || material.kind !== 'liquid') return 0;
  const out = new Float64Array(1);
  filterStrengths(new Float64Array([liquidViscosity(material, r, dt)]), [1], dt, r, out);
  return out[0];
}

/** The filter's dispatches over n slots (FILTER_STEPS bi-Laplacian steps). */
export function encodeFilter(pass: GPUComputePassEncoder, Q: Record<FilterEntry, GPUComputePipeline>, group: GPUBindGroup, n: number): void {
  dispatch(pass, Q.filterBegin, group, n);
  for (let k = 0; k < FILTER_STEPS; k++) {
    dispatch(pass, Q.filterSmooth, group, n);
    dispatch(pass, Q.filterApply, group, n);
  }
}
