import { describe, expect, it } from 'vitest';
import type { Shape, Vec3 } from '../../src/index.ts';
import { sampleSurface, sampleVolume } from '../../src/scene/sample.ts';
import { compileShape, type CompiledShape } from '../../src/scene/shapes.ts';
import { shapeMesh } from '../../src/scene/triangulate.ts';
import { HashGrid } from '../../src/spatial/hash-grid.ts';
import { toTriMesh } from './geometry-helpers.ts';

const ball = toTriMesh(shapeMesh({ type: 'sphere', center: [0, 0, 0], radius: 1 }, {}, 48));
const meshes = { 'ball.obj': ball };

const shapes: [string, Shape][] = [
  ['sphere', { type: 'sphere', center: [0.01, 0.02, -0.03], radius: 0.04 }],
  ['rotated box', { type: 'box', center: [0, 0.1, 0], size: [0.08, 0.03, 0.05], rotation: [30, 20, 10] }],
  ['cylinder', { type: 'cylinder', center: [0, 0, 0], radius: 0.03, height: 0.06, axis: [0, 1, 0], wall: 0 }],
  ['tilted cup', { type: 'cylinder', center: [0, 0, 0], radius: 0.04, height: 0.05, axis: [1, 2, 0], wall: 0.008 }],
  ['capsule', { type: 'capsule', a: [0, 0, 0], b: [0.06, 0.03, 0], radius: 0.02 }],
  ['mesh', { type: 'mesh', file: 'ball.obj', scale: 0.04, translate: [0.1, 0, 0], rotation: [0, 0, 0] }],
];

/** Nearest-sample distance from (x, y, z) through a hash grid of cell `cell` (searching 2 cells out). */
function nearest(grid: HashGrid, P: Float64Array, x: number, y: number, z: number, skip: number, cells: Int32Array): number {
  const m = grid.cellsNear(x, y, z, cells, 2);
  let best = Infinity;
  for (let q = 0; q < m; q++) {
    const c = cells[q];
    for (let a = grid.start[c]; a < grid.start[c] + grid.count[c]; a++) {
      const o = grid.order[a];
      if (o === skip) continue;
      best = Math.min(best, Math.hypot(P[3 * o] - x, P[3 * o + 1] - y, P[3 * o + 2] - z));
    }
  }
  return best;
}

function gradient(s: CompiledShape, x: number, y: number, z: number, e: number): Vec3 {
  const g: Vec3 = [
    s.sdf(x + e, y, z) - s.sdf(x - e, y, z),
    s.sdf(x, y + e, z) - s.sdf(x, y - e, z),
    s.sdf(x, y, z + e) - s.sdf(x, y, z - e),
  ];
  const l = Math.hypot(...g);
  return [g[0] / l, g[1] / l, g[2] / l];
}

