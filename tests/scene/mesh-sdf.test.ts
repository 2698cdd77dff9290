import { describe, expect, it } from 'vitest';
import type { Shape, TriMesh } from '../../src/index.ts';
import { buildMeshSdf } from '../../src/scene/mesh-sdf.ts';
import { compileShape } from '../../src/scene/shapes.ts';
import { shapeMesh } from '../../src/scene/triangulate.ts';
import { rng, toTriMesh } from './geometry-helpers.ts';

/** Brute-force unsigned distance to a triangle soup, by dense barycentric-free projection (reference). */
function bruteDistance(m: TriMesh, x: number, y: number, z: number): number {
  let best = Infinity;
  const p = m.positions, ix = m.indices;
  for (let t = 0; t < ix.length; t += 3) {
    const a = [p[3 * ix[t]], p[3 * ix[t] + 1], p[3 * ix[t] + 2]];
    const b = [p[3 * ix[t + 1]], p[3 * ix[t + 1] + 1], p[3 * ix[t + 1] + 2]];
    const c = [p[3 * ix[t + 2]], p[3 * ix[t + 2] + 1], p[3 * ix[t + 2] + 2]];
    best = Math.min(best, pointTriangle([x, y, z], a, b, c));
  }
  return best;
}

/** Distance point–triangle by minimizing over the face (if the projection is inside) and the 3 edges. */
function pointTriangle(q: number[], a: number[], b: number[], c: number[]): number {
  const sub = (u: number[], v: number[]) => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const dot = (u: number[], v: number[]) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const seg = (u: number[], v: number[]) => {
    const d = sub(v, u), w = sub(q, u);
    const t = Math.max(0, Math.min(1, dot(w, d) / dot(d, d)));
    return Math.hypot(w[0] - t * d[0], w[1] - t * d[1], w[2] - t * d[2]);
  };
  let best = Math.min(seg(a, b), seg(b, c), seg(c, a));
  const n = cross(sub(b, a), sub(c, a));
  const nn = Math.sqrt(dot(n, n));
  if (nn > 0) {
    const h = dot(sub(q, a), n) / nn;
    const proj = [q[0] - (h * n[0]) / nn, q[1] - (h * n[1]) / nn, q[2] - (h * n[2]) / nn];
    const inside = [[a, b], [b, c], [c, a]].every(([u, v]) => dot(cross(sub(v, u), sub(proj, u)), n) >= 0);
    if (inside) best = Math.min(best, Math.abs(h));
  }
  return best;
}

