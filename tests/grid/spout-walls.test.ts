/**
 * A pour into a small box does not send sheets up its walls (issue 27, spout-fill): syrup
 * (0.05 Pa·s) at 1 m/s through a 1 cm disk, 8 cm above the floor of a 10 × 12 × 10 cm box on 1 cm
 * cells, for 0.5 s (a pool 1.6 cm deep). MacCormack's correction on the surface layer's faces,
 * which read the velocity extrapolated into the air, kept the splash's energy there: liquid ran up
 * the walls to 10.5 cm (two cells under the lid) by 0.4 s. With those faces first-order
 * (advect.ts) it reaches 4.5 cm, the first splash's run-up.
 */
import { describe, expect, it } from 'vitest';
import { gridSim } from './helpers.ts';

describe('a pour into a small box on the grid', () => {
  it('keeps the liquid at the walls low during the pour', () => {
    const L = 0.1, H = 0.12;
    const sim = gridSim({
      fps: 30,
      duration: 0.5,
      domain: { min: [0, 0, 0], max: [L, H, L], boundary: 'noslip' },
      materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 0.05, unit: 'Pa.s' } } },
      sources: [{ material: 'syrup', shape: 'disk', center: [L / 2, H - 0.02, L / 2], direction: [0, -1, 0], radius: 0.01, speed: 1, start: 0, end: 0.5 }],
      grid: { cellSize: 0.01 },
    });
    expect(sim.scene.grid.advection).toBe('maccormack');
    const n = sim.d.n, h = sim.d.h;
    let worst = 0;
    for (let f = 1; f <= 15; f++) {
      sim.stepFrame();
      const s = sim.store;
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] === 2 || s.wall[c] !== 0 || !(s.phi[c] < 0)) continue;
        const i = s.ci[c], k = s.ck[c];
        if (Math.min(i, k, n[0] - 1 - i, n[2] - 1 - k) > 1) continue;
        worst = Math.max(worst, (s.cj[c] + 0.5) * h);
      }
    }
    // Liquid cells within two cells of a side wall: measured 4.5 cm (10.5 cm with the correction on every face).
    expect(worst).toBeGreaterThan(0.01);
    expect(worst).toBeLessThan(0.07);
  });
});
