/**
 * The share of a scene's liquid particles the thin pull (particle.thinPull, particle/thin-pull.ts)
 * works on, for `viscid info`'s cost (cost.ts predictFrameCost). The stage lists, shapes and pulls
 * the sparsely sampled particles (ρ/ρ0 under THIN_SPARSE: a free surface, a sheet, a thread) away
 * from bodies, each over its neighbourhood at twice the density kernel's support; the bulk under
 * them costs it nothing. Counted as the outer row of each liquid body — its surface area over the
 * rest spacing squared, the share of it no solid lies against (openShare) — and the whole of what
 * spouts lay down (a stream a few particles across is all surface), weighed by volume. gel-fan's
 * 40-particle block: 14 % of its particles (the stage pulled 82 152 over a frame's nine
 * sub-timesteps of 64 000, bench frame 2).
 */
import type { Scene } from '../index.ts';
import { compileShape } from '../scene/shapes.ts';

export function thinShare(scene: Scene, open: number, stream: number): number {
  const d = 2 * scene.particle.radius;
  let volume = 0, surface = 0;
  try {
    for (const b of scene.bodies) {
      if (scene.materials[b.material].kind !== 'liquid') continue;
      const shape = compileShape(b.shape, scene.assets.meshes);
      volume += shape.volume;
      surface += shape.area * d; // the outer row's volume
    }
  } catch {
    return 0; // an unreadable shape is refused elsewhere
  }
  const bodies = volume > 0 ? Math.min(1, (surface * open) / volume) : 0;
  return (1 - stream) * bodies + stream;
}
