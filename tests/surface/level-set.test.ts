import { describe, expect, it } from 'vitest';
import { checkMesh, type LevelSetInput, levelSetSurface } from '../../src/index.ts';
import { angleDeg, defaults } from './helpers.ts';

function sampled(n: number, dx: number, phi: (x: number, y: number, z: number) => number): LevelSetInput {
  const values = new Float32Array(n * n * n);
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) values[i + n * (j + n * k)] = phi(i * dx, j * dx, k * dx);
  return { origin: [0, 0, 0], cellSize: dx, dims: [n, n, n], phi: values };
}

describe('levelSetSurface', () => {
  it('a level-set sphere gives one closed outward shell within 5 % of its volume, normals radial', () => {
    const dx = 0.05, R = 0.3, c = [0.52, 0.49, 0.5];
    const input = sampled(21, dx, (x, y, z) => Math.hypot(x - c[0], y - c[1], z - c[2]) - R);
    const mesh = levelSetSurface(input, defaults);
    const rep = checkMesh(mesh);
    expect(rep).toMatchObject({ closed: true, oriented: true, outward: true, degenerate: 0, shells: 1 });
    expect(Math.abs(rep.volume / ((4 / 3) * Math.PI * R ** 3) - 1)).toBeLessThan(0.05);
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const d = [0, 1, 2].map((a) => mesh.positions[3 * v + a] - c[a]);
      expect(angleDeg(mesh.normals[3 * v], mesh.normals[3 * v + 1], mesh.normals[3 * v + 2], d[0], d[1], d[2])).toBeLessThan(10);
    }
  });

  it('follows the resolution rule: spacing = resolution × cellSize / 2', () => {
    const dx = 0.05, R = 0.3;
    const input = sampled(21, dx, (x, y, z) => Math.hypot(x - 0.5, y - 0.5, z - 0.5) - R);
    const fine = checkMesh(levelSetSurface(input, { ...defaults, resolution: 1 }));
    const coarse = checkMesh(levelSetSurface(input, { ...defaults, resolution: 2 }));
    // Triangles scale with (1 / spacing)²: about four times as many at half the spacing.
    expect(fine.triangles / coarse.triangles).toBeGreaterThan(3);
    expect(fine.triangles / coarse.triangles).toBeLessThan(5);
    expect(coarse.closed).toBe(true);
  });

  it('liquid filling the whole sampled box is closed off at the box', () => {
    const dx = 0.1;
    const input = sampled(8, dx, () => -1);
    const rep = checkMesh(levelSetSurface(input, defaults));
    expect(rep).toMatchObject({ closed: true, oriented: true, outward: true, shells: 1 });
    expect(rep.volume).toBeCloseTo((7 * dx) ** 3, 2);
  });

  it('colours come from the callback, and an empty level set gives an empty mesh', () => {
    const input = sampled(12, 0.1, (x, y, z) => Math.hypot(x - 0.55, y - 0.55, z - 0.55) - 0.3);
    input.colors = (x, _y, _z, out) => out.set(x < 0.55 ? [1, 0, 0] : [0, 0, 1]);
    const mesh = levelSetSurface(input, defaults);
    for (let v = 0; v < mesh.positions.length / 3; v++) expect(mesh.colors![3 * v]).toBe(mesh.positions[3 * v] < 0.55 ? 1 : 0);
    const empty = levelSetSurface(sampled(6, 0.1, () => 1), defaults);
    expect(empty.indices.length).toBe(0);
  });
});
