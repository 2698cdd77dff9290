/**
 * Stage "surface": flags the liquid particles on the liquid surface, with normals (Steele
 * "Rendering": the centroid test with angle θ = particle.surfaceAngle and ratio
 * t_s = particle.surfaceRatio; src/particle/surface-particles.ts). Friction needs the flags.
 *
 * The paper's sampling sphere has radius r, which on a lattice of spacing 2r holds no neighbour at
 * all; we sample within the density kernel support h (4r by default: the 26 lattice neighbours).
 * The test costs about as much as a pair stage, so it runs on the first sub-timestep of each frame;
 * the flags travel with the particles through the sorts of the later sub-timesteps.
 */
import { findSurfaceParticles } from './surface-particles.ts';
import type { StepContext } from './context.ts';

export function markSurface(ctx: StepContext): number {
  const L = ctx.liquid, P = ctx.scene.particle;
  return findSurfaceParticles(ctx.cells.grid, L.pos, L.count, ctx.densityH, P.surfaceAngle, P.surfaceRatio, L.surface, L.normal);
}
