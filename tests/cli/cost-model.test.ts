/**
 * `viscid info`'s cost model (src/cli/cost.ts) on small scenes: what a feature adds to a frame —
 * the temperature stage, the implicit viscosity, the gel's springs — is in the prediction, and the
 * predicted ratio of a scene with the feature to one without is within 1.5× of the ratio of CPU
 * time measured by the benchmark (`npx tsx bench/cost-features.ts`: the same two scenes, frames
 * interleaved in one process). The measured ratios are recorded here, not timed in the test:
 * speed is the benchmark's business. When a stage's cost changes, rerun the benchmark and update
 * both the model and MEASURED. The absolute figures on every shipped scene are in BENCHMARKS.md
 * ("viscid info's frame cost against CPU time, per stage").
 */
import { describe, expect, it } from 'vitest';
import { parseScene, type Scene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { predictFrameCost } from '../../src/cli/cost.ts';

const R = 0.0015, SIDE = 0.03;

/** A block of honey (SIDE wide, 1 000 particles) dropping onto a floor in a box, with `edit` applied. */
function blob(edit: (s: SceneInput) => void = () => {}): Scene {
  const input: SceneInput = {
    fps: 30,
    domain: { min: [-0.04, 0, -0.04], max: [0.04, 0.06, 0.04], boundary: 'noslip' },
    materials: { honey: { kind: 'liquid', density: 1400, viscosity: { value: 5, unit: 'Pa.s' }, color: '#c98a16' } },
    bodies: [{ material: 'honey', shape: { type: 'box', center: [0, 0.017, 0], size: [SIDE, SIDE, SIDE] } }],
    particle: { radius: R },
  };
  edit(input);
  return parseScene(input);
}

function predictedRatio(a: Scene, b: Scene): number {
  return predictFrameCost(b).particle.seconds / predictFrameCost(a).particle.seconds;
}

/** At its reference temperature, so that the viscosity (and the exchange's sweeps) stay as without the law. */
const law = (initial: number) => ({ viscosityModel: 'variable' as const, temperature: { initial, reference: 20, coefficient: 0.05, diffusivity: 1e-5 } });

const PAIRS: [string, (s: SceneInput) => void][] = [
  ['the temperature stage', (s) => {
    s.materials!.honey = { ...(s.materials!.honey as object), grid: law(20) } as never;
  }],
  ['the implicit viscosity', (s) => {
    s.particle = { ...s.particle, viscositySolver: 'implicit' };
  }],
  ['the gel\'s springs', (s) => {
    s.materials!.honey = { ...(s.materials!.honey as object), viscoelastic: { elasticModulus: 200, elasticLimit: 0.5, yieldRate: 1, decay: 0 } } as never;
  }],
];

/** Each pair's common base: the gel's at one density pass a sub-timestep in both (the blob takes one; the model gives a gel fewer than a liquid). */
const BASES: Record<string, (s: SceneInput) => void> = {
  'the gel\'s springs': (s) => {
    s.particle = { ...s.particle, densityIterations: 1 };
  },
};

/** CPU ratio with / without the feature, from bench/cost-features.ts (2026-11-29, load ~30; the mid-point of the runs). */
const MEASURED: Record<string, number> = {
  'the temperature stage': 1.2,
  'the implicit viscosity': 1.35,
  'the gel\'s springs': 1.51,
};

describe('info\'s cost model against the particle engine', () => {
  for (const [what, edit] of PAIRS) {
    it(`counts ${what}: the benchmark's CPU ratio with and without it is within 1.5× of the predicted one`, () => {
      const base = BASES[what] ?? (() => {});
      const a = blob(base), b = blob((s) => {
        base(s);
        edit(s);
      });
      const predicted = predictedRatio(a, b), measured = MEASURED[what];
      // The feature is in the prediction at all (a model that leaves it out predicts 1).
      expect(predicted).toBeGreaterThan(1.02);
      expect(measured / predicted).toBeGreaterThan(1 / 1.5);
      expect(measured / predicted).toBeLessThan(1.5);
    });
  }
});
