/**
 * The pressure stage's particle-scale damping (pressure.ts, between its two solves): a
 * bi-Laplacian (hyperviscous) velocity filter built on the XSPH smoothing operator (Monaghan 1989,
 * "On the problem of penetration in particle methods", J. Comput. Phys. 82, §3; position-based
 * fluids apply XSPH each step, Macklin & Müller 2013 §4). Over the solve's liquid rows,
 *
 *   (L u)_a = (1/n0) Σ_b c_ab (m̄_ab/m_a) w_ab (u_b − u_a),   c_ab = (c_a + c_b)/2,
 *
 * w the cubic spline over the support h (w(0) = 1), n0 its sum over the rest lattice, the sum
 * taking in the mirror images across closed walls that the pressure's rows read (pressure-ghost-pairs.ts
 * ghostFilterUpper: a ghost moves as its source mirrored, so a wall damps the velocity into it and
 * leaves the velocity along it free; without them a bottom corner of a narrow water pool, whose
 * row is cut by three walls, kept 23 mm/s: docs/decisions.md "A narrow pool's corners"); and each step
 * is Δv = −FILTER_GAIN · L(L v), filterSteps(C) times a sub-timestep. L is symmetric and negative
 * semi-definite in the mass-weighted product (a pair's terms are equal and opposite), so each step
 * keeps the momentum and only removes kinetic energy (stable while FILTER_GAIN λ_max(L)² < 2; on the
 * lattice λ_max ≈ 1.4). As L ≈ k ∇², L² damps a mode of wavenumber k as (k 2r)⁴: strongly at the
 * particle scale, little at the scales a viscosity is measured on. Plain XSPH (Δv = c L v) is a
 * viscosity at every scale: with c 1 it rested the water pool (0.0022 √(g h)) but gave a shear
 * mode at ν 1e-4 m²/s and 2 mm particles 3.5 times the viscosity asked (tests/particle/viscosity.test.ts);
 * the bi-Laplacian keeps that within its 8 %.
 *
 * Why: on disordered particles the pressure leaves a velocity at the particle scale (the residual
 * of a projection whose gradient is inexact off the lattice), and the second solve relies on
 * viscosity to damp it before it restores the density (pressure.ts). Viscosity diffuses a velocity
 * across a particle spacing 2r in one sub-timestep only where ν δt / (2r)² ≳ 1: honey at 4 mm
 * (ν 0.01 m²/s: 1.3) does, water (ν 1e-6: 1e-4) does not, and a water pool at rest kept a
 * particle-scale jitter of 0.03–0.05 √(g h) (docs/decisions.md, "Water at rest"). Each liquid gets
 * c = FILTER · max(0, 1 − ν δt/((2r)² FILTER_REACH)): the damping its viscosity does not give, none for
 * honey-like liquids.
 */

import { ghostSum } from './pressure-ghosts.ts';
import { ghostFilterBelow, ghostFilterUpper } from './pressure-ghost-pairs.ts';
import type { SolveView } from './pressure-kernels.ts';
import type { HalfRows } from './pressure-half.ts';
import type { SolveArgs } from './pressure-job.ts';

/** The filter's strength where the liquid's viscosity gives no particle-scale damping (see the header). */
export const FILTER = 1;
/**
 * The share of a particle spacing² that the liquid's own viscosity diffuses in a sub-timestep,
 * ν δt/(2r)², above which the filter is off: the filter's strength falls from FILTER at 0 to 0 here.
 * At 1 (the first version) a honey-like blob at small steps was filtered too (ν 4e-3 m²/s, 2 mm
 * particles, 800 sub-timesteps a second: 0.31, strength 0.69) and thinned early against Huppert's
 * spreading (tests/particle/physics.test.ts); water at 4 mm reads 1e-4.
 */
export const FILTER_REACH = 0.05;
/** Gain s of the bi-Laplacian step Δv = −s L(L v) (see the header). */
export const FILTER_GAIN = 1;
/** Bi-Laplacian steps a sub-timestep (one: 0.0052 √(g h) on the 9.6 × 4.8 cm water pool; two: 0.0026; three: 0.0021). */
export const FILTER_STEPS = 2;
/**
 * The pressure Courant number C = δt √(p/ρ0) / 2r (p the largest pressure among the filtered
 * particles, pressure.ts pressurePieces) up to which FILTER_STEPS suffice; above it the steps grow
 * as C² (filterSteps). The 4.8 cm pool at 4 mm and 4 sub-timesteps reads 0.71.
 */
