/** The pieces measure of tests/scene/mesh-pieces.ts on hand-built shells. */
import { describe, expect, it } from 'vitest';
import type { Mesh } from '../../src/types/geometry.ts';
import { meshPieces, topShellFloor } from './mesh-pieces.ts';

/** Closed tetrahedra of edge `s` at corners `at`; faces wound outward, or inward (a cavity) where `inward`. */
function tetras(list: { at: [number, number, number]; s: number; inward?: boolean }[]): Mesh {
  const positions: number[] = [], indices: number[] = [];
  for (const { at, s, inward } of list) {
    const o = positions.length / 3;
    positions.push(at[0], at[1], at[2], at[0] + s, at[1], at[2], at[0], at[1] + s, at[2], at[0], at[1], at[2] + s);
    const faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    for (const f of faces) indices.push(...(inward ? [f[0], f[2], f[1]] : f).map((k) => o + k));
  }
  return { positions: Float32Array.from(positions), normals: new Float32Array(positions.length), indices: Uint32Array.from(indices) };
}

describe('mesh pieces', () => {
  const win = { min: [-1, 0, -1] as [number, number, number], max: [1, 1, 1] as [number, number, number] };

  it('counts the shells with a vertex in the box, leaving out cavities, specks and shells wholly outside', () => {
    const mesh = tetras([
      { at: [0, 0.5, 0], s: 0.1 }, // a piece (volume 0.1³/6)
      { at: [0.5, 0.5, 0], s: 0.1 }, // another
      { at: [0.2, 0.5, 0], s: 0.05, inward: true }, // a cavity
      { at: [0.3, 0.5, 0], s: 0.001 }, // a speck
      { at: [0, -0.5, 0], s: 0.1 }, // below the box
      { at: [0, -0.05, 0], s: 0.1 }, // reaches into it from below
    ]);
    expect(meshPieces(mesh, win, 1e-6)).toBe(3);
    expect(meshPieces(mesh, win, 0)).toBe(4); // the speck counted
  });

  it('reads the lowest point of the shell that holds the highest vertex', () => {
    expect(topShellFloor(tetras([{ at: [0, 0.5, 0], s: 0.2 }, { at: [0, 0, 0], s: 0.1 }]))).toBeCloseTo(0.5, 6);
    expect(Number.isNaN(topShellFloor(tetras([])))).toBe(true);
  });
});
