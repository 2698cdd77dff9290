/**
 * What the grid engine does not honour of a scene (engines.ts `ignoredFeatures`). It solves one
 * liquid (liquid.ts): other liquids keep their own colours (liquid-tracers.ts) but move with the
 * first liquid's density and viscosity.
 */
import type { IgnoredFeature } from '../engines.ts';
import type { Scene } from '../scene/scene.ts';
import { gridLiquid, liquidsPutIn } from './liquid.ts';

export function gridIgnores(scene: Scene): IgnoredFeature[] {
  if (scene.grid.smoke) return [];
  const out: IgnoredFeature[] = [];
  const first = gridLiquid(scene);
  const mat = first.material;
  if (!mat) return out;
  const firstName = scene.materialNames[first.index];
  for (const name of liquidsPutIn(scene)) {
    if (name === firstName) continue;
    const m = scene.materials[name];
    if (m.kind !== 'liquid') continue;
    const nu = m.viscosity.unit === 'm2/s' ? m.viscosity.value : m.viscosity.value / m.density;
    const differs: string[] = [];
    if (m.density !== mat.density) differs.push(`density (${m.density} kg/m³ against ${mat.density})`);
    if (Math.abs(nu - first.nu) > 1e-9 * Math.max(nu, first.nu)) differs.push(`viscosity (${nu.toPrecision(3)} m²/s against ${first.nu.toPrecision(3)})`);
    if (!!m.viscoelastic !== !!mat.viscoelastic) differs.push('elasticity');
    if (m.grid.viscosityModel !== mat.grid.viscosityModel) differs.push(`viscosity model ('${m.grid.viscosityModel}' against '${mat.grid.viscosityModel}')`);
    const a = m.grid.temperature, b = mat.grid.temperature;
    if (m.grid.viscosityModel === 'variable' && a && b && (a.reference !== b.reference || a.coefficient !== b.coefficient || a.diffusivity !== b.diffusivity)) differs.push('temperature law');
    if (differs.length === 0) continue;
    out.push({
      path: `materials.${name}`,
      message: `the grid engine simulates one liquid: '${name}' keeps its colour but moves with '${firstName}'s ${differs.length > 1 ? 'properties' : differs[0].split(' (')[0]}, not its own ${differs.join(', ')}`,
    });
  }
  return out;
}
