/**
 * Liquid rope coiling: the frequency scales of the three regimes of Ribe (2004, "Coiling of viscous
 * jets", Proc. R. Soc. A 460) observed by Maleki, Habibi, Golestanian, Ribe & Bonn (2004, "Liquid
 * rope coiling on a solid surface", PRL 93), from the rope's radius a₁ and speed U₁ where it meets
 * the pile, the flux Q = π a₁² U₁, the fall height H, the kinematic viscosity ν and gravity g, as
 * those papers write them, in Q and a₁ (also Ribe, Habibi & Bonn 2012, Annu. Rev. Fluid Mech. 44):
 *   viscous        Ω_V = U₁ / H                    (bending and twisting against viscous stress)
 *   gravitational  Ω_G = (g Q³ / (ν a₁⁸))^¼          (gravity on the coil against viscous bending)
 *   inertial       Ω_I = (Q⁴ / (ν a₁¹⁰))^⅓          (inertia against viscous bending)
 * Each regime's frequency is its scale times a factor of order one. Ω_V falls with H while Ω_G and
 * Ω_I grow with the rope's speed, so as the fall height grows the largest of the three is the one
 * that takes over (viscous at small heights, gravitational, then inertial); that is the regime named
 * here. The inertio-gravitational band between G and I, with its several coexisting frequencies
 * (Ribe, Habibi & Bonn 2006), is not told apart. Written through U₁ as (g U₁⁴/νQ)^¼ and
 * (U₁⁵/νQ)^⅓, as this file first had them, the G and I scales are π and π^(5/3) smaller.
 * The exponents follow from the force balances on the coil (radius R, laid down at U₁, so
 * Ω = U₁/R), the viscous force that resists bending being ρν a₁⁴ U₁/R⁴ a unit length: against the
 * weight ρ g a₁², R⁴ = ν a₁² U₁/g and Ω = (g U₁³/ν a₁²)^¼; against the inertia ρ a₁² U₁²/R,
 * R³ = ν a₁²/U₁ and Ω = (U₁⁴/ν a₁²)^⅓; with U₁ = Q/π a₁² these are the forms above up to a power
 * of π, which the factor of order one takes. That the papers write them in Q and a₁ with no π is
 * as recalled: their text was not reached (no copy is in the project's papers; the search found
 * only the abstracts of Ribe, Habibi & Bonn 2006 and 2012), and where Ribe's numerical prefactors
 * lie is not known here.
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
  const gravitational = ((g * Q ** 3) / (nu * a1 ** 8)) ** 0.25;
  const inertial = (Q ** 4 / (nu * a1 ** 10)) ** (1 / 3);
  const regime: CoilingRegime = viscous >= gravitational && viscous >= inertial ? 'viscous' : gravitational >= inertial ? 'gravitational' : 'inertial';
  return { viscous, gravitational, inertial, regime, omega: regime === 'viscous' ? viscous : regime === 'gravitational' ? gravitational : inertial };
}
