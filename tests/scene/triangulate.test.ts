import { describe, expect, it } from 'vitest';
import { shapeMesh } from '../../src/scene/triangulate.ts';
import { compileShape } from '../../src/scene/shapes.ts';
import { createSimulation, type EngineName, parseScene, type Shape } from '../../src/index.ts';
import { openEdges, signedVolume, toTriMesh, weldIndices } from './geometry-helpers.ts';

const closedShapes: [string, Shape][] = [
  ['sphere', { type: 'sphere', center: [0.1, -0.2, 0.3], radius: 0.2 }],
  ['rotated box', { type: 'box', center: [0.5, 0, 0], size: [0.3, 0.1, 0.2], rotation: [30, 45, 60] }],
  ['cylinder', { type: 'cylinder', center: [0, 0.1, 0], radius: 0.1, height: 0.3, axis: [1, 2, 0], wall: 0 }],
  ['cup', { type: 'cylinder', center: [0, 0, 0], radius: 0.1, height: 0.2, axis: [0, 1, 0], wall: 0.02 }],
  ['tilted cup', { type: 'cylinder', center: [0.2, 0, 0], radius: 0.05, height: 0.08, axis: [1, 1, 1], wall: 0.01 }],
  ['capsule', { type: 'capsule', a: [0, 0, 0], b: [0.2, 0.1, -0.1], radius: 0.05 }],
  ['degenerate capsule', { type: 'capsule', a: [0, 0, 0], b: [0, 0, 0], radius: 0.05 }],
];

describe('shapeMesh', () => {
  for (const [name, shape] of closedShapes) {
    it(`${name}: closed, outward, on the surface, volume within tessellation error`, () => {
      const m = shapeMesh(shape, {}, 64);
      const compiled = compileShape(shape);
      // Closed and consistently oriented once crease duplicates are welded.
      expect(openEdges(weldIndices(m.positions, m.indices))).toBe(0);
      // Outward: positive volume, within 2 % of the exact one at 64 segments.
      const vol = signedVolume(m.positions, m.indices);
      expect(vol).toBeGreaterThan(0);
      expect(Math.abs(vol - compiled.volume) / compiled.volume).toBeLessThan(0.02);
      const n = m.positions.length / 3;
      expect(m.normals.length).toBe(3 * n);
      for (let v = 0; v < n; v++) {
        const x = m.positions[3 * v], y = m.positions[3 * v + 1], z = m.positions[3 * v + 2];
        const nx = m.normals[3 * v], ny = m.normals[3 * v + 1], nz = m.normals[3 * v + 2];
        // Vertices lie on the surface (Float32 round-off), normals are unit and point outward: the
        // sdf rises by ≥ e across the surface along them (2e on smooth parts, e at a crease, where
        // one side of the step stays on the adjacent face).
        expect(Math.abs(compiled.sdf(x, y, z))).toBeLessThan(1e-6);
        expect(Math.abs(Math.hypot(nx, ny, nz) - 1)).toBeLessThan(1e-6);
        const e = 1e-3;
        const rise = compiled.sdf(x + e * nx, y + e * ny, z + e * nz) - compiled.sdf(x - e * nx, y - e * ny, z - e * nz);
        expect(rise).toBeGreaterThan(0.9 * e);
      }
    });
  }

  it('triangle winding agrees with the vertex normals', () => {
    for (const [, shape] of closedShapes) {
      const m = shapeMesh(shape, {}, 16);
      const p = m.positions, ix = m.indices;
      for (let t = 0; t < ix.length; t += 3) {
        const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
        const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
        const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
        const fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx;
        const dot = fx * (m.normals[a] + m.normals[b] + m.normals[c]) +
          fy * (m.normals[a + 1] + m.normals[b + 1] + m.normals[c + 1]) +
          fz * (m.normals[a + 2] + m.normals[b + 2] + m.normals[c + 2]);
        expect(dot).toBeGreaterThan(0);
      }
    }
  });

  it('plane: its drawn square facing along the normal', () => {
    const m = shapeMesh({ type: 'plane', point: [1, 2, 3], normal: [0, 0, 2], extent: 0.5 });
    expect(m.indices.length).toBe(6);
    const p = m.positions, ix = m.indices;
    for (let v = 0; v < 4; v++) {
      expect(p[3 * v + 2]).toBeCloseTo(3, 6);
      expect(Math.abs(p[3 * v] - 1)).toBeCloseTo(0.5, 6);
      expect(Math.abs(p[3 * v + 1] - 2)).toBeCloseTo(0.5, 6);
      expect([...m.normals.subarray(3 * v, 3 * v + 3)]).toEqual([0, 0, 1]);
    }
    for (let t = 0; t < 6; t += 3) {
      const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
      const fz = (p[b] - p[a]) * (p[c + 1] - p[a + 1]) - (p[b + 1] - p[a + 1]) * (p[c] - p[a]);
      expect(fz).toBeGreaterThan(0);
    }
  });

  it('mesh: the loaded mesh transformed, with outward normals', () => {
    const ball = toTriMesh(shapeMesh({ type: 'sphere', center: [0, 0, 0], radius: 1 }, {}, 24));
    const shape: Shape = { type: 'mesh', file: 'ball.obj', scale: 0.1, translate: [1, 0, 0], rotation: [0, 0, 90] };
    const m = shapeMesh(shape, { 'ball.obj': ball });
    expect(m.indices.length).toBe(ball.indices.length);
    for (let v = 0; v < m.positions.length / 3; v++) {
      const x = m.positions[3 * v] - 1, y = m.positions[3 * v + 1], z = m.positions[3 * v + 2];
      expect(Math.hypot(x, y, z)).toBeCloseTo(0.1, 6);
      // Smooth normals of a sphere point away from its centre.
      const dot = (x * m.normals[3 * v] + y * m.normals[3 * v + 1] + z * m.normals[3 * v + 2]) / 0.1;
      expect(dot).toBeGreaterThan(0.99);
    }
    expect(() => shapeMesh({ ...shape, file: 'missing.obj' } as Shape, {})).toThrow(/missing\.obj/);
  });
});

describe('solids() of both engines', () => {
  const ball: Shape = { type: 'sphere', center: [0, 0.02, 0], radius: 0.015 };
  const cup: Shape = { type: 'cylinder', center: [0.03, 0.02, 0], radius: 0.012, height: 0.02, axis: [0, 1, 0], wall: 0.003 };
  const scene = parseScene({
    fps: 30, duration: 0.1,
    domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.06, 0.05] },
    materials: {
      honey: { kind: 'liquid', density: 1400, viscosity: { value: 2, unit: 'Pa.s' } },
      steel: { kind: 'solid', friction: 0.2, color: '#808080' },
    },
    bodies: [
      { material: 'honey', shape: { type: 'box', center: [-0.03, 0.045, 0], size: [0.012, 0.012, 0.012] } },
      { name: 'ball', material: 'steel', shape: ball },
      { name: 'cup', material: 'steel', shape: cup },
    ],
    particle: { radius: 0.002 },
    grid: { cellSize: 0.005 },
  });

  it.each(['particle', 'grid'] as EngineName[])('%s: draws each solid with the shared shapeMesh, in scene order', (engine) => {
    const sim = createSimulation(scene, engine);
    try {
      const views = sim.solids();
      expect(views.map((v) => v.name)).toEqual(['ball', 'cup']);
      expect(views[0].mesh).toEqual(shapeMesh(ball));
      expect(views[1].mesh).toEqual(shapeMesh(cup));
    } finally {
      sim.dispose();
    }
  });
});
