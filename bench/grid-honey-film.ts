/**
 * The honey drop (scenes/honey-drop.json) on the grid engine: volume change, ms per frame and how
 * much of the ball the honey film covers (tests/grid/honey-film.ts), every few frames; with
 * --obj, the last frame's surface mesh for a look in Blender or viscid's app.
 *
 *   npx tsx bench/grid-honey-film.ts [--frames 120] [--every 10] [--grid '{"tracking":"levelset"}'] [--obj out/honey.obj]
 */
import { writeFileSync } from 'node:fs';
import { createSimulation, toOBJ } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { filmCoverage } from '../tests/grid/honey-film.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const scene = loadScene('scenes/honey-drop.json').scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const sim = createSimulation(scene, 'grid');
const frames = Number(opt('frames', '120')), every = Number(opt('every', '10'));
const h = scene.grid.cellSize;
let ms = 0, worst = 0;
const stages: Record<string, number> = {};
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  ms += st.wallMs;
  for (const [k, v] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + v;
  const change = sim.metrics().volumeChange ?? 0;
  if (Math.abs(change) > Math.abs(worst)) worst = change;
  if (f % every === 0 || f === frames) {
    const m = sim.metrics();
    const cover = filmCoverage(sim.surfaceMesh(), [0, 0, 0], 0.05, 2 * h);
    console.log(`t ${sim.time.toFixed(2)} s: volume ${(100 * (m.volumeChange ?? 0)).toFixed(2)} %, film on ${(100 * cover.all).toFixed(0)} % of the ball (top half ${(100 * cover.top).toFixed(0)} %), ${(ms / f).toFixed(0)} ms/frame; largest change so far ${(100 * worst).toFixed(2)} %`);
  }
}
console.log(`stage split (ms/frame): ${Object.entries(stages).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(0)}`).join(', ')}`);
const obj = opt('obj', '');
if (obj) writeFileSync(obj, toOBJ(sim.surfaceMesh()));
