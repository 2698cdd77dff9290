/**
 * Regression test for the level set gaining volume when liquid lands on a solid (issue 5
 * follow-up). Redistancing seeded the cells beside the surface at |φ| / |∇φ|; across a sheet one or
 * two cells thick (the honey spreading over the ball and splashing off it) the central gradient
 * nearly vanishes, so the seeds swelled the sheet at every step: the honey drop on the level set
 * reached 1.68× its volume after 60 steps (1.95× after 10 frames). The seeds are now capped by the
 * nearest axis crossing (a point of the surface, so a bound on the distance).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { levelSetVolume } from '../../src/grid/levelset.ts';
import { gridSim } from './helpers.ts';

describe('level set volume at a solid', () => {
  it('a 7.8-cell honey blob landing on a ball (h = 5 mm) stays within −10 % / +35 % of its volume over 60 steps', () => {
    const h = 0.005;
    const sim = gridSim({
      fps: 30,
      domain: { min: [-0.1, -0.1, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip' },
      materials: {
        honey: { kind: 'liquid', density: 1420, viscosity: { value: 5, unit: 'Pa.s' }, grid: { viscosityModel: 'implicit' } },
        ball: { kind: 'solid' },
      },
      bodies: [
        { material: 'ball', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.05 } },
        { material: 'honey', shape: { type: 'sphere', center: [0, 0.13, 0], radius: 0.0391 } },
      ],
      grid: { cellSize: h, tracking: 'levelset', cfl: 1 },
    });
    const v0 = levelSetVolume(sim.store, h);
    let lo = 1, hi = 1;
    for (let n = 0; n < 60; n++) {
      sim.advance(sim.computeDt());
      const r = levelSetVolume(sim.store, h) / v0;
      lo = Math.min(lo, r);
      hi = Math.max(hi, r);
    }
    console.log(`blob on a ball, 60 steps (t = ${sim.time.toFixed(3)} s): volume between ${lo.toFixed(3)} and ${hi.toFixed(3)} of the start`);
    // Measured 0.949 … 1.245 (contact at ~step 12, t ≈ 0.1 s); 0.959 … 1.68 before the fix.
    expect(lo).toBeGreaterThan(0.9);
    expect(hi).toBeLessThan(1.35);
  });

  for (const tracking of ['levelset', 'particle-levelset'] as const) {
    it(`the display points (${tracking}) leave out the part of each cell a body's surface cuts that lies inside the body, and keep the liquid up to it`, () => {
      // A 3 cm ball (off the lattice, so that its surface cuts cells) in a pool 8 cm deep: φ is
      // carried into the ball's cells (fillSolidPhi), so the sub-points of a cut cell read liquid
      // inside the ball. honey-on-spinner's rod held 37 of the 161 points within 1 cm of it at 4 s so.
      const h = 0.01, c = [0.003, 0.041, -0.002], r = 0.015;
      const sim = createSimulation(parseScene({
        fps: 30,
        domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.1, 0.05], boundary: 'noslip' },
        materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 0.001, unit: 'Pa.s' } }, ball: { kind: 'solid' } },
        bodies: [
          { material: 'ball', shape: { type: 'sphere', center: c, radius: r } },
          { material: 'water', shape: { type: 'box', center: [0, 0.04, 0], size: [0.1, 0.08, 0.1] } },
        ],
        grid: { cellSize: h, tracking },
      }), 'grid');
      const shell = (p: ReturnType<typeof sim.fluidPoints>) => {
        let inside = 0, beside = 0;
        for (let q = 0; q < p.count; q++) {
          const d = Math.hypot(p.positions[3 * q] - c[0], p.positions[3 * q + 1] - c[1], p.positions[3 * q + 2] - c[2]) - r;
          if (d < 0) inside++;
          else if (d < 0.5 * h) beside++;
        }
        return { inside, beside, count: p.count };
      };
      const start = shell(sim.fluidPoints());
      sim.stepFrame();
      const after = shell(sim.fluidPoints());
      console.log(`${tracking}: points inside the ball ${start.inside} (at the start), ${after.inside} (after a frame); within half a cell outside it ${start.beside}, ${after.beside}; of ${start.count}, ${after.count}`);
      // The shell half a cell thick outside the ball holds 4π r² h/2 = 14 cm³ of the pool's 800: its share of the points, at 8 a cell (1.8 % of them).
      for (const s of [start, after]) {
        expect(s.inside).toBe(0);
        expect(s.beside / s.count).toBeGreaterThan(0.5 * (4 * Math.PI * r * r * 0.5 * h) / 0.0008);
      }
    });
  }
});
