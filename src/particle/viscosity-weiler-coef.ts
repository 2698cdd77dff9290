/**
 * The implicit viscosity's pair coefficients e_ij (viscosity-weiler-rows.ts, the system of Weiler,
 * Koschier, Brand & Bender 2018, §4 eq. 8–10, in viscosity-weiler-solve.ts) stored in 16 bits, a
 * small floating-point code relative to a bound S on every coefficient of the solve: 5 bits of
 * binade k (the value lies in [2^(k−31), 2^(k−30)) S; k = 0 is zero) and 11 bits of mantissa m,
 *
 *   e = S 2^(k−31) (1 + m / 2048) = D[k] (2048 + m),   D[k] = S 2^(k−31) / 2048, D[0] = 0,
 *
 * rounded to nearest: within 2^−12 (2.4e-4) of the single-precision value over 31 binades below S
 * (a coefficient above 0 and under 2^−30 S, a billionth of the largest, reads 2^−30 S: a pair
 * within its support keeps a code other than 0, and the team's cross rows list it). The codes take 2 bytes a
 * pair instead of single precision's 4; a product decodes each with one look-up in D and one
 * multiplication. S bounds e = w² q f (w ≤ √F(0) √(δt K μ h⁻⁷), the volumes q = q_i q_j ≤
 * 1/VOLUME_FLOOR², f the temperature factors' harmonic mean ≤ their largest), so no code clamps.
 */
import { VOLUME_FLOOR } from './viscosity-weiler-volumes.ts';

/** Binades of the code (5 bits) and mantissa bits (11). */
const MANT = 2048;

const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);

/**
 * The 16-bit code of e ≥ 0 given invS = 1 / S (e ≤ S, and below 2 S it does not clamp): binade
 * and mantissa from e / S's single-precision bits, the mantissa rounded to 11 bits.
 */
export function encodeCoef(e: number, invS: number): number {
  f32[0] = e * invS;
  const bits = u32[0], be = bits >>> 23;
  // k = be − 127 + 31; below binade 1: its least code (so that a pair is listed where e > 0), zero: 0.
  if (be < 97) return e > 0 ? 1 << 11 : 0;
  let k = be - 96, m = ((bits & 0x7fffff) + 0x800) >>> 12;
  if (m === MANT) {
    m = 0;
    k++;
  }
  if (k > 31) return 0xffff;
  return (k << 11) | m;
}

/** The decoding table D (32 entries) for the bound S: e = D[code >>> 11] * ((code & 2047) | 2048). */
export function coefTable(S: number, out: Float64Array): void {
  out[0] = 0;
  for (let k = 1; k < 32; k++) out[k] = (S * 2 ** (k - 31)) / MANT;
}

/** e of a code (the products inline the same expression). */
export function decodeCoef(code: number, table: Float64Array): number {
  return table[code >>> 11] * ((code & 2047) | 2048);
}

/**
 * S for the solve: the largest √(δt K μ h⁻⁷) of the material pairs (`pairRoot`) times √F(0; 1)
 * (`rootAtZero`, the table's first entry: √F falls with r), squared, times the largest volume
 * product and the largest temperature factor (`tfMax`, 1 without temperature).
 */
export function coefBound(pairRoot: Float64Array, rootAtZero: number, tfMax: number): number {
  let w = 0;
  for (let e = 0; e < pairRoot.length; e++) w = Math.max(w, pairRoot[e]);
  const q = 1 / (VOLUME_FLOOR * VOLUME_FLOOR), s = w * rootAtZero;
  return s * s * q * tfMax;
}

/** The largest temperature factor of particles [0, n) (1 where the scene has none). */
export function largestFactor(tf: Float64Array, n: number, thermal: boolean): number {
  if (!thermal) return 1;
  let m = 0;
  for (let i = 0; i < n; i++) if (tf[i] > m) m = tf[i];
  return m > 0 ? m : 1;
}
