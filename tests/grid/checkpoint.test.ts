/**
 * The extension state (strain, smoke density and temperature, particle level set particles, free
 * bodies, height field, spray, a level-set spout's account and flow ratio) is saved with the grid,
 * so a restored run continues bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';

const water = { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } };
const cases: Record<string, Record<string, unknown>> = {
  viscoelastic: {
    domain: { min: [-0.06, 0, -0.06], max: [0.06, 0.12, 0.06], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { gel: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, grid: { viscoelastic: { elasticModulus: 2000, elasticLimit: 0.3 } } } },
    bodies: [{ material: 'gel', shape: { type: 'box', center: [0, 0.05, 0], size: [0.04, 0.04, 0.04] } }],
    grid: { cellSize: 0.01, tracking: 'markers' },
  },
  smoke: {
    domain: { min: [-0.06, 0, -0.04], max: [0.06, 0.12, 0.04], boundary: 'slip', faces: { ymax: 'open' } },
    materials: { smoke: { kind: 'liquid', density: 1.2, viscosity: { value: 1.5e-5, unit: 'm2/s' } } },
    sources: [{ material: 'smoke', center: [0, 0.01, 0], direction: [0, 1, 0], radius: 0.02, speed: 0.2 }],
    grid: { cellSize: 0.02, tracking: 'markers', vorticityConfinement: 2, smoke: {} },
  },
  'particle level set, free body, height field and spray': {
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { water, wood: { kind: 'solid', density: 500 } },
    bodies: [
      { material: 'water', shape: { type: 'box', center: [0, 0.04, 0], size: [0.2, 0.08, 0.2] } },
      { material: 'water', shape: { type: 'sphere', center: [0.05, 0.14, 0], radius: 0.03 }, velocity: [0, -1, 0] },
      { name: 'box', material: 'wood', shape: { type: 'box', center: [-0.04, 0.1, 0], size: [0.05, 0.05, 0.05] }, motion: { type: 'free' } },
    ],
    grid: { cellSize: 0.025, tracking: 'particle-levelset', heightField: true, spray: { threshold: 0.3 } },
  },
  // Saved at 0.13 s, after the column reached its full length (3 cells at 0.4 m/s: 0.075 s), so the
  // flow ratio's sums are in use.
  'a level-set spout mid-pour': {
    domain: { min: [-0.04, 0, -0.04], max: [0.04, 0.16, 0.04], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { water },
    sources: [{ material: 'water', center: [0, 0.14, 0], direction: [0, -1, 0], radius: 0.012, speed: 0.4 }],
    grid: { cellSize: 0.01, tracking: 'particle-levelset' },
  },
};

describe('checkpoints of the grid extensions', () => {
  for (const [name, json] of Object.entries(cases)) {
    it(`${name}: a restored run continues bit for bit`, () => {
      const a = createSimulation(parseScene({ fps: 30, ...json }), 'grid');
      for (let f = 0; f < 4; f++) a.stepFrame();
      const b = restoreSimulation(a.save());
      for (let f = 0; f < 4; f++) { a.stepFrame(); b.stepFrame(); }
      const pa = a.fluidPoints(), pb = b.fluidPoints();
      expect(pb.count).toBe(pa.count);
      expect(pa.count).toBeGreaterThan(0);
      expect(Array.from(pb.positions)).toEqual(Array.from(pa.positions));
      expect(Array.from(pb.velocities)).toEqual(Array.from(pa.velocities));
      expect(Array.from(b.save())).toEqual(Array.from(a.save()));
    });
  }
});
