/**
 * Two liquid densities in contact: a block of heavy liquid set on a water pool in a closed box (the
 * case tests/gpu/liquids.test.ts ran before it became a slab), 2.5 mm particles, 264 of them. The
 * run's first (cold) pressure solve stops at COLD_TOLERANCE in about the passes of a block of the
 * water's density, where it ran all 1 000 with the diagonal scaled
 * by the reference slot's mass (pressure-kernels.ts factorRange: α over the particle's own mass),
 * and the heavy block still sinks faster than a block of the water's density.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

function pool(heavy: number): SceneInput {
  return {
    fps: 30,
    duration: 1,
    domain: { min: [0, 0, 0], max: [0.05, 0.06, 0.02], boundary: 'slip' },
    materials: {
      water: { kind: 'liquid', density: 1000, viscosity: { value: 0.01, unit: 'Pa.s' } },
      heavy: { kind: 'liquid', density: heavy, viscosity: { value: 0.05, unit: 'Pa.s' } },
    },
    bodies: [
      { material: 'water', shape: { type: 'box', center: [0.025, 0.0125, 0.01], size: [0.05, 0.025, 0.02] } },
      { material: 'heavy', shape: { type: 'box', center: [0.025, 0.035, 0.01], size: [0.02, 0.02, 0.02] } },
    ],
    particle: { radius: 0.0025 },
  };
}

/** The first frame's pressure passes (its cold solve and the warm ones after it) and the block's mean height (m) after `frames`. */
function run(heavy: number, frames: number): { passes: number; block: number } {
  const sim = new ParticleSimulation(parseScene(pool(heavy)));
  const passes = sim.stepFrame().counters.pressurePasses ?? 0;
  for (let f = 1; f < frames; f++) sim.stepFrame();
  const L = sim.ctx.liquid;
  let s = 0, c = 0;
  for (let i = 0; i < L.count; i++) if (L.material[i] === 1) { s += L.pos[3 * i + 1]; c++; }
  sim.dispose();
  return { passes, block: s / c };
}

describe('two liquid densities in contact', () => {
  it('stops the first solve in about the passes of one density, and the heavy block sinks', () => {
    const same = run(1000, 3), heavy = run(3000, 3);
    // The first frame's passes, the cold solve's and the warm solves' after it: 45 at one density.
    expect(same.passes).toBeLessThan(80);
    // At ρ 3000: 50 (1 010 with the reference slot's mass in the diagonal: the cold solve's 1 000).
    expect(heavy.passes).toBeLessThan(same.passes + 30);
    // Frame 3's block: 27.3 mm at the water's density, 20.3 mm at ρ 3000 (22.5 before).
    expect(heavy.block).toBeLessThan(same.block - 0.004);
  });
});
