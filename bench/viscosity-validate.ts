/**
 * One measurement of the particle viscosity validation (src/compare/validate/particle-viscosity.ts)
 * with its figures in full: the slot's ν from the curvature and the mean speed, or the shear decay's ν.
 *   npx tsx bench/viscosity-validate.ts slot|decay NU RADIUS [implicit|exchange]
 * e.g. `slot 0.001 0.0005` (1 mm particles), `decay 0.01 0.001` (2 mm particles).
 */
import '../src/index.ts';
import { measureShearDecay, measureSlot, type ViscositySolver } from '../src/compare/validate/particle-viscosity.ts';

const [what, nu, r, solver = 'implicit'] = process.argv.slice(2);
if (!(what === 'slot' || what === 'decay') || !(Number(nu) > 0) || !(Number(r) > 0)) {
  throw new Error('usage: npx tsx bench/viscosity-validate.ts slot|decay NU RADIUS [implicit|exchange]');
}
const t0 = process.cpuUsage();
const m = what === 'slot' ? measureSlot(Number(nu), Number(r), solver as ViscositySolver) : measureShearDecay(Number(nu), Number(r), solver as ViscositySolver);
console.log(`${what} ν ${nu} r ${r} ${solver}: ${JSON.stringify(m)}; ${(process.cpuUsage(t0).user / 1e6).toFixed(1)} s CPU`);