export const FILTER_COURANT = 0.7;
/** The most bi-Laplacian steps a sub-timestep (filterSteps). */
export const FILTER_MAX_STEPS = 8;
/**
 * The pressure Courant number of the filtered particles over which the sub-timestep is split
 * (pressure.ts pressurePieces) rather than filtered harder: the steps' damping, strong at the
 * particle scale, reaches less of the larger modes that go unstable as C grows (a 9.6 × 20 cm water
 * pool, C 1.46, jittered at 0.020 √(g h) with 8 steps; in two pieces, C 0.73, it rests at 0.0013).
 */
export const FILTER_PIECE_COURANT = 1.2;

/**
 * Bi-Laplacian steps for a sub-timestep whose filtered particles have pressure Courant number C.
 * The pressure's displacement Σ_b (p_a + p_b) ∇W_ab holds, besides the pressure's gradient, a
 * particle-scale restoring term from the pressure itself (on disordered particles a uniform p
 * pushes each particle down its own density gradient, −2p ∇ρ̂_a): a spring of stiffness ∝ p/ρ0
 * per (2r)², which the sub-timestep steps explicitly (it becomes velocity, and the density solve
 * does not see the modes it drives: a zig-zag along a row leaves every particle's density unchanged
 * to first order). Stepped explicitly, a mode whose ω δt exceeds 2 grows each sub-timestep; damped
 * by a factor f a sub-timestep it stays bounded while f (ω δt)² < 2 (1 + f). ω δt grows as C, so
 * the damping the filter must give grows as C²: at a pool's floor C = δt √(g h)/2r, 1.13 in 12 cm
 * of water at 4 mm (docs/decisions.md "Deep water at rest"). Each step multiplies a mode's
 * velocity by 1 − FILTER_GAIN λ², so the steps grow as C²: FILTER_STEPS · (C/FILTER_COURANT)²,
 * rounded up, at most FILTER_MAX_STEPS.
 */
export function filterSteps(courant: number): number {
  if (!(courant > FILTER_COURANT)) return FILTER_STEPS;
  const q = courant / FILTER_COURANT;
  return Math.min(FILTER_MAX_STEPS, Math.ceil(FILTER_STEPS * q * q));
}

/**
 * c per material (0 for solids and for liquids whose viscosity damps the particle scale itself);
 * ν: each material's kinematic viscosity, m²/s (0 for solids), at sub-timestep dt and radius r.
 * Returns whether any is non-zero.
 */
export function filterStrengths(nu: Float64Array, liquid: ArrayLike<number>, dt: number, r: number, out: Float64Array): boolean {
  let any = false;
  const d2 = 4 * r * r;
  for (let m = 0; m < nu.length; m++) {
    const c = liquid[m] ? FILTER * (1 - (nu[m] * dt) / (FILTER_REACH * d2)) : 0;
    out[m] = c > 0 ? c : 0;
    if (out[m] > 0) any = true;
  }
  return any;
}


/**
 * Δv (3 per slot, into out) of every slot in [a0, a1) from the slot velocities u (3 per slot) and
 * each slot's strength c (one per slot); each slot writes only its own entries.
 */
export function filterRange(v: SolveView, a0: number, a1: number, u: Float64Array, c: Float64Array, out: Float64Array): void {
  const x = v.x, ls = v.ls, lj = v.lj, invMass = v.invMass, uniform = v.uniform, invH = 1 / v.h, invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  for (let a = a0; a < a1; a++) {
    const ca = c[a], xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let sx = 0, sy = 0, sz = 0, up = ls[a + 1];
    const walled = anyWalls && v.wmask[a] !== 0;
    for (let q = ls[a], q1 = ls[a + 1]; q < q1; q++) {
      const b = lj[q], o = 3 * b, cab = 0.5 * (ca + c[b]);
      if (b > a && up > q) up = q;
      if (cab === 0) continue;
      const dx = xa - x[o], dy = ya - x[o + 1], dz = za - x[o + 2];
      const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
      if (s < 1) {
        const t = 1 - s;
        let f = cab * (s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t);
        if (!uniform) f *= (2 * invMass[a]) / (invMass[a] + invMass[b]);
        sx += f * (u[o] - ux); sy += f * (u[o + 1] - uy); sz += f * (u[o + 2] - uz);
      }
      // A lower pair's ghosts after its liquid term (the order filterHalf adds them in: pressure-ghost-pairs.ts).
      if (walled && b < a && v.wmask[b] !== 0) {
        ghostSum[1] = sx; ghostSum[2] = sy; ghostSum[3] = sz;
        ghostFilterBelow(v, a, b, u, c);
        sx = ghostSum[1]; sy = ghostSum[2]; sz = ghostSum[3];
      }
    }
    if (walled) {
      ghostFilterUpper(v, a, up, u, c, null);
      sx += ghostSum[1]; sy += ghostSum[2]; sz += ghostSum[3];
    }
    out[3 * a] = sx * invN0; out[3 * a + 1] = sy * invN0; out[3 * a + 2] = sz * invN0;
  }
}

