/**
 * Surface quality on disordered particles (a turned lattice jittered by ±0.4 r, as in a running
 * simulation): smoothness, volume fidelity and thin-feature survival at the default settings.
 * Bounds come from bench/surface-quality.bench.ts (measured values in comments); the old default
 * (σ = 1.2 r, λ = half the interior sum) fails the first two.
 */
import { describe, expect, it } from 'vitest';
import { checkMesh, particleSurface } from '../../src/surface/index.ts';
import { defaults, disordered, roughness } from './helpers.ts';

const r = 0.01;

describe('surface quality at the defaults (disordered particles)', () => {
  it('the top of a slab is smooth: face tilt ≤ 10°, height RMS ≤ 0.25 r', () => {
    const sdf = (x: number, y: number, z: number) => Math.max(Math.abs(x) - 16 * r, Math.abs(y) - 5 * r, Math.abs(z) - 16 * r);
    const blob = disordered(r, 16 * r, sdf);
    const keep = (x: number, y: number, z: number) => Math.abs(x) < 10 * r && Math.abs(z) < 10 * r && y > 2 * r;
    const now = roughness(particleSurface({ ...blob, radius: r }, defaults), r, sdf, keep);
    // Measured σ = 1.6 r, matched λ: tilt 8.0°, RMS 0.19 r, offset +0.07 r.
    expect(now.faces).toBeGreaterThan(200);
    expect(now.faceTilt).toBeLessThan(10);
    expect(now.heightRms).toBeLessThan(0.25);
    expect(Math.abs(now.offset)).toBeLessThan(0.3);
    // The old default (σ = 1.2 r) is visibly lumpier: measured 17°.
    const old = roughness(particleSurface({ ...blob, radius: r }, { ...defaults, kernelWidth: 1.2 }), r, sdf, keep);
    expect(old.faceTilt).toBeGreaterThan(12);
  });

  it('drops of 5 r and 15 r enclose their particle volume Σ vᵢ within 2 %', () => {
    for (const R of [5, 15]) {
      const blob = disordered(r, R * r, (x, y, z) => Math.hypot(x, y, z) - R * r, { seed: R });
      const rep = checkMesh(particleSurface({ ...blob, radius: r }, defaults));
      expect(rep).toMatchObject({ closed: true, oriented: true, outward: true, shells: 1 });
      // Measured 1.00 for both; with λ = half the interior sum 0.75 (5 r) and 0.96.
      expect(Math.abs(rep.volume / (blob.count * 8 * r ** 3) - 1)).toBeLessThan(0.02);
    }
    const small = disordered(r, 5 * r, (x, y, z) => Math.hypot(x, y, z) - 5 * r, { seed: 5 });
    const unmatched = checkMesh(particleSurface({ ...small, radius: r }, defaults, { volumeMatch: false }));
    expect(unmatched.volume / (small.count * 8 * r ** 3)).toBeLessThan(0.9);
  });

  it('a honey string two particles across (radius 2 r) between two drops stays connected', () => {
    const a = 2 * r;
    const sdf = (x: number, y: number, z: number) =>
      Math.min(Math.hypot(x + 22 * r, y, z) - 8 * r, Math.hypot(x - 22 * r, y, z) - 8 * r, Math.max(Math.abs(x) - 22 * r, Math.hypot(y, z) - a));
    const blob = disordered(r, 30 * r, sdf, { seed: 7 });
    const mesh = particleSurface({ ...blob, radius: r }, defaults);
    const rep = checkMesh(mesh);
    expect(rep).toMatchObject({ closed: true, shells: 1 });
    // Its middle keeps most of its radius (measured 0.71 a; the wide paper kernel σ = 2.5 r cuts it).
    let sum = 0, n = 0;
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      if (Math.abs(mesh.positions[3 * v]) < 5 * r) {
        sum += Math.hypot(mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
        n++;
      }
    }
    expect(n).toBeGreaterThan(20);
    expect(sum / n / a).toBeGreaterThan(0.5);
    expect(checkMesh(particleSurface({ ...blob, radius: r }, { ...defaults, kernelWidth: 2.5 })).shells).toBeGreaterThan(1);
  });
});
