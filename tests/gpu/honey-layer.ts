/**
 * The implicit viscosity's GPU test case (viscosity.test.ts, viscosity-volumes.test.ts): a honey
 * layer 3.2 × 1.6 × 1.6 cm on a no-slip floor under a steel ball, 2 mm particles.
 */
import type { SceneInput } from '../../src/scene/schema.ts';

export const honeyLayer: SceneInput = {
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.032, 0.04, 0.016], boundary: 'slip', faces: { ymin: 'noslip' } },
  materials: { honey: { kind: 'liquid', density: 1400, viscosity: { value: 0.5, unit: 'm2/s' } }, steel: { kind: 'solid' } },
  bodies: [
    { material: 'honey', shape: { type: 'box', center: [0.016, 0.008, 0.008], size: [0.032, 0.016, 0.016] } },
    { material: 'steel', shape: { type: 'sphere', center: [0.016, 0.024, 0.008], radius: 0.008 } },
  ],
  particle: { radius: 0.002 },
};
