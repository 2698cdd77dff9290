/**
 * A heavy liquid block dropped on a water pool: 5 × 2.5 cm of water 2 cm deep (the box's z) under a
 * 2 × 2 cm block of density `heavy`, 2.5 mm particles, slip walls. The case of
 * tests/particle/two-densities.test.ts, tests/gpu/liquids.test.ts's sinking block and the benches
 * bench/heavy-sink.ts and bench/gpu-liquids-cost.ts (docs/decisions.md, "Two liquid densities in contact").
 */
import type { SceneInput } from '../../src/scene/schema.ts';

export interface HeavyPool {
  /** The block's density, kg/m³ (the water's is 1 000). */
  heavy: number;
  /** Dynamic viscosities, Pa·s: the water's (default 0.01) and the block's (default 0.05). */
  waterViscosity?: number;
  heavyViscosity?: number;
  /** The block moved along x from the pool's middle, m (default 0). */
  shift?: number;
  /** Particle-engine settings (default: radius 2.5 mm). */
  particle?: SceneInput['particle'];
  /** Blue water and an orange block, for the colour fields (default: both liquids the default colour). */
  colours?: boolean;
}

export function heavyOnWater(o: HeavyPool): SceneInput {
  const depth = 0.02;
  return {
    fps: 30,
    duration: 1,
    domain: { min: [0, 0, 0], max: [0.05, 0.06, depth], boundary: 'slip' },
    materials: {
      water: { kind: 'liquid', density: 1000, viscosity: { value: o.waterViscosity ?? 0.01, unit: 'Pa.s' }, ...(o.colours ? { color: '#3060ff' } : {}) },
      heavy: { kind: 'liquid', density: o.heavy, viscosity: { value: o.heavyViscosity ?? 0.05, unit: 'Pa.s' }, ...(o.colours ? { color: '#ff6020' } : {}) },
    },
    bodies: [
      { material: 'water', shape: { type: 'box', center: [0.025, 0.0125, depth / 2], size: [0.05, 0.025, depth] } },
      { material: 'heavy', shape: { type: 'box', center: [0.025 + (o.shift ?? 0), 0.035, depth / 2], size: [0.02, 0.02, depth] } },
    ],
    particle: o.particle ?? { radius: 0.0025 },
  };
}
