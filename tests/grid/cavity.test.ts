/**
 * Lid-driven cavity on 64² cells against Ghia, Ghia & Shin (1982): RMS error of the centreline
 * velocities (u/U on x = ½, v/U on y = ½) at Re = 100 and Re = 400, once the flow has settled: the
 * run stops at the first second over which neither u at (½, ¼) nor v at (¼, ½) changed by 5e-4 or
 * more (Re = 100 settles so at 11–12 s, Re = 400 at 25 s; `npx tsx bench/grid-cavity.ts --re 400
 * --every 1` prints the changes), and must settle within 20 s and 40 s. MacCormack advection
 * (Selle et al. 2008); semi-Lagrangian advection missed Re = 400 by 0.043 on u (BENCHMARKS.md).
 */
import { describe, expect, it } from 'vitest';
import { createSimulation } from '../../src/index.ts';
import { cavityErrors, cavityScene } from './cavity.ts';

describe('lid-driven cavity, 64²', () => {
  for (const [re, seconds, tolerance] of [[100, 20, 0.02], [400, 40, 0.04]] as const) {
    it(`matches Ghia et al. (1982) at Re = ${re} within an RMS of ${tolerance}`, () => {
      const sim = createSimulation(cavityScene(64, re), 'grid');
      const z = 1 / 128, probes = () => [sim.velocityAt([0.5, 0.25, z])[0], sim.velocityAt([0.25, 0.5, z])[1]];
      let last = probes(), change = Infinity;
      for (let f = 0; f < seconds && !(change < 5e-4); f++) {
        sim.stepFrame();
        const now = probes();
        change = Math.max(Math.abs(now[0] - last[0]), Math.abs(now[1] - last[1]));
        last = now;
      }
      expect(change).toBeLessThan(5e-4);
      const e = cavityErrors(sim, re);
      console.log(`cavity 64², Re ${re}, settled at ${sim.time.toFixed(0)} s: RMS u ${e.u.toFixed(4)}, v ${e.v.toFixed(4)}`);
      expect(e.u).toBeLessThan(tolerance);
      expect(e.v).toBeLessThan(tolerance);
    }, 300_000);
  }
});
