/**
 * The honey drop (scenes/honey-drop.json) on the grid engine: volume change, ms per frame and how
 * much of the ball the honey film covers (tests/grid/honey-film.ts), every few frames; with
 * --obj, the last frame's surface mesh for a look in Blender or viscid's app.
 *
 * The film's liquid on the upper half of the ball (the level set's share of the cells within two
 * cells of it, the liquid cells there and those held by the sheet rule), the volume controller's
 * growth summed over the steps (negative: it takes liquid back) and the volume the particle level
 * set's minimum sheet thickness added, summed, say whether the film drains or is taken by the volume
 * correction. --sheet-depth sets the minimum thickness in cells (0: off); --uniform-removal takes a
 * gain back from every liquid cell alike, as Kim et al., instead of from the bulk (volume-growth.ts).
 *
 *   npx tsx bench/grid-honey-film.ts [--frames 120] [--every 10] [--grid '{"tracking":"levelset"}'] [--sheet-depth 0] [--uniform-removal] [--obj out/honey.obj]
 */
import { writeFileSync } from 'node:fs';
import { createSimulation, toOBJ } from '../src/index.ts';
import { loadScene } from '../src/cli/load-scene.ts';
import { filmCoverage } from '../tests/grid/honey-film.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { FLUID, SOLID } from '../src/grid/store.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const scene = loadScene('scenes/honey-drop.json').scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const sim = createSimulation(scene, 'grid');
const grid = (sim as unknown as { sim: GridSimulation }).sim;
/**
 * The liquid within two cells of the ball's upper half (cm³): each cell's share from φ at its
 * centre; and there, the cells the grid solves as liquid and those the sheet rule holds at its floor.
 */
function topFilm(): string {
  const s = grid.store, o = grid.d.origin, hh = grid.d.h;
  const floor = grid.tracker instanceof ParticleLevelSetTracker ? -grid.tracker.particles.sheetDepth * hh : NaN;
  let v = 0, liquid = 0, held = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    const x = o[0] + hh * (s.ci[c] + 0.5), y = o[1] + hh * (s.cj[c] + 0.5), z = o[2] + hh * (s.ck[c] + 0.5);
    const d = Math.hypot(x, y, z);
    if (y <= 0 || d > 0.05 + 2 * hh) continue;
    v += Math.min(1, Math.max(0, 0.5 - s.phi[c] / hh));
    if (s.type[c] === FLUID) liquid++;
    if (s.phi[c] === floor) held++;
  }
  return `${(v * hh * hh * hh * 1e6).toFixed(2)} cm³ (${liquid} liquid cells, ${held} held as sheets)`;
}
let growth = 0, sheetVolume = 0;
if (grid.tracker instanceof ParticleLevelSetTracker) {
  grid.tracker.particles.countSheetVolume = true;
  if (args.includes('--sheet-depth')) grid.tracker.particles.sheetDepth = Number(opt('sheet-depth', '0.1'));
  // --uniform-removal: a gain taken back from every liquid cell alike (Kim et al.), not from the bulk.
  if (args.includes('--uniform-removal')) grid.tracker.volumeControl.fromBulk = false;
}
const frames = Number(opt('frames', '120')), every = Number(opt('every', '10'));
const h = scene.grid.cellSize;
let ms = 0, worst = 0;
const stages: Record<string, number> = {};
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  ms += st.wallMs;
  growth += st.counters.volumeGrowth ?? 0;
  sheetVolume += st.counters.plsSheetVolume ?? 0;
  for (const [k, v] of Object.entries(st.stages)) stages[k] = (stages[k] ?? 0) + v;
  const change = sim.metrics().volumeChange ?? 0;
  if (Math.abs(change) > Math.abs(worst)) worst = change;
  if (f % every === 0 || f === frames) {
    const m = sim.metrics();
    const cover = filmCoverage(sim.surfaceMesh(), [0, 0, 0], 0.05, 2 * h);
    console.log(`t ${sim.time.toFixed(2)} s: volume ${(100 * (m.volumeChange ?? 0)).toFixed(2)} %, film on ${(100 * cover.all).toFixed(0)} % of the ball (top half ${(100 * cover.top).toFixed(0)} %), liquid by the top half ${topFilm()}, volume growth summed ${growth.toExponential(2)}, added by the sheet rule ${(sheetVolume * 1e6).toFixed(1)} cm³, ${(ms / f).toFixed(0)} ms/frame; largest change so far ${(100 * worst).toFixed(2)} %`);
  }
}
console.log(`stage split (ms/frame): ${Object.entries(stages).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames).toFixed(0)}`).join(', ')}`);
const obj = opt('obj', '');
if (obj) writeFileSync(obj, toOBJ(sim.surfaceMesh()));
