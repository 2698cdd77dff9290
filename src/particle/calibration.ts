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
 * A scene's `particle.exchangeRate` overrides this. The comparison engineer calibrates the mapping
 * against the grid engine; keep it in this one function.
 *
 * Limit: viscosity.ts exchanges the fraction 1 − exp(−v δt) per sub-timestep, which saturates at 1,
 * so one sub-timestep diffuses velocity over at most about one kernel width: the largest viscosity
 * the engine can express is ν_max ≈ h² / (22 δt) (`maxViscosity`). Honey (ν ≈ 3.5e-3 m²/s) at
 * r = 1.5 mm, h = 6r, 120 sub-timesteps per second (ν_max ≈ 4.4e-4) is 8× beyond it and behaves like
 * ν_max; more sub-timesteps or a larger kernel support get closer.
 */
import type { LiquidMaterial } from '../scene/schema.ts';

export function kinematicViscosity(material: LiquidMaterial): number {
  const v = material.viscosity;
  return v.unit === 'm2/s' ? v.value : v.value / material.density;
}

/** Exchange rate v, 1/s. */
export function exchangeRate(material: LiquidMaterial, radius: number): number {
  if (material.particle.exchangeRate !== undefined) return material.particle.exchangeRate;
  const h = material.particle.kernelSupport * radius;
  return (22 * kinematicViscosity(material)) / (h * h);
}

/** The largest kinematic viscosity (m²/s) one exchange per sub-timestep of length dt can express. */
export function maxViscosity(kernelSupport: number, radius: number, dt: number): number {
  const h = kernelSupport * radius;
  return (h * h) / (22 * dt);
}
