/** Moving objects (Cline §6, Foster & Fedkiw 2001): a paddle pushed through a tank. */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { FACE_FIXED, FLUID, SOLID } from '../../src/grid/store.ts';

function paddle(speed: number) {
  return parseScene({
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.4, 0.24, 0.04], boundary: 'slip' },
    materials: {
      water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } },
      steel: { kind: 'solid' },
    },
    bodies: [
      { material: 'water', shape: { type: 'box', center: [0.2, 0.08, 0.02], size: [0.4, 0.16, 0.04] } },
      { name: 'paddle', material: 'steel', shape: { type: 'box', center: [0.1, 0.1, 0.02], size: [0.04, 0.2, 0.2] }, motion: { type: 'linear', velocity: [speed, 0, 0] } },
    ],
    grid: { cellSize: 0.02, tracking: 'markers', tolerance: 1e-8 },
  });
}

describe('moving objects', () => {
  it('push the liquid, hold the normal velocity on their faces and keep it divergence free', () => {
    const sim = createSimulation(paddle(0.3), 'grid') as GridEngineSimulation;
    for (let f = 0; f < 4; f++) sim.stepFrame();
    const m = sim.metrics();
    expect(m.momentum[0]).toBeGreaterThan(0);
    const s = sim.sim.store;
    let checked = 0;
    for (let c = 0; c < s.count; c++) {
      const w = s.nb[6 * c];
      if (w < 0 || s.wall[c] !== 0 || s.wall[w] !== 0) continue;
      // An x face between liquid and the paddle holds the paddle's x velocity.
      if ((s.type[c] === FLUID && s.type[w] === SOLID) || (s.type[c] === SOLID && s.type[w] === FLUID)) {
        expect(s.face[3 * c]).toBe(FACE_FIXED);
        expect(s.u[0][c]).toBeCloseTo(0.3, 12);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4);
    const p = sim.sim.pressure;
    expect(p.divergenceAfter).toBeLessThanOrEqual(2e-8 * p.divergenceBefore + 1e-14);
    // The paddle is drawn where its motion has taken it.
    const view = sim.solids()[0];
    expect(view.transform[12]).toBeCloseTo(0.3 * sim.time, 6); // Float32 matrix
  });

  it('a static paddle leaves a tank at rest', () => {
    const sim = createSimulation(paddle(0), 'grid');
    for (let f = 0; f < 4; f++) sim.stepFrame();
    expect(sim.metrics().maxSpeed).toBeLessThan(1e-5);
  });
});
