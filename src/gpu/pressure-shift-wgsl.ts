/// <reference types="@webgpu/types" />
/**
 * The second pressure solve's position shift on the GPU (src/particle/pressure-shift.ts
 * shiftPresent): the compression the liquid has at the start of the second solve (ρ̂/ρ0 − 1 > 0)
 * taken out of the positions, not the velocities: passes of relaxed Jacobi on its pressure, p ≥ 0
 * (SHIFT_PASSES where water-like liquid moves, else the estimate alone: shiftPasses, from the
 * host's copy of the still-water gate and the filter's largest strength), the first the estimate p_a = RELAX α_a (ρ̂_a/ρ0 − 1)⁺, each further one
 * p_a += RELAX α_a (ρ̂_a/ρ0 + Δρ̂_a(Δx(p))/ρ0 − 1) (the solves' update on the start's ρ̂, no
 * source); then x += Δx(p) (the step's displacement, wgsl.ts: ghosts and objects as in a pass),
 * velocities untouched — the split of drift correction from velocity; the last pass's p is added
 * to the stored p/δt² (vel.w, the next sub-timestep's warm start) where that is already > 0, so
 * persisting compression builds the pressure that holds it (an integral term). Not next to a body
 * (nearObject: there the solves take the compression as velocity, PRESENT_NEAR_BODY; p stays 0
 * there and its compression is not asked of its neighbours), and only with two solves and the
 * implicit viscosity (shiftsPresent; the exchange keeps it as velocity, PRESENT_EXCHANGE_TWICE).
 * With the shift the solves' source takes PRESENT_TWICE of the present compression
 * (pressure-wgsl.ts presentShares).
 *
 * The kernels run on the step's bindings in the pressure module (pressure-wgsl.ts) after the
 * second solve, where its pressureFactor left ρ̂/ρ0 in keep[2a + 1].x and α in keep[2a].w (the
 * passes leave both); the shift's p goes to sc.y (the solve's p is in vel.w already), Δx to dx;
 * a further pass's update reads its displacement through the module's `displaced` (pressure-wgsl.ts).
 * substep.ts dispatches them after the free-flight flag, which the CPU decides before the shift.
 *
 * Single precision: ρ̂, α and each Δx are f32 sums over the neighbours in bucket order, where
 * the CPU sums in f64 over its rows.
 */
import { RELAX } from '../particle/pressure-kernels.ts';
import { solvesTwice } from '../particle/pressure.ts';
import { dispatch, WORKGROUP } from './device.ts';
import { floatLiteral } from './wgsl.ts';

/** Whether the second solve shifts the positions (pressure.ts applyPressure: two solves and the implicit viscosity). */
export function shiftsPresent(P: { pressureAfterViscosity: boolean; viscositySolver: string }): boolean {
  return solvesTwice(P) && P.viscositySolver === 'implicit';
}

export const SHIFT_WGSL = /* wgsl */ `
// The estimate p = RELAX α (ρ̂/ρ0 − 1)⁺ at the second solve's start, none next to a body.
@compute @workgroup_size(${WORKGROUP}) fn shiftPressure(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let e = select(keep[2u * a + 1u].x - 1.0, 0.0, nearObject(a));
  sc[a].y = select(0.0, ${floatLiteral(RELAX)} * keep[2u * a].w * e, e > 0.0);
}
// Its displacement (the judge's stop flag, which the step's displace reads, is set by now).
@compute @workgroup_size(${WORKGROUP}) fn shiftDisplace(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  dx[a] = vec4<f32>(displacement(a), 0.0);
}
// A further pass (pressure-kernels.ts pressureUpdateRange on the start's ρ̂, no source, p ≥ 0): only
// slot a reads its own p here (the last p's displacement is in dx), so written in place; 0 next to a body.
@compute @workgroup_size(${WORKGROUP}) fn shiftUpdate(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let e = keep[2u * a + 1u].x + displaced(a) * P.invN0 - 1.0;
  let q = max(sc[a].y + ${floatLiteral(RELAX)} * keep[2u * a].w * e, 0.0);
  sc[a].y = select(q, 0.0, nearObject(a));
}
@compute @workgroup_size(${WORKGROUP}) fn shiftApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  pos[a] = vec4<f32>(pos[a].xyz + dx[a].xyz, pos[a].w);
  // Fed forward into the next sub-timestep's warm start (p/δt², vel.w: pressureEnd wrote it) where
  // the particle already holds a pressure, not in free flight (pressure-shift.ts shiftPresent).
  if (vel[a].w > 0.0) { vel[a].w += sc[a].y / (P.dt * P.dt); }
}
`;

export const SHIFT_ENTRIES = ['shiftPressure', 'shiftDisplace', 'shiftUpdate', 'shiftApply'] as const;
export type ShiftEntry = (typeof SHIFT_ENTRIES)[number];

/** The shift's dispatches over n slots, after the second solve: the estimate, passes − 1 further passes (pressure-shift.ts shiftPasses), the move. */
export function encodeShift(pass: GPUComputePassEncoder, Q: Record<ShiftEntry, GPUComputePipeline>, group: GPUBindGroup, n: number, passes: number): void {
  dispatch(pass, Q.shiftPressure, group, n);
  for (let k = 1; k < passes; k++) {
    dispatch(pass, Q.shiftDisplace, group, n);
    dispatch(pass, Q.shiftUpdate, group, n);
  }
  dispatch(pass, Q.shiftDisplace, group, n);
  dispatch(pass, Q.shiftApply, group, n);
}
