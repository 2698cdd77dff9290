/**
 * A viscous blob slumping on a no-slip floor (Huppert 1982, axisymmetric, fixed volume), a
 * quarter of it in the corner of a box with slip walls at x = 0 and z = 0: footprint radius,
 * mean thickness and volume against time, and the fitted exponent of r ∝ (t − t0)^(1/8) over the
 * frames where the layer is at least two cells thick (tests/grid/spreading.test.ts runs the same).
 *
 *   npx tsx bench/grid-spreading.ts [--h 0.005] [--r0 0.04] [--H0 0.04] [--nu 0.01] [--seconds 2] [--tracking levelset] [--grid '{...}']
 */
import { spreadingRun } from '../tests/grid/spreading.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
for (const tracking of opt('tracking', 'levelset,particle-levelset,markers').split(',')) {
  const r = spreadingRun({
    h: Number(opt('h', '0.005')), r0: Number(opt('r0', '0.04')), H0: Number(opt('H0', '0.04')), nu: Number(opt('nu', '0.01')),
    seconds: Number(opt('seconds', '2')), fps: Number(opt('fps', '20')), tracking, width: Number(opt('width', '3')), grid: JSON.parse(opt('grid', '{}')),
  });
  console.log(`${tracking}: ${(r.ms / 1000).toFixed(1)} s; exponent ${r.exponent.toFixed(4)} (1/8 = 0.125), radius / Huppert ${r.radiusRatio.toFixed(3)} at t = ${r.tFit.toFixed(2)}, volume ${r.volumeRatio.map((v) => v.toFixed(3)).join(' ')}`);
  console.log(`  t: ${r.t.map((v) => v.toFixed(2)).join(' ')}\n  r: ${r.r.map((v) => (1000 * v).toFixed(1)).join(' ')} mm\n  H: ${r.H.map((v) => (1000 * v).toFixed(1)).join(' ')} mm`);
}
