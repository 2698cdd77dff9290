/**
 * Several liquids on the grid (grid/liquid-tracers.ts): each keeps its colour on the surface, the
 * colours mix only where the liquids meet, a spout's tracers do not pile up, and a restored run
 * continues with the same tracers. A scene with one liquid carries none.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { linearColor } from '../../src/scene/color.ts';
import { GridSimulation } from '../../src/grid/step.ts';

const paint = (color: string) => ({ kind: 'liquid', density: 1300, viscosity: { value: 0.5, unit: 'Pa.s' }, color });
const RED = '#c8202a', BLUE = '#2a4fc8';

/** Two blocks of paint side by side in a closed box, slumping into each other. */
const twoBlocks = (tracking: string) => ({
  fps: 30,
  duration: 1,
  domain: { min: [-0.06, 0, -0.02], max: [0.06, 0.06, 0.02], boundary: 'noslip' },
  materials: { red: paint(RED), blue: paint(BLUE) },
  bodies: [
    { material: 'red', shape: { type: 'box', center: [-0.03, 0.02, 0], size: [0.06, 0.04, 0.04] } },
    { material: 'blue', shape: { type: 'box', center: [0.03, 0.02, 0], size: [0.06, 0.04, 0.04] } },
  ],
  grid: { cellSize: 0.005, tracking },
});

/** Share of vertices whose colour is within 0.05 (linear RGB, each channel) of `c`. */
function share(colors: Float32Array, positions: Float32Array, c: number[], where: (x: number) => boolean): number {
  let n = 0, hit = 0;
  for (let v = 0; v < colors.length / 3; v++) {
    if (!where(positions[3 * v])) continue;
    n++;
    if (Math.abs(colors[3 * v] - c[0]) < 0.05 && Math.abs(colors[3 * v + 1] - c[1]) < 0.05 && Math.abs(colors[3 * v + 2] - c[2]) < 0.05) hit++;
  }
  return n ? hit / n : 0;
}

describe('several liquids on the grid', () => {
  for (const tracking of ['particle-levelset', 'levelset', 'markers']) {
    it(`${tracking}: each liquid keeps its colour, and they mix only where they meet`, () => {
      const sim = createSimulation(parseScene(twoBlocks(tracking)), 'grid');
      for (let f = 0; f < 6; f++) sim.stepFrame();
      const mesh = sim.surfaceMesh();
      expect(mesh.colors).toBeDefined();
      const red = linearColor(RED), blue = linearColor(BLUE);
      // Away from the middle each side is its own paint; at the middle, something between.
      expect(share(mesh.colors!, mesh.positions, red, (x) => x < -0.02)).toBeGreaterThan(0.9);
      expect(share(mesh.colors!, mesh.positions, blue, (x) => x > 0.02)).toBeGreaterThan(0.9);
      expect(share(mesh.colors!, mesh.positions, red, (x) => x > 0.02)).toBe(0);
      expect(share(mesh.colors!, mesh.positions, blue, (x) => x < -0.02)).toBe(0);
      const middle = share(mesh.colors!, mesh.positions, red, (x) => Math.abs(x) < 0.003) + share(mesh.colors!, mesh.positions, blue, (x) => Math.abs(x) < 0.003);
      expect(middle).toBeLessThan(0.9);
    });
  }

  it('a restored run continues with the same tracers and colours', () => {
    const a = createSimulation(parseScene(twoBlocks('levelset')), 'grid');
    for (let f = 0; f < 3; f++) a.stepFrame();
    const b = restoreSimulation(a.save());
    for (let f = 0; f < 3; f++) { a.stepFrame(); b.stepFrame(); }
    expect(b.surfaceMesh().colors).toEqual(a.surfaceMesh().colors);
  });

  it('a spout of a second liquid adds tracers in proportion to what it emits, not per step', () => {
    const json = {
      ...twoBlocks('levelset'),
      bodies: [{ material: 'red', shape: { type: 'box', center: [0, 0.01, 0], size: [0.12, 0.02, 0.04] } }],
      sources: [{ material: 'blue', center: [0, 0.05, 0], direction: [0, -1, 0], radius: 0.008, speed: 0.2, start: 0, end: 0.2 }],
    };
    const sim = new GridSimulation(parseScene(json));
    sim.initialize();
    const t0 = sim.ext.liquids!.points.count;
    for (let f = 0; f < 6; f++) sim.stepFrame();
    const added = sim.ext.liquids!.points.count - t0;
    // 0.2 s of a 8 mm disk at 0.2 m/s: 8 tracers a (5 mm) cell, so about 8 × volume / h³.
    const expected = (8 * Math.PI * 0.008 ** 2 * 0.2 * 0.2) / 0.005 ** 3;
    // The disk's half-cell lattice holds a little more than its area (points on the rim count).
    expect(added).toBeGreaterThan(0.8 * expected);
    expect(added).toBeLessThan(1.3 * expected);
  });

  it('one liquid: no tracers, one colour', () => {
    const json = twoBlocks('levelset');
    json.bodies[1].material = 'red';
    const sim = new GridSimulation(parseScene(json));
    expect(sim.ext.liquids).toBeNull();
  });
});
