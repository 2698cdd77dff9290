/**
 * What the particle engine does not honour of a scene (engines.ts `ignoredFeatures`), each named
 * by its place in the scene, so that no feature is silently dropped: the grid's smoke and
 * temperature-dependent viscosity are grid-engine features.
 */
import type { IgnoredFeature } from '../engines.ts';
import type { Scene } from '../scene/scene.ts';

export function particleIgnores(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  if (scene.grid.smoke) out.push({ path: 'grid.smoke', message: 'the particle engine simulates no smoke: the smoke is run as a liquid of its density (use the grid engine)' });
  for (const name of scene.materialNames) {
    const m = scene.materials[name];
    if (m.kind === 'liquid' && m.grid.viscosityModel === 'variable') {
      out.push({ path: `materials.${name}.grid.viscosityModel`, message: `the particle engine models no temperature: '${name}' keeps its stated viscosity at every temperature (the grid engine varies it)` });
    }
  }
  return out;
}
