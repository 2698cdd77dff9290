/**
 * The implicit viscosity's pair coefficients e_ij (viscosity-weiler-rows.ts, the system of Weiler,
 * Koschier, Brand & Bender 2018, §4 eq. 8–10, in viscosity-weiler-solve.ts) stored in 16 bits:
 * the code s of e is its square root on a linear scale up to a bound S on every coefficient of
 * the solve,
 *
 *   s = round(65535 √(e / S)),   e = K s²,   K = S / 65535²,
 *
 * so that a product decodes a pair's coefficient with two multiplications. The error is at most
 * √(e S) / 65535 (half a step of s; K more where s < ½ reads 1): relative to e, 1 / (65535 √(e / S)), 2e-4 at e = S / 60
 * (the honey drop's pairs at the lattice spacing), 1.5e-3 at S / 10⁴ (a liquid whose viscosity is
 * a hundredth of the most viscous one's). S bounds e = w² q f (w ≤ √F(0) √(δt K μ h⁻⁷), the volumes
 * q = q_i q_j ≤ the largest q squared, f the temperature factors' harmonic mean ≤ their largest),
 * so no code clamps. A coefficient above 0 keeps a code above 0 (s ≥ 1): a pair within its
 * support stays listed (the team's cross rows).
 */

/** The largest code. */
export const COEF_TOP = 65535;
const TOP = COEF_TOP;

/** The 16-bit code of e ≥ 0 given invS = 1 / S (e ≤ S). */
export function encodeCoef(e: number, invS: number): number {
  return codeOf(Math.sqrt(e * invS) * TOP);
}

/** The code nearest s = 65535 √(e / S) ≥ 0 (at least 1 where s > 0, at most 65535). */
export function codeOf(s: number): number {
  if (!(s > 0)) return 0;
  if (s >= TOP) return TOP;
  const c = (s + 0.5) | 0;
  return c > 0 ? c : 1;
}

/** The decoding factor K = S / 65535² for the bound S, into out[0]: e = out[0] s². */
export function coefTable(S: number, out: Float64Array): void {
  out[0] = S / (TOP * TOP);
}

/** e of a code (the products inline the same expression). */
export function decodeCoef(code: number, table: Float64Array): number {
  return table[0] * code * code;
}

/**
 * S for the solve: the largest √(δt K μ h⁻⁷) of the material pairs (`pairRoot`) times √F(0; 1)
 * (`rootAtZero`, the table's first entry: √F falls with r), squared, times the largest volume
 * ratio squared (`qMax`) and the largest temperature factor (`tfMax`, 1 without temperature).
 */
export function coefBound(pairRoot: Float64Array, rootAtZero: number, qMax: number, tfMax: number): number {
  let w = 0;
  for (let e = 0; e < pairRoot.length; e++) w = Math.max(w, pairRoot[e]);
  const s = w * rootAtZero * qMax;
  return s * s * tfMax;
}

/** The largest of a[0 … n) (1 where `has` is false or none is above 0). */
export function largestOf(a: Float64Array, n: number, has: boolean): number {
  if (!has) return 1;
  let m = 0;
  for (let i = 0; i < n; i++) if (a[i] > m) m = a[i];
  return m > 0 ? m : 1;
}
