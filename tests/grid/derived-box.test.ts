/**
 * The grid engine's derived box (src/scene/grid-box.ts): with no `domain`, it reaches past every
 * plane into the plane's solid, so liquid falls onto the plane and not onto a box wall above it;
 * faces no plane sets are open, so liquid is not held by invisible walls.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import { gridBox, gridBoxWarnings, SOLID_CELLS } from '../../src/scene/grid-box.ts';

const honey = { kind: 'liquid', density: 1400, viscosity: { value: 0.05, unit: 'm2/s' } };
const floor = { kind: 'solid' };

function dropOnFloor(floorY: number) {
  return {
    fps: 30,
    materials: { honey, floor },
    bodies: [
      { material: 'honey', shape: { type: 'box', center: [0, 0.08, 0], size: [0.04, 0.04, 0.04] } },
      { material: 'floor', shape: { type: 'plane', point: [0, floorY, 0], normal: [0, 1, 0], extent: 0.1 } },
    ],
    grid: { cellSize: 0.01, tracking: 'markers' },
  };
}

describe('derived grid box', () => {
  it('reaches a plane floor and its solid side, and spans the floor patch', () => {
    const s = parseScene(dropOnFloor(-0.03));
    const box = gridBox(s);
    expect(box.min[1]).toBeCloseTo(-0.03 - SOLID_CELLS * 0.01, 12);
    expect(box.min[0]).toBeLessThanOrEqual(-0.1);
    expect(box.max[2]).toBeGreaterThanOrEqual(0.1);
    expect(box.derivedFaces).toEqual(['open', 'open', 'noslip', 'open', 'open', 'open']);
  });

  it('stays finite with a tilted plane and a wall, each closing the face on its solid side', () => {
    const s = parseScene({
      ...dropOnFloor(0),
      bodies: [
        ...dropOnFloor(0).bodies,
        { material: 'floor', shape: { type: 'plane', point: [0.1, 0, 0], normal: [-1, 0.2, 0], extent: 0.05 } },
      ],
    });
    const box = gridBox(s);
    for (let k = 0; k < 3; k++) expect(Number.isFinite(box.min[k]) && Number.isFinite(box.max[k])).toBe(true);
    // The wall x = 0.1 + 0.2 y over the box's height: the face lies beyond its farthest point.
    expect(box.max[0]).toBeGreaterThan(0.1 + 0.2 * box.max[1]);
    expect(box.max[0]).toBeLessThan(0.1 + 0.2 * box.max[1] + 0.03);
    expect(box.derivedFaces![1]).toBe('noslip');
  });

  it('holds a spinning body over its whole turn', () => {
    const s = parseScene({
      fps: 30,
      duration: 1,
      materials: { honey, floor },
      bodies: [
        { material: 'floor', shape: { type: 'box', center: [0.1, 0, 0], size: [0.1, 0.01, 0.02] }, motion: { type: 'spin', axis: [0, 1, 0], center: [0, 0, 0], rate: 7 } },
        { material: 'honey', shape: { type: 'sphere', center: [0, 0.1, 0], radius: 0.02 } },
      ],
    });
    const box = gridBox(s);
    expect(box.min[0]).toBeLessThan(-0.15);
    expect(box.max[2]).toBeGreaterThan(0.15);
    expect(gridBoxWarnings(s)).toEqual([]);
  });

  it('warns where a given domain cuts a body', () => {
    const s = parseScene({
      ...dropOnFloor(0),
      domain: { min: [-0.01, 0, -0.1], max: [0.1, 0.2, 0.1] },
    });
    const w = gridBoxWarnings(s);
    expect(w.length).toBe(1);
    expect(w[0]).toContain('bodies[0]');
    expect(w[0]).toContain('x < -1.0 cm');
  });

  it('warns when the liquid would spread past a derived box', () => {
    const s = parseScene({
      ...dropOnFloor(0),
      bodies: [
        { material: 'honey', shape: { type: 'box', center: [0, 0.08, 0], size: [0.1, 0.1, 0.1] } },
        { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 0.01 } },
      ],
    });
    const w = gridBoxWarnings(s);
    expect(w.some((x) => x.includes('spread'))).toBe(true);
  });

  it('lets liquid fall onto the plane: its lowest point reaches the floor within a cell', () => {
    const floorY = -0.03, h = 0.01;
    const sim = createSimulation(parseScene(dropOnFloor(floorY)), 'grid');
    for (let f = 0; f < 12; f++) sim.stepFrame();
    const m = sim.metrics();
    expect(m.fluidVolume).toBeGreaterThan(0);
    expect(m.bounds.min[1]).toBeGreaterThan(floorY - h);
    expect(m.bounds.min[1]).toBeLessThan(floorY + h);
  });
});
