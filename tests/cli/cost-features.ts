/**
 * The scenes that weigh info's cost model feature by feature (src/cli/cost.ts): a 1 000-particle
 * honey blob, and pairs of it without and with one feature (the temperature stage, the implicit
 * viscosity, the gel's springs) over a common base. tests/cli/cost-model.test.ts holds the model's
 * predicted ratios against the measured ones that bench/cost-features.ts prints.
 */
import { parseScene, type Scene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { predictFrameCost } from '../../src/cli/cost.ts';

const R = 0.0015, SIDE = 0.03;

/** A block of honey (SIDE wide, 1 000 particles) dropping onto a floor in a box, with `edit` applied. */
export function blob(edit: (s: SceneInput) => void = () => {}): Scene {
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

export function predictedRatio(a: Scene, b: Scene): number {
  return predictFrameCost(b).particle.seconds / predictFrameCost(a).particle.seconds;
}

/** At its reference temperature, so that the viscosity (and the exchange's sweeps) stay as without the law. */
const law = (initial: number) => ({ viscosityModel: 'variable' as const, temperature: { initial, reference: 20, coefficient: 0.05, diffusivity: 1e-5 } });

export const PAIRS: [string, (s: SceneInput) => void][] = [
  ['the temperature stage', (s) => {
    s.materials!.honey = { ...(s.materials!.honey as object), grid: law(20) } as never;
  }],
  ['the implicit viscosity', (s) => {
    s.particle = { ...s.particle, viscositySolver: 'implicit' };
  }],
  ['the gel\'s springs', (s) => {
    s.materials!.honey = { ...(s.materials!.honey as object), viscoelastic: { elasticModulus: 200, elasticLimit: 0.5, yieldRate: 1, decay: 0 } } as never;
  }],
  ['the thin pull', (s) => {
    s.particle = { ...s.particle, thinPull: 0.5 };
  }],
];

/** Each pair's common base: the implicit viscosity's the exchange; the gel's at one density pass a sub-timestep in both (the blob takes one; the model gives a gel fewer than a liquid). */
export const BASES: Record<string, (s: SceneInput) => void> = {
  // The base names the exchange so the pair holds whatever the default is.
  'the implicit viscosity': (s) => {
    s.particle = { ...s.particle, viscositySolver: 'exchange' };
  },
  'the gel\'s springs': (s) => {
    s.particle = { ...s.particle, densityIterations: 1 };
  },
};

/** Pair `what`'s two scenes: its base alone, and its base with the feature. */
export function pairScenes(what: string, edit: (s: SceneInput) => void): [Scene, Scene] {
  const base = BASES[what] ?? (() => {});
  return [blob(base), blob((s) => {
    base(s);
    edit(s);
  })];
}
