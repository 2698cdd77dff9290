/**
 * Which stage of a grid step roughens a pile's rim in φ: the outline of φ < 0 from above, r(θ) on 360
 * rays at the first two rows of centres above the floor (the farthest point with φ < 0, sampled
 * trilinearly every h/8 along the ray), less itself smoothed over 4 cells of arc (the RMS in cells,
 * tests/grid/rim-outline.ts's figure on a coarser ray set), taken before and after each pipeline stage
 * and, inside the particle level set's tracking, around φ's transport, the first (after transport)
 * and the second (after redistancing) escaped-particle corrections; the changes summed per stage
 * over frames F0+1..F1 (a stage that roughens the rim adds, one that smooths it takes off).
 *
 *   npx tsx bench/grid-film-stages.ts scenes/SCENE.json SEED F0 F1 H [--floor Y0] [--axis AX,AZ] [--keep-seeds K]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { outlineFigures } from '../tests/grid/rim-outline.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const [file, seedS, f0S, f1S, hS] = args;
const json = JSON.parse(readFileSync(file, 'utf8'));
json.seed = Number(seedS);
const eng = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
const sim = eng.sim;
const h = Number(hS), floorY = Number(opt('floor', '0'));
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const F0 = Number(f0S), F1 = Number(f1S);
const RAYS = 360;
const r = new Float64Array(RAYS);

/** The RMS of φ's outline less its smoothed self, in cells (see the header). */
function roughness(): number {
  const step = h / 8, reach = 0.2;
  for (let q = 0; q < RAYS; q++) {
    const t = (2 * Math.PI * (q + 0.5)) / RAYS, c = Math.cos(t), s = Math.sin(t);
    let last = 0, dry = 0;
    for (let d = 0; d < reach; d += step) {
      let wet = false;
      for (let row = 0; row < 2 && !wet; row++) wet = sim.tracker.signedDistance(sim, ax + d * c, floorY + (row + 0.5) * h, az + d * s) < 0;
      if (wet) { last = d; dry = 0; }
      else if ((dry += step) > h && last > 0) break;
    }
    r[q] = last;
  }
  return outlineFigures(r, h, 4 * h).roughness;
}

const sums = new Map<string, number>();
let active = false;
const add = (name: string, v: number) => sums.set(name, (sums.get(name) ?? 0) + v);
function wrap<T extends unknown[], R>(name: string, fn: (...a: T) => R): (...a: T) => R {
  return (...a: T) => {
    if (!active) return fn(...a);
    const before = roughness();
    const out = fn(...a);
    add(name, roughness() - before);
    return out;
  };
}
for (const st of sim.pipeline) st.run = wrap(st.name, st.run.bind(st));
const tr = sim.tracker;
// --keep-seeds K: the redistancing's seeds keep |φ| (FastMarching.keepSeeds: 1 every seed, 2 beside a solid).
if (args.includes('--keep-seeds') && tr instanceof ParticleLevelSetTracker) tr.levelSet.marching.keepSeeds = Number(opt('keep-seeds', '1')) as 0 | 1 | 2;
if (tr instanceof ParticleLevelSetTracker) {
  const pls = tr.particles;
  // Inside 'tracking': φ's transport (LevelSetTracker.move, called as super.move) and the first
  // correction (afterAdvection); the second correction is its own stage, pls-correct.
  const advect = tr.levelSet.advect.bind(tr.levelSet);
  tr.levelSet.advect = wrap('  tracking: φ transport', advect);
  const after = pls.afterAdvection.bind(pls);
  pls.afterAdvection = wrap('  tracking: particles moved + first correction', after);
}
for (let f = 1; f <= F1; f++) {
  active = f > F0;
  const before = active ? roughness() : 0;
  eng.stepFrame();
  if (active) console.log(`frame ${f}: φ outline roughness ${roughness().toFixed(3)} h (change ${(roughness() - before).toFixed(3)})`);
}
console.log(`per stage, summed over frames ${F0 + 1}–${F1} (h):`);
for (const [name, v] of sums) console.log(`  ${name.padEnd(48)} ${v >= 0 ? '+' : ''}${v.toFixed(3)}`);
