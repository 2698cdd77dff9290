/**
 * Lid-driven cavity against Ghia, Ghia & Shin (1982): RMS error of the centreline velocities (u/U
 * on x = ½, v/U on y = ½) at Re = 100, once the flow has settled: the run stops at the first second
 * over which neither u at (½, ¼) nor v at (¼, ½) changed by 5e-4 or more (at 11–12 s; `npx tsx
 * bench/grid-cavity.ts --re 100 --every 1` prints the changes), and must settle within 20 s.
 * MacCormack advection (Selle et al. 2008). Re = 100 and Re = 400 are separate files so that the
 * test runner can run them side by side.
 *
 * The default run holds 32² cells to the same RMS of 0.02: the same solver, the same settled flow,
 * the same tolerance. 32² settles at 11 s with RMS u 0.0088, v 0.0045 in 3.9 s of CPU; 64² at 11 s
 * with RMS u 0.0022, v 0.0025 in 48 s (one process, 2026-11-29, load 20–30), and runs with
 * VISCID_LONG=1.
 */
import { describe, expect, it } from 'vitest';
import { settleCavity } from './cavity.ts';
import { describeLong } from '../long.ts';

function matchesGhia(n: number): void {
  const e = settleCavity(100, 20, n);
  console.log(`cavity ${n}², Re 100, settled at ${e.time.toFixed(0)} s: RMS u ${e.u.toFixed(4)}, v ${e.v.toFixed(4)}`);
  expect(e.change).toBeLessThan(5e-4);
  expect(e.u).toBeLessThan(0.02);
  expect(e.v).toBeLessThan(0.02);
}

describe('lid-driven cavity, 32²', () => {
  it('matches Ghia et al. (1982) at Re = 100 within an RMS of 0.02', () => matchesGhia(32));
});

describeLong(import.meta, 'lid-driven cavity, 64² (VISCID_LONG=1)', () => {
  it('matches Ghia et al. (1982) at Re = 100 within an RMS of 0.02', () => matchesGhia(64));
});
