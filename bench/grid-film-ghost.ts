/**
 * The poured film of tests/grid/film.test.ts (honey at 2.5 mm cells, φ in the first row of centres
 * at 0.5 s) with the pressure's ghost fluid switched (pressure.ts ghostFluid, ghostAxes): its
 * roundness (tests/grid/film.ts) for a least θ and the axes it acts on (a bit mask: 2 for y, 7 for
 * every axis; THETA 0: off, main's film).
 *
 *   npx tsx bench/grid-film-ghost.ts THETA AXES
 */
import { GridSimulation } from '../src/grid/step.ts';
import { parseScene } from '../src/index.ts';
import { describeFilm, filmShape, pourScene } from '../tests/grid/film.ts';

const [theta, axes] = process.argv.slice(2).map(Number);
const sim = new GridSimulation(parseScene(pourScene()));
sim.pressure.ghostFluid = theta;
sim.pressure.ghostAxes = axes;
sim.initialize();
for (let f = 0; f < 15; f++) sim.stepFrame();
console.log(`ghost fluid θ ≥ ${theta} on axes ${axes}: ${describeFilm(filmShape(sim, 0, 0.034))}`);
