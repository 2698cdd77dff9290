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
import { PAIRS, pairScenes, predictedRatio } from './cost-features.ts';

/** CPU ratio with / without the feature, from bench/cost-features.ts (2026-11-29, load ~30; the mid-point of the runs). */
const MEASURED: Record<string, number> = {
  'the temperature stage': 1.2,
  'the implicit viscosity': 1.35,
  'the gel\'s springs': 1.51,
};

describe('info\'s cost model against the particle engine', () => {
  for (const [what, edit] of PAIRS) {
    it(`counts ${what}: the benchmark's CPU ratio with and without it is within 1.5× of the predicted one`, () => {
      const [a, b] = pairScenes(what, edit);
      const predicted = predictedRatio(a, b), measured = MEASURED[what];
      // The feature is in the prediction at all (a model that leaves it out predicts 1).
      expect(predicted).toBeGreaterThan(1.02);
      expect(measured / predicted).toBeGreaterThan(1 / 1.5);
      expect(measured / predicted).toBeLessThan(1.5);
    });
  }
});
