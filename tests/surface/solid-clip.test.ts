/**
 * The drawn level set cut by the solids (surface/solid-clip.ts), on samples as the grid hands them
 * over: a wall 0.06 thick across x (0.30–0.36), liquid on its near side, air on its far side, and
 * the wall's one sample column holding a negative φ (the mean of its liquid and air neighbours, as
 * grid/redistance.ts fillSolidPhi leaves it). Uncut, the liquid's surface runs through the wall and
 * out past its far face; cut, it lies on the near face and nothing is drawn past the far one.
 */
import { describe, expect, it } from 'vitest';
import { checkMesh, levelSetSurface, type LevelSetInput } from '../../src/index.ts';
import { levelSetAt } from '../../src/surface/level-set.ts';
import { defaults } from './helpers.ts';

const n = 16, dx = 0.05, near = 0.3, far = 0.36;

function input(cut: boolean): LevelSetInput {
  const phi = new Float32Array(n * n * n);
  for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    const x = i * dx;
    // Liquid up into the wall, the wall's sample (x = 0.35) at −0.03, air past it (+0.01 at 0.40).
    phi[i + n * (j + n * k)] = x < 0.32 ? x - 0.33 : x < 0.38 ? -0.03 : x - 0.39;
  }
  // The wall as the pose carries it: a slab 0.06 × 2 × 2 at the origin, turned 90° about x, moved to x = 0.33.
  const R = new Float64Array([1, 0, 0, 0, 0, -1, 0, 1, 0]), t = new Float64Array([0.33, 0.4, 0.4]);
  return { origin: [0, 0, 0], cellSize: dx, dims: [n, n, n], phi, ...(cut ? { solids: [{ shape: { type: 'box', center: [0, 0, 0], size: [0.06, 2, 2], rotation: [0, 0, 0] }, R, t }] } : {}) };
}

describe('the drawn level set cut by the solids', () => {
  it('puts the liquid against a thin wall on its near face and draws nothing past its far face', () => {
    const uncut = levelSetSurface(input(false), defaults), cut = levelSetSurface(input(true), defaults);
    const xs = (m: typeof cut) => Array.from({ length: m.positions.length / 3 }, (_, v) => m.positions[3 * v]);
    // Uncut: the surface crosses between the wall's sample (−0.03) and the air's (+0.01), at x = 0.3875.
    expect(Math.max(...xs(uncut))).toBeGreaterThan(far + 0.01);
    const xc = xs(cut);
    expect(Math.max(...xc)).toBeLessThanOrEqual(near + 1e-4);
    // The side facing the wall lies on it, its normals along +x.
    const facing = xc.map((x, v) => [x, cut.normals[3 * v]]).filter(([, nx]) => nx > 0.9);
    expect(facing.length).toBeGreaterThan(100);
    for (const [x] of facing) expect(Math.abs(x - near)).toBeLessThan(1e-4); // a 250th of the lattice spacing (float32 values)
    expect(checkMesh(cut)).toMatchObject({ closed: true, oriented: true, outward: true, shells: 1 });
    // levelSetAt reads the cut φ as the mesher does: liquid before the wall, none in it or past it.
    const at = (x: number) => levelSetAt(input(true), x, 0.4, 0.4);
    expect(at(0.29)).toBeLessThan(0);
    expect(at(0.33)).toBeGreaterThan(0);
    expect(at(0.37)).toBeGreaterThan(0);
    expect(levelSetAt(input(false), 0.37, 0.4, 0.4)).toBeLessThan(0);
  });
});
