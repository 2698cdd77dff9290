/**
 * The particle engine reaches the viscosity it is asked for, honey included (calibration.ts, measured
 * by shear-mode decay as in src/compare/viscosity-calibration.ts), and honey stays on the ball.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { measureShearDecay } from '../../src/compare/viscosity-calibration.ts';
import { calibratedExchangeRate, measuredC, viscositySweeps } from '../../src/particle/calibration.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { LiquidMaterial } from '../../src/scene/schema.ts';
import { particleSim } from './helpers.ts';

function material(nu: number, kernelSupport = 5): LiquidMaterial {
  return parseScene({
    materials: { m: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' }, particle: { kernelSupport } } },
  }).materials.m as LiquidMaterial;
}

describe('particle viscosity: requested vs achieved', () => {
  it('honey (ν = 3.5e-3 m²/s, 8× the one-sweep ceiling C r²/δt) is reached within 8 % (shear-mode decay)', () => {
    const r = 0.002, dt = 1 / 120, nu = 3.5e-3;
    // The paper's single exchange per sub-timestep cannot go beyond C r²/δt.
    expect(nu).toBeGreaterThan(4 * measuredC(5) * r * r / dt);
    const v = calibratedExchangeRate(material(nu), r, dt);
    expect(viscositySweeps(v, dt)).toBeGreaterThan(1);
    const p = measureShearDecay({ exchangeRate: v, layers: 20, maxFrames: 10 });
    expect(p.r2).toBeGreaterThan(0.999);
    expect(Math.abs(p.nu / nu - 1)).toBeLessThan(0.08);
  });

  it('a moderate viscosity (1e-4 m²/s, one sweep as in the paper) is reached within 8 %', () => {
    const r = 0.002, dt = 1 / 120, nu = 1e-4;
    const v = calibratedExchangeRate(material(nu), r, dt);
    expect(viscositySweeps(v, dt)).toBe(1);
    const p = measureShearDecay({ exchangeRate: v, layers: 20, maxFrames: 10 });
    expect(Math.abs(p.nu / nu - 1)).toBeLessThan(0.08);
  });
});

describe('honey drop (half-size variant)', () => {
  it('stays on the ball: after 20 frames (0.67 s) at least 95 % of the honey is above y = −0.02 m and none on the floor', () => {
    const input = JSON.parse(readFileSync(new URL('../../scenes/honey-drop.json', import.meta.url), 'utf8'));
    for (const b of input.bodies) if (b.material === 'honey') b.shape.radius *= 0.5;
    const sim = particleSim(input);
    for (let f = 0; f < 20; f++) sim.stepFrame();
    const p = sim.fluidPoints();
    let above = 0, floor = 0;
    for (let i = 0; i < p.count; i++) {
      const y = p.positions[3 * i + 1];
      if (y > -0.02) above++;
      if (y < -0.1) floor++;
    }
    expect(p.count).toBeGreaterThan(1000);
    expect(above / p.count).toBeGreaterThanOrEqual(0.95);
    expect(floor).toBe(0);
  }, 60_000);
});
