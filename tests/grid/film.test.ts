/**
 * A film spreading on a floor stays round and whole in the grid engine (issue 26): honey poured
 * from a spout 4 mm in radius, 5 cm above a no-slip floor, 2.5 mm cells, particle level set. At
 * 0.5 s its rim (tests/grid/film.ts, φ < 0 in the first row of centres) is 16 mm out. With the air
 * particles' corrections acting in the film it was a lace of holes and fingers: spread 10.9 %,
 * 8th harmonic 4.8 %, 3rd and 5th 3.7 % together, axes/diagonals 1.11; without them 4.0 %, 2.4 %,
 * 0.9 %, 1.07 (the plain level set: 2.8 %, 3.6 %, 0.3 %, 1.00). With the particle level set's
 * minimum sheet thickness as well (trackers/pls-cells.ts keepSheets): 2.2 %, 0.8 %, 0.5 %, 1.03.
 */
import { describe, expect, it } from 'vitest';
import { GridSimulation } from '../../src/grid/step.ts';
import { parseScene } from '../../src/index.ts';
import { describeFilm, filmShape, pourScene } from './film.ts';

describe('thin films on the grid', () => {
  // The same pour and the same bounds with the redistancing's seeds estimated (the default) and kept
  // (grid.redistanceSeeds "keep": the redistancing leaves the zero set where it is; it spreads as round,
  // axes/diagonals 0.976–0.981, 4th harmonic 0.9–1.0 % over seeds 1–3: docs/decisions.md, "The rims'
  // fingers: in the velocity or in φ").
  const pours: [string, string, Parameters<typeof pourScene>[0]][] = [
    ['a poured film spreads round, without axis-aligned fingers or holes', 'poured film', undefined],
    ['with the redistancing\'s seeds kept, a poured film spreads as round', 'poured film, seeds kept,', { grid: { redistanceSeeds: 'keep' } }],
  ];
  for (const [title, label, settings] of pours) {
    it(title, () => {
      const sim = new GridSimulation(parseScene(pourScene(settings)));
      sim.initialize();
      for (let f = 0; f < 15; f++) sim.stepFrame();
      const film = filmShape(sim, 0, 0.034);
      console.log(`${label} at ${sim.time.toFixed(2)} s: ${describeFilm(film)}`);
      expect(film.rim).toBeGreaterThan(0.012);
      expect(film.spread).toBeLessThan(0.05);
      expect(film.harmonic8).toBeLessThan(0.04);
      expect(film.harmonic3 + film.harmonic5).toBeLessThan(0.025);
      expect(Math.abs(film.axisRatio - 1)).toBeLessThan(0.05);
      expect(film.coverage).toBeGreaterThan(0.99);
    });
  }
});
