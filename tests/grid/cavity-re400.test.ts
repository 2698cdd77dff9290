/**
 * Lid-driven cavity on 64² cells against Ghia, Ghia & Shin (1982): RMS error of the centreline
 * velocities (u/U on x = ½, v/U on y = ½) at Re = 400, once the flow has settled: the run stops at
 * the first second over which neither u at (½, ¼) nor v at (¼, ½) changed by 5e-4 or more (at 25 s;
 * `npx tsx bench/grid-cavity.ts --re 400 --every 1` prints the changes), and must settle within
 * 40 s. MacCormack advection (Selle et al. 2008); semi-Lagrangian advection missed Re = 400 by
 * 0.043 on u (BENCHMARKS.md). A long case (25 s of simulated flow, about 2½ minutes on two cores):
 * it runs with VISCID_LONG=1; Re = 100 (cavity-re100.test.ts) checks the same solver in the
 * default suite.
 */
import { expect, it } from 'vitest';
import { settleCavity } from './cavity.ts';
import { describeLong } from '../long.ts';

describeLong(import.meta, 'lid-driven cavity, 64² (VISCID_LONG=1)', () => {
  it('matches Ghia et al. (1982) at Re = 400 within an RMS of 0.04', () => {
    const e = settleCavity(400, 40);
    console.log(`cavity 64², Re 400, settled at ${e.time.toFixed(0)} s: RMS u ${e.u.toFixed(4)}, v ${e.v.toFixed(4)}`);
    expect(e.change).toBeLessThan(5e-4);
    expect(e.u).toBeLessThan(0.04);
    expect(e.v).toBeLessThan(0.04);
  });
});
