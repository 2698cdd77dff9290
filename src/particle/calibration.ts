/**
 * From a liquid's physical viscosity to the momentum-exchange rate v of Steele et al. 2004 §3.2
 * (the fraction of relative momentum a particle exchanges with its neighbours per second).
 *
 * The exchange relaxes each velocity towards the k-weighted mean of its neighbours at rate v:
 * du/dt = v (ū − u). For a smooth field ū − u ≈ ⟨d²⟩/6 ∇²u, with ⟨d²⟩ the k-weighted mean squared
 * neighbour distance, so the exchange is a diffusion of velocity with ν = v ⟨d²⟩ / 6. The weight
 * (1 − q²)³ of kernels.ts has ⟨d²⟩ = 3h²/11 in 3D, giving
 *
 *     v = 22 ν / h²,   h = kernelSupport · r,   ν the kinematic viscosity (m²/s).
 *
 * That is the first-order theory (`exchangeRate`, kept for reference and for the comparison tests).
 * Shear-mode decay measures C = ν δt / (r² a) = 1.04, 1.318, 1.84 for supports 4, 5, 6, 14–43 %
 * above the theory's h²/22r², so the ENGINE uses `calibratedExchangeRate` below (measured C, and
 * the sub-cycled exchange of viscosity.ts, which removes the paper's one-sweep ceiling
 * ν_max = C r²/δt — 8× below honey at the honey drop's step). Measured achieved/requested ν at
 * r = 2 mm, δt = 1/120 s, support 5: 0.982 at 1e-4 m²/s (1 sweep), 1.019 at 1e-3 (1 sweep),
 * 1.062 at 3.5e-3 (honey, 3 sweeps; see SWEEP_LIMIT); without sub-cycling honey got ≈ 0.18 of
 * its viscosity.
 * A scene's `particle.exchangeRate` overrides both.
 */
import type { LiquidMaterial } from '../scene/schema.ts';
import { kinematicViscosity } from '../scene/material.ts';

/** Exchange rate v, 1/s. */
export function exchangeRate(material: LiquidMaterial, radius: number): number {
  if (material.particle.exchangeRate !== undefined) return material.particle.exchangeRate;
  const h = material.particle.kernelSupport * radius;
  return (22 * kinematicViscosity(material)) / (h * h);
}

/** Theory: the largest kinematic viscosity (m²/s) ONE exchange sweep per sub-timestep dt can express (viscosity.ts sub-cycles past it). */
export function maxViscosity(kernelSupport: number, radius: number, dt: number): number {
  const h = kernelSupport * radius;
  return (h * h) / (22 * dt);
}

/**
 * Measured exchange constant C(kernel support): one exchange sweep moving the fraction a of every
 * difference per sub-timestep δt gives ν = C r² a / δt (shear-mode decay, bench/
 * viscosity-calibration.ts; within 3 % for a up to 1). Kernel supports 4, 5, 6 radii; linear in
 * between, clamped outside.
 */
export const MEASURED_C: readonly (readonly [number, number])[] = [[4, 1.04], [5, 1.318], [6, 1.84]];

export function measuredC(kernelSupport: number): number {
  const t = MEASURED_C;
  if (kernelSupport <= t[0][0]) return t[0][1];
  for (let i = 1; i < t.length; i++) {
    if (kernelSupport <= t[i][0]) {
      const [x0, y0] = t[i - 1], [x1, y1] = t[i];
      return y0 + ((y1 - y0) * (kernelSupport - x0)) / (x1 - x0);
    }
  }
  return t[t.length - 1][1];
}

/**
 * Beyond the paper: how much exchange a sub-timestep does. The paper does one exchange of
 * a = 1 − exp(−v δt) per sub-timestep, which saturates at ν_max = C r²/δt (8× below honey at the
 * default scene's step). The exchange of a sub-timestep is that of n_s = ⌈v δt / SUBCYCLE_LIMIT⌉
 * sub-cycles of a = 1 − exp(−v δt / n_s) each, as if the sub-timestep were n_s times shorter for
 * viscosity only: A(v, δt) = n_s (1 − exp(−v δt / n_s)), and ν = C r² A / δt (measured model).
 * Up to v δt = SUBCYCLE_LIMIT, A = 1 − exp(−v δt), as in the paper. SUBCYCLE_LIMIT = 2 (a ≤ 0.86
 * per sub-cycle) is inside the range where the one-sweep model ν = C r² a/δt was measured to hold
 * (3 %). viscosity.ts delivers A in fewer sweeps than n_s (SWEEP_LIMIT).
 */
export const SUBCYCLE_LIMIT = 2;

/** Exchange sub-cycles n_s of the model (not the sweeps done: see viscositySweeps). */
export function exchangeSubcycles(v: number, dt: number): number {
  return Math.max(1, Math.ceil((v * dt) / SUBCYCLE_LIMIT - 1e-9));
}

