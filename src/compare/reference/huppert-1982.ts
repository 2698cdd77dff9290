/**
 * Viscous gravity currents on a rigid horizontal surface, constant volume:
 *   H. E. Huppert (1982), "The propagation of two-dimensional and axisymmetric viscous gravity
 *   currents over a rigid horizontal surface", J. Fluid Mech. 121, 43–58, eqs. (2.20) and (3.14)
 *   with α = 0 (fixed volume).
 * Axisymmetric: r_N(t) = η_N (g V³ / (3ν))^{1/8} t^{1/8}, η_N = 0.894 (V: volume).
 * Two-dimensional:  x_N(t) = η_N (g A³ / (3ν))^{1/5} t^{1/5}, η_N = 1.411 (A: area per unit width).
 * Long-wave (lubrication) theory: valid once the current is much wider than it is deep and inertia
 * is negligible; t is measured from a virtual origin, so fits use r^8 (or x^5) linear in t.
 */
export const HUPPERT_1982_SOURCE = 'Huppert (1982), J. Fluid Mech. 121:43–58, eqs. (2.20), (3.14), α = 0';

export const HUPPERT_1982 = {
  source: HUPPERT_1982_SOURCE,
  /** η_N for the axisymmetric current of fixed volume. */
  etaAxisymmetric: 0.894,
  /** η_N for the two-dimensional current of fixed area. */
  etaPlanar: 1.411,
  exponentAxisymmetric: 1 / 8,
  exponentPlanar: 1 / 5,
} as const;

/** Nose radius of an axisymmetric current of volume V (m³) and kinematic viscosity ν (m²/s) at time t. */
export function huppertRadius(g: number, volume: number, nu: number, t: number): number {
  return HUPPERT_1982.etaAxisymmetric * ((g * volume ** 3) / (3 * nu)) ** (1 / 8) * t ** (1 / 8);
}

/**
 * The kinematic viscosity implied by a measured spreading rate K = d(r_N⁸)/dt of an axisymmetric
 * current: r_N⁸ = η_N⁸ g V³ t / (3ν), so ν = η_N⁸ g V³ / (3K).
 */
export function huppertViscosity(g: number, volume: number, rate8: number): number {
  return (HUPPERT_1982.etaAxisymmetric ** 8 * g * volume ** 3) / (3 * rate8);
}
