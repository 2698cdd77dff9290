/**
 * Variable viscosity (Carlson et al. 2002; Cline §7.2): the honey-melt set-up at a coarse grid. The
 * hot column (60 °C, e⁴ ≈ 55 times runnier) must slump clearly faster than the cold one, and log ν
 * per cell must follow the temperature law.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { FLUID } from '../../src/grid/store.ts';

function melt() {
  const json = JSON.parse(readFileSync(new URL('../../scenes/honey-melt.json', import.meta.url), 'utf8'));
  json.grid.cellSize = 0.01;
  return createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
}

function widths(sim: GridEngineSimulation): [number, number] {
  const m = sim.sim.markers;
  const lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
  for (let q = 0; q < m.count; q++) {
    const k = m.material[q], x = m.pos[3 * q];
    lo[k] = Math.min(lo[k], x);
    hi[k] = Math.max(hi[k], x);
  }
  return [hi[0] - lo[0], hi[1] - lo[1]];
}

describe('variable viscosity', () => {
  it('lets the hot honey slump faster than the cold honey', () => {
    const sim = melt();
    const [cold0, hot0] = widths(sim);
    expect(hot0).toBeCloseTo(cold0, 9);
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const [cold, hot] = widths(sim);
    expect(hot - hot0).toBeGreaterThan(2 * (cold - cold0));
  });

  it('interpolates viscosity from the temperature law (log ν per cell)', () => {
    const sim = melt();
    sim.stepFrame();
    const s = sim.sim.store, L = sim.sim.viscosity.logNu!;
    const nu0 = 100 / 1420;
    let hot = 0, cold = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] !== FLUID) continue;
      const T = s.temperature[c];
      expect(L[c]).toBeCloseTo(Math.log(nu0) - 0.1 * (T - 20), 9);
      if (T > 55) hot++;
      if (T < 25) cold++;
    }
    // Both temperatures are still present after one frame (diffusivity 1e-5 m²/s).
    expect(hot).toBeGreaterThan(10);
    expect(cold).toBeGreaterThan(10);
  });
});
