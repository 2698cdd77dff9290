/**
 * The speed of a viscous thread falling under gravity from a spout: how much less it thins than a
 * stream in free fall.
 *
 * A slender thread of flux Q = A u, stretched along its axis, resists with Trouton's extensional
 * viscosity 3μ. Its momentum along the fall z (inertia, gravity, the viscous tension 3μ A u'),
 * surface tension left out (honey's and soap's capillary number is large), is
 *
 *   u u' = g + 3ν (A u')'/A = g + 3ν u (u'/u)'   ⇔   u'' = u'²/u + (u u' − g) / (3ν)
 *
 * (Clarke 1966, "A differential equation in fluid mechanics", Mathematika 13, 51–53; Senchenko &
 * Bohr 2005, "Shape and stability of a viscous thread", Phys. Rev. E 71, 056301, §II without the
 * surface tension term). In units of the viscous length ℓ = (ν²/g)^⅓ and speed (νg)^⅓ it reads
 * w'' = w'²/w + (w w' − 1)/3 with w(0) = u₀ / (νg)^⅓: the fall measured against ℓ decides how much
 * the viscosity holds the thread back. Of the strain rates w'(0) at the spout, smaller ones make
 * the thread stall (w' < 0) and larger ones make it run away exponentially; Clarke showed that one
 * solution between them tends to free fall far below (w² ≈ 2z/ℓ), the thread that falls from a
 * spout with nothing pulling on it. It is found here by bisection on w'(0) (shooting).
 *
 * While the fall is short against ℓ the thread keeps nearly its spout's speed and width; far below
 * it, it falls freely. Past 8 ℓ the thread is followed in free fall from where it got to (the
 * viscous correction there is small, and the shooting loses its precision further out: its
 * deviation grows as exp ∫ w/3).
 */

/** The thread's speed after falling `fall` metres from a spout at `u0` m/s, for kinematic viscosity `nu` (m²/s) and gravity `g` (m/s²). */
export function viscousThreadSpeed(u0: number, fall: number, nu: number, g: number): number {
  const freeFall = Math.sqrt(u0 * u0 + 2 * g * Math.max(fall, 0));
  if (!(nu > 0) || !(g > 0) || !(fall > 0) || !(u0 > 0)) return freeFall;
  const ell = Math.cbrt((nu * nu) / g), U = Math.cbrt(nu * g);
  const w0 = u0 / U, zeta = fall / ell;
  const zFollow = Math.min(zeta, FOLLOW);
  // Bracket the spout's strain rate: lo stalls, hi runs away.
  let lo = 0, hi = 1;
  while (shoot(w0, hi, zFollow).fate !== 'runs away' && hi < 1e12) hi *= 4;
  let w = shoot(w0, hi, zFollow).wAt;
  for (let it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
    const mid = 0.5 * (lo + hi);
    const s = shoot(w0, mid, zFollow);
    if (s.fate === 'stalls') lo = mid;
    else if (s.fate === 'runs away') hi = mid;
    else {
      w = s.wAt;
      break;
    }
    w = s.wAt;
  }
  // Past FOLLOW viscous lengths: free fall from where the thread got to.
  const wEnd = Math.sqrt(w * w + 2 * Math.max(zeta - FOLLOW, 0));
  return Math.min(wEnd * U, freeFall);
}

/** Viscous lengths the thread is followed along before free fall takes over. */
const FOLLOW = 8;
/** How far past the point of interest a trial is followed to learn its fate, viscous lengths. */
const DECIDE = 10;
const STEP = 1 / 128;

interface Shot {
  fate: 'stalls' | 'runs away' | 'undecided';
  /** w where the fall of interest ends. */
  wAt: number;
}

/** One trial of the shooting: w'' = w'²/w + (w w' − 1)/3 by RK4 from w(0) = w0, w'(0) = s. */
function shoot(w0: number, s: number, zAt: number): Shot {
  let w = w0, p = s, z = 0, wAt = w0;
  const zEnd = zAt + DECIDE;
  const f = (ww: number, pp: number): number => (pp * pp) / ww + (ww * pp - 1) / 3;
  let recorded = zAt <= 0;
  while (z < zEnd) {
    const h = Math.min(STEP, (recorded ? zEnd : zAt) - z);
    const k1w = p, k1p = f(w, p);
    const k2w = p + 0.5 * h * k1p, k2p = f(w + 0.5 * h * k1w, p + 0.5 * h * k1p);
    const k3w = p + 0.5 * h * k2p, k3p = f(w + 0.5 * h * k2w, p + 0.5 * h * k2p);
    const k4w = p + h * k3p, k4p = f(w + h * k3w, p + h * k3p);
    w += (h / 6) * (k1w + 2 * k2w + 2 * k3w + k4w);
    p += (h / 6) * (k1p + 2 * k2p + 2 * k3p + k4p);
    z += h;
    if (!recorded && z >= zAt) {
      wAt = w;
      recorded = true;
    }
    if (p < 0 || !(w > 0)) return { fate: 'stalls', wAt: recorded ? wAt : w };
    if (w > 2 * Math.sqrt(w0 * w0 + 2 * z) + 2) return { fate: 'runs away', wAt: recorded ? wAt : w };
  }
  return { fate: 'undecided', wAt };
}
