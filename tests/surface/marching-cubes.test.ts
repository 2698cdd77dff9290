import { describe, expect, it } from 'vitest';
import { checkMesh, type Mesh } from '../../src/index.ts';
import { polygonizers, type Lattice } from '../../src/surface/index.ts';
import { TRI_COUNT, TRI_COUNT_JOIN } from '../../src/surface/mc-tables.ts';
import { marchingCubes } from '../../src/surface/marching-cubes.ts';

function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** An n³ lattice whose border is +1 (outside) and whose interior comes from `inner`. */
function padded(n: number, inner: (i: number, j: number, k: number) => number): Lattice {
  const values = new Float32Array(n * n * n);
  for (let k = 0; k < n; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const border = i === 0 || j === 0 || k === 0 || i === n - 1 || j === n - 1 || k === n - 1;
        values[i + n * (j + n * k)] = border ? 1 : inner(i, j, k);
      }
    }
  }
  return { origin: [0, 0, 0], spacing: 1, nx: n, ny: n, nz: n, values };
}

function asMesh(p: { positions: Float32Array; indices: Uint32Array }): Mesh {
  return { positions: p.positions, normals: new Float32Array(p.positions.length), indices: p.indices };
}

describe('typed marching cubes', () => {
  it('every one of the 256 cases, alone in a padded lattice, is closed, oriented, outward and non-degenerate', () => {
    const rand = rng(11);
    for (let m = 1; m < 256; m++) {
      const lattice = padded(4, (i, j, k) => {
        const c = (i - 1) + 2 * (j - 1) + 4 * (k - 1);
        const mag = 0.05 + rand();
        return (m >> c) & 1 ? -mag : mag;
      });
      const r = checkMesh(asMesh(polygonizers['marching-cubes'](lattice)));
      expect({ m, closed: r.closed, oriented: r.oriented, outward: r.outward, degenerate: r.degenerate }).toEqual({ m, closed: true, oriented: true, outward: true, degenerate: 0 });
      expect(r.volume).toBeGreaterThan(0);
    }
    expect(Math.max(...TRI_COUNT)).toBeLessThanOrEqual(5);
  });

  it('random noise fields (every ambiguous face and cell) give closed, oriented, outward meshes', () => {
    const rand = rng(5);
    for (let trial = 0; trial < 40; trial++) {
      const lattice = padded(9, () => rand() - 0.5);
      const r = checkMesh(asMesh(polygonizers['marching-cubes'](lattice)));
      expect(r).toMatchObject({ closed: true, oriented: true, outward: true, degenerate: 0 });
    }
  });

  it('agrees with the isosurface package on a smooth field (same triangles, same volume)', () => {
    const lattice = padded(24, (i, j, k) => Math.hypot(i - 11.3, j - 12.1, k - 11.7) - 7.5);
    const ours = checkMesh(asMesh(polygonizers['marching-cubes'](lattice)));
    const theirs = checkMesh(asMesh(polygonizers['isosurface-marching-cubes'](lattice)));
    expect(theirs).toMatchObject({ closed: true, oriented: true, outward: true, shells: 1 });
    expect(theirs.triangles).toBe(ours.triangles);
    // Ours keeps crossings 1e-3 edge lengths off lattice points; otherwise the same vertices.
    expect(Math.abs(theirs.volume / ours.volume - 1)).toBeLessThan(1e-3);
    // Volume of the sphere of radius 7.5 within 2 %.
    expect(Math.abs(ours.volume / ((4 / 3) * Math.PI * 7.5 ** 3) - 1)).toBeLessThan(0.02);
    const nets = checkMesh(asMesh(polygonizers['surface-nets'](lattice)));
    expect(nets).toMatchObject({ oriented: true, outward: true, shells: 1 });
    expect(Math.abs(nets.volume / ours.volume - 1)).toBeLessThan(0.03);
  });

  it('the joining rule (ambiguous faces join their inside corners) is closed, oriented and outward too', () => {
    const rand = rng(17);
    for (let m = 1; m < 256; m++) {
      const lattice = padded(4, (i, j, k) => {
        const c = (i - 1) + 2 * (j - 1) + 4 * (k - 1);
        const mag = 0.05 + rand();
        return (m >> c) & 1 ? -mag : mag;
      });
      const r = checkMesh(asMesh(marchingCubes(lattice, 'join')));
      expect({ m, closed: r.closed, oriented: r.oriented, outward: r.outward, degenerate: r.degenerate }).toEqual({ m, closed: true, oriented: true, outward: true, degenerate: 0 });
    }
    expect(Math.max(...TRI_COUNT_JOIN)).toBeLessThanOrEqual(5);
    for (let trial = 0; trial < 40; trial++) {
      const lattice = padded(9, () => rand() - 0.5);
      expect(checkMesh(asMesh(marchingCubes(lattice, 'join')))).toMatchObject({ closed: true, oriented: true, outward: true, degenerate: 0 });
    }
  });

  it('a slab 0.9 spacings thick, tilted to the lattice, is one plate when ambiguous faces join; separating them perforates it', () => {
    // |n·x − c| < 0.45: inside points are often neighbours only across a face's diagonal.
    const n = [0.62, 0.55, 0.56], l = Math.hypot(...n);
    const lattice = padded(28, (i, j, k) => Math.abs((n[0] * i + n[1] * j + n[2] * k) / l - 23.3) - 0.45);
    const genus = (r: ReturnType<typeof checkMesh>) => r.shells - (r.vertices - (3 * r.triangles) / 2 + r.triangles) / 2;
    const joined = checkMesh(asMesh(marchingCubes(lattice, 'join')));
    expect(joined).toMatchObject({ closed: true, oriented: true, outward: true, shells: 1 });
    expect(genus(joined)).toBe(0);
    const separated = checkMesh(asMesh(marchingCubes(lattice, 'separate')));
    expect(separated.closed).toBe(true);
    expect(genus(separated) + separated.shells).toBeGreaterThan(10);
  });
});
