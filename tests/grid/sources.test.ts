/** Sources and sinks (Cline §5): spouts add liquid at their rate, sinks remove it, blobs appear. */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';

function box(extra: Record<string, unknown>) {
  return parseScene({
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.2, 0.24, 0.2], boundary: 'noslip' },
    materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 0.05, unit: 'Pa.s' } } },
    grid: { cellSize: 0.02, tracking: 'markers' },
    ...extra,
  });
}

describe('sources and sinks', () => {
  // Markers only: the level set (no particles) cannot hold a stream a few cells wide (it thins away).
  it('a spout adds π r² s per second (markers)', () => {
    const sim = createSimulation(box({ sources: [{ material: 'syrup', center: [0.1, 0.2, 0.1], radius: 0.04, speed: 0.5, start: 0, end: 0.2 }] }), 'grid');
    for (let f = 0; f < 9; f++) sim.stepFrame();
    const expected = Math.PI * 0.04 * 0.04 * 0.5 * 0.2;
    // One marker layer per d/s over the disk, counted as h³ / markersPerCell each: within 10 %.
    expect(sim.metrics().fluidVolume).toBeGreaterThan(0.9 * expected);
    expect(sim.metrics().fluidVolume).toBeLessThan(1.1 * expected);
  });

  it('a sink removes the liquid that reaches it', () => {
    const sim = createSimulation(box({
      bodies: [{ material: 'syrup', shape: { type: 'box', center: [0.1, 0.04, 0.1], size: [0.2, 0.08, 0.2] } }],
      sinks: [{ shape: { type: 'box', center: [0.1, 0, 0.1], size: [0.2, 0.05, 0.2] }, start: 0.05 }],
    }), 'grid');
    const v0 = sim.metrics().fluidVolume;
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const v = sim.metrics().fluidVolume;
    expect(v).toBeLessThan(0.8 * v0);
    expect(v).toBeGreaterThan(0);
  });

  it('a body with a start time appears then as a blob source', () => {
    const sim = createSimulation(box({
      bodies: [{ material: 'syrup', shape: { type: 'sphere', center: [0.1, 0.12, 0.1], radius: 0.05 }, start: 0.1, velocity: [0, -1, 0] }],
    }), 'grid');
    sim.stepFrame();
    expect(sim.metrics().fluidVolume).toBe(0);
    for (let f = 0; f < 3; f++) sim.stepFrame();
    const m = sim.metrics();
    expect(m.fluidVolume).toBeGreaterThan(0.8 * (4 / 3) * Math.PI * 0.05 ** 3);
    expect(m.momentum[1]).toBeLessThan(0);
  });
});
