/** Level set (Cline §10): fast-marching redistancing and volume conservation. */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { SOLID } from '../../src/grid/store.ts';
import { gridSim, levelSetOf } from './helpers.ts';

describe('level set', () => {
  it('redistances a distorted sphere to |∇φ| ≈ 1 without moving its surface', () => {
    const R = 0.1, h = 0.01;
    const sim = gridSim({
      gravity: [0, 0, 0],
      domain: { min: [0, 0, 0], max: [0.32, 0.32, 0.32], boundary: 'slip' },
      materials: { goo: { kind: 'liquid', viscosity: { value: 0, unit: 'm2/s' } } },
      bodies: [{ material: 'goo', shape: { type: 'sphere', center: [0.16, 0.16, 0.16], radius: R } }],
      grid: { cellSize: h, tracking: 'levelset', bufferCells: 4 },
    });
    const s = sim.store, d = sim.d;
    const centre = (c: number) => [d.origin[0] + h * (s.ci[c] + 0.5) - 0.16, d.origin[1] + h * (s.cj[c] + 0.5) - 0.16, d.origin[2] + h * (s.ck[c] + 0.5) - 0.16];
    // Replace φ by a same-sign function that is far from a distance: (r² − R²) / (4R), clamped.
    for (let c = 0; c < s.count; c++) {
      const [x, y, z] = centre(c);
      s.phi[c] = Math.max(-sim.band, Math.min(sim.band, (x * x + y * y + z * z - R * R) / (4 * R)));
    }
    levelSetOf(sim).redistance(s, h, sim.band);
    let worst = 0, sum = 0, n = 0, surface = 0;
    for (let c = 0; c < s.count; c++) {
      if (s.type[c] === SOLID) continue;
      const [x, y, z] = centre(c);
      const r = Math.hypot(x, y, z);
      if (Math.abs(r - R) < 0.5 * h) surface = Math.max(surface, Math.abs(s.phi[c] - (r - R)));
      // Gradient by central differences where both neighbours lie within the band.
      if (Math.abs(s.phi[c]) > sim.band - 2 * h || Math.abs(r - R) < 1.5 * h) continue;
      let g2 = 0, ok = true;
      for (let a = 0; a < 3; a++) {
        const m0 = s.nb[6 * c + 2 * a], m1 = s.nb[6 * c + 2 * a + 1];
        if (m0 < 0 || m1 < 0 || Math.abs(s.phi[m0]) >= sim.band || Math.abs(s.phi[m1]) >= sim.band) { ok = false; break; }
        g2 += ((s.phi[m1] - s.phi[m0]) / (2 * h)) ** 2;
      }
      if (!ok) continue;
      const e = Math.abs(Math.sqrt(g2) - 1);
      worst = Math.max(worst, e);
      sum += e;
      n++;
    }
    expect(n).toBeGreaterThan(500);
    // First-order fast marching: mean error a few %, worst along the diagonals under 15 %.
    expect(sum / n).toBeLessThan(0.05);
    expect(worst).toBeLessThan(0.15);
    // The surface stays put: cells beside it keep their distance within 0.1 h... of the true sphere.
    expect(surface).toBeLessThan(0.1 * h);
  });

  it('loses less than 1 % of a resting pool over 100 steps', () => {
    const scene = parseScene({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.3, 0.3, 0.06], boundary: 'noslip' },
      materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } } },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.15, 0.0625, 0.03], size: [0.3, 0.125, 0.06] } }],
      grid: { cellSize: 0.02, tracking: 'levelset', maxDt: 0.01 },
    });
    const sim = createSimulation(scene, 'grid') as GridEngineSimulation;
    const v0 = sim.metrics().fluidVolume;
    expect(v0).toBeCloseTo(0.3 * 0.125 * 0.06, 6);
    while (sim.sim.steps < 100) sim.stepFrame();
    const v1 = sim.metrics().fluidVolume;
    expect(Math.abs(v1 - v0) / v0).toBeLessThan(0.01);
  });

  it('keeps the volume of a falling, splashing column within 10 % (ENO2 upwind)', () => {
    const scene = parseScene({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.4, 0.4, 0.04], boundary: 'slip' },
      materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.08, 0.12, 0.02], size: [0.16, 0.24, 0.04] } }],
      grid: { cellSize: 0.02, tracking: 'levelset' },
    });
    const sim = createSimulation(scene, 'grid');
    const v0 = sim.metrics().fluidVolume;
    for (let f = 0; f < 12; f++) sim.stepFrame();
    const m = sim.metrics();
    expect(m.bounds.max[0]).toBeGreaterThan(0.3); // it did collapse
    expect(Math.abs(m.fluidVolume - v0) / v0).toBeLessThan(0.1);
  });
});
