/**
 * The WGSL of the pressure stage (src/particle/pressure.ts, densitySolver "pbf"): DFSPH's
 * constant-density solve (Bender & Koschier 2017, Algorithm 3, as SPlisHSPlasH runs it: relaxed
 * Jacobi, ω = 0.5, on a pressure kept ≥ 0, Chebyshev-accelerated from the third pass on) on the
 * displacement δt v* the moves would make, warm started from the last sub-timestep's p/δt² (vel.w).
 * The bind group of wgsl.ts; during the stage `keep` holds per slot [2a]: (u = δt v*, α)
 * and [2a + 1]: (ρ̂, neighbours within h; during the passes, p before the last update; −, moved),
 * `sc.x` the target 1 + source and `sc.y` the pressure; stats[0] Chebyshev's ω between passes (the
 * largest speed is read before the stage). A pass's displacement Δx(p) into dx is the step's own
 * `displace` kernel (step-wgsl.ts, the same as density correction's: encode.ts dispatches it). The
 * module also holds the second solve's particle-scale filter (pressure-filter-wgsl.ts) and position
 * shift (pressure-shift-wgsl.ts), on the same bindings.
 */
import { WORKGROUP } from './device.ts';
import { around, floatLiteral, pairGhosts, selfGhosts, SHARED_WGSL } from './wgsl.ts';
import { aroundObjects } from './objects.ts';
import { PRESENT_EXCHANGE_TWICE, PRESENT_NEAR_BODY, PRESENT_ONCE, PRESENT_TWICE, solvesTwice } from '../particle/pressure.ts';
import { FILTER_ENTRIES, FILTER_WGSL } from './pressure-filter-wgsl.ts';
import { SHIFT_ENTRIES, SHIFT_WGSL, shiftsPresent } from './pressure-shift-wgsl.ts';

/** Neighbours within h (liquid and ghosts) from which a particle is not at a free surface (pressure-kernels.ts FULL). */
const FULL = 20;
/** ρ/ρ0 under which a particle keeps no warm start (pressure.ts ALONE). */
const ALONE = 0.45;
/** Jacobi relaxation (pressure-kernels.ts RELAX). */
const RELAX = 0.5;
/** Spectral radius the Chebyshev weights assume (pressure.ts SPECTRAL_RADIUS). */
const SPECTRAL_RADIUS = 0.9;

/**
 * n0 × the first-order change of ρ̂_a when every slot moves by `u(b)` (pressure-kernels.ts
 * densityChange, ghosts moving as their mirrored source), the objects by `uo(o)` (their δt v_o in
 * the advection, still in the passes).
 */
function densityChange(name: string, u: (b: string) => string, uo = (_o: string) => 'vec3<f32>(0.0)'): string {
  return /* wgsl */ `
fn ${name}(a: u32) -> f32 {
  let xa = pos[a].xyz;
  let ua = ${u('a')};
  let invH = 1.0 / P.h;
  let wa = wallOf(a);
  var drho = 0.0;
  ${around('P.h', `
    let d = sqrt(d2);
    if (d > 0.0) { drho += (dW(d * invH) * invH / d) * dot(ua - ${u('b')}, rv); }
    ${pairGhosts(`let dg = sqrt(d2); if (dg > 0.0) {
      var ug = ${u('b')};
      for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { ug[k] = -ug[k]; } }
      drho += (dW(dg * invH) * invH / dg) * dot(ua - ug, off);
    }`)}`)}
  ${selfGhosts(`let dg = sqrt(d2); if (dg > 0.0) {
    var ug = ua;
    for (var k = 0u; k < 3u; k++) { if ((S & (1u << k)) != 0u) { ug[k] = -ug[k]; } }
    drho += (dW(dg * invH) * invH / dg) * dot(ua - ug, off);
  }`)}
  ${aroundObjects('P.h', `let d = sqrt(d2); if (d > 0.0) { drho += (pos[o].w * dW(d * invH) * invH / d) * dot(ua - ${uo('o')}, rv); }`)}
  return drho;
}`;
}

/**
 * The judge of a solve's passes: a pass counted; stop at a mean residual within `tolerance` or after
 * pmax passes. Both solves stop at P.ptol: pressure.ts depthTolerance's (params.ts), COLD_TOLERANCE on
 * the run's first sub-timestep, whose second solve is warm on the CPU (PRESSURE_TOLERANCE there) but
 * takes its one pass either way (no stored pressure yet, so not deep: substep.ts runSubstep).
 */