describe('sampleSurface', () => {
  const spacing = 0.004;
  for (const [name, shape] of shapes) {
    it(`${name}: on the surface, outward normals, even spacing, no holes, count ≈ area/spacing²`, () => {
      const c = compileShape(shape, meshes);
      const s = sampleSurface(c, spacing);
      const P = s.positions, N = s.normals;
      expect(P.length).toBe(3 * s.count);
      let offGradient = 0;
      for (let i = 0; i < s.count; i++) {
        const x = P[3 * i], y = P[3 * i + 1], z = P[3 * i + 2];
        const nx = N[3 * i], ny = N[3 * i + 1], nz = N[3 * i + 2];
        expect(Math.abs(c.sdf(x, y, z))).toBeLessThan(1e-5 * spacing);
        expect(Math.abs(Math.hypot(nx, ny, nz) - 1)).toBeLessThan(1e-9);
        // The sdf rises across the surface along the normal (outward), and the normal agrees with
        // the gradient just outside — except on creases, where the normal is a blend of the faces'
        // (and a CSG sdf such as the cup's has no meaningful gradient outside a crease).
        const e = 0.05 * spacing;
        expect(c.sdf(x + e * nx, y + e * ny, z + e * nz) - c.sdf(x - e * nx, y - e * ny, z - e * nz)).toBeGreaterThan(0.9 * e);
        const g = gradient(c, x + e * nx, y + e * ny, z + e * nz, 1e-3 * e);
        const dot = g[0] * nx + g[1] * ny + g[2] * nz;
        expect(dot).toBeGreaterThan(-1e-6); // at a concave crease: one face normal, the other face's gradient
        if (dot < 0.95) offGradient++;
      }
      expect(offGradient / s.count).toBeLessThan(0.05);
      // Spacing statistics: no clumps (nearest ≥ 0.7 spacing), mean nearest ≈ spacing.
      const grid = new HashGrid(spacing);
      grid.build(P, s.count);
      const cells = new Int32Array(125);
      let minNearest = Infinity, sumNearest = 0;
      for (let i = 0; i < s.count; i++) {
        const d = nearest(grid, P, P[3 * i], P[3 * i + 1], P[3 * i + 2], i, cells);
        minNearest = Math.min(minNearest, d);
        sumNearest += d;
      }
      expect(minNearest / spacing).toBeGreaterThan(0.7);
      const mean = sumNearest / s.count / spacing;
      expect(mean).toBeGreaterThan(0.88);
      expect(mean).toBeLessThan(1.1);
      // Count: 0.85–1.1 × area/spacing² (sharp edges and small radii of curvature lose a little).
      // The mesh is a tessellated sphere of about the same area.
      const ratio = s.count / (c.area / spacing ** 2);
      expect(ratio).toBeGreaterThan(0.85);
      expect(ratio).toBeLessThan(1.1);
      // Holes: every point of a 3× finer sampling of the surface is within 0.9 spacing of a sample
      // (holes < 1.8 spacing wide), and 99.5 % are within 0.75 spacing (holes < 1.5 spacing).
      const fine = sampleSurface(c, spacing / 3);
      let worst = 0, far = 0;
      for (let i = 0; i < fine.count; i++) {
        const d = nearest(grid, P, fine.positions[3 * i], fine.positions[3 * i + 1], fine.positions[3 * i + 2], -1, cells) / spacing;
        worst = Math.max(worst, d);
        if (d > 0.75) far++;
      }
      expect(worst).toBeLessThan(0.9);
      expect(far / fine.count).toBeLessThan(0.005);
    });
  }

  it('is deterministic', () => {
    const c = compileShape(shapes[3][1]);
    const a = sampleSurface(c, 0.005), b = sampleSurface(c, 0.005);
    expect(a.count).toBe(b.count);
    expect(a.positions).toEqual(b.positions);
    expect(a.normals).toEqual(b.normals);
  });

  it('plane: a square lattice of half-width extent, facing along the normal', () => {
    const c = compileShape({ type: 'plane', point: [0, 1, 0], normal: [0, 2, 0], extent: 0.1 });
    const s = sampleSurface(c, 0.01);
    expect(s.count).toBe(400);
    for (let i = 0; i < s.count; i++) {
      expect(s.positions[3 * i + 1]).toBeCloseTo(1, 12);
      expect(Math.abs(s.positions[3 * i])).toBeLessThan(0.1);
      expect(Math.abs(s.positions[3 * i + 2])).toBeLessThan(0.1);
      expect([...s.normals.subarray(3 * i, 3 * i + 3)]).toEqual([0, 1, 0]);
    }
    const tilted = sampleSurface(compileShape({ type: 'plane', point: [0, 0, 0], normal: [1, 1, 1], extent: 0.05 }), 0.01);
    expect(tilted.count).toBe(100);
    for (let i = 0; i < 3; i++) expect(tilted.normals[i]).toBeCloseTo(1 / Math.sqrt(3), 9);
  });
});

describe('sampleVolume', () => {
  /** Brute force: every lattice point in the bounds with sdf < 0. */
  function brute(c: CompiledShape, h: number, o: Vec3): number[] {
    const out: number[] = [];
    const lo = [0, 1, 2].map((a) => Math.ceil((c.bounds.min[a] - o[a]) / h));
    const hi = [0, 1, 2].map((a) => Math.floor((c.bounds.max[a] - o[a]) / h));
    for (let k = lo[2]; k <= hi[2]; k++) for (let j = lo[1]; j <= hi[1]; j++) for (let i = lo[0]; i <= hi[0]; i++) {
      const x = o[0] + i * h, y = o[1] + j * h, z = o[2] + k * h;
      if (c.sdf(x, y, z) < 0) out.push(x, y, z);
    }
    return out;
  }

  for (const [name, shape] of shapes) {
    it(`${name}: exactly the lattice points inside (skipping along rows loses none)`, () => {
      const c = compileShape(shape, meshes);
      for (const [h, o] of [[0.004, [0, 0, 0]], [0.0031, [0.001, -0.0005, 0.0002]]] as [number, Vec3][]) {
        const got = sampleVolume(c, h, o);
        expect([...got]).toEqual(brute(c, h, o));
        // Count ≈ volume / h³ (a lattice estimate of the volume; within 6 % at these resolutions).
        expect(Math.abs(got.length / 3 / (c.volume / h ** 3) - 1)).toBeLessThan(0.06);
      }
    });
  }

  it('a plane has no finite volume', () => {
    expect(() => sampleVolume(compileShape({ type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 1 }), 0.1)).toThrow(/half-space/);
  });
});
