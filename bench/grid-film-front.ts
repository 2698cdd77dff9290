/**
 * Where the poured film of tests/grid/film.test.ts runs out: at every third frame, the outward
 * velocity summed over the faces between a liquid and an air cell across gravity (the film's front
 * and its steps), in the first three rows above the floor, in the four 45° sectors about the axes
 * against the four about the diagonals (as many faces either way on a round footprint), with the
 * ghost fluid switched as bench/grid-film-ghost.ts switches it, and the film's axes/diagonals.
 *
 *   npx tsx bench/grid-film-front.ts THETA AXES [ACROSS] [SEED]
 */
import { GridSimulation } from '../src/grid/step.ts';
import { parseScene } from '../src/index.ts';
import { AIR, FLUID } from '../src/grid/store.ts';
import { filmShape, pourScene } from '../tests/grid/film.ts';

const [thetaS, axesS, acrossS, seedS] = process.argv.slice(2);
const sim = new GridSimulation(parseScene({ ...pourScene(), seed: Number(seedS ?? 1) }));
sim.pressure.faces.ghostFluid = Number(thetaS);
sim.pressure.faces.ghostAxes = Number(axesS);
sim.pressure.faces.ghostAcross = Number(acrossS ?? 0) * sim.d.h;
sim.initialize();
for (let f = 1; f <= 15; f++) {
  sim.stepFrame();
  if (f % 3 !== 0) continue;
  const s = sim.store, h = sim.d.h, o = sim.d.origin;
  const sum = [0, 1].map(() => [0, 0, 0].map(() => ({ u: 0, faces: 0 })));
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== FLUID || s.cj[c] > 2) continue;
    const x = o[0] + (s.ci[c] + 0.5) * h, z = o[2] + (s.ck[c] + 0.5) * h;
    const deg = ((Math.atan2(z, x) * 180) / Math.PI + 360) % 90;
    const sector = deg < 22.5 || deg > 67.5 ? 0 : 1;
    for (const d of [0, 1, 4, 5]) {
      const n = s.nb[6 * c + d];
      if (n < 0 || s.type[n] !== AIR) continue;
      // The face on the +a side belongs to the neighbour; outward is −a on the −a side.
      const a = d >> 1, u = s.u[a][(d & 1) === 1 ? n : c] * ((d & 1) === 1 ? 1 : -1);
      const e = sum[sector][s.cj[c]];
      e.u += u; e.faces++;
    }
  }
  const rows = [0, 1, 2].map((j) => `row ${j}: axes ${(1000 * sum[0][j].u).toFixed(0)} mm/s over ${sum[0][j].faces} faces, diagonals ${(1000 * sum[1][j].u).toFixed(0)} over ${sum[1][j].faces}`);
  console.log(`frame ${f}: axes/diagonals ${filmShape(sim, 0, 0.034).axisRatio.toFixed(3)}; ${rows.join('; ')}`);
}