function judge(name: string, tolerance: string): string {
  return /* wgsl */ `
@compute @workgroup_size(1) fn ${name}() {
  if (atomicLoad(&stats[2]) != 0u) { return; }
  let err = f32(atomicLoad(&stats[1])) / (ERROR_SCALE * f32(max(P.n, 1u)));
  let passes = atomicAdd(&stats[3], 1u) + 1u;
  atomicStore(&stats[1], 0u);
  if (passes >= P.pmax || err <= ${tolerance}) { atomicStore(&stats[2], 1u); return; }
  // Chebyshev's weight for the next pass (pressure.ts): 2/(2 − ρ²) at the third, then 4/(4 − ρ² ω).
  let r2 = ${floatLiteral(SPECTRAL_RADIUS * SPECTRAL_RADIUS)};
  if (passes == 2u) { atomicStore(&stats[0], bitcast<u32>(2.0 / (2.0 - r2))); }
  else if (passes > 2u) { atomicStore(&stats[0], bitcast<u32>(4.0 / (4.0 - r2 * bitcast<f32>(atomicLoad(&stats[0]))))); }
}`;
}

function kernels(): string {
  // The present shares are the parameters' (Params.present: presentShares), not constants of the
  // module: one compiled module serves every scene's settings. They differ only with the shift.
  const share = 'select(P.present.x, P.present.y, nearObject(a))';
  return /* wgsl */ `
${densityChange('advected', (b) => `keep[2u * ${b}].xyz`, (o) => `objectVel(${o}) * P.dt`)}
${densityChange('displaced', (b) => `dx[${b}].xyz`)}

@compute @workgroup_size(1) fn pressureBegin() {
  atomicStore(&stats[1], 0u); atomicStore(&stats[2], 0u); atomicStore(&stats[3], 0u);
}

// ρ̂, α and the neighbour count at the current positions (factorRange: wgsl.ts measure), and u = δt v*.
@compute @workgroup_size(${WORKGROUP}) fn pressureFactor(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let m = measure(a);
  keep[2u * a] = vec4<f32>(vel[a].xyz * P.dt, m.alpha);
  keep[2u * a + 1u] = vec4<f32>(m.dens, m.nb, 0.0, keep[2u * a + 1u].w);
}

${sourceAndUpdate(share, false)}${sourceAndUpdate(share, true)}
${judge('pressureJudge', 'P.ptol')}
${judge('pressureJudgeAgain', 'P.ptol')}

${pressureEnd(false)}${pressureEnd(true)}
// The second solve's take-back (pressure.ts takeBack): the first solve's pressure (vel.w: p/δt²)
// but 0 next to a body, whose displacement (step-wgsl.ts displace, into dx) leaves the velocities.
@compute @workgroup_size(${WORKGROUP}) fn takeBackPressure(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  sc[a].y = select(vel[a].w * P.dt * P.dt, 0.0, nearObject(a));
}
@compute @workgroup_size(${WORKGROUP}) fn takeBackApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  vel[a] = vec4<f32>(vel[a].xyz - dx[a].xyz / P.dt, vel[a].w);
}
`;
}

/**
 * The source and warm start, and the relaxed Jacobi update, of the first solve and (`again`) of
 * the second, which next to a body starts from 0 and may go down to minus the first pressure, kept
 * in the velocities there (pressure.ts, SolveView.floor).
 */
