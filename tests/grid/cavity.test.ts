/**
 * Lid-driven cavity on 64² cells against Ghia, Ghia & Shin (1982): RMS error of the centreline
 * velocities (u/U on x = ½, v/U on y = ½) at Re = 100 and Re = 400, once the flow has settled
 * (it changes by less than 1e-3 over the last second). MacCormack advection (Selle et al. 2008);
 * semi-Lagrangian advection missed Re = 400 by 0.043 on u (BENCHMARKS.md).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';
import { cavityErrors, cavityScene } from './cavity.ts';

describe('lid-driven cavity, 64²', () => {
  for (const [re, seconds, tolerance] of [[100, 20, 0.02], [400, 40, 0.04]] as const) {
    it(`matches Ghia et al. (1982) at Re = ${re} within an RMS of ${tolerance}`, () => {
      const sim = createSimulation(cavityScene(64, re), 'grid');
      let before = 0;
      for (let f = 0; f < seconds; f++) {
        sim.stepFrame();
        if (f === seconds - 2) before = sim.velocityAt([0.5, 0.25, 1 / 128])[0];
      }
      expect(Math.abs(sim.velocityAt([0.5, 0.25, 1 / 128])[0] - before)).toBeLessThan(1e-3);
      const e = cavityErrors(sim, re);
      console.log(`cavity 64², Re ${re}: RMS u ${e.u.toFixed(4)}, v ${e.v.toFixed(4)}`);
      expect(e.u).toBeLessThan(tolerance);
      expect(e.v).toBeLessThan(tolerance);
    }, 300_000);
  }
});
