import { describe, expect, it } from 'vitest';
import { checkMesh, type Mesh } from '../../src/index.ts';

/** Unit cube [0, 1]³ (scaled by s, moved by t), outward counter-clockwise triangles. */
function cube(s = 1, t = [0, 0, 0]): { positions: number[]; indices: number[] } {
  const positions: number[] = [];
  for (let c = 0; c < 8; c++) positions.push(t[0] + s * (c & 1), t[1] + s * ((c >> 1) & 1), t[2] + s * ((c >> 2) & 1));
  // Two triangles per face, wound counter-clockwise seen from outside.
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const indices: number[] = [];
  for (const [a, b, c, d] of quads) indices.push(a, b, c, a, c, d);
  return { positions, indices };
}

function mesh(parts: { positions: number[]; indices: number[] }[]): Mesh {
  const positions: number[] = [], indices: number[] = [];
  for (const p of parts) {
    const base = positions.length / 3;
    positions.push(...p.positions);
    indices.push(...p.indices.map((i) => i + base));
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(positions.length), indices: new Uint32Array(indices) };
}

describe('checkMesh', () => {
  it('accepts a closed outward cube and measures its volume', () => {
    const r = checkMesh(mesh([cube(2, [5, 5, 5])]));
    expect(r).toMatchObject({ closed: true, boundaryEdges: 0, nonManifoldEdges: 0, oriented: true, outward: true, degenerate: 0, shells: 1, triangles: 12, vertices: 8 });
    expect(r.volume).toBeCloseTo(8, 5);
  });

  it('detects a hole', () => {
    const c = cube();
    c.indices.splice(0, 3);
    const r = checkMesh(mesh([c]));
    expect(r.closed).toBe(false);
    expect(r.boundaryEdges).toBe(3);
  });

  it('detects a flipped triangle', () => {
    const c = cube();
    [c.indices[1], c.indices[2]] = [c.indices[2], c.indices[1]];
    const r = checkMesh(mesh([c]));
    expect(r.closed).toBe(true);
    expect(r.oriented).toBe(false);
  });

  it('detects an inside-out shell', () => {
    const c = cube();
    for (let t = 0; t < c.indices.length; t += 3) [c.indices[t + 1], c.indices[t + 2]] = [c.indices[t + 2], c.indices[t + 1]];
    const r = checkMesh(mesh([c]));
    expect(r.oriented).toBe(true);
    expect(r.outward).toBe(false);
    expect(r.volume).toBeCloseTo(-1, 5);
  });

  it('detects degenerate triangles: a repeated vertex and collinear vertices', () => {
    const c = cube();
    c.positions.push(0.5, 0, 0, 2, 0, 0);
    c.indices.push(0, 0, 1, 0, 8, 1, 9, 1, 0);
    const r = checkMesh(mesh([c]));
    expect(r.degenerate).toBe(3);
    const clean = checkMesh(mesh([cube()]));
    expect(clean.degenerate).toBe(0);
  });

  it('counts shells and accepts an inward cavity nested in an outward shell', () => {
    expect(checkMesh(mesh([cube(), cube(1, [3, 0, 0])])).shells).toBe(2);
    const cavity = cube(1, [1, 1, 1]);
    for (let t = 0; t < cavity.indices.length; t += 3) [cavity.indices[t + 1], cavity.indices[t + 2]] = [cavity.indices[t + 2], cavity.indices[t + 1]];
    const r = checkMesh(mesh([cube(3), cavity]));
    expect(r).toMatchObject({ closed: true, oriented: true, outward: true, shells: 2 });
    expect(r.volume).toBeCloseTo(26, 4);
  });

  it('detects an edge shared by more than two triangles', () => {
    const c = cube();
    c.positions.push(0.5, -1, 0.5);
    c.indices.push(0, 1, 8);
    const r = checkMesh(mesh([c]));
    expect(r.nonManifoldEdges).toBe(1);
    expect(r.closed).toBe(false);
  });
});
