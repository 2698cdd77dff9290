/**
 * Interface-capturing benchmarks of the grid engine's surface trackers (tests/grid/trackers/
 * rotation.ts): Zalesak's disk turned once (2-D slice), a sphere in LeVeque's deformation field.
 * Prints volume change and shape error per tracker; the figures of BENCHMARKS.md "Surface tracking".
 *
 *   npx tsx bench/grid-tracking.ts [zalesak|deformation] [--n 100] [--cfl 0.5] [--period 1] [--tracking levelset,particle-levelset]
 */
import { carry, deformation, rotation, sphere, trackingSim, zalesak } from '../tests/grid/trackers/rotation.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const which = args[0] && !args[0].startsWith('--') ? args[0] : 'zalesak';
const n = Number(opt('n', which === 'zalesak' ? '100' : '32'));
const cfl = Number(opt('cfl', '0.5'));
const period = Number(opt('period', which === 'zalesak' ? '1' : '3'));
const trackings = opt('tracking', 'levelset,particle-levelset').split(',');
const extra = JSON.parse(opt('grid', '{}')) as Record<string, unknown>;

for (const tracking of trackings) {
  const flat = which === 'zalesak';
  const sim = trackingSim(tracking, n, flat, flat ? (x, y) => zalesak(x, y) : sphere, extra);
  const field = flat ? rotation(period) : deformation(period);
  const vmax = flat ? (2 * Math.PI * 0.45) / period : 2;
  const r = carry(sim, field, period, vmax, cfl);
  const thick = flat ? 1 / n : 1;
  console.log(`${which} ${n}${flat ? '²' : '³'} ${tracking.padEnd(18)} ${r.steps} steps  ${(r.ms / 1000).toFixed(1)} s  ` +
    `volume ${(r.v0 / thick).toExponential(4)} -> ${(r.v1 / thick).toExponential(4)} (${(100 * (r.v1 / r.v0 - 1)).toFixed(2)} %)  ` +
    `cells of the wrong sign ${(r.mismatch / thick).toExponential(3)} (${(100 * r.mismatch / r.v0).toFixed(2)} % of V0)  counters ${JSON.stringify(sim.counters)}`);
}
