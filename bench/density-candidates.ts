/**
 * The density solves of the particle engine side by side on the same cases (BENCHMARKS.md,
 * "Density correction"): a pool at rest (4 mm, 4.8 cm deep, RMS speed over seconds 1–2), a
 * 20 Pa·s cube dropped on a floor (3 s), the tiny dam break and spreading validation cases, and
 * the honey drop (frames 3–12: passes a sub-timestep and ms a frame).
 *   npx tsx bench/density-candidates.ts [candidates] [cases]
 * candidates (comma list): steele, steele-positions, pbf-alone (no pressure stage), pbf (default)
 * cases (comma list): pool, cube, dam, spread, honey
 */
import { readFileSync } from 'node:fs';
import '../src/index.ts';
import { createSimulation, parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { measureSpreading } from '../src/compare/validate.ts';
import { martinMoyceFront } from '../src/compare/reference/martin-moyce-1952.ts';
import { frontPosition } from '../src/compare/metrics.ts';
import { cubeDrop, measureCubeDrop, measurePool, poolScene, sim } from '../tests/particle/physics-cases.ts';

type Settings = NonNullable<SceneInput['particle']>;
const CANDIDATES: Record<string, { particle: Settings; tolerance?: number }> = {
  steele: { particle: { densitySolver: 'steele' }, tolerance: 0.02 },
  'steele-positions': { particle: { densitySolver: 'steele', pressureImpulse: false }, tolerance: 0.02 },
  'pbf-alone': { particle: { densitySolver: 'pbf', pressureIterations: 0 } },
  pbf: { particle: { densitySolver: 'pbf' } },
};
const names = (process.argv[2] ?? Object.keys(CANDIDATES).join(',')).split(',');
const cases = (process.argv[3] ?? 'pool,cube,dam,spread,honey').split(',');

/** Applies a candidate's particle settings (and tolerance) to a scene. */
function apply(input: SceneInput, c: { particle: Settings; tolerance?: number }): SceneInput {
  const out = structuredClone(input);
  out.particle = { ...out.particle, ...c.particle };
  if (c.tolerance !== undefined) {
    for (const m of Object.values(out.materials ?? {})) {
      if (m.kind === 'liquid') m.particle = { ...m.particle, densityTolerance: c.tolerance };
    }
  }
  return out;
}

const f3 = (x: number) => (Math.abs(x) < 1e-3 && x !== 0 ? x.toExponential(1) : x.toFixed(3));
for (const name of names) {
  const c = CANDIDATES[name];
  const row: string[] = [name];
  const t0 = performance.now();
  if (cases.includes('pool')) {
    const m = measurePool(sim(apply(poolScene({ r: 0.004, depth: 0.048, width: 0.08 }), c)), 0.048, 1, 2);
    row.push(`pool: RMS ${f3(m.rms)} √(g d), density error ${(100 * m.densityError).toFixed(2)} %, top ${f3(m.settling)} r, ${m.passes.toFixed(2)} density passes`);
  }
  if (cases.includes('cube')) {
    try {
      const m = measureCubeDrop(apply(cubeDrop({ viscosity: 20, r: 0.004, size: 0.048, drop: 0.05 }), c), 90);
      row.push(`cube: smallest largest piece ${(100 * m.smallestLargestPiece).toFixed(0)} %, max speed ${(m.maxSpeed / m.freeFallSpeed).toFixed(2)} of free fall, KE at 3 s ${f3(m.finalKinetic / m.peakKinetic)} of peak`);
    } catch (e) {
      row.push(`cube: ${(e as Error).message.slice(0, 80)}`);
    }
  }
  if (cases.includes('dam')) row.push(`dam break (validate.ts tiny set-up): RMS front error ${f3(damBreak(c))} (tiny ≤ 0.25, full ≤ 0.15)`);
  if (cases.includes('spread')) {
    // validate.ts spreading, tiny set-up.
    const m = measureSpreading('particle', { nu: 4e-3, radius: 0.02, height: 0.014, seconds: 0.5, particleRadius: 0.002, cellSize: 0.004, substeps: 40, fps: 20, fitFrom: 0.2, particle: c.particle });
    row.push(`spreading (validate.ts tiny set-up): ν_eff/ν − 1 = ${f3(m.nuEffective / 4e-3 - 1)} (tiny ≤ 0.6, full ≤ 0.35)`);
  }
  if (cases.includes('honey')) {
    const input = apply(JSON.parse(readFileSync('scenes/honey-drop.json', 'utf8')), c);
    const s = createSimulation(parseScene(input), 'particle');
    let passes = 0, pressure = 0, subs = 0, ms = 0;
    for (let f = 1; f <= 12; f++) {
      const st = s.stepFrame();
      if (f < 3) continue;
      passes += st.counters.densityPasses ?? 0; pressure += st.counters.pressurePasses ?? 0; subs += st.counters.substeps; ms += st.wallMs;
    }
    row.push(`honey drop frames 3–12: ${(passes / subs).toFixed(2)} density + ${(pressure / subs).toFixed(2)} pressure passes a sub-timestep, ${(ms / 10).toFixed(0)} ms/frame`);
  }
  console.log(row.join('\n  ') + `\n  (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

/** The tiny dam break of validate.ts with a candidate's settings: RMS relative error of the front against Martin & Moyce. */
function damBreak(c: { particle: Settings; tolerance?: number }): number {
  const a = 0.032, depth = 0.024, G = 9.81, tScale = Math.sqrt(a / (2 * G)), frames = Math.ceil(3.5 * tScale * 60);
  const s = sim(apply({
    name: 'dam', fps: 60, duration: frames / 60,
    domain: { min: [0, 0, 0], max: [7 * a, 2.5 * a, depth], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip', ymax: 'open' } },
    materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'liquid', shape: { type: 'box', center: [a / 2, a, depth / 2], size: [a, 2 * a, depth] } }],
    particle: { radius: 0.002 },
  }, c));
  const errs: number[] = [];
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    const ref = martinMoyceFront(s.time / tScale);
    if (Number.isFinite(ref)) errs.push(frontPosition(s.fluidPoints(), 0, 1, 0.01) / a / ref - 1);
  }
  return Math.sqrt(errs.reduce((q, e) => q + e * e, 0) / errs.length);
}
