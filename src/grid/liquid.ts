/**
 * The liquid the grid simulates: the material of the first liquid body (else of the first source,
 * else the first liquid material), its kinematic viscosity and viscosity model (Cline et al. §4
 * step 3c, §7), and the temperature law of a variable-viscosity liquid (§7.2). The grid engine
 * has one liquid; other liquids' markers keep their material index for colour only.
 */
import type { Scene } from '../scene/scene.ts';
import type { LiquidMaterial } from '../scene/schema.ts';
import type { TemperatureLaw } from './temperature.ts';

export interface GridLiquid {
  material: LiquidMaterial | null;
  /** Index of the material in scene.materialNames. */
  index: number;
  /** Kinematic viscosity, m²/s. */
  nu: number;
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

export function gridLiquid(scene: Scene): GridLiquid {
  const firstLiquidBody = scene.bodies.find((b) => scene.materials[b.material].kind === 'liquid');
  const name = firstLiquidBody?.material ?? scene.sources[0]?.material ?? scene.materialNames.find((m) => scene.materials[m].kind === 'liquid');
  const mat = name ? scene.materials[name] : undefined;
  const material = mat && mat.kind === 'liquid' ? mat : null;
  const density = material?.density ?? 1000;
  const v = material?.viscosity ?? { value: 0, unit: 'm2/s' as const };
  const viscosityModel = material?.grid.viscosityModel ?? 'variational';
  const law = material?.grid.temperature;
  return {
    material,
    index: name ? scene.materialNames.indexOf(name) : 0,
    nu: v.unit === 'm2/s' ? v.value : v.value / density,
    viscosityModel,
    temperatureLaw: viscosityModel === 'variable' || (viscosityModel === 'variational' && law !== undefined)
      ? { reference: law?.reference ?? 20, coefficient: law?.coefficient ?? 0.1, diffusivity: law?.diffusivity ?? 1e-4 }
      : null,
    ambientTemperature: law?.initial ?? 20,
  };
}
