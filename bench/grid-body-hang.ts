/**
 * Liquid under a solid body on the grid (issue 27, separating walls at objects; the scenes of
 * tests/grid/body-hang.ts, on cells of `cellSize`). Prints, every `every` frames, the liquid cells'
 * top and mean height, the liquid cells touching the underside, and the released cells.
 *   npx tsx bench/grid-body-hang.ts [rest|throw] [frames=18] [every=1] [cellSize=0.025]
 */
import { parseScene } from '../src/index.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { bodyHangScene, hangMeasure } from '../tests/grid/body-hang.ts';

const kind = process.argv[2] ?? 'rest', frames = Number(process.argv[3] ?? 18), every = Number(process.argv[4] ?? 1);
const h = Number(process.argv[5] ?? 0.025);
const sim = new GridSimulation(parseScene(bodyHangScene(kind, h)));
sim.initialize();
const show = (f: number, released: number, solves: number) => {
  const m = hangMeasure(sim);
  console.log(`frame ${String(f).padStart(3)} t ${(f / 60).toFixed(3)}  top ${(100 * m.top).toFixed(2)} cm  mean ${(100 * m.mean).toFixed(2)} cm  under plate ${m.touching}  cells ${m.cells}  released ${released}  solves+ ${solves}  volume ${sim.tracker.volume(sim).toExponential(4)}`);
};
show(0, 0, 0);
let released = 0, solves = 0;
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  released += st.counters.releasedCells ?? 0;
  solves += st.counters.releaseSolves ?? 0;
  if (f % every === 0) { show(f, released, solves); released = 0; solves = 0; }
}
