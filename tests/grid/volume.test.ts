/**
 * Volume accounting of the grid engine (Metrics.volumeExpected, volumeChange, liquidGone): what
 * spouts put in and sinks take out is counted, a simulation whose liquid has all gone says so with
 * finite metrics, and a level set holds its volume while liquid slumps and spreads.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';

const water = { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } };

describe('volume accounting', () => {
  for (const tracking of ['markers', 'levelset', 'particle-levelset'] as const) {
    it(`counts a spout's liquid in and a sink's out (${tracking})`, () => {
      const sim = createSimulation(parseScene({
        fps: 30,
        domain: { min: [0, 0, 0], max: [0.1, 0.2, 0.05], boundary: 'noslip', faces: { ymax: 'open' } },
        materials: { water },
        sources: [{ material: 'water', center: [0.04, 0.15, 0.025], direction: [0, -1, 0], radius: 0.015, speed: 0.5, start: 0, end: 0.3 }],
        sinks: [{ shape: { type: 'box', center: [0.09, 0.01, 0.025], size: [0.02, 0.02, 0.05] }, start: 0.5 }],
        grid: { cellSize: 0.01, tracking },
      }), 'grid');
      expect(sim.metrics().volumeExpected).toBe(0);
      expect(sim.metrics().liquidGone).toBe(true);
      for (let f = 0; f < 15; f++) sim.stepFrame();
      const m = sim.metrics();
      // π r² s per second for 0.3 s: the markers' layers give it to the grid's resolution; the level
      // set's column at the spout is coarser (what it put in is what is expected).
      const put = Math.PI * 0.015 ** 2 * 0.5 * 0.3;
      expect(m.volumeExpected!).toBeGreaterThan(0.6 * put);
      expect(m.volumeExpected!).toBeLessThan(1.2 * put);
      expect(Math.abs(m.volumeChange!)).toBeLessThan(0.05);
      expect(m.liquidGone).toBe(false);
      for (let f = 0; f < 15; f++) sim.stepFrame();
      const after = sim.metrics();
      // The sink took liquid out: expected fell with it, and the drift stays small.
      expect(after.volumeExpected!).toBeLessThan(0.95 * m.volumeExpected!);
      expect(Math.abs(after.volumeChange!)).toBeLessThan(0.05);
    });
  }

  it('says when all the liquid is gone, with finite metrics', () => {
    const sim = createSimulation(parseScene({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.1, 0.1, 0.1], boundary: 'noslip' },
      materials: { water },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.05, 0.03, 0.05], size: [0.04, 0.04, 0.04] } }],
      sinks: [{ shape: { type: 'box', center: [0.05, 0.05, 0.05], size: [0.2, 0.2, 0.2] } }],
      grid: { cellSize: 0.01 },
    }), 'grid');
    const v0 = sim.metrics().fluidVolume;
    expect(sim.metrics().liquidGone).toBe(false);
    sim.stepFrame();
    const m = sim.metrics();
    expect(m.liquidGone).toBe(true);
    expect(m.fluidVolume).toBe(0);
    // What the sink took is what the liquid held when it reached it.
    expect(m.volumeExpected!).toBeLessThan(0.05 * v0);
    for (const v of [...m.centerOfMass, m.kineticEnergy, ...m.momentum, m.maxSpeed, ...m.bounds.min, ...m.bounds.max, m.volumeChange!]) expect(Number.isFinite(v)).toBe(true);
    expect(sim.fluidPoints().count).toBe(0);
  });
});
