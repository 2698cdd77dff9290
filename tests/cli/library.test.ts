/**
 * Limits a scene can raise stop at what the engines can index (src/scene/ceilings.ts), refused at
 * parse time with the ceiling named; and the library's simulation keeps its own copy of the
 * Scene, refuses JSON that parseScene did not make with a clear TypeError, and refuses to step once
 * disposed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, type Scene } from '../../src/index.ts';
import { FIXTURES } from './helpers.ts';

const tinyText = readFileSync(join(FIXTURES, 'tiny.json'), 'utf8');

describe('engine-level ceilings on caps', () => {
  it('refuse limits.maxCells past 2^28 and limits.maxParticles past 2^25 at parse time, naming the ceiling', () => {
    expect(() => parseScene(JSON.stringify({ ...JSON.parse(tinyText), limits: { maxCells: 2 ** 53 } }))).toThrow(/limits\.maxCells: must be ≤ 268,435,456 \(2\^28\), the most cells the grid engine can index \(got 9007199254740992\)/);
    expect(() => parseScene(JSON.stringify({ ...JSON.parse(tinyText), limits: { maxParticles: 8e9 } }))).toThrow(/limits\.maxParticles: must be ≤ 33,554,432 \(2\^25\)/);
    expect(parseScene(JSON.stringify({ ...JSON.parse(tinyText), limits: { maxCells: 2 ** 28 } })).limits.maxCells).toBe(2 ** 28);
    // A parse option cannot pass the ceiling either: a scene of ~1e9 cells is refused however it is asked.
    const huge = { ...JSON.parse(tinyText), grid: { cellSize: 0.0002 }, domain: { min: [-0.1, -0.1, -0.1], max: [0.1, 0.1, 0.1] } };
    expect(() => parseScene(JSON.stringify(huge), { maxCells: 2 ** 40 })).toThrow(/over the cap of 268,435,456/);
  });
});

describe('liquid far from the origin', () => {
  it('is refused at parse time where float64 cannot resolve the particle radius (1e300 m meshed nothing, exit 0)', () => {
    const far = JSON.parse(tinyText);
    far.bodies[1].shape.center = [1e300, 0, 0];
    expect(() => parseScene(JSON.stringify(far))).toThrow(/bodies\[1\]\.shape: this liquid lies 1\.00e\+300 m from the origin, .* \(at most 4\.50e\+7 m\); place the scene near the origin/);
    // Far, but within reach: not this refusal (the grid's cell cap may refuse it for its size).
    far.bodies[1].shape.center = [1e5, 0, 0];
    expect(() => parseScene(JSON.stringify(far))).not.toThrow(/from the origin/);
  });
});

describe('the library', () => {
  it("copies the Scene at creation: changing it afterwards changes nothing in the simulation", () => {
    const scene = parseScene(tinyText);
    const sim = createSimulation(scene, 'particle');
    (scene as { fps: number }).fps = 0;
    (scene.materials.syrup as { density: number }).density = 1;
    sim.stepFrame();
    expect(sim.time).toBeCloseTo(1 / 30, 12);
    const again = createSimulation(parseScene(tinyText), 'particle');
    again.stepFrame();
    expect(sim.fluidPoints().positions).toEqual(again.fluidPoints().positions);
  });

  it('refuses JSON parseScene did not make with a TypeError that says to call parseScene', () => {
    expect(() => createSimulation(JSON.parse(tinyText) as Scene, 'particle')).toThrow(TypeError);
    expect(() => createSimulation(JSON.parse(tinyText) as Scene, 'grid')).toThrow(/createSimulation needs a Scene made by parseScene\(json\).*call createSimulation\(parseScene\(json\), …\)/);
    expect(() => createSimulation(null as unknown as Scene)).toThrow(/got null/);
  });

  it('refuses to step a disposed simulation, in both engines', () => {
    for (const engine of ['particle', 'grid'] as const) {
      const sim = createSimulation(parseScene(tinyText), engine);
      sim.stepFrame();
      sim.dispose();
      expect(() => sim.stepFrame()).toThrow(/stepFrame: this simulation was disposed; create or restore a new one/);
      expect(sim.frame).toBe(1);
    }
  });
});
