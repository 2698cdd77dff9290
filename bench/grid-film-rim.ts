/**
 * How round a film spreading on a floor stays in the grid engine: the rim of the surface mesh near
 * the floor, as the farthest vertex from the spout's axis in each of 72 directions, every few
 * frames. Prints the mean rim radius, its relative spread (std / mean) and the amplitude of its
 * 4th and 8th azimuthal harmonics relative to the mean (axis-aligned spokes, the "gear", put their
 * weight there) beside the 3rd and 5th (which a grid does not favour). `--model` sets the liquid's
 * grid.viscosityModel, `--grid` fields of scene.grid.
 *
 *   npx tsx bench/grid-film-rim.ts scenes/honey-coil.json --floor 0.01 [--frames 60] [--every 10]
 *     [--model implicit] [--grid '{"tracking":"levelset"}'] [--axis 0,0] [--seed 2]
 *   npx tsx bench/grid-film-rim.ts scenes/soap-pour.json --floor 0 --run DIR [--frames-list 12,24,36,48,60]
 *     (the meshes of a finished `viscid run SCENE -e grid -o DIR --mesh ply`, read back)
 */
import { createSimulation } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { FILM_BINS as BINS, rimFigures } from '../tests/grid/film.ts';
import { timedFrames } from './timed-frames.ts';

import { readFileSync } from 'node:fs';
import { fromPLY } from '../src/io/ply-read.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-film-rim.ts SCENE --floor Y [--frames N] [--every K] [--model M] [--grid JSON] [--axis X,Z]');
const scene = loadScene(path).scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
// --seed sets scene.seed, the particle level set's random seeding.
if (args.includes('--seed')) (scene as { seed: number }).seed = Number(opt('seed', '1'));
const model = opt('model', '');
if (model) {
  for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') (m.grid as { viscosityModel: string }).viscosityModel = model;
}
const floor = Number(opt('floor', '0'));
const h = scene.grid.cellSize;
const band = Number(opt('band', String(2 * h)));
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const frames = Number(opt('frames', '60')), every = Number(opt('every', '10'));
const runDir = opt('run', '');

/** The rim's figures of a mesh's vertices within `band` of the floor. */
function meshRim(p: Float32Array): ReturnType<typeof rimFigures> {
  const r = new Float64Array(BINS);
  for (let v = 0; v < p.length; v += 3) {
    if (p[v + 1] > floor + band) continue;
    const x = p[v] - ax, z = p[v + 2] - az;
    const b = Math.min(BINS - 1, Math.floor(((Math.atan2(z, x) + Math.PI) / (2 * Math.PI)) * BINS));
    r[b] = Math.max(r[b], Math.hypot(x, z));
  }
  return rimFigures(r);
}
const pct = (v: number) => (100 * v).toFixed(1);
const line = (f1: ReturnType<typeof rimFigures>) =>
  `rim ${(f1.rim * 1000).toFixed(1)} mm, spread ${pct(f1.spread)} %, ` +
  `harmonics 2: ${pct(f1.harmonic2)} % at ${f1.fold.toFixed(0)}° 4: ${pct(f1.harmonic4)} % 8: ${pct(f1.harmonic8)} % (3: ${pct(f1.harmonic3)} %, 5: ${pct(f1.harmonic5)} %), along the axes ${pct(f1.axisShare)} % of the rim`;

if (runDir) {
  // A finished run's meshes (viscid run … --mesh ply), read back instead of simulating.
  for (const f of opt('frames-list', '12,24,36,48,60').split(',').map(Number)) {
    const file = `${runDir}/grid/mesh-${String(f).padStart(4, '0')}.ply`;
    console.log(`frame ${f}: ${line(meshRim(fromPLY(new Uint8Array(readFileSync(file))).positions))}`);
  }
  process.exit(0);
}
const sim = createSimulation(scene, 'grid');

console.log(`${path}, grid engine, ${h * 1000} mm cells, model ${model || 'the scene\'s'}; rim within ${(band * 1000).toFixed(0)} mm of y = ${floor}`);
timedFrames(sim, frames, every, (f, ms, due) => {
  if (!due) return;
  const f1 = meshRim(sim.surfaceMesh().positions);
  console.log(`frame ${f} (t ${sim.time.toFixed(2)} s): ${line(f1)}; volume ${pct(sim.metrics().volumeChange ?? 0)} %, ${ms.toFixed(0)} ms CPU/frame`);
});
