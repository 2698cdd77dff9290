/**
 * A film thinner than a cell on a wall, in the variational viscosity (src/grid/viscosity-variational.ts
 * `filmTheta`): its sample beside the wall settles at a lubrication film's mean speed g_t δ² / 3ν
 * (Reynolds' thin-film limit), on the box's no-slip floor and on an object's top. With the wall on
 * the face between the cells whatever the film's thickness (θ = ½, as before), a film moves as a
 * film a cell thick: the thinner it is, the more too fast (a film 0.6 cells thick 2.7 times). Measured by the viscosity stage alone
 * (gravity along the wall, the liquid held in place), to its steady state.
 */
import { describe, expect, it } from 'vitest';
import { runStages, gridSim } from './helpers.ts';

const h = 0.005, nu = 5 / 1420, g = 9.81, alpha = Math.PI / 6;

/** The mean speed along x of the row of faces beside the wall under the film's middle, and a lubrication film's. */
function filmSpeed(delta: number, on: 'floor' | 'object', filmWalls: boolean): { speed: number; lub: number } {
  const top = on === 'object' ? 0.02 : 0;
  const sim = gridSim({
    fps: 30,
    gravity: [g * Math.sin(alpha), -g * Math.cos(alpha), 0],
    domain: { min: [-0.06, 0, -0.04], max: [0.06, 0.04, 0.04], boundary: 'noslip' },
    materials: {
      honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' }, grid: { viscosityModel: 'variational' } },
      slab: { kind: 'solid' },
    },
    bodies: [
      ...(on === 'object' ? [{ material: 'slab', shape: { type: 'box', center: [0, top / 2, 0], size: [0.12, top, 0.08] } }] : []),
      { material: 'honey', shape: { type: 'box', center: [0, top + delta / 2, 0], size: [0.06, delta, 0.04] } },
    ],
    grid: { cellSize: h, tracking: 'levelset', tolerance: 1e-10, maxIterations: 2000 },
  });
  if (!sim.variational) throw new Error('not the variational viscosity');
  sim.variational.filmWalls = filmWalls;
  for (let n = 0; n < 40; n++) runStages(sim, ['forces', 'viscosity'], 0.005);
  const s = sim.store, o = sim.d.origin, j = Math.round((top - o[1]) / h);
  let sum = 0, count = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.cj[c] !== j) continue;
    const x = o[0] + h * s.ci[c], z = o[2] + h * (s.ck[c] + 0.5);
    if (Math.abs(x) > 0.015 || Math.abs(z) > 0.01) continue;
    sum += s.u[0][c];
    count++;
  }
  const lub = (g * Math.sin(alpha) * delta * delta) / (3 * nu);
  console.log(`film ${(delta / h).toFixed(2)} cells on the ${on}, ${filmWalls ? 'film wall' : 'wall on the face'}: ${(1000 * sum / count).toFixed(3)} mm/s, a lubrication film ${(1000 * lub).toFixed(3)} mm/s (${count} faces)`);
  return { speed: sum / count, lub };
}

describe('grid, variational viscosity: a film thinner than a cell on a wall', () => {
  for (const on of ['floor', 'object'] as const) {
    it(`moves at a lubrication film's mean speed on the ${on}, 2.7 times as fast with the wall on the face`, () => {
      for (const f of [0.6, 0.8]) {
        const film = filmSpeed(f * h, on, true);
        expect(film.speed / film.lub).toBeGreaterThan(0.85);
        expect(film.speed / film.lub).toBeLessThan(1.15);
      }
      const old = filmSpeed(0.6 * h, on, false);
      expect(old.speed / old.lub).toBeGreaterThan(2);
    });
  }
});