function sourceAndUpdate(share: string, again: boolean): string {
  const suffix = again ? 'Again' : '';
  return `
// The source: the compression δt v* makes plus ${share} of the present one, none at a free surface;
// the pressure warm-started from the last sub-timestep's, but not for a particle (nearly) alone.
@compute @workgroup_size(${WORKGROUP}) fn pressureSource${suffix}(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let k = keep[2u * a + 1u];
  let src = advected(a) * P.invN0 + ${share} * (k.x - 1.0);
  // Next to a body no warm start at a free surface (pressure.ts), nor in the second solve.
  let warm = select(0.0, vel[a].w * P.dt * P.dt, k.x >= ${ALONE} && !(nearObject(a) && ${again ? 'true' : `k.y < ${FULL}.0`}));
  sc[a] = vec4<f32>(1.0 + select(0.0, src, k.y >= ${FULL}.0), warm, sc[a].z, sc[a].w);
}

// One relaxed Jacobi update of p (pressureUpdateRange), its residual summed for the judge.
@compute @workgroup_size(${WORKGROUP}) fn pressureUpdate${suffix}(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let e = sc[a].x + displaced(a) * P.invN0 - 1.0;
  let p = sc[a].y;
  // The least pressure: 0, but in the second solve next to a body minus the first one's (vel.w:
  // p/δt², kept there until pressureEnd), to which it adds (pressure.ts SolveView.floor).
  let lo = ${again ? 'select(0.0, -vel[a].w * P.dt * P.dt, nearObject(a))' : '0.0'};
  var res = 0.0;
  if (e > 0.0) { res = e; } else if (p > lo) { res = -e; }
  if (res > 0.0) { atomicAdd(&stats[1], u32(min(res, 1.0) * ERROR_SCALE)); }
  // Only slot a reads its own p here (the displacement of the old p is in dx): written in place.
  // From the third pass on, Chebyshev's weight ω (Wang 2015 §4, set by the judge in stats[0]) over
  // the Jacobi iterate: p ← max(ω (p̂ − p_older) + p_older, 0), p_older the p before the last
  // pass's update (keep[2a + 1].y, free during the passes).
  var q = max(p + ${RELAX} * keep[2u * a].w * e, lo);
  if (atomicLoad(&stats[3]) >= 2u) {
    let omega = bitcast<f32>(atomicLoad(&stats[0]));
    let older = keep[2u * a + 1u].y;
    q = max(omega * (q - older) + older, lo);
  }
  keep[2u * a + 1u].y = p;
  sc[a].y = q;
}

`;
}

/** The solve's end; after the second solve (`again`), next to a body, p/δt² is added to the first one's (the whole pressure there). */
function pressureEnd(again: boolean): string {
  const suffix = again ? 'Again' : '';
  return `
// The pressure's displacement as velocity (the free bodies' part handed to them: free-wgsl.ts); p/δt² kept for the next sub-timestep (and the second
// solve's take-back); a particle it moved is marked (keep[2a + 1].w, kept by pressureFactor from
// the sub-timestep's first solve to its second; density correction zeroes it), and loses its
// free-flight offset (step-wgsl.ts freeFlight).
@compute @workgroup_size(${WORKGROUP}) fn pressureEnd${suffix}(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let u = displacement(a);
  let p = sc[a].y;
  let fs = freeShift(a);
  toFree(a, fs.w, fs.xyz / P.dt);
  vel[a] = vec4<f32>(vel[a].xyz + u / P.dt, ${again ? 'select(0.0, vel[a].w, nearObject(a)) + ' : ''}p / (P.dt * P.dt));
  keep[2u * a + 1u].w = max(keep[2u * a + 1u].w, select(0.0, 1.0, any(u != vec3<f32>(0.0))));
}

`;
}

/** The share of the present compression the pressure's source takes, away from bodies and next to one (nearObject). */
export interface PresentShares {
  away: number;
  nearBody: number;
}

/**
 * The shares as pressure.ts applyPressure takes them: with the shift (two solves and the implicit
 * viscosity) PRESENT_TWICE, but PRESENT_NEAR_BODY next to a body; with two solves and the exchange
 * PRESENT_EXCHANGE_TWICE; with one solve PRESENT_ONCE.
 */
export function presentShares(P: { pressureAfterViscosity: boolean; viscositySolver: string }): PresentShares {
  if (shiftsPresent(P)) return { away: PRESENT_TWICE, nearBody: PRESENT_NEAR_BODY };
  const share = solvesTwice(P) ? PRESENT_EXCHANGE_TWICE : PRESENT_ONCE;
  return { away: share, nearBody: share };
}

/**
 * The pressure module, one for every scene's particle settings: the solve's kernels (their present
 * shares read from the parameters, params.ts writeConstants: presentShares), the particle-scale
 * filter (pressure-filter-wgsl.ts) and the position shift (pressure-shift-wgsl.ts) of the second
 * solve.
 */
export const PRESSURE_WGSL = SHARED_WGSL + kernels() + FILTER_WGSL + SHIFT_WGSL;

export const PRESSURE_ENTRIES = [
  'pressureBegin', 'pressureFactor', 'pressureSource', 'pressureUpdate', 'pressureJudge', 'pressureJudgeAgain', 'pressureEnd',
  'pressureSourceAgain', 'pressureUpdateAgain', 'pressureEndAgain',
  'takeBackPressure', 'takeBackApply', ...FILTER_ENTRIES, ...SHIFT_ENTRIES,
] as const;
export type PressureEntry = (typeof PRESSURE_ENTRIES)[number];
