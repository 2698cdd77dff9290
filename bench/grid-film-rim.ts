/**
 * How round a film spreading on a floor stays in the grid engine: the rim of the surface mesh near
 * the floor, as the farthest vertex from the spout's axis in each of 72 directions, every few
 * frames. Prints the mean rim radius, its relative spread (std / mean) and the amplitude of its
 * 4th and 8th azimuthal harmonics relative to the mean (axis-aligned spokes, the "gear", put their
 * weight there) beside the 3rd and 5th (which a grid does not favour). `--model` sets the liquid's
 * grid.viscosityModel, `--grid` fields of scene.grid.
 *
 *   npx tsx bench/grid-film-rim.ts scenes/honey-coil.json --floor 0.01 [--frames 60] [--every 10]
 *     [--model implicit] [--grid '{"tracking":"levelset"}'] [--axis 0,0]
 */
import { createSimulation } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-film-rim.ts SCENE --floor Y [--frames N] [--every K] [--model M] [--grid JSON] [--axis X,Z]');
const scene = loadScene(path).scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const model = opt('model', '');
if (model) {
  for (const m of Object.values(scene.materials)) if (m.kind === 'liquid') (m.grid as { viscosityModel: string }).viscosityModel = model;
}
const floor = Number(opt('floor', '0'));
const h = scene.grid.cellSize;
const band = Number(opt('band', String(2 * h)));
const [ax, az] = opt('axis', '0,0').split(',').map(Number);
const frames = Number(opt('frames', '60')), every = Number(opt('every', '10'));
const BINS = 72;
const sim = createSimulation(scene, 'grid');

function harmonic(r: Float64Array, m: number, mean: number): number {
  let re = 0, im = 0;
  for (let b = 0; b < BINS; b++) {
    const t = (2 * Math.PI * (b + 0.5)) / BINS;
    re += r[b] * Math.cos(m * t);
    im += r[b] * Math.sin(m * t);
  }
  return (2 * Math.hypot(re, im)) / BINS / mean;
}

console.log(`${path}, grid engine, ${h * 1000} mm cells, model ${model || 'the scene\'s'}; rim within ${(band * 1000).toFixed(0)} mm of y = ${floor}`);
let cpu = 0;
for (let f = 1; f <= frames; f++) {
  const c0 = process.cpuUsage();
  sim.stepFrame();
  const c1 = process.cpuUsage(c0);
  cpu += (c1.user + c1.system) / 1000;
  if (f % every !== 0 && f !== frames) continue;
  const p = sim.surfaceMesh().positions;
  const r = new Float64Array(BINS);
  for (let v = 0; v < p.length; v += 3) {
    if (p[v + 1] > floor + band) continue;
    const x = p[v] - ax, z = p[v + 2] - az;
    const b = Math.min(BINS - 1, Math.floor(((Math.atan2(z, x) + Math.PI) / (2 * Math.PI)) * BINS));
    r[b] = Math.max(r[b], Math.hypot(x, z));
  }
  let mean = 0;
  for (let b = 0; b < BINS; b++) mean += r[b] / BINS;
  let varr = 0;
  for (let b = 0; b < BINS; b++) varr += (r[b] - mean) ** 2 / BINS;
  const pct = (v: number) => (100 * v).toFixed(1);
  console.log(
    `frame ${f} (t ${sim.time.toFixed(2)} s): rim ${(mean * 1000).toFixed(1)} mm, spread ${pct(Math.sqrt(varr) / Math.max(mean, 1e-12))} %, ` +
      `harmonics 4: ${pct(harmonic(r, 4, mean))} % 8: ${pct(harmonic(r, 8, mean))} % (3: ${pct(harmonic(r, 3, mean))} %, 5: ${pct(harmonic(r, 5, mean))} %); ` +
      `volume ${pct(sim.metrics().volumeChange ?? 0)} %, ${(cpu / f).toFixed(0)} ms CPU/frame`,
  );
}
