/** Solids posed from the scene for a run that recorded none, and the domain's floor. */
import { describe, expect, it } from 'vitest';
import { parseScene } from '../../src/index.ts';
import { domainFloor, joinMeshes, sceneSolids } from '../../src/preview/scene-solids.ts';

const scene = (extra: Record<string, unknown> = {}) =>
  parseScene({
    name: 'posed',
    fps: 30,
    duration: 1,
    materials: {
      syrup: { kind: 'liquid', density: 1300, viscosity: { value: 2, unit: 'Pa.s' } },
      steel: { kind: 'solid', color: [1, 0, 0] },
      pine: { kind: 'solid', density: 500, color: [0, 1, 0] },
    },
    bodies: [
      { name: 'slider', material: 'steel', shape: { type: 'box', center: [0, 0, 0], size: [0.02, 0.02, 0.02] }, motion: { type: 'linear', velocity: [0.1, 0, 0] } },
      { name: 'float', material: 'pine', shape: { type: 'sphere', center: [0, 0.1, 0], radius: 0.01 }, motion: { type: 'free' } },
      { material: 'syrup', shape: { type: 'sphere', center: [0, 0.2, 0], radius: 0.01 } },
    ],
    ...extra,
  });

describe('solids posed from the scene', () => {
  it('moves each body by its motion at the time asked, coloured by its material, and names the free ones', () => {
    const at = sceneSolids(scene());
    const s0 = at(0), s1 = at(0.5);
    expect(s0.unposed).toEqual(['float']);
    // The liquid body is not a solid: a box (24 vertices) and a sphere.
    expect(s0.mesh.positions.length).toBe(s1.mesh.positions.length);
    const xs = (m: Float32Array, from: number, to: number) => Array.from(m.subarray(3 * from, 3 * to)).filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs(s1.mesh.positions, 0, 24))).toBeCloseTo(-0.01 + 0.05, 6);
    expect(Math.max(...xs(s0.mesh.positions, 0, 24))).toBeCloseTo(0.01, 6);
    // The free sphere stays where it starts.
    expect(Array.from(s1.mesh.positions.subarray(72))).toEqual(Array.from(s0.mesh.positions.subarray(72)));
    expect(Array.from(s1.mesh.colors!.subarray(0, 3))).toEqual([1, 0, 0]);
    expect(Array.from(s1.mesh.colors!.subarray(72, 75))).toEqual([0, 1, 0]);
  });

  it("draws the domain's floor unless its lower face is open, and joins meshes", () => {
    expect(domainFloor(scene())).toBeNull();
    const floor = domainFloor(scene({ domain: { min: [-0.1, -0.05, -0.1], max: [0.1, 0.2, 0.1] } }))!;
    expect(Array.from(floor.positions).filter((_, i) => i % 3 === 1)).toEqual([-0.05, -0.05, -0.05, -0.05].map(Math.fround));
    expect(domainFloor(scene({ domain: { min: [-0.1, -0.05, -0.1], max: [0.1, 0.2, 0.1], faces: { ymin: 'open' } } }))).toBeNull();
    const joined = joinMeshes([floor, floor]);
    expect(Array.from(joined.indices)).toEqual([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]);
    expect(joined.colors!.length).toBe(24);
  });
});
