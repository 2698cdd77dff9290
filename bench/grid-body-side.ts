/**
 * Liquid beside a solid on the grid (issue 27; the cases of tests/grid/body-side.ts). Prints, every
 * `every` frames, the liquid cells' top and mean height, the cells with a solid beside them, the
 * liquid above 10 cm (cm³), the released cells and added solves:
 *   npx tsx bench/grid-body-side.ts [wall|pillar|paddle|lift] [frames=30] [every=3] [cellSize=0.025] [slip|noslip] [nu m²/s] [above=0.1 m]
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { bodySideScene, sideMeasure } from '../tests/grid/body-side.ts';

const kind = process.argv[2] ?? 'wall', frames = Number(process.argv[3] ?? 30), every = Number(process.argv[4] ?? 3);
const h = Number(process.argv[5] ?? 0.025), boundary = process.argv[6] ?? 'slip';
const nu = process.argv[7] ? Number(process.argv[7]) : 1e-6, above = Number(process.argv[8] ?? 0.1);
const liquid = { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' } };
const sim = new GridSimulation(parseScene(bodySideScene(kind, h, boundary, liquid)));
sim.initialize();
const show = (f: number, released: number, solves: number) => {
  const m = sideMeasure(sim, above);
  console.log(`frame ${String(f).padStart(3)} t ${(f / 60).toFixed(3)}  top ${(100 * m.top).toFixed(2)} cm  mean ${(100 * m.mean).toFixed(2)} cm  x ${(100 * m.meanX).toFixed(2)} cm  beside ${m.beside}  cells ${m.cells}  above ${(1e6 * m.high).toFixed(0)} cm3  released ${released}  solves+ ${solves}  volume ${(1e6 * sim.tracker.volume(sim)).toFixed(0)} cm3`);
};
show(0, 0, 0);
let released = 0, solves = 0;
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  released += st.counters.releasedCells ?? 0;
  solves += st.counters.releaseSolves ?? 0;
  if (f % every === 0) { show(f, released, solves); released = 0; solves = 0; }
}
