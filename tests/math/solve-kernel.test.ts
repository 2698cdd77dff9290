/**
 * The solves' kernel choice (math/kernels.ts solveKernel, particle.pressureKernel): the Wendland
 * functions' shape, their slopes, the cubic spline's bits left as they were, and the scene field's
 * checks (docs/decisions.md, pool26).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  cubicSpline, cubicSplineSlope, latticeCubicSum, latticeSolveSum, setSolveKernel, solveSlope, solveW, wendland, wendlandSlope,
} from '../../src/math/kernels.ts';
import { parseScene } from '../../src/index.ts';

afterEach(() => setSolveKernel(0));

describe('the solves\' density kernel', () => {
  it('Wendland C2 and C4: 1 at 0, 0 from the support on, positive and falling between, slopes that match their difference quotients', () => {
    for (const kind of [2, 4] as const) {
      expect(wendland(kind, 0)).toBe(1);
      expect(wendland(kind, 1)).toBe(0);
      expect(wendland(kind, 1.5)).toBe(0);
      expect(wendlandSlope(kind, 0) === 0).toBe(true);
      let last = 1;
      for (let q = 0.05; q < 1; q += 0.05) {
        const w = wendland(kind, q);
        expect(w).toBeGreaterThan(0);
        expect(w).toBeLessThan(last);
        last = w;
        const e = 1e-6, fd = (wendland(kind, q + e) - wendland(kind, q - e)) / (2 * e);
        expect(wendlandSlope(kind, q)).toBeCloseTo(fd, 6);
      }
    }
  });

  it('the cubic spline (the default) gives the same bits through solveW, solveSlope and latticeSolveSum; a Wendland choice its own', () => {
    for (let q = 0; q <= 1.01; q += 0.0625) {
      expect(solveW(q)).toBe(cubicSpline(q));
      expect(solveSlope(q)).toBe(cubicSplineSlope(q));
    }
    expect(latticeSolveSum(0.008, 0.016)).toBe(latticeCubicSum(0.008, 0.016));
    setSolveKernel(2);
    expect(solveW(0.5)).toBeCloseTo(0.1875, 12); // (1/2)⁴ · 3
    expect(latticeSolveSum(0.008, 0.016)).toBeLessThan(latticeCubicSum(0.008, 0.016));
  });

  it('particle.pressureKernel defaults to the cubic spline; a support past 4 radii only with a Wendland kernel', () => {
    const scene = (particle: object) => ({
      fps: 30, duration: 0.1, domain: { min: [0, 0, 0], max: [0.05, 0.05, 0.05], boundary: 'noslip' },
      materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
      bodies: [{ material: 'w', shape: { type: 'box', center: [0.025, 0.01, 0.025], size: [0.05, 0.02, 0.05] } }], particle,
    });
    expect(parseScene(scene({})).particle.pressureKernel).toBe('cubic');
    expect(parseScene(scene({ pressureKernel: 'wendland-c2', densityKernel: 5 })).particle.densityKernel).toBe(5);
    expect(() => parseScene(scene({ densityKernel: 5 }))).toThrow(/particle\.densityKernel/);
  });
});
