/**
 * The particle viscosity calibration reproduces its own measured points (reference data in
 * bench/viscosity-calibration-points.ts), and a live measurement reproduces a stored point.
 */
import { describe, expect, it } from 'vitest';
import { engineNames, parseScene } from '../../src/index.ts';
import { exchangeRate } from '../../src/particle/calibration.ts';
import type { LiquidMaterial } from '../../src/index.ts';
import {
  PARTICLE_SPREADING_POINTS, PARTICLE_VISCOSITY_MODEL, PARTICLE_VISCOSITY_POINTS, PARTICLE_VISCOSITY_SOURCE,
} from '../../bench/viscosity-calibration-points.ts';
import {
  calibratedC, exchangeFromViscosity, fitExchangeModel, maxExchangeViscosity, measureShearDecay, modeAmplitude, viscosityFromExchange,
} from '../../bench/viscosity-calibration.ts';

const { statedError } = PARTICLE_VISCOSITY_MODEL;

describe('particle viscosity calibration (measured points)', () => {
  it('has its measured points with their source', () => {
    expect(PARTICLE_VISCOSITY_SOURCE).toMatch(/measureCalibrationPoints/);
    expect(PARTICLE_VISCOSITY_POINTS.length).toBeGreaterThanOrEqual(10);
  });

  it.each(PARTICLE_VISCOSITY_POINTS.filter((p) => p.exchangeRate > 0).map((p) => [p.exchangeRate, p.radius, p.dt, p.kernelSupport, p.nu] as const))(
    'the fitted model reproduces v = %d /s, r = %d m, δt = %d s, ks = %d: ν = %d m²/s within the stated error',
    (v, r, dt, ks, nu) => {
      expect(Math.abs(viscosityFromExchange(v, r, dt, ks) / nu - 1)).toBeLessThanOrEqual(statedError);
      // And the inverse maps the measured ν back to v where the exchange is not saturated.
      const back = exchangeFromViscosity(nu, r, dt, ks);
      if (v * dt < 2) expect(Math.abs(back / v - 1)).toBeLessThan(0.1);
    },
  );

  it('the stored constants are the fit of the stored points', () => {
    for (const [i, ks] of PARTICLE_VISCOSITY_MODEL.kernelSupport.entries()) {
      const fit = fitExchangeModel(PARTICLE_VISCOSITY_POINTS.filter((p) => p.kernelSupport === ks));
      expect(Math.abs(fit.C / PARTICLE_VISCOSITY_MODEL.C[i] - 1)).toBeLessThan(0.005);
      expect(fit.maxRelativeError).toBeLessThanOrEqual(statedError);
    }
    expect(calibratedC(4.5)).toBeCloseTo((PARTICLE_VISCOSITY_MODEL.C[0] + PARTICLE_VISCOSITY_MODEL.C[1]) / 2, 12);
  });

  it('saturates: no exchange rate reaches more than C r²/δt', () => {
    const r = 0.002, dt = 1 / 120;
    const max = maxExchangeViscosity(r, dt);
    expect(viscosityFromExchange(1e9, r, dt)).toBeCloseTo(max, 12);
    expect(exchangeFromViscosity(max * 1.01, r, dt)).toBe(Infinity);
    expect(exchangeFromViscosity(0, r, dt)).toBe(0);
  });

  it('the default mapping of src/particle/calibration.ts reproduces the unsaturated points (v δt ≤ 0.3) within 15 %', () => {
    const unsaturated = PARTICLE_VISCOSITY_POINTS.filter((p) => p.exchangeRate > 0 && p.exchangeRate * p.dt <= 0.3);
    expect(unsaturated.length).toBeGreaterThanOrEqual(3);
    for (const p of unsaturated) {
      const material = parseScene({
        materials: { m: { kind: 'liquid', density: 1000, viscosity: { value: p.nu, unit: 'm2/s' }, particle: { kernelSupport: p.kernelSupport } } },
      }).materials.m as LiquidMaterial;
      expect(Math.abs(exchangeRate(material, p.radius) / p.exchangeRate - 1)).toBeLessThan(0.15);
    }
  });

  it('the spreading measurements state the exchange viscosity the shear-decay model gives', () => {
    const { radius, points, source } = PARTICLE_SPREADING_POINTS;
    expect(source).toMatch(/Huppert/);
    for (const p of points) {
      expect(Math.abs(viscosityFromExchange(p.exchangeRate, radius, p.dt) - p.nuExchange)).toBeLessThanOrEqual(0.05 * p.nuExchange + 1e-12);
      expect(p.nuEffective).toBeGreaterThan(0);
    }
    // v = 1564 /s is what the default mapping gives for ν = 4e-3 at δt = 1/1440 s; 3975 /s is the fitted inverse.
    const material = parseScene({ materials: { m: { kind: 'liquid', viscosity: { value: 4e-3, unit: 'm2/s' } } } }).materials.m as LiquidMaterial;
    expect(exchangeRate(material, radius)).toBeCloseTo(1564, -1);
    expect(exchangeFromViscosity(4e-3, radius, 1 / 1440)).toBeCloseTo(3975, -1);
  });

  it('modeAmplitude recovers the amplitude of a cosine shear profile', () => {
    const n = 50, H = 0.04;
    const pos = new Float32Array(3 * n), vel = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      pos[3 * i + 1] = ((i + 0.5) / n) * H;
      vel[3 * i] = 0.7 * Math.cos((Math.PI * pos[3 * i + 1]) / H) + 0.1 * Math.cos((3 * Math.PI * pos[3 * i + 1]) / H);
    }
    expect(modeAmplitude(pos, vel, n, 0, H)).toBeCloseTo(0.7, 5);
  });
});

describe.runIf(engineNames().includes('particle'))('live measurement', () => {
  it('the particle engine still produces the stored ν at v = 30 /s within the stated error', () => {
    const p = measureShearDecay({ exchangeRate: 30, maxFrames: 6 });
    const stored = PARTICLE_VISCOSITY_POINTS.find((q) => q.exchangeRate === 30 && q.radius === 0.002 && q.kernelSupport === 5)!;
    expect(p.r2).toBeGreaterThan(0.999);
    expect(Math.abs(p.nu / stored.nu - 1)).toBeLessThanOrEqual(statedError);
  });
});
