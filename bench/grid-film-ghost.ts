/**
 * The poured film of tests/grid/film.test.ts (honey at 2.5 mm cells, φ in the first row of centres
 * at 0.5 s) with the pressure's ghost fluid switched (pressure-faces.ts ghostFluid, ghostAxes,
 * ghostAcross): its roundness (tests/grid/film.ts: axes/diagonals and the 4th harmonic, the rim in
 * mm) at frames 6, 12, 15 (the test's) and 18 for a least θ, the axes it acts on in full (a bit mask:
 * 2 for y, 7 for every axis; THETA 0: off, main's film), the depth in cells within which a liquid
 * centre takes it on the other axes' faces too (ACROSS: 0.1 for the particle level set's sheet
 * cells; 0: none), over the particle level set's seeds, and from frame ON on (the frames before
 * it main's: the stream's first landing, frame 3, left out).
 *
 *   npx tsx bench/grid-film-ghost.ts THETA AXES [ACROSS] [SEEDS] [ON] [LEAST/FAXES[/AREAS[/s]]]
 *     (LEAST/FAXES: the liquid fraction of the free-surface faces' control volumes, pressure.ts
 *     faceFractions, at least LEAST on the FAXES faces; 0/7: off; AREAS: every face weighed by its
 *     liquid area, at least AREAS, pressure.ts faceAreas; s: the free-surface faces alone)
 *   npx tsx bench/grid-film-ghost.ts 0.01 7 0 1,2,3
 */
import { GridSimulation } from '../src/grid/step.ts';
import { parseScene } from '../src/index.ts';
import { filmShape, pourScene } from '../tests/grid/film.ts';

const [thetaS, axesS, acrossS, seedsS, onS, fracS] = process.argv.slice(2);
// FRAC: LEAST/AXES, the liquid fraction of the free-surface faces' control volumes (pressure.ts faceFractions) on AXES.
const [fracLeast, fracAxes, areaLeast] = (fracS ?? '0/7/0').split('/').map(Number);
const areaSurface = (fracS ?? '').split('/')[3] === 's';
const theta = Number(thetaS), axes = Number(axesS), across = Number(acrossS ?? 0), on = Number(onS ?? 0);
for (const seed of (seedsS ?? '1').split(',').map(Number)) {
  const sim = new GridSimulation(parseScene({ ...pourScene(), seed }));
  sim.initialize();
  const row: string[] = [];
  for (let f = 1; f <= 18; f++) {
    const ghost = f > on;
    sim.pressure.faces.ghostFluid = ghost ? theta : 0;
    sim.pressure.faces.ghostAxes = axes;
    sim.pressure.faces.ghostAcross = ghost ? across * sim.d.h : 0;
    sim.pressure.faces.faceFractions = ghost ? fracLeast : 0;
    sim.pressure.faces.fractionAxes = fracAxes;
    sim.pressure.faces.faceAreas = ghost ? areaLeast ?? 0 : 0;
    sim.pressure.faces.areasSurfaceOnly = areaSurface;
    sim.stepFrame();
    if (f === 6 || f === 12 || f === 15 || f === 18) {
      const s = filmShape(sim, 0, 0.034);
      row.push(`${f}: ${s.axisRatio.toFixed(3)} / ${(100 * s.harmonic4).toFixed(1)} % / ${(1000 * s.rim).toFixed(1)} mm`);
    }
  }
  console.log(`ghost fluid θ ≥ ${theta} on axes ${axes}, across within ${across} h, fractions ≥ ${fracLeast} on ${fracAxes}, areas ≥ ${areaLeast ?? 0}${areaSurface ? ' (free-surface faces)' : ''}, from frame ${on}, seed ${seed}: axes/diagonals / 4th harmonic / rim at frames ${row.join(', ')}`);
}
