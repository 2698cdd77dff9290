/** `solidsMesh`: solids moved by their rigid transforms and merged, with their colours. */
import { describe, expect, it } from 'vitest';
import type { SolidView } from '../../src/index.ts';
import { solidsMesh } from '../../src/cli/solids.ts';

const triangle = {
  positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
  normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
  indices: new Uint32Array([0, 1, 2]),
};
// Column-major: 90° about z, then translate by (10, 0, 0).
const rotZ90 = new Float32Array([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]);
// 90° about x: the normal +z turns to −y.
const rotX90 = new Float32Array([1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1]);

describe('solidsMesh', () => {
  it('transforms positions and normals, offsets indices and colours each solid', () => {
    const solids: SolidView[] = [
      { name: 'a', color: [1, 0, 0], mesh: triangle, transform: rotZ90 },
      { name: 'b', color: [0, 0, 1], mesh: triangle, transform: rotX90 },
    ];
    const m = solidsMesh(solids);
    // (1, 0, 0) -> rotated to (0, 1, 0) -> translated to (10, 1, 0); (0, 1, 0) -> (-1, 0, 0) + 10.
    expect(Array.from(m.positions.slice(0, 9))).toEqual([10, 0, 0, 10, 1, 0, 9, 0, 0]);
    expect(Array.from(m.positions.slice(9, 18))).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(Array.from(m.normals.slice(0, 3))).toEqual([0, 0, 1]);
    expect(Array.from(m.normals.slice(9, 12))).toEqual([0, -1, 0]);
    expect(Array.from(m.indices)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(m.colors!.slice(0, 3))).toEqual([1, 0, 0]);
    expect(Array.from(m.colors!.slice(15, 18))).toEqual([0, 0, 1]);
  });

  it('gives an empty mesh when there are no solids', () => {
    const m = solidsMesh([]);
    expect(m.positions.length).toBe(0);
    expect(m.indices.length).toBe(0);
  });
});
