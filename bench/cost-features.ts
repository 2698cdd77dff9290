/**
 * `viscid info`'s cost model (src/cli/cost.ts) against the engine it predicts, on small scenes:
 *
 *   npx tsx bench/cost-features.ts
 *
 * what a feature adds to a frame — the temperature stage, the implicit viscosity, the colour
 * field, the gel's springs — is checked as the ratio of two variants' CPU time, measured in this
 * process with their frames interleaved (as bench/ab-frames.ts does, so the load of a shared
 * machine falls on both alike), against the ratio of the two predictions: within 1.5×. The absolute
 * figures, which depend on the machine, are in BENCHMARKS.md ("What viscid info predicts"), from
 * bench/frame-cpu.ts on every shipped scene.
 */
import { createSimulation, parseScene, type Scene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { predictFrameCost } from '../src/cli/cost.ts';

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

/** CPU ms a frame of scene B over scene A, frames 2–5 of each, interleaved (the first frame of each is a warm-up). */
function measuredRatio(a: Scene, b: Scene): number {
  const sims = [createSimulation(a, 'particle', { workers: 1 }), createSimulation(b, 'particle', { workers: 1 })];
  const cpu = [0, 0];
  for (let f = 0; f < 5; f++) {
    for (const k of f % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = process.cpuUsage();
      sims[k].stepFrame();
      const t = process.cpuUsage(t0);
      if (f > 0) cpu[k] += t.user + t.system;
    }
  }
  return cpu[1] / cpu[0];
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

for (const [what, edit] of PAIRS) {
  const base = BASES[what] ?? (() => {});
  const a = blob(base), b = blob((s) => {
    base(s);
    edit(s);
  });
  const predicted = predictedRatio(a, b), measured = measuredRatio(a, b);
  console.log(`${what}: measured ${measured.toFixed(2)}, predicted ${predicted.toFixed(2)}, measured / predicted ${(measured / predicted).toFixed(2)}`);
}
