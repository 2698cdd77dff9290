/**
 * The slot Poiseuille and the decaying shear (src/compare/validate/particle-viscosity.ts, 1 mm
 * particles, ν 0.001 and 0.01) under a stop test of the implicit viscosity (viscosity-weiler.ts
 * viscosityStop) and a kernelReach:
 *   npx tsx bench/viscosity-stop-slot.ts <tolerance> [b|change] [reach] [slot|shear|both] [nu]
 * (`b`: relative to |b|, SPlisHSPlasH's measure; `change` (default): to |b − A v*|, the stage's).
 * Prints each case's effective viscosity against the one asked for, and the CG iterations a solve.
 */
import { loadavg } from 'node:os';
import '../src/index.ts';
import { measureShearDecay, measureSlot } from '../src/compare/validate/particle-viscosity.ts';
import { viscosityStop } from '../src/particle/viscosity-weiler.ts';

const args = process.argv.slice(2);
const tol = Number(args[0] ?? 0.01), onB = args[1] === 'b', reach = args[2] === undefined || args[2] === '-' ? undefined : Number(args[2]);
const which = args[3] ?? 'both', nus = args[4] ? [Number(args[4])] : [0.001, 0.01];
viscosityStop.tolerance = tol;
viscosityStop.relativeToB = onB;
const pc = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)} %`;
const head = `stop ${100 * tol} % of ${onB ? '|b|' : '|b − A v*|'}, kernelReach ${reach ?? 'default'}`;
for (const nu of nus) {
  if (which !== 'shear') {
    const m = measureSlot(nu, 0.0005, 'implicit', reach);
    console.log(`${head}: slot ν ${nu}: curvature ${pc(m.nuCurvature / nu - 1)}, mean ${pc(m.nuMean / nu - 1)}, ${m.iterationsPerSolve.toFixed(2)} CG a solve; load ${loadavg()[0].toFixed(1)}`);
  }
  if (which !== 'slot') {
    const d = measureShearDecay(nu, 0.0005, 'implicit', 'open', reach);
    console.log(`${head}: shear decay ν ${nu}: ${pc(d.nu / nu - 1)} (R² ${d.r2.toFixed(4)}); load ${loadavg()[0].toFixed(1)}`);
  }
}
process.exit(0);
