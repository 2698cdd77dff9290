/**
 * A scene's grid rim from frame 0 at another seed (the particle level set's seeding: a perturbation
 * below the cell's scale): the scatter a seed gives the rim's roughness (tests/grid/rim-outline.ts),
 * against which a change is read. (The film's no-slip it switched, true|false, was taken back: the
 * argument is kept for commit f710972, where it sets VariationalViscosity.filmWalls.) VARIANT
 * `ghost=THETA[/AXES[/ACROSS]]` sets the pressure's ghost-fluid least θ (PressureSolver.faces.ghostFluid; 0: off),
 * the axes it acts on (a bit mask, PressureSolver.faces.ghostAxes: 2 for y alone) and the depth in cells
 * within which a liquid centre takes it on the other axes too (PressureSolver.faces.ghostAcross / h: 0.1
 * for the particle level set's sheet cells), whatever the scene's default. VARIANT
 * `frac=LEAST[/AXES[/GHOSTAXES[/AREAS]]]` sets the liquid fraction of the free-surface faces' control
 * volumes (PressureSolver.faces.faceFractions, at least LEAST) on the AXES faces (7 by default) and the
 * ghost fluid (θ ≥ 0.01) on the GHOSTAXES faces (none by default or 0; 2 for y), and AREAS: the
 * free-surface faces' weight in the divergence their liquid area, at least AREAS. VARIANT
 * `area=LEAST[/GHOSTAXES[/s]]` weighs every face by its liquid area (PressureSolver.faces.faceAreas, at least
 * LEAST), with the ghost fluid on the GHOSTAXES faces (none by default); `s`: the free-surface
 * faces alone (PressureSolver.faces.areasSurfaceOnly).
 *
 *   npx tsx bench/grid-rim-seeds.ts scenes/SCENE.json SEED true|false|ghost=THETA[/AXES[/ACROSS]]|frac=LEAST[/AXES[/GHOSTAXES[/AREAS]]]|area=LEAST[/GHOSTAXES[/s]] FRAMES H [BELOW AX,AZ]
 *     (FRAMES: comma-separated frames to measure; H: the cell size; BELOW, AX,AZ: as
 *     bench/grid-rim-outline.ts's --below and --axis)
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { GridEngineSimulation } from '../src/grid/simulation.ts';
import { describeOutline, rimOutline } from '../tests/grid/rim-outline.ts';
const [file, seed, walls, framesS, hS, below, axis] = process.argv.slice(2);
const json = JSON.parse(readFileSync(file, 'utf8'));
json.seed = Number(seed);
const scene = parseScene(json);
const sim = createSimulation(scene, 'grid') as GridEngineSimulation;
const variational = sim.sim.variational as unknown as { filmWalls?: boolean } | null;
if (variational && 'filmWalls' in variational) variational.filmWalls = walls === 'true';
if (walls.startsWith('ghost=')) {
  // ghost=THETA or ghost=THETA/AXES (AXES: the axis bit mask, 2 for y alone).
  const [theta, axes, across] = walls.slice(6).split('/');
  sim.sim.pressure.faces.ghostFluid = Number(theta);
  if (axes !== undefined) sim.sim.pressure.faces.ghostAxes = Number(axes);
  // ACROSS (cells): a liquid centre within it of the surface takes θ on the other axes too (0.1: the sheet cells).
  if (across !== undefined) sim.sim.pressure.faces.ghostAcross = Number(across) * sim.sim.d.h;
}
if (walls.startsWith('frac=')) {
  // frac=LEAST[/AXES[/GHOSTAXES[/AREAS]]]: the liquid fraction of the free-surface faces' control volumes
  // (PressureSolver.faces.faceFractions) on AXES (a bit mask, 7 by default), the ghost fluid's θ (θ ≥ 0.01)
  // on GHOSTAXES' faces (2: along gravity).
  const [least, axes, ghostAxes, areas] = walls.slice(5).split('/');
  sim.sim.pressure.faces.faceFractions = Number(least);
  if (axes !== undefined) sim.sim.pressure.faces.fractionAxes = Number(axes);
  // AREAS: the free-surface faces' constraint weighed by their liquid area, at least AREAS.
  if (areas !== undefined) {
    sim.sim.pressure.faces.faceAreas = Number(areas);
    sim.sim.pressure.faces.areasSurfaceOnly = true;
  }
  if (ghostAxes !== undefined && Number(ghostAxes) > 0) {
    sim.sim.pressure.faces.ghostFluid = 0.01;
    sim.sim.pressure.faces.ghostAxes = Number(ghostAxes);
  }
}
if (walls.startsWith('area=')) {
  // area=LEAST[/GHOSTAXES[/s]]: every face weighed by its liquid area (PressureSolver.faces.faceAreas), the
  // ghost fluid's θ (θ ≥ 0.01) on GHOSTAXES' free-surface faces (none by default; 2: along gravity).
  const [least, ghostAxes, surface] = walls.slice(5).split('/');
  sim.sim.pressure.faces.faceAreas = Number(least);
  sim.sim.pressure.faces.areasSurfaceOnly = surface === 's';
  if (ghostAxes !== undefined && Number(ghostAxes) > 0) {
    sim.sim.pressure.faces.ghostFluid = 0.01;
    sim.sim.pressure.faces.ghostAxes = Number(ghostAxes);
  }
}
const [ax, az] = (axis ?? '0,0').split(',').map(Number);
const frames = framesS.split(',').map(Number);
for (let f = 1; f <= Math.max(...frames); f++) {
  sim.stepFrame();
  if (frames.includes(f)) console.log(`seed ${seed} ${walls} frame ${f}: ${describeOutline(rimOutline(sim.surfaceMesh(), { h: Number(hS), ax, az, below: below ? Number(below) : Infinity }))}`);
}
