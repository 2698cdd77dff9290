/**
 * The pile a grid pour lays on the floor, in numbers a viewer's "folds" can be held to: every
 * `every` frames, tests/grid/pile.ts's map of 2 mm columns (from φ) and from it
 *   - R: the pile's radius (the area where it is over 2 mm, as a disk);
 *   - H: its highest column outside the stream (more than `--core` from the axis, default 2 cm);
 *   - relief: the RMS of the height about its mean at that radius (4 mm rings, from the core out to
 *     0.8 R): a round terraced pile reads about a millimetre, folds laid round the stream read
 *     their height;
 *   - folds: local maxima of the side profile (the columns along x at z = 0 and along z at x = 0,
 *     outside the core) that stand at least `--prominence` (default 4 mm) above the lower of the
 *     two valleys beside them;
 *   - pile: the shipped test's figure (the highest 4 mm slab of points wider than 3 cm).
 * With `--engine particle` the map is tests/particle/pile.ts's, from the particles (each covering
 * its radius), on the same raster and with the same measures.
 *
 *   npx tsx bench/soap-folds.ts scenes/soap-pour.json 90 15 [--engine grid|particle] [--set path=value …] [--core 0.02]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { EngineName, FluidPoints } from '../src/api.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { setScenePath } from './scene-set.ts';
import { measurePile, type Pile } from '../tests/grid/pile.ts';
import { measureParticlePile } from '../tests/particle/pile.ts';

const args = process.argv.slice(2);
const sets: string[] = [];
const plain: string[] = [];
let core = 0.02, prominence = 0.004, engine: EngineName = 'grid';
for (let a = 0; a < args.length; a++) {
  if (args[a] === '--set') sets.push(args[++a]);
  else if (args[a] === '--core') core = Number(args[++a]);
  else if (args[a] === '--prominence') prominence = Number(args[++a]);
  else if (args[a] === '--engine') engine = args[++a] as EngineName;
  else plain.push(args[a]);
}
const [file, framesArg, everyArg] = plain;
const json = JSON.parse(readFileSync(file, 'utf8'));
for (const s of sets) setScenePath(json, s);
const scene = parseScene(json);
const frames = Number(framesArg ?? 90), every = Number(everyArg ?? 15);
const sim = createSimulation(scene, engine);
const domain = scene.domain;
if (!domain) throw new Error(`${file} has no domain: its pile has no floor to stand on`);
const step = 0.002, [x0, , z0] = engine === 'grid' ? (sim as GridEngineSimulation).sim.d.origin : domain.min;
const pile = (): Pile => engine === 'grid'
  ? measurePile((sim as GridEngineSimulation).sim, core, step)
  : measureParticlePile(sim.fluidPoints(), scene.particle.radius, domain.min, domain.max, core, step);

function pileHeight(p: FluidPoints, radius: number): number {
  let best = 0;
  for (let y = 0; y < 0.2; y += 0.004) {
    let r = 0;
    for (let i = 0; i < p.count; i++) {
      const py = p.positions[3 * i + 1];
      if (py >= y && py < y + 0.004) r = Math.max(r, Math.hypot(p.positions[3 * i], p.positions[3 * i + 2]));
    }
    if (r === 0 && best === 0) continue; // below the lowest points (a particle's centre stands r up)
    if (r <= radius) break;
    best = y + 0.004;
  }
  return best;
}

/** Local maxima of a profile standing `prominence` above the lower of their two valleys. */
function countFolds(v: number[]): number {
  let n = 0;
  for (let i = 1; i < v.length - 1; i++) {
    if (!(v[i] > v[i - 1] && v[i] >= v[i + 1])) continue;
    let l = v[i], r = v[i];
    for (let j = i - 1; j >= 0 && v[j] <= v[i]; j--) l = Math.min(l, v[j]);
    for (let j = i + 1; j < v.length && v[j] <= v[i]; j++) r = Math.min(r, v[j]);
    if (v[i] - Math.max(l, r) >= prominence) n++;
  }
  return n;
}

function measure(): string {
  const { radius: R, height: Hmax, relief, map: H, nx, nz } = pile();
  // Side profiles through the axis, outside the core, each side apart.
  let folds = 0;
  const mid = Math.floor(nx / 2), midz = Math.floor(nz / 2);
  for (const dir of [0, 1]) {
    const left: number[] = [], right: number[] = [];
    for (let a = 0; a < (dir === 0 ? nx : nz); a++) {
      const c = (dir === 0 ? x0 : z0) + (a + 0.5) * step;
      const h = dir === 0 ? H[a * nz + midz] : H[mid * nz + a];
      if (c < -core) left.push(h);
      else if (c > core) right.push(h);
    }
    folds += countFolds(left.reverse()) + countFolds(right);
  }
  const cm = (x: number) => (100 * x).toFixed(1);
  return `R ${cm(R)} cm, H ${cm(Hmax)} cm, relief ${(1000 * relief).toFixed(1)} mm, folds ${folds}, pile ${cm(pileHeight(sim.fluidPoints(), 0.03))} cm`;
}

const t0 = performance.now();
console.log(`${file} ${sets.join(' ')}: ${engine}, ${engine === 'grid' ? `h ${scene.grid.cellSize}` : `r ${scene.particle.radius}`}`);
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every === 0) console.log(`frame ${f} (${(f / scene.fps).toFixed(2)} s): ${measure()}  [${((performance.now() - t0) / 1000).toFixed(0)} s]`);
}
