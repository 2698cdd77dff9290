/**
 * Poured honey stays one rope from the spout to the pile (issue 26): the liquid's connected
 * components between spout and pile (tests/particle/rope-components.ts), frame by frame.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeLong } from '../long.ts';
import { particleSim, liquid } from './helpers.ts';
import { ROPE_WINDOWS, ropeComponents } from './rope-components.ts';
import { streamResolutions } from '../../src/scene/stream-resolution.ts';
import { parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

describe('rope components', () => {
  const win = { min: [-1, -1, -1] as [number, number, number], max: [1, 1, 1] as [number, number, number] };
  it('a column of points 4 mm apart is one component at a 10 mm link; beads 2 cm apart are one each', () => {
    const rope = Float64Array.from({ length: 60 }, (_, k) => (k % 3 === 1 ? -0.004 * Math.floor(k / 3) : 0));
    expect(ropeComponents(rope, 20, win, 0.01).components).toBe(1);
    const beads = Float64Array.from({ length: 60 }, (_, k) => (k % 3 === 1 ? -0.02 * Math.floor(k / 6) - 0.004 * (Math.floor(k / 3) % 2) : 0));
    const c = ropeComponents(beads, 20, win, 0.01);
    expect(c.components).toBe(10);
    expect(c.largest).toBe(2);
  });

  it('counts pieces joined outside the window as one, and leaves out pieces wholly outside it', () => {
    // A U: two arms in the window joined by a base below it, and a drop far off.
    const pts: number[] = [];
    for (const y of [0.015, 0.01, 0.005, 0]) pts.push(0, y, 0);
    pts.push(0.005, 0, 0);
    for (const y of [0, 0.005, 0.01, 0.015]) pts.push(0.01, y, 0);
    pts.push(0.5, 0.5, 0.5);
    const c = ropeComponents(pts, 10, { min: [-0.1, 0.008, -0.1], max: [0.1, 0.1, 0.1] }, 0.006);
    expect(c.particles).toBe(4);
    expect(c.components).toBe(1);
  });
});

describe('a honey pour at 2 mm particles', () => {
  // 5 Pa·s honey from a 6 mm disk at 0.4 m/s, 5 cm above a floor: the stream lands about 1.8
  // particles across (free fall), as thin as the particles carry. Before the spout held its nozzle
  // and staggered its layers, it was one piece in 3 frames of 20 (the layers parted as rafts); since
  // it lets the stream out one particle at a time, it is one piece also when linked only within the
  // density kernel's support (4 r).
  const scene: SceneInput = {
    fps: 30,
    duration: 1,
    domain: { min: [-0.04, 0, -0.04], max: [0.04, 0.07, 0.04], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { honey: { ...liquid(5), density: 1420 } },
    sources: [{ material: 'honey', shape: 'disk', center: [0, 0.05, 0], direction: [0, -1, 0], radius: 0.006, speed: 0.4 }],
    particle: { radius: 0.002 },
  };

  it('stays one rope from spout to floor in every frame of its first 2/3 s', () => {
    expect(streamResolutions(parseScene(scene))[0].across).toBeGreaterThan(1.7);
    const sim = particleSim(scene);
    const counts: number[] = [], tight: number[] = [];
    for (let f = 1; f <= 20; f++) {
      sim.stepFrame();
      const p = sim.fluidPoints();
      // From 1 cm under the spout to 1 cm over the floor; links within the kernel support, 5 r, and within 4 r.
      const win = { min: [-0.03, 0.01, -0.03] as [number, number, number], max: [0.03, 0.04, 0.03] as [number, number, number] };
      counts.push(ropeComponents(p.positions, p.count, win, 0.01).components);
      tight.push(ropeComponents(p.positions, p.count, win, 0.008).components);
    }
    expect(counts.slice(2)).toEqual(new Array(18).fill(1));
    expect(tight.slice(2)).toEqual(new Array(18).fill(1));
  });
});

describeLong(import.meta, 'honey-on-spinner pours a rope onto the rod, at its 2 mm particles', () => {
  // Measured (bench/rope-components.ts honey-on-spinner 45): one piece from spout to rod in 44 of
  // 45 frames since the spout lets out one particle at a time (44 of 45 linked within 4 r); with
  // layers staggered and the nozzle held, 23 of 45 (1.49 pieces on average); before those, 4 of 45.
  it('is one piece from spout to rod in at least 42 of its first 45 frames, and never more than 2', () => {
    const sim = particleSim(JSON.parse(readFileSync(new URL('../../scenes/honey-on-spinner.json', import.meta.url), 'utf8')));
    const counts: number[] = [];
    for (let f = 1; f <= 45; f++) {
      sim.stepFrame();
      const p = sim.fluidPoints();
      counts.push(ropeComponents(p.positions, p.count, ROPE_WINDOWS['honey-on-spinner'], 5 * 0.002).components);
    }
    expect(counts.filter((c) => c === 1).length).toBeGreaterThanOrEqual(42);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
  }, 600_000);
});
