/**
 * The WGSL of the WebGPU step (substep.ts says what each kernel is for, in order): the body
 * forces into the velocity, the exchange, the moves and density correction. Its bindings and
 * shared helpers: wgsl.ts.
 */
import { WORKGROUP } from './device.ts';
import { around, floatLiteral, SHARED_WGSL } from './wgsl.ts';
import { LIQUID_CONTACT, PBD_KICK } from '../particle/liquid-contacts.ts';
import { PBF_RELAX, PBF_SPECTRAL_RADIUS } from '../particle/pbf.ts';
import { EXPOSURE_STEPS } from './liquids-wgsl.ts';

const KERNELS = /* wgsl */ `
// The largest speed into stats[0], and the largest stored p/ρ0 (vel.w: p/δt²) into stats[1], and
// into stats[2] among the slots the filter damps (pressure-courant.ts pressurePieces: a float ≥ 0
// orders as its bits; P.liq[l].z the liquid's filter strength, written before), and their largest
// speed into stats[3] (still-water.ts stillWater; the solves' and density correction's pass counter,
// which each zeroes before it counts): where no liquid is filtered (P.filterStrength 0) stats[3] is
// every slot's not next to a body, the gate's liquid (pressure.ts applyPressure, still-water.ts
// gatePressure). Run again after the sub-timestep's sort where there are bodies: the near flag's
// travel (guard-wgsl.ts markNear).
@compute @workgroup_size(${WORKGROUP}) fn speed(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let s = bitcast<u32>(length(vel[a].xyz));
  atomicMax(&stats[0], s);
  let filtered = P.liq[liquidOf(a)].z > 0.0 && !nearObject(a);
  if (filtered || (P.filterStrength <= 0.0 && !nearObject(a))) { atomicMax(&stats[3], s); }
  let lam = vel[a].w;
  if (lam > 0.0) {
    atomicMax(&stats[1], bitcast<u32>(lam));
    if (filtered) { atomicMax(&stats[2], bitcast<u32>(lam)); }
  }
}

// The sub-timestep's body forces b = adhesion + gravity into the velocity once, and the
// free-flight offset ½ b δt in their place (ballistic.ts accelerateOffsetRange).
@compute @workgroup_size(${WORKGROUP}) fn accelerate(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let b = keep[2u * P.n + a].xyz + P.g;
  vel[a] = vec4<f32>(vel[a].xyz + b * P.dt, vel[a].w);
  keep[2u * P.n + a] = vec4<f32>(0.5 * P.dt * b, 0.0);
}

// The free-flight flag (ballistic.ts): the pressure stage did not move the particle (keep[2a + 1].w,
// 0 without the stage: density correction leaves it 0) and no closed wall is within h.
@compute @workgroup_size(${WORKGROUP}) fn freeFlight(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let free = keep[2u * a + 1u].w == 0.0 && wallsAt(pos[a].xyz).mask == 0u && !nearObject(a);
  sc[a].w = select(0.0, 1.0, free);
}

// One Jacobi sweep of the pairwise exchange (viscosity.ts): Δv_a = frac Σ_b k_ab (1/(2Σ_a k) + 1/(2Σ_b k)) (v_b − v_a),
// 1/(2Σk) in sc.z from the adhesion kernel (adhesion-wgsl.ts).
@compute @workgroup_size(${WORKGROUP}) fn exchangeGather(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let va = vel[a].xyz;
  let ha = sc[a].z;
  let inv2 = 1.0 / (P.hv * P.hv);
  var dv = vec3<f32>(0.0);
  ${around('P.hv', `let s = 1.0 - d2 * inv2; dv += (s * s * s) * (ha + sc[b].z) * (vel[b].xyz - va);`)}
  dx[a] = vec4<f32>(dv * P.frac, 0.0);
}
@compute @workgroup_size(${WORKGROUP}) fn exchangeApply(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  vel[a] = vec4<f32>(vel[a].xyz + dx[a].xyz, vel[a].w);
}

// A move: translate by the velocity less the free-flight offset ½ b δt (ballistic.ts) and friction
// (objects.ts moveFriction); then the collisions (collisions.ts): the liquid contacts
// (contactGather), out of the objects and the walls (collide). pos.w holds the surface flag (friction-wgsl.ts).
@compute @workgroup_size(${WORKGROUP}) fn translate(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let offset = sc[a].w * keep[2u * P.n + a].xyz;
  pos[a] = vec4<f32>(pos[a].xyz + (vel[a].xyz - offset) * P.dtm, pos[a].w);
  moveFriction(a);
}

// The liquid contacts of a move (liquid-contacts.ts; Steele et al. 2004 §3.4): a pair closer than
// dc = LIQUID_CONTACT · 2r is separated to dc, split by inverse mass (m_b/(m_a + m_b): ½ massShare),
// and the first PBD_KICK · r of its overlap becomes velocity over the move. The CPU sweeps its pair
// list in order (Gauss–Seidel); here one Jacobi sweep at the move's positions: each slot sums its own
// share of every overlap into dx (collide adds it) and changes its own velocity in place (no slot's
// velocity is read). A pair's two shares are equal and opposite, so momentum is kept.
@compute @workgroup_size(${WORKGROUP}) fn contactGather(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  let xa = pos[a].xyz;
  let la = liquidOf(a);
  let dc = ${floatLiteral(2 * LIQUID_CONTACT)} * P.r;
  let kick = ${floatLiteral(PBD_KICK)} * P.r;
  var s = vec3<f32>(0.0);
  var v = vec3<f32>(0.0);
  ${around('dc', `let d = sqrt(d2); if (d > 0.0) { let w = 0.5 * massShare(la, liquidOf(b)) / d; s += ((dc - d) * w) * rv; v += (min(dc - d, kick) * w) * rv; }`)}
  dx[a] = vec4<f32>(s, 0.0);
  vel[a] = vec4<f32>(vel[a].xyz + v / P.dtm, vel[a].w);
}

// The contacts' separation added, then out of the objects (objectPush) and the walls (collisions.ts);
// the faces' friction and the faces the slot is against left in dx for the friction's hold (hold.ts).
@compute @workgroup_size(${WORKGROUP}) fn collide(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  pos[a] = vec4<f32>(pos[a].xyz + dx[a].xyz, pos[a].w);
  objectPush(a);
  dx[a] = wallClamp(a, P.keep);
}

// Density correction (pbf.ts): the start of the passes.
@compute @workgroup_size(${WORKGROUP}) fn densityBegin(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a == 0u) { atomicStore(&stats[1], 0u); atomicStore(&stats[2], 0u); atomicStore(&stats[3], 0u); }
  if (a >= P.n) { return; }
  keep[2u * a] = pos[a];
  keep[2u * a + 1u] = vec4<f32>(0.0);
}

// The closed walls within h of every slot (pressure-kernels.ts wallRange), before factor: a slot's ghosts read its neighbours' walls.
@compute @workgroup_size(${WORKGROUP}) fn wallPass(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let w = wallsAt(pos[a].xyz);
  wall[a] = vec4<f32>(w.del, bitcast<f32>(w.mask));
}

// ρ̂, α and the relaxed pressure p = PBF_RELAX max(ρ̂ − 1, 0) α (pbf.ts; pressure-kernels.ts factorRange: wgsl.ts measure).
@compute @workgroup_size(${WORKGROUP}) fn factor(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let m = measure(a);
  let c = m.dens - 1.0;
  sc[a] = vec4<f32>(m.dens, select(0.0, ${floatLiteral(PBF_RELAX)} * c * m.alpha, c > 0.0), sc[a].z, sc[a].w);
  if (c > 0.0) { atomicAdd(&stats[1], u32(min(c, 1.0) * ERROR_SCALE)); }
}

// Stop once the mean compression is within tolerance or the passes are spent, leaving it in stats[4]
// (StepContext.densityError: the next sub-timestep's chebyshev reads it, pbf-feed.ts); else count a pass.
@compute @workgroup_size(1) fn judge() {
  if (atomicLoad(&stats[2]) != 0u) { return; }
  let err = f32(atomicLoad(&stats[1])) / (ERROR_SCALE * f32(max(P.n, 1u)));
  if (err <= P.tol || atomicLoad(&stats[3]) >= P.maxPasses) { atomicStore(&stats[2], 1u); atomicStore(&stats[4], bitcast<u32>(err)); return; }
  atomicAdd(&stats[3], 1u);
  atomicStore(&stats[1], 0u);
}

// A density pass's increment (pbf.ts; Wang 2015 §4): δ = w_k p + (w_k − 1) δ_last into p (sc.y) and
// δ_last (keep[2a].w, free in density correction: densityBegin copies pos there, densityEnd reads
// xyz alone); pass k = stats[3] − 1 (the judge counted it), w_0 = 1, w_1 = 2/(2 − ρ²),
// w_k = 4/(4 − ρ² w_{k−1}), ρ = PBF_SPECTRAL_RADIUS, taken by each thread from w_0 (k ≤ densityIterations).
@compute @workgroup_size(${WORKGROUP}) fn chebyshev(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let k = atomicLoad(&stats[3]) - 1u;
  let p = sc[a].y;
  var d = p;
  if (k > 0u) {
    let r2 = ${floatLiteral(PBF_SPECTRAL_RADIUS * PBF_SPECTRAL_RADIUS)};
    var w = 2.0 / (2.0 - r2);
    for (var j = 2u; j <= k; j++) { w = 4.0 / (4.0 - r2 * w); }
    d = w * p + (w - 1.0) * keep[2u * a].w;
  }
  keep[2u * a].w = d;
  sc[a].y = d;
  // The pass's pressure into the stored one (p/δt², vel.w) where the particle holds one and is not
  // next to a body (pbf.ts PBF_WARM_SHARE; 0 while the liquid moves, unless the last sub-timestep's PBF was
  // left with compression where no liquid is filtered: still-water.ts feedsWarmStart, pbf-feed.ts).
  let share = select(P.pbfWarm, P.pbfLeft, bitcast<f32>(atomicLoad(&stats[4])) > P.tol);
  if (share > 0.0 && vel[a].w > 0.0 && !nearObject(a)) { vel[a].w += share * d / (P.dt * P.dt); }
}

// Δx_a = −1/n0 Σ (p_a + p_b) G_ab, ghosts included (pressure-kernels.ts pressureDisplacementRange): a
// density pass's and a pressure pass's (encode.ts).
@compute @workgroup_size(${WORKGROUP}) fn displace(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  dx[a] = vec4<f32>(displacement(a), 0.0);
}

// x += Δx (its free bodies' part handed to them as Δx/δt: free-wgsl.ts), then the objects and the walls (step.ts keepOut: objectContacts, domainWalls at δt = 0), their correction added to fix.
@compute @workgroup_size(${WORKGROUP}) fn shift(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n || atomicLoad(&stats[2]) != 0u) { return; }
  let fs = freeShift(a);
  toFree(a, fs.w, fs.xyz / P.dt);
  let moved = pos[a].xyz + dx[a].xyz;
  pos[a] = vec4<f32>(moved, pos[a].w);
  objectPush(a);
  _ = wallClamp(a, 1.0);
  keep[2u * a + 1u] = vec4<f32>(keep[2u * a + 1u].xyz + pos[a].xyz - moved, 0.0);
}

// The passes' displacement as velocity, less what the walls undid and never toward them (pbf.ts finish).
@compute @workgroup_size(${WORKGROUP}) fn densityEnd(@builtin(global_invocation_id) g: vec3<u32>) {
  let a = g.x;
  if (a >= P.n) { return; }
  // Cohesion's share from the last density measure, e = clamp((1 − ρ̂) scale − offset, 0, 1), the scale in
  // clamp[1].w, the offset in lo.w (adhesion-tables.ts cohesionShare; liquids-wgsl.ts exposure, EXPOSURE_STEPS).
  if (P.clamp[1].w > 0.0) {
    let e = clamp((1.0 - sc[a].x) * P.clamp[1].w - P.lo.w, 0.0, 1.0);
    pos[a].w = floor(pos[a].w) + round(0.5 * e * ${floatLiteral(EXPOSURE_STEPS)}) / ${floatLiteral(EXPOSURE_STEPS)};
  }
  if (atomicLoad(&stats[3]) == 0u) { return; }
  let fx = keep[2u * a + 1u].xyz;
  var u = (pos[a].xyz - keep[2u * a].xyz - fx) / P.dt;
  let f2 = dot(fx, fx);
  if (f2 > 0.0) {
    let un = dot(u, fx) / f2;
    if (un < 0.0) { u -= un * fx; }
  }
  vel[a] = vec4<f32>(vel[a].xyz + u, vel[a].w);
}
`;

export const STEP_WGSL = SHARED_WGSL + KERNELS;

export const STEP_ENTRIES = [
  'speed', 'accelerate', 'freeFlight', 'exchangeGather', 'exchangeApply', 'translate', 'contactGather', 'collide',
  'densityBegin', 'wallPass', 'factor', 'judge', 'chebyshev', 'displace', 'shift', 'densityEnd',
] as const;
export type StepEntry = (typeof STEP_ENTRIES)[number];
