/**
 * honey-coil's pour in the particle engine (scenes/honey-coil.json's "particle" block; a test checks
 * that the scene and the rope-coiling case agree). What the rope needs to coil there
 * (docs/decisions.md, "Rope coiling in the particle engine"):
 *  - the implicit viscosity (Weiler et al. 2018, particle.viscositySolver "implicit"): the honey's
 *    ν = 0.035 m²/s, which the paper's exchange cannot reach at any affordable step; Takahashi et al.
 *    2015 coil SPH ropes the same way, with an implicit viscosity;
 *  - particles small enough that the rope is several across: 1 mm radius puts 4 across the spout's
 *    8 mm and about 5 across the rope where it meets the pile;
 *  - a sub-timestep of 1/240 s whatever the frame rate the case samples at, so that the case and the
 *    scene take the same steps.
 */
import type { SceneInput } from '../../scene/schema.ts';

/** Particle radius (m) and sub-timesteps per second of the pour. */
export const PARTICLE_COIL = { radius: 0.001, substepsPerSecond: 240, moves: 6 } as const;

/** The particle block of the pour sampled at `fps` frames a second. */
export function particleCoilSettings(fps: number): NonNullable<SceneInput['particle']> {
  const p = PARTICLE_COIL;
  return { radius: p.radius, substeps: Math.max(1, Math.round(p.substepsPerSecond / fps)), moves: p.moves, viscositySolver: 'implicit' };
}

/** Empty layers the measurement passes over while following a particle rope down, m: two particle spacings. */
export const PARTICLE_ROPE_GAP = 4 * PARTICLE_COIL.radius;
