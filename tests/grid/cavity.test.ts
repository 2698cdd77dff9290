/**
 * Lid-driven cavity at Re = 100: a unit square (one cell thick, slip in z) completely full of liquid
 * (a singular pressure system), no-slip walls, the lid at y = 1 moving at 1 m/s. The steady
 * centreline profiles are compared with Ghia, Ghia & Shin (1982), data/ghia-1982-re100.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';

const ghia = JSON.parse(readFileSync(new URL('./data/ghia-1982-re100.json', import.meta.url), 'utf8')) as {
  u: { y: number[]; u: number[] };
  v: { x: number[]; v: number[] };
};

describe('lid-driven cavity, Re = 100', () => {
  it('matches the Ghia et al. (1982) centreline profiles', () => {
    const n = 24, h = 1 / n;
    const scene = parseScene({
      fps: 1,
      duration: 30,
      gravity: [0, 0, 0],
      domain: { min: [0, 0, 0], max: [1, 1, h], boundary: 'noslip', faces: { ymax: { type: 'moving', velocity: [1, 0, 0] }, zmin: 'slip', zmax: 'slip' } },
      materials: { fluid: { kind: 'liquid', density: 1, viscosity: { value: 0.01, unit: 'm2/s' } } },
      bodies: [{ material: 'fluid', shape: { type: 'box', center: [0.5, 0.5, h / 2], size: [1, 1, h] } }],
      grid: { cellSize: h, cfl: 1, maxDt: 0.05, tracking: 'levelset', tolerance: 1e-8 },
    });
    const sim = createSimulation(scene, 'grid');
    let before = 0;
    for (let f = 0; f < 14; f++) {
      sim.stepFrame();
      if (f === 12) before = sim.velocityAt([0.5, 0.25, h / 2])[0];
    }
    // Steady: the centre-line velocity changed by less than 1e-3 over the last second.
    expect(Math.abs(sim.velocityAt([0.5, 0.25, h / 2])[0] - before)).toBeLessThan(1e-3);
    let worstU = 0, worstV = 0;
    for (let q = 0; q < ghia.u.y.length; q++) {
      worstU = Math.max(worstU, Math.abs(sim.velocityAt([0.5, Math.min(ghia.u.y[q], 1 - 1e-9), h / 2])[0] - ghia.u.u[q]));
    }
    for (let q = 0; q < ghia.v.x.length; q++) {
      worstV = Math.max(worstV, Math.abs(sim.velocityAt([Math.min(ghia.v.x[q], 1 - 1e-9), 0.5, h / 2])[1] - ghia.v.v[q]));
    }
    console.log(`cavity 24²: max |u − u_Ghia| = ${worstU.toFixed(4)}, max |v − v_Ghia| = ${worstV.toFixed(4)}`);
    // First-order semi-Lagrangian advection on 24² cells: within 0.05 of the lid speed.
    expect(worstU).toBeLessThan(0.05);
    expect(worstV).toBeLessThan(0.05);
  });
});