describe('buildMeshSdf', () => {
  it('matches a triangulated sphere within the tessellation error, with the right sign', () => {
    const r = 0.5, seg = 48;
    const mesh = toTriMesh(shapeMesh({ type: 'sphere', center: [0.1, 0.2, -0.3], radius: r }, {}, seg));
    const sdf = buildMeshSdf(mesh);
    // Vertices are on the sphere; a facet is at most r (1 − cos(2π/seg)) inside it.
    const tolerance = r * (1 - Math.cos((2 * Math.PI) / seg)) + 1e-6;
    const rand = rng(7);
    for (let i = 0; i < 3000; i++) {
      const x = 0.1 + 2 * (rand() - 0.5), y = 0.2 + 2 * (rand() - 0.5), z = -0.3 + 2 * (rand() - 0.5);
      const exact = Math.hypot(x - 0.1, y - 0.2, z + 0.3) - r;
      const d = sdf(x, y, z);
      expect(Math.abs(d - exact)).toBeLessThanOrEqual(tolerance);
      if (Math.abs(exact) > tolerance) expect(Math.sign(d)).toBe(Math.sign(exact));
    }
  });

  it('is exact for a rotated box (to round-off), including near edges and corners', () => {
    const shape: Shape = { type: 'box', center: [0.2, -0.1, 0.05], size: [0.4, 0.2, 0.3], rotation: [20, 35, -50] };
    const exact = compileShape(shape);
    const sdf = buildMeshSdf(toTriMesh(shapeMesh(shape)));
    const rand = rng(11);
    for (let i = 0; i < 5000; i++) {
      const x = 0.2 + 0.8 * (rand() - 0.5), y = -0.1 + 0.8 * (rand() - 0.5), z = 0.05 + 0.8 * (rand() - 0.5);
      // Float32 vertices of the mesh: about 1e-7 m.
      expect(Math.abs(sdf(x, y, z) - exact.sdf(x, y, z))).toBeLessThan(1e-6);
    }
  });

  it('signs a non-convex cup correctly everywhere away from the surface', () => {
    const shape: Shape = { type: 'cylinder', center: [0, 0, 0], radius: 0.1, height: 0.16, axis: [1, 2, 0.5], wall: 0.02 };
    const exact = compileShape(shape);
    const seg = 64;
    const sdf = buildMeshSdf(toTriMesh(shapeMesh(shape, {}, seg)));
    const tolerance = 0.1 * (1 - Math.cos(Math.PI / seg)) + 1e-6;
    const rand = rng(3);
    let inside = 0;
    for (let i = 0; i < 20000; i++) {
      const x = 0.3 * (rand() - 0.5), y = 0.3 * (rand() - 0.5), z = 0.3 * (rand() - 0.5);
      const e = exact.sdf(x, y, z), d = sdf(x, y, z);
      // The cup's analytic sdf (a CSG max) is exact inside and a lower bound outside.
      if (e < 0) expect(Math.abs(d - e)).toBeLessThanOrEqual(2 * tolerance);
      else expect(d).toBeGreaterThanOrEqual(e - 2 * tolerance);
      if (Math.abs(e) > 2 * tolerance) expect(Math.sign(d)).toBe(Math.sign(e));
      if (d < 0) inside++;
    }
    expect(inside).toBeGreaterThan(100); // the test did probe the wall
  });

  it('agrees with brute force on a random closed mesh (a jittered sphere)', () => {
    const base = toTriMesh(shapeMesh({ type: 'sphere', center: [0, 0, 0], radius: 1 }, {}, 12));
    const rand = rng(5);
    for (let i = 0; i < base.positions.length; i++) base.positions[i] *= 1 + 0.3 * (rand() - 0.5);
    const sdf = buildMeshSdf(base);
    for (let i = 0; i < 400; i++) {
      const x = 3 * (rand() - 0.5), y = 3 * (rand() - 0.5), z = 3 * (rand() - 0.5);
      expect(Math.abs(sdf(x, y, z))).toBeCloseTo(bruteDistance(base, x, y, z), 12);
    }
    // The centre is inside, far away is outside.
    expect(sdf(0, 0, 0)).toBeLessThan(0);
    expect(sdf(5, 0, 0)).toBeGreaterThan(0);
  });

  it('returns 0 on vertices and Infinity for an empty mesh', () => {
    const mesh = toTriMesh(shapeMesh({ type: 'box', center: [0, 0, 0], size: [1, 1, 1], rotation: [0, 0, 0] }));
    const sdf = buildMeshSdf(mesh);
    expect(sdf(0.5, 0.5, 0.5)).toBe(0);
    expect(sdf(0.5, 0, 0)).toBe(0);
    expect(buildMeshSdf({ positions: new Float64Array(0), indices: new Uint32Array(0) })(0, 0, 0)).toBe(Infinity);
  });

  it('compileShape uses it for mesh bodies', () => {
    const ball = toTriMesh(shapeMesh({ type: 'sphere', center: [0, 0, 0], radius: 1 }, {}, 32));
    const shape = compileShape({ type: 'mesh', file: 'b.obj', scale: 0.2, translate: [1, 2, 3], rotation: [0, 0, 0] }, { 'b.obj': ball });
    expect(shape.sdf(1, 2, 3)).toBeCloseTo(-0.2, 2);
    expect(shape.sdf(1.5, 2, 3)).toBeCloseTo(0.3, 2);
  });
});
