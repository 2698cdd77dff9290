/**
 * What the grid engine does not honour of a scene (engines.ts `ignoredFeatures`). It solves one
 * velocity field (liquid.ts): other liquids keep their own colours, kinematic viscosities
 * (liquid-tracers.ts: ν per cell from tracers) and densities (variable-density.ts: ρ per cell from
 * the same tracers, per face in the pressure) but move with the first liquid's elasticity and
 * viscosity model (and its temperature law). It has no adhesion (Steele §3.1's pairwise forces in
 * particle radii): liquid meets a solid at the solid's velocity in the pressure solve and the
 * viscosity (solids.ts, viscosity.ts), whatever the `adhesion` entries or a solid's `friction`
 * (Steele §3.4) ask; those are named here when the scene sets them.
 */
import type { IgnoredFeature } from '../engines.ts';
import type { Scene } from '../scene/scene.ts';
import { gridLiquid, liquidsPutIn } from './liquid.ts';

/** The solid friction the schema gives when a scene sets none (scene/schema.ts `solid`). */
const DEFAULT_FRICTION = 0.3;

export function gridIgnores(scene: Scene): IgnoredFeature[] {
  if (scene.grid.smoke) return [];
  const out: IgnoredFeature[] = [...surfaceForcesIgnored(scene)];
  const first = gridLiquid(scene);
  const mat = first.material;
  if (!mat) return out;
  const firstName = scene.materialNames[first.index];
  for (const name of liquidsPutIn(scene)) {
    if (name === firstName) continue;
    const m = scene.materials[name];
    if (m.kind !== 'liquid') continue;
    const differs: string[] = [];
    if (!!m.viscoelastic !== !!mat.viscoelastic) differs.push('elasticity');
    if (m.grid.viscosityModel !== mat.grid.viscosityModel) differs.push(`viscosity model ('${m.grid.viscosityModel}' against '${mat.grid.viscosityModel}')`);
    const a = m.grid.temperature, b = mat.grid.temperature;
    if (m.grid.viscosityModel === 'variable' && a && b && (a.reference !== b.reference || a.coefficient !== b.coefficient || a.diffusivity !== b.diffusivity)) differs.push('temperature law');
    if (differs.length === 0) continue;
    out.push({
      path: `materials.${name}`,
      message: `the grid engine solves one velocity field: '${name}' keeps its colour, viscosity and density but moves with '${firstName}'s ${differs.length > 1 ? 'properties' : differs[0].split(' (')[0]}, not its own ${differs.join(', ')}`,
    });
  }
  return out;
}

/** The scene's adhesion entries between materials it puts in, and friction set on the solids of its bodies. */
function surfaceForcesIgnored(scene: Scene): IgnoredFeature[] {
  const out: IgnoredFeature[] = [];
  const used = new Set([...scene.bodies.map((b) => b.material), ...scene.sources.map((s) => s.material)]);
  const pairs = scene.adhesion.map((a, i) => ({ a, i })).filter(({ a }) => used.has(a.between[0]) && used.has(a.between[1]));
  if (pairs.length > 0) {
    const named = pairs.map(({ a, i }) => `[${i}] ${a.between[0]}–${a.between[1]}`).join(', ');
    out.push({
      path: pairs.length === 1 ? `adhesion[${pairs[0].i}]` : 'adhesion',
      message: `no adhesion on the grid: ${pairs.length === 1 ? 'entry' : 'entries'} ${named} ${pairs.length === 1 ? 'is' : 'are'} not read; liquid meets a solid at the solid's velocity (no slip) and other liquid through its own viscosity`,
    });
  }
  for (const name of scene.materialNames) {
    const m = scene.materials[name];
    if (m.kind !== 'solid' || !used.has(name) || m.friction === DEFAULT_FRICTION) continue;
    out.push({ path: `materials.${name}.friction`, message: `no friction on the grid (${m.friction} asked): liquid meets '${name}' at its velocity (no slip), as friction 1 would hold it` });
  }
  return out;
}