/**
 * filterRange over slots [0, n), each pair once (one thread): a pair's weight (its distance and
 * spline) is evaluated from its lower slot and its term added to both ends, in the order of
 * pressure-half.ts (each slot's sum receives its lower entries in ascending order from the slots
 * before it, then its own upper entries: the gather loop's order), so the bits are filterRange's.
 * The terms are exact mirrors: w (u_b − u_a) at a, w (u_a − u_b) = −(w (u_b − u_a)) at b (with
 * unequal masses each end's own share, (2 m⁻¹_a)/(m⁻¹_a + m⁻¹_b), as filterRange). `out`
 * carries the sums until each slot's own result replaces them. `weights` (one f64 per upper row
 * entry, in row order), where given: with `fill` each pair's weight c_ab w_ab is kept there (0 for
 * a pair the loop passes over: c_ab 0 or beyond h; a kept weight is > 0), else read back, so the
 * sweeps of a sub-timestep's filter at the same positions take each pair's square root and spline
 * once (the same numbers, so the same bits).
 */
export function filterHalf(
  v: SolveView, n: number, hr: HalfRows, u: Float64Array, c: Float64Array, out: Float64Array, weights: Float64Array | null = null, fill = true,
): void {
  const x = v.x, ls = v.ls, lj = v.lj, invMass = v.invMass, uniform = v.uniform, invH = 1 / v.h, invN0 = 1 / v.n0, anyWalls = v.walls.length > 0;
  const mid = hr.mid, keep = weights !== null && fill, read = weights !== null && !fill;
  out.fill(0, 0, 3 * n);
  let k = 0;
  for (let a = 0; a < n; a++) {
    const ca = c[a], xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2];
    const ux = u[3 * a], uy = u[3 * a + 1], uz = u[3 * a + 2];
    let sx = out[3 * a], sy = out[3 * a + 1], sz = out[3 * a + 2];
    for (let q = mid[a], q1 = ls[a + 1]; q < q1; q++, k++) {
      const b = lj[q], o = 3 * b;
      let w: number;
      if (read) {
        w = weights![k];
        if (w === 0) continue;
      } else {
        const cab = 0.5 * (ca + c[b]);
        if (keep) weights![k] = 0;
        if (cab === 0) continue;
        const dx = xa - x[o], dy = ya - x[o + 1], dz = za - x[o + 2];
        const s = Math.sqrt(dx * dx + dy * dy + dz * dz) * invH;
        if (s >= 1) continue;
        const t = 1 - s;
        w = cab * (s <= 0.5 ? 6 * s * s * (s - 1) + 1 : 2 * t * t * t);
        if (keep) weights![k] = w;
      }
      const vx = u[o] - ux, vy = u[o + 1] - uy, vz = u[o + 2] - uz;
      if (uniform) {
        const ex = w * vx, ey = w * vy, ez = w * vz;
        sx += ex; sy += ey; sz += ez;
        out[o] -= ex; out[o + 1] -= ey; out[o + 2] -= ez;
      } else {
        const ia = invMass[a], ib = invMass[b];
        const fa = w * ((2 * ia) / (ia + ib)), fb = w * ((2 * ib) / (ib + ia));
        sx += fa * vx; sy += fa * vy; sz += fa * vz;
        out[o] -= fb * vx; out[o + 1] -= fb * vy; out[o + 2] -= fb * vz;
      }
    }
    if (anyWalls && v.wmask[a] !== 0) {
      ghostFilterUpper(v, a, mid[a], u, c, out);
      sx += ghostSum[1]; sy += ghostSum[2]; sz += ghostSum[3];
    }
    out[3 * a] = sx * invN0; out[3 * a + 1] = sy * invN0; out[3 * a + 2] = sz * invN0;
  }
}

/**
 * The buoyant push the filter leaves alone (pressure.ts filterVelocity, liquids of more than one
 * density): per slot (3, into d) the velocity the first solve's pressure gave it through the masses'
 * pair weights, less what it would have given at equal masses, as the second solve takes it back
 * (its TAKE_BACK: λ̃ the stored p/δt², 0 next to a body):
 *
 *   D_a = −(δt/n0) Σ_{b: m_b ≠ m_a} (λ̃_a + λ̃_b) ((m_b − m_a)/(m_a + m_b)) ∇W_ab,
 *
 * the pair weight 2 m_b/(m_a + m_b) less 1 (pressure-kernels.ts pressureDisplacementRange; a body's
 * and a wall ghost's terms carry no mass weight). It is what makes a heavy liquid sink through a
 * lighter one: at equal masses the pressure moves a pair apart equally and no liquid sinks. It lives
 * at the interface, a particle or two thick, so the bi-Laplacian, which damps the particle scale,
 * took most of it out before the second solve took the whole of it back: dens21's block stayed on
 * a water film (docs/decisions.md, "A heavy liquid that sinks to the floor"). D points from the
 * heavier side to the lighter. Kept whole where it points along or across gravity g (a heavy liquid
 * over or beside a lighter one: the overturn and the spreading along the floor), not at all where
 * it points against it (a stable layering, whose push is part of the balance that holds it, and
 * whose particle-scale noise the filter must damp for the layers to rest), and between, by
 * 1 + min(0, cos(D, g)). Each pair once from the rows' upper parts where `mid` is given
 * (pressure-half.ts HalfRows.mid), else each slot over its full row.
 */
