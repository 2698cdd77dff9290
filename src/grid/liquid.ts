/**
 * The liquid the grid simulates: the material of the first liquid body (else of the first source,
 * else the first liquid material), its kinematic viscosity and viscosity model (Cline et al. §4
 * step 3c, §7), and the temperature law of a variable-viscosity liquid (§7.2). The grid engine
 * solves one velocity field with this liquid's viscosity model, its density the pressure's
 * reference; other liquids keep their colour and, where they differ, their viscosity and density
 * per cell through tracers (liquid-tracers.ts, variable-density.ts).
 */
import type { Scene } from '../scene/scene.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import type { TemperatureLaw } from './temperature.ts';
import { kinematicViscosity } from '../scene/material.ts';

export interface GridLiquid {
  material: LiquidMaterial | null;
  /** Index of the material in scene.materialNames. */
  index: number;
  /** Kinematic viscosity, m²/s. */
  nu: number;
  /** The largest kinematic viscosity of the liquids the scene puts in (nu when there is one), m²/s. */
  nuMax: number;
  viscosityModel: 'explicit' | 'implicit' | 'variable' | 'variational';
  /** The variable model's, and the variational model's when the material gives a temperature law. */
  temperatureLaw: TemperatureLaw | null;
  /** Temperature of new liquid and new cells, °C. */
  ambientTemperature: number;
}

/** The liquid materials the scene puts in, by bodies and by sources, in scene order. */
export function liquidsPutIn(scene: Scene): Set<string> {
  const used = new Set<string>();
  for (const b of scene.bodies) if (scene.materials[b.material].kind === 'liquid') used.add(b.material);
  for (const s of scene.sources) used.add(s.material);
  return used;
}

/** Kinematic viscosity of the named material, m²/s; null when it is not a liquid. */
export function materialNu(scene: Scene, name: string): number | null {
  const m = scene.materials[name];
  if (m.kind !== 'liquid') return null;
  return kinematicViscosity(m);
}

export function gridLiquid(scene: Scene): GridLiquid {
  const firstLiquidBody = scene.bodies.find((b) => scene.materials[b.material].kind === 'liquid');
  const name = firstLiquidBody?.material ?? scene.sources[0]?.material ?? scene.materialNames.find((m) => scene.materials[m].kind === 'liquid');
  const mat = name ? scene.materials[name] : undefined;
  const material = mat && mat.kind === 'liquid' ? mat : null;
  const nu = name ? materialNu(scene, name) ?? 0 : 0;
  const viscosityModel = material?.grid.viscosityModel ?? 'variational';
  const law = material?.grid.temperature;
  return {
    material,
    index: name ? scene.materialNames.indexOf(name) : 0,
    nu,
    nuMax: Math.max(nu, ...[...liquidsPutIn(scene)].map((n) => materialNu(scene, n) ?? 0)),
    viscosityModel,
    temperatureLaw: viscosityModel === 'variable' || (viscosityModel === 'variational' && law !== undefined)
      ? { reference: law?.reference ?? 20, coefficient: law?.coefficient ?? 0.1, diffusivity: law?.diffusivity ?? 1e-4 }
      : null,
    ambientTemperature: law?.initial ?? 20,
  };
}
