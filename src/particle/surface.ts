/**
 * Stage "surface": flags the liquid particles on the liquid surface (Steele "Rendering": the
 * centroid test with angle θ and ratio t_s), which friction needs every sub-timestep.
 */
import type { StepContext } from './context.ts';

export function markSurface(ctx: StepContext): void {
  // Interim until src/particle/surface-particles.ts lands: every particle counts as surface.
  ctx.liquid.surface.fill(1, 0, ctx.liquid.count);
}