/** A(v, δt): the exchange of one sub-timestep, in fractions moved by one sweep (see above). */
export function exchangePerStep(v: number, dt: number): number {
  const n = exchangeSubcycles(v, dt);
  return n * -Math.expm1((-v * dt) / n);
}

/**
 * Largest fraction one Gauss–Seidel sweep of viscosity.ts moves: A is delivered in
 * n = ⌈A / SWEEP_LIMIT⌉ sweeps of a = A / n each, a up to 2 (the sub-cycles above move at most
 * 0.86 each). A sweep is a sequence of pair updates with small weights w = a k (1/(2Σ_i k) +
 * 1/(2Σ_j k)) (about 0.066 a for the nearest neighbours inside a liquid of kernel support 5), so a
 * smooth mode is damped by about n a = A whatever the split; stability needs w ≤ 1 per pair only,
 * and PAIR_WEIGHT_MAX caps it. Honey drop: 6 sweeps a sub-timestep instead of 12; gel on a fan 7
 * instead of 15. Achieved/requested ν (shear-mode decay, support 5, r = 2 mm, δt = 1/120 s), with
 * the sweeps before → after: 1e-3 m²/s 1.004 (2) → 1.019 (1), honey 3.5e-3 1.043 (7) → 1.062 (3),
 * 1e-2 1.028 (19) → 1.045 (9), 2e-2 1.010 (37) → 1.028 (16): 1.5–2 % more, as the pairs later
 * in a sweep see more of the earlier updates. Larger a costs accuracy in the update ORDER, not in
 * ν: at a ≤ 3 the one-thread and two-thread orders (viscosity.ts, slabs.ts) differ by 2.9 % in
 * honey's ν (tests/parallel/viscosity-threads.test.ts allows 2 %); at a ≤ 2, 1.2 % (before: 0.2 %).
 * Alternating forward and backward sweeps brings ν back to the former values but widens that
 * gap to 3.7 %. A ≤ SWEEP_LIMIT: one sweep of A, as in the paper.
 */
export const SWEEP_LIMIT = 2;

/**
 * Largest weight of one pair update: 1 − exp(−SUBCYCLE_LIMIT), the most any pair could get with a
 * ≤ 1 − exp(−SUBCYCLE_LIMIT), so a one-sweep step never meets it. With a > 1 a pair with few
 * other neighbours (a surface pair; an isolated pair has w = a) would overshoot past w = 1 and gain
 * energy; capped, its difference is reversed and damped (factor 1 − 2w ≥ −0.73) as before.
 */
export const PAIR_WEIGHT_MAX = -Math.expm1(-SUBCYCLE_LIMIT);

/**
 * Most Gauss–Seidel sweeps one sub-timestep does. The sweeps grow with v δt (a liquid 200× as
 * viscous as honey asks for over a thousand); past the cap each sweep still moves A / n, so the
 * liquid gets MAX_VISCOSITY_SWEEPS / n of its exchange (a lower viscosity) and the step counts
 * `viscositySweepCap`. More substeps give it the whole viscosity, at the same cost a frame.
 */
export const MAX_VISCOSITY_SWEEPS = 64;

/**
 * Gauss–Seidel sweeps per sub-timestep of length dt for exchange rate v (each moving A / n);
 * `scale`: the largest ν/ν0 of a liquid whose viscosity follows its temperature (temperature.ts).
 */
export function viscositySweeps(v: number, dt: number, scale = 1): number {
  return Math.max(1, Math.ceil((exchangePerStep(v, dt) * scale) / SWEEP_LIMIT - 1e-9));
}

/** Kinematic viscosity (m²/s) that exchange rate v gives with the sub-cycled exchange (measured model). */
export function viscosityOfExchange(v: number, radius: number, dt: number, kernelSupport: number): number {
  const n = exchangeSubcycles(v, dt);
  return (measuredC(kernelSupport) * radius * radius * n * -Math.expm1((-v * dt) / n)) / dt;
}

/**
 * The engine's mapping ν → v, from the measured model: the v whose sub-cycled exchange gives ν at
 * sub-timestep dt (bisection on the monotone viscosityOfExchange; exact to 1e-6 relative within
 * each sweep count). A scene's `particle.exchangeRate` overrides it. No ceiling: any ν is reached
 * by more sweeps.
 */
export function calibratedExchangeRate(material: LiquidMaterial, radius: number, dt: number): number {
  if (material.particle.exchangeRate !== undefined) return material.particle.exchangeRate;
  const nu = kinematicViscosity(material), ks = material.particle.kernelSupport;
  if (!(nu > 0)) return 0;
  let lo = 0, hi = nu / (measuredC(ks) * radius * radius);
  while (viscosityOfExchange(hi, radius, dt, ks) < nu) hi *= 2;
  for (let k = 0; k < 60 && hi - lo > 1e-9 * hi; k++) {
    const mid = 0.5 * (lo + hi);
    if (viscosityOfExchange(mid, radius, dt, ks) < nu) lo = mid;
    else hi = mid;
  }
  return hi;
}
