/**
 * A spout emits what it is asked, in both engines: its face's area × speed × the time it has run,
 * within 2 %, however coarsely the engine's lattice (particles 2r apart, markers d apart, grid
 * cells) covers a small face. Before, a 6 mm disk on a 4 mm lattice let out 9 particles a layer
 * for 7.1 layers' worth of area: 27 % too much.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';

const honey = { kind: 'liquid', density: 1400, viscosity: { value: 0.01, unit: 'm2/s' } };

function spoutScene(shape: 'disk' | 'rect') {
  return parseScene({
    fps: 30,
    duration: 1,
    gravity: [0, 0, 0],
    domain: { min: [-0.03, -0.3, -0.03], max: [0.03, 0.01, 0.03], boundary: 'noslip', faces: { ymin: 'open' } },
    materials: { honey },
    sources: [
      shape === 'disk'
        ? { material: 'honey', shape: 'disk', center: [0, 0, 0], direction: [0, -1, 0], radius: 0.006, speed: 0.4, start: 0.05, end: 1 }
        : { material: 'honey', shape: 'rect', center: [0, 0, 0], direction: [0, -1, 0], size: [0.013, 0.007], speed: 0.4, start: 0.05, end: 1 },
    ],
    particle: { radius: 0.001, walls: false },
    grid: { cellSize: 0.004 },
  });
}

function asked(scene: ReturnType<typeof spoutScene>, time: number): number {
  const s = scene.sources[0];
  const area = s.shape === 'disk' ? Math.PI * s.radius ** 2 : s.size[0] * s.size[1];
  return area * s.speed * (time - s.start);
}

describe('spout volume', () => {
  for (const shape of ['disk', 'rect'] as const) {
    it(`particle engine: a ${shape} emits area × speed × time within 2 %`, () => {
      const scene = spoutScene(shape);
      const sim = createSimulation(scene, 'particle');
      for (let f = 0; f < 15; f++) sim.stepFrame();
      const put = sim.fluidPoints().count * (2 * scene.particle.radius) ** 3;
      expect(Math.abs(put / asked(scene, sim.time) - 1)).toBeLessThan(0.02);
    });
  }

  for (const tracking of ['markers', 'levelset', 'particle-levelset'] as const) {
    it(`grid engine (${tracking}): a disk emits area × speed × time within 2 %`, () => {
      const scene = spoutScene('disk');
      scene.grid.tracking = tracking;
      const sim = createSimulation(scene, 'grid');
      // At 0.5 s and at 22 frames (0.73 s, before the stream leaves through the open floor at
      // 0.83 s). The level set's account is read at a frame's end; the flux control feeds forward
      // the column's flow ratio (a 6 mm disk on 4 mm cells passes more than its face at the speed
      // set) and compares what the spout put in with what was asked by the step's start, whose
      // flow the union queued then adds (docs/decisions.md, "Grid spouts: the column's flow
      // ratio"). Before, a proportional control settled a fixed volume ahead: 2.7 % at 0.45 s.
      for (const frames of [15, 22]) {
        while (Math.round(sim.time * scene.fps) < frames) sim.stepFrame();
        const m = sim.metrics();
        // Measured: the account 0.4 % (all three trackers) at 0.5 s, 0.2–0.3 % at 0.73 s; what the
        // tracker holds 0.4 % and −0.3 % (the particle level set), the same as the account (the others).
        expect(Math.abs(m.volumeExpected! / asked(scene, sim.time) - 1), `account at ${sim.time.toFixed(2)} s`).toBeLessThan(0.02);
        expect(Math.abs(m.fluidVolume / asked(scene, sim.time) - 1), `held at ${sim.time.toFixed(2)} s`).toBeLessThan(0.02);
      }
    });
  }
});