export function buoyantPush(
  v: SolveView, n: number, mid: Int32Array | null, lt: Float64Array, dt: number, g: readonly number[], d: Float64Array,
): void {
  const x = v.x, ls = v.ls, lj = v.lj, invMass = v.invMass, invH = 1 / v.h, k0 = -dt / v.n0;
  d.fill(0, 0, 3 * n);
  for (let a = 0; a < n; a++) {
    const xa = x[3 * a], ya = x[3 * a + 1], za = x[3 * a + 2], ia = invMass[a];
    for (let q = mid ? mid[a] : ls[a], q1 = ls[a + 1]; q < q1; q++) {
      const b = lj[q], o = 3 * b, ib = invMass[b];
      if (ib === ia) continue;
      const dx = xa - x[o], dy = ya - x[o + 1], dz = za - x[o + 2];
      const r = Math.sqrt(dx * dx + dy * dy + dz * dz), s = r * invH;
      if (s >= 1 || r === 0) continue;
      const t = 1 - s, slope = s <= 0.5 ? s * (18 * s - 12) : -6 * t * t;
      // m_ref/m per slot: (1/m_a − 1/m_b)/(1/m_a + 1/m_b) = (m_b − m_a)/(m_a + m_b), the same for b's term
      // with both signs turned (its weight's and its x_b − x_a): both ends take the same push.
      const f = (k0 * (lt[a] + lt[b]) * ((ia - ib) / (ia + ib)) * slope * invH) / r;
      d[3 * a] += f * dx; d[3 * a + 1] += f * dy; d[3 * a + 2] += f * dz;
      if (mid) { d[o] += f * dx; d[o + 1] += f * dy; d[o + 2] += f * dz; }
    }
  }
  const gx = g[0], gy = g[1], gz = g[2], gg = Math.sqrt(gx * gx + gy * gy + gz * gz);
  for (let a = 0; a < n; a++) {
    const ux = d[3 * a], uy = d[3 * a + 1], uz = d[3 * a + 2], du = Math.sqrt(ux * ux + uy * uy + uz * uz);
    if (du === 0 || gg === 0) continue;
    const cos = (ux * gx + uy * gy + uz * gz) / (du * gg);
    if (cos >= 0) continue;
    const w = 1 + cos;
    d[3 * a] = ux * w; d[3 * a + 1] = uy * w; d[3 * a + 2] = uz * w;
  }
}

/** pressure-job.ts FILTER_STEP over this thread's slots (runFilterStep). */
export function filterStep(x: SolveArgs, v: SolveView, hr: HalfRows | null): void {
  const a = x.a, s = x.s, from = x.from, to = x.to;
  const { vel, order, hist: u, res: c, dx: dv } = a, gain = s.gain;
  if (s.fillU === 1) {
    for (let k = from; k < to; k++) {
      const i = order[k];
      u[3 * k] = vel[3 * i]; u[3 * k + 1] = vel[3 * i + 1]; u[3 * k + 2] = vel[3 * i + 2];
    }
    x.barrier();
  }
  // One thread: each pair once (filterHalf, the same bits), each pair's weight kept by the first
  // sweep of the sub-timestep's first step (fillU 0: u is filterVelocity's) for the other sweeps, in
  // the room of the measure's slopes (the filter runs before the measure: pressure.ts), an f64 a
  // pair in the f32 room of its two row entries.
  const one = hr !== null && from === 0 && to === x.n;
  const weights = one ? new Float64Array(v.kg.buffer, v.kg.byteOffset, v.kg.length >> 1) : null;
  if (one) filterHalf(v, x.n, hr, u, c, dv, weights, s.fillU === 0);
  else filterRange(v, from, to, u, c, dv);
  x.barrier();
  for (let k = 3 * from; k < 3 * to; k++) u[k] = dv[k];
  x.barrier();
  if (one) filterHalf(v, x.n, hr, u, c, dv, weights, false);
  else filterRange(v, from, to, u, c, dv);
  for (let k = from; k < to; k++) {
    const i = order[k];
    vel[3 * i] -= gain * dv[3 * k]; vel[3 * i + 1] -= gain * dv[3 * k + 1]; vel[3 * i + 2] -= gain * dv[3 * k + 2];
  }
}
