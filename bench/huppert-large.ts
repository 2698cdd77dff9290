/**
 * Huppert spreading of a large viscous current in the particle engine (issue 26: "from the 85 mL
 * case up to volumes ten times larger, exponent 0.125 ± 0.02"), with either viscosity solver:
 * the set-up and fit of tests/particle/huppert-large.test.ts (ν = 4e-3 m²/s, 2 mm particles, 40
 * sub-timesteps at 20 fps, a cylinder 2 × 4 cm scaled by the cube root of `scale`; r against
 * t − t0 from 0.3 s while the current is at least two particles thick).
 *
 *   npx tsx bench/huppert-large.ts [scale=10] [viscositySolver=exchange|implicit, default: the scene default] [seconds=1.2]
 */
import { measureSpreading, fitLine } from '../src/compare/validate.ts';
import { HUPPERT_1982 } from '../src/compare/reference/huppert-1982.ts';
import '../src/index.ts';

const scale = Number(process.argv[2] ?? 10);
const solver = process.argv[3] as 'exchange' | 'implicit' | undefined;
const seconds = Number(process.argv[4] ?? 1.2);
const G = 9.81, nu = 4e-3, rp = 0.002, R = 0.02 * Math.cbrt(scale), H = 0.04 * Math.cbrt(scale);
const cpu0 = process.cpuUsage();
const m = measureSpreading('particle', { nu, radius: R, height: H, seconds, particleRadius: rp, cellSize: 0.004, substeps: 40, fps: 20, particle: solver ? { viscositySolver: solver } : {} });
const cpu = process.cpuUsage(cpu0);
const K = (HUPPERT_1982.etaAxisymmetric ** 8 * G * m.volume ** 3) / (3 * nu);
const t8: number[] = [], r: number[] = [], ratio: number[] = [];
for (let i = 0; i < m.t.length; i++) {
  if (m.volume / (Math.PI * m.r[i] ** 2) < 4 * rp || m.t[i] < 0.3) continue;
  t8.push(m.t[i]); r.push(m.r[i]); ratio.push(m.r[i] / (R ** 8 + K * m.t[i]) ** 0.125);
}
const line = fitLine(t8, r.map((x) => x ** 8)), t0 = -line.a / line.b;
const fit = fitLine(t8.map((t) => Math.log(t - t0)), r.map(Math.log));
const plain = fitLine(t8.map(Math.log), r.map(Math.log));
console.log(`scale ${scale} (${(m.volume * 1e6).toFixed(0)} mL), viscositySolver ${solver ?? 'the default'}: ${t8.length} frames fitted; radius / Huppert ${Math.min(...ratio).toFixed(3)}–${Math.max(...ratio).toFixed(3)}; exponent of r against t − t0 ${fit.b.toFixed(4)} (R² ${fit.r2.toFixed(3)}, t0 ${t0.toFixed(3)} s), plain log–log ${plain.b.toFixed(4)}; ν_eff ${m.nuEffective.toExponential(3)} m²/s; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s`);
