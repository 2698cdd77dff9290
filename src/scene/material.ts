/**
 * A liquid material's kinematic viscosity ν = μ/ρ, m²/s, from the scene's `viscosity` (given
 * in m²/s, or in Pa·s and divided by the material's density). One conversion for every engine
 * and every estimate; a temperature law is applied where the caller has a temperature.
 */
import type { LiquidMaterial } from './schema.ts';

export function kinematicViscosity(material: LiquidMaterial): number {
  const v = material.viscosity;
  return v.unit === 'm2/s' ? v.value : v.value / material.density;
}
