/**
 * What the particle engine does not honour of a scene (engines.ts `ignoredFeatures`), each named
 * by its place in the scene, so that no feature is silently dropped: the grid's smoke is a
 * grid-engine feature. Temperature-dependent viscosity runs in both engines (temperature.ts).
 */
import type { IgnoredFeature } from '../engines.ts';
import type { Scene } from '../scene/scene.ts';

export function particleIgnores(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  if (scene.grid.smoke) out.push({ path: 'grid.smoke', message: 'the particle engine simulates no smoke: the smoke is run as a liquid of its density (use the grid engine)' });
  return out;
}
