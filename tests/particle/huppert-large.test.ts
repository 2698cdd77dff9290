/**
 * Huppert spreading with ten times the volume of tests/particle/physics.test.ts's blob (issue 26:
 * "from the 85 mL case up to volumes ten times larger"): a cylinder 4.31 cm in radius and 8.62 cm
 * tall (518 mL) of ν = 4e-3 m²/s on a no-slip floor, 2 mm particles, 40 sub-timesteps at 20 fps,
 * the same fit as the small case. About 85 s of CPU on one thread, so with VISCID_LONG=1.
 * Measured (2026-11-28): radius 0.87–0.90 of Huppert's from 0.3 s to 1.2 s, exponent of r against
 * t − t0 0.1292 (R² 0.996, t0 = 0.044 s; 19 frames). 2026-11-29 (bench/huppert-large.ts 10, the
 * particles holding 495 mL): radius 0.94–1.00, exponent 0.1224 (R² 0.999, t0 0.157 s; 19 frames);
 * at 808 mL (scale 16.4, ten times 85 mL) 0.1227 (docs/decisions.md "Pools 5 to 40 cm …").
 */
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { measureSpreading, fitLine } from '../../src/compare/validate.ts';
import { HUPPERT_1982 } from '../../src/compare/reference/huppert-1982.ts';
import '../../src/index.ts';

const G = 9.81;

describeLong(import.meta, 'a large viscous current spreads as Huppert\'s (VISCID_LONG=1)', () => {
  it('518 mL: within 20 % of Huppert\'s radius, exponent 1/8 ± 0.02', () => {
    const nu = 4e-3, rp = 0.002, scale = 10, R = 0.02 * Math.cbrt(scale), H = 0.04 * Math.cbrt(scale);
    const m = measureSpreading('particle', { nu, radius: R, height: H, seconds: 1.2, particleRadius: rp, cellSize: 0.004, substeps: 40, fps: 20 });
    expect(m.volume).toBeGreaterThan(4.5e-4);
    const K = (HUPPERT_1982.etaAxisymmetric ** 8 * G * m.volume ** 3) / (3 * nu);
    const lt: number[] = [], lr: number[] = [];
    for (let i = 0; i < m.t.length; i++) {
      if (m.volume / (Math.PI * m.r[i] ** 2) < 4 * rp || m.t[i] < 0.3) continue;
      const ref = (R ** 8 + K * m.t[i]) ** 0.125;
      expect(Math.abs(m.r[i] / ref - 1), `t = ${m.t[i]}: r = ${m.r[i]}, Huppert ${ref}`).toBeLessThan(0.2);
      lt.push(Math.log(m.t[i])); lr.push(Math.log(m.r[i]));
    }
    expect(lt.length).toBeGreaterThanOrEqual(8);
    const t8 = lt.map(Math.exp), r8 = lr.map((l) => Math.exp(8 * l));
    const line = fitLine(t8, r8), t0 = -line.a / line.b;
    const fit = fitLine(t8.map((t) => Math.log(t - t0)), lr);
    expect(Math.abs(fit.b - 1 / 8), `exponent ${fit.b}, t0 = ${t0}`).toBeLessThan(0.02);
    expect(fit.r2).toBeGreaterThan(0.95);
  }, 1_800_000);
});
