/**
 * Liquid rope coiling: the frequency scales of the three regimes of Ribe (2004, "Coiling of viscous
 * jets", Proc. R. Soc. A 460) observed by Maleki, Habibi, Golestanian, Ribe & Bonn (2004, "Liquid
 * rope coiling on a solid surface", PRL 93), from the rope's radius a₁ and speed U₁ where it meets
 * the pile, the flux Q = π a₁² U₁, the fall height H, the kinematic viscosity ν and gravity g:
 *   viscous        Ω_V = U₁ / H                    (bending and twisting against viscous stress)
 *   gravitational  Ω_G = (g U₁⁴ / (ν Q))^¼          (gravity on the coil against viscous bending)
 *   inertial       Ω_I = (U₁⁵ / (ν Q))^⅓            (inertia against viscous bending)
 * Each regime's frequency is its scale times a factor of order one. Ω_V falls with H while Ω_G and
 * Ω_I grow with the rope's speed, so as the fall height grows the largest of the three is the one
 * that takes over (viscous at small heights, gravitational, then inertial); that is the regime named
 * here. The inertio-gravitational band between G and I, with its several coexisting frequencies
 * (Ribe, Habibi & Bonn 2006), is not told apart.
 */

export type CoilingRegime = 'viscous' | 'gravitational' | 'inertial';

export interface CoilingScales {
  /** rad/s */
  viscous: number;
  gravitational: number;
  inertial: number;
  /** The regime whose scale is the largest. */
  regime: CoilingRegime;
  /** That regime's scale, rad/s. */
  omega: number;
}

/** a1: rope radius (m), u1: rope speed (m/s) at the bottom, H: fall height (m), nu: m²/s, g: m/s². */
export function coilingScales(a1: number, u1: number, H: number, nu: number, g: number): CoilingScales {
  const Q = Math.PI * a1 * a1 * u1;
  const viscous = u1 / H;
  const gravitational = ((g * u1 ** 4) / (nu * Q)) ** 0.25;
  const inertial = (u1 ** 5 / (nu * Q)) ** (1 / 3);
  const regime: CoilingRegime = viscous >= gravitational && viscous >= inertial ? 'viscous' : gravitational >= inertial ? 'gravitational' : 'inertial';
  return { viscous, gravitational, inertial, regime, omega: regime === 'viscous' ? viscous : regime === 'gravitational' ? gravitational : inertial };
}
