/**
 * Regression test for the level set gaining volume when liquid lands on a solid (issue 5
 * follow-up). Redistancing seeded the cells beside the surface at |φ| / |∇φ|; across a sheet one or
 * two cells thick (the honey spreading over the ball and splashing off it) the central gradient
 * nearly vanishes, so the seeds swelled the sheet at every step: the honey drop on the level set
 * reached 1.68× its volume after 60 steps (1.95× after 10 frames). The seeds are now capped by the
 * nearest axis crossing (a point of the surface, so a bound on the distance).
 */
import { describe, expect, it } from 'vitest';
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
});
