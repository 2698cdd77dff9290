/**
 * The neighbour volumes of the implicit viscosity (viscosity-weiler.ts): Weiler, Koschier, Brand &
 * Bender 2018, eq. 8, weigh neighbour j by its volume m_j/ρ_j and the row by 1/ρ_i. Made symmetric
 * (row i times its own volume), a pair's coefficient is the rest-volume coefficient times
 * q_i q_j, q = V/V0 = ρ0/ρ: the liquid's own pairs, and each mirror ghost of a closed wall (the image
 * of particle j stands for j's volume), not the object particles (Akinci volumes of their own).
 * Below the rest density only: at and above it q = 1, the rest volume, as the pressure stage holds
 * the liquid there; below it ρ0/ρ, at most 1/VOLUME_FLOOR (a lone particle reads ρ/ρ0 0.32). ρ/ρ0
 * is LiquidParticles.density, from the last density correction. A stretching stream dilutes to
 * ρ/ρ0 0.35–0.5 (cup-pour's falling tail), where the rest volume carried a median 0.12 of Trouton's
 * tension 3 μ A ε̇ and the volumes 0.70 (docs/decisions.md "cup-pour's tail: the implicit
 * viscosity's volumes", "The bulk of a stretching flow").
 */

/** Smallest ρ/ρ0 a volume is taken at (V ≤ V0 / VOLUME_FLOOR). */
export const VOLUME_FLOOR = 0.3;

/**
 * q = V/V0 of particles [0, n) at ρ/ρ0 = density[i] into out, once a solve: ρ0/ρ below the rest
 * density (at most 1/VOLUME_FLOOR), 1 at and above it. The rows read a particle's q for each of its
 * pairs and ghosts; a call per pair that returned a double allocated (V8 boxes it where the call is
 * not inlined: ~10 MB a honey-drop frame).
 */
export function volumeRatios(density: Float32Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const d = density[i];
    out[i] = d < 1 ? 1 / (d > VOLUME_FLOOR ? d : VOLUME_FLOOR) : 1;
  }
}
