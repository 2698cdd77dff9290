/**
 * A thin disc of liquid spreading on a no-slip floor in the grid engine, and how round and whole
 * its film stays (tests/grid/film.ts: the rim in 72 directions, its 4th/8th harmonics, the ratio
 * of its extent along the axes to along the diagonals, the covered fraction of its inside), every
 * few frames. The disc (radius r0, height H0, cells h) is dropped from `drop` above the floor so
 * that it splashes into a sheet; with --spout, a spout of radius r0 at height `drop` pours it
 * down at --speed (m/s) instead, as honey-coil and soap-pour do.
 *
 *   npx tsx bench/grid-film-disc.ts [--h 0.004] [--r0 0.025] [--H0 0.008] [--drop 0.02] [--nu 0.002]
 *     [--frames 20] [--every 2] [--fps 30] [--grid '{"tracking":"levelset"}'] [--model implicit] [--sheet-depth 0]
 *   npx tsx bench/grid-film-disc.ts --scene scenes/soap-pour.json --floor 0 --L 0.1 [--seed 2] (a shipped scene's film;
 *     --seed sets scene.seed, the particle level set's random seeding)
 */
import { parseScene } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { describeFilm, filmMap, filmShape } from '../tests/grid/film.ts';
import { timedFrames } from './timed-frames.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const h = Number(opt('h', '0.004')), r0 = Number(opt('r0', '0.025')), H0 = Number(opt('H0', '0.008'));
const drop = Number(opt('drop', '0.02')), nu = Number(opt('nu', '0.002')), fps = Number(opt('fps', '30'));
const frames = Number(opt('frames', '20')), every = Number(opt('every', '2'));
const L = Number(opt('L', String(3 * r0)));
const scenePath = opt('scene', '');
const scene = scenePath ? loadScene(scenePath).scene : parseScene({
  fps, duration: frames / fps,
  domain: { min: [-L, 0, -L], max: [L, drop + H0 + 4 * h, L], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' }, grid: { viscosityModel: opt('model', 'implicit') } } },
  ...(args.includes('--spout')
    ? { sources: [{ material: 'liquid', shape: 'disk', center: [0, drop, 0], direction: [0, -1, 0], radius: r0, speed: Number(opt('speed', '0.3')) }] }
    : { bodies: [{ material: 'liquid', shape: { type: 'cylinder', center: [0, drop + H0 / 2, 0], radius: r0, height: H0 } }] }),
  grid: { cellSize: h, ...JSON.parse(opt('grid', '{}')) },
});
if (scenePath) {
  Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
  if (args.includes('--seed')) (scene as { seed: number }).seed = Number(opt('seed', '1'));
  const model = opt('model', '');
  if (args.includes('--plain')) for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') delete (m as { viscoelastic?: unknown }).viscoelastic;
  if (model) for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') (m.grid as { viscosityModel: string }).viscosityModel = model;
}
const floor = Number(opt('floor', '0'));
const sim = new GridSimulation(scene);
// A hypothesis switched off: the extrapolation along normals (extrapolate.ts).
if (args.includes('--axis-extrapolation')) Object.defineProperty(sim.tracker, 'extrapolateAlongNormals', { value: false });
// The particle level set's minimum sheet thickness in cells (0: off; trackers/particle-levelset.ts).
if (args.includes('--sheet-depth') && sim.tracker instanceof ParticleLevelSetTracker) sim.tracker.particles.sheetDepth = Number(opt('sheet-depth', '0.1'));
sim.initialize();
if (!scenePath) console.log(`disc r0 ${r0 * 1000} mm, H0 ${H0 * 1000} mm, dropped ${drop * 1000} mm, ν ${nu} m²/s, h ${h * 1000} mm, tracking ${scene.grid.tracking}, ${opt('grid', '{}')}`);
else console.log(`${scenePath}, ${scene.grid.cellSize * 1000} mm cells, ${args.slice(1).join(' ')}`);
timedFrames(sim, frames, every, (f, ms, due) => {
  if (!due) return;
  const shape = filmShape(sim, floor, L - scene.grid.cellSize);
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s): ${describeFilm(shape)}; volume ${(100 * (sim.tracker.volume(sim) / Math.max(sim.tracker.expectedVolume(sim), 1e-30) - 1)).toFixed(1)} % of what was put in, ${ms.toFixed(0)} ms CPU/frame`);
});
if (args.includes('--map')) console.log(filmMap(sim, floor, L - scene.grid.cellSize));
