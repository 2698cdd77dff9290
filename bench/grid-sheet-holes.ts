/**
 * How whole a grid run's liquid surface is, every few frames: the surface mesh's pieces (shells),
 * its handles (the holes through a sheet: for a closed mesh, pieces − χ/2 with the Euler
 * characteristic χ = V − F/2), its enclosed volume, and the same for the liquid cells themselves
 * (a blocky surface around every cell the grid solves as liquid), which says whether a hole is in
 * the simulation or only in the mesh. Used on the honey drop's skirt and curtain (issue 26).
 *
 *   npx tsx bench/grid-sheet-holes.ts scenes/honey-drop.json [--frames 15] [--every 3] [--grid JSON] [--sheet-depth 0] [--uniform-removal]
 *     [--no-marker-sheets] [--no-marker-splits] [--min-weight W] [--gather-below W (0: off)]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { ParticleLevelSetTracker } from '../src/grid/trackers/particle-levelset.ts';
import { MarkerTracker } from '../src/grid/trackers/markers.ts';
import { surfaceBox } from '../src/grid/trackers/surface-box.ts';
import { FLUID } from '../src/grid/store.ts';
import { checkMesh, meshSurfaceJob, type SurfaceJob } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-sheet-holes.ts SCENE [--frames N] [--every K] [--grid JSON]');
const scene = loadScene(path).scene;
Object.assign(scene.grid, JSON.parse(opt('grid', '{}')));
const frames = Number(opt('frames', '15')), every = Number(opt('every', '3'));
const sim = new GridSimulation(scene);
// The particle level set's minimum sheet thickness in cells (0: off; trackers/particle-levelset.ts).
if (args.includes('--sheet-depth') && sim.tracker instanceof ParticleLevelSetTracker) sim.tracker.particles.sheetDepth = Number(opt('sheet-depth', '0.1'));
// A gain of volume taken back from every liquid cell alike (Kim et al.), not from the bulk (volume-growth.ts).
if (args.includes('--uniform-removal') && sim.tracker instanceof ParticleLevelSetTracker) sim.tracker.volumeControl.fromBulk = false;
// The marker tracker without its sheet rule (trackers/marker-sheets.ts): Cline et al.'s markers as written.
if (args.includes('--no-marker-sheets') && sim.tracker instanceof MarkerTracker) sim.tracker.sheets = null;
// The sheet rule moving markers only (no split: the rule before markers carried weights), or splitting down to another least weight.
if (args.includes('--no-marker-splits') && sim.tracker instanceof MarkerTracker && sim.tracker.sheets) sim.tracker.sheets.splits = false;
if (args.includes('--min-weight') && sim.tracker instanceof MarkerTracker && sim.tracker.sheets) sim.tracker.sheets.minWeight = Number(opt('min-weight', '0.125'));
// Split markers that leave a sheet kept where they are (no gathering back into the liquid), or gathered below another weight.
if (args.includes('--gather-below') && sim.tracker instanceof MarkerTracker && sim.tracker.sheets) sim.tracker.sheets.gatherBelow = Number(opt('gather-below', '1'));
sim.initialize();

function describe(job: SurfaceJob): string {
  const r = checkMesh(meshSurfaceJob(job));
  const handles = r.shells - (r.vertices - r.triangles / 2) / 2;
  return `${r.shells} pieces, ${handles.toFixed(0)} handles${r.closed ? '' : ' (open)'}, ${(r.volume * 1e6).toFixed(1)} cm³`;
}

console.log(`${path}, grid engine, ${scene.grid.cellSize * 1000} mm cells, tracking ${scene.grid.tracking}`);
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  if (f % every !== 0 && f !== frames) continue;
  const s = sim.store, h = sim.d.h;
  const cells = surfaceBox(sim, [1, 1, 1], (phi, index) => {
    for (let c = 0; c < s.count; c++) phi[index(c)] = s.type[c] === FLUID ? -0.5 * h : 0.5 * h;
  });
  let liquid = 0;
  for (let c = 0; c < s.count; c++) if (s.type[c] === FLUID) liquid++;
  const markers = sim.tracker instanceof MarkerTracker ? `; ${sim.tracker.markers.count} markers` : '';
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s): mesh ${describe(sim.tracker.surfaceJob(sim, [1, 1, 1]))}; liquid cells (${liquid}) ${describe(cells)}; volume ${(sim.tracker.volume(sim) * 1e6).toFixed(1)} cm³${markers}`);
}
