import { describe, expect, it } from 'vitest';
import { gaussianKernel, latticeOver, normaliseField, splatParticles } from '../../src/surface/field.ts';
import { lattice } from './helpers.ts';

const r = 0.01;

describe('the particle field (Steele et al. 2004, Rendering)', () => {
  // The narrowest width the defaults use (adaptive thin-feature kernels, 1.5 r); the wide one is smoother.
  const kernel = gaussianKernel(1.5 * r);
  const blob = lattice(r, 6 * r, (x, y, z) => Math.max(Math.abs(x), Math.abs(y), Math.abs(z)) - 6 * r, { jitter: 0.3, offset: r });
  const members = Int32Array.from({ length: blob.count }, (_, i) => i);
  const grid = latticeOver([-6 * r, -6 * r, -6 * r], [6 * r, 6 * r, 6 * r], kernel.cutoff + r, 0.7 * r);
  splatParticles(grid, kernel, blob.positions, null, 8 * r ** 3, members, 0, blob.count);

  it('splatting equals the direct sum Σ vᵢ w(|x − pᵢ|) at every lattice point', () => {
    const { nx, ny, nz, spacing: h, origin, values } = grid;
    const inv2s2 = 1 / (2 * kernel.sigma ** 2);
    let worst = 0;
    for (let q = 0; q < values.length; q += 7) {
      const i = q % nx, j = Math.floor(q / nx) % ny, k = Math.floor(q / (nx * ny));
      expect(k).toBeLessThan(nz);
      const x = origin[0] + h * i, y = origin[1] + h * j, z = origin[2] + h * k;
      let sum = 0;
      for (let p = 0; p < blob.count; p++) {
        const d2 = (blob.positions[3 * p] - x) ** 2 + (blob.positions[3 * p + 1] - y) ** 2 + (blob.positions[3 * p + 2] - z) ** 2;
        if (d2 < kernel.cutoff ** 2) sum += 8 * r ** 3 * (Math.exp(-d2 * inv2s2) - kernel.shift);
      }
      worst = Math.max(worst, Math.abs(values[q] - sum) / kernel.interiorSum);
    }
    expect(worst).toBeLessThan(1e-5);
  });

  it('the interior sum is ∫ w dV, so λ = half of it puts the surface at the edge of the particle volumes', () => {
    // Deep inside the block the sum matches the integral within 2 % (lattice sum vs integral, jitter).
    const { nx, ny, values } = grid;
    const centre = Math.floor(nx / 2) + nx * (Math.floor(ny / 2) + ny * Math.floor(grid.nz / 2));
    expect(Math.abs(values[centre] / kernel.interiorSum - 1)).toBeLessThan(0.02);
    // Far from the block nothing reaches: the border is zero.
    expect(values[0]).toBe(0);
    const copy = { ...grid, values: values.slice() };
    normaliseField(copy, kernel.interiorSum / 2);
    expect(copy.values[0]).toBe(1);
    expect(copy.values[centre]).toBeGreaterThanOrEqual(-1);
    expect(copy.values[centre]).toBeLessThan(-0.9);
    expect(Math.min(...copy.values)).toBeGreaterThanOrEqual(-1);
  });

  it('the kernel integral matches the closed form of the shifted, truncated Gaussian', () => {
    const s = kernel.sigma, R = kernel.cutoff, a = R / (Math.SQRT2 * s);
    // ∫_ball e^{−ρ²/2σ²} dV = (2πσ²)^{3/2} (erf(a) − 2a e^{−a²}/√π); minus shift × ball volume.
    const erf = (x: number) => {
      // Abramowitz–Stegun 7.1.26 is not exact enough; integrate the series instead.
      let sum = 0, term = x;
      for (let n = 0; n < 60; n++) {
        sum += term / (2 * n + 1);
        term *= (-x * x) / (n + 1);
      }
      return (2 / Math.sqrt(Math.PI)) * sum;
    };
    const exact = (2 * Math.PI * s * s) ** 1.5 * (erf(a) - (2 * a * Math.exp(-a * a)) / Math.sqrt(Math.PI)) - kernel.shift * (4 / 3) * Math.PI * R ** 3;
    expect(kernel.interiorSum / exact).toBeCloseTo(1, 6);
  });
});
