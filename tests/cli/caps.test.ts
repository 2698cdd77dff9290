/**
 * Every per-step iteration count has a cap: a frame of a liquid a billion times as viscous as
 * water, or of a grid scene whose CFL step is tiny, ends, says in its counters that a cap bound,
 * and `viscid info` (cost.ts) tells beforehand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, SimulationError } from '../../src/index.ts';
import { MAX_VISCOSITY_SWEEPS } from '../../src/particle/calibration.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../../src/scene/checks.ts';
import { capWarnings, predictFrameCost } from '../../src/cli/cost.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const TINY = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));
const tiny = () => structuredClone(TINY);

describe('viscosity sweeps', () => {
  it(`stop at ${MAX_VISCOSITY_SWEEPS} a sub-timestep, counted, for 1e9 Pa·s with one substep and for exchangeRate 1e12`, () => {
    const thick = tiny();
    thick.materials.syrup.viscosity = { value: 1e9, unit: 'Pa.s' };
    thick.particle.substeps = 1;
    const fast = tiny();
    fast.materials.syrup.particle = { exchangeRate: 1e12 };
    // The sweeps are the exchange's (the implicit solve has none).
    for (const s of [thick, fast]) {
      s.particle.viscositySolver = 'exchange';
      const sim = createSimulation(parseScene(s), 'particle');
      const stats = sim.stepFrame();
      expect(stats.counters.viscositySweeps).toBe(MAX_VISCOSITY_SWEEPS * stats.counters.substeps);
      expect(stats.counters.viscositySweepCap).toBeGreaterThan(0);
      const m = sim.metrics();
      expect(Number.isFinite(m.kineticEnergy) && Number.isFinite(m.centerOfMass[1])).toBe(true);
      expect(capWarnings('particle', stats.counters).map((w) => w.key)).toEqual(['viscositySweepCap']);
      // info says so before the run: the cap binds, and by how much.
      const cost = predictFrameCost(parseScene(s));
      expect(cost.warnings.join('\n')).toMatch(/over the cap of 64: the liquids run about [\d,.]+× less viscous than asked/);
    }
  });

  it('below the cap nothing changes and nothing is counted', () => {
    const sim = createSimulation(parseScene(tiny()), 'particle');
    const stats = sim.stepFrame();
    expect(stats.counters.viscositySweepCap).toBeUndefined();
    expect(capWarnings('particle', stats.counters)).toEqual([]);
    expect(predictFrameCost(parseScene(tiny())).warnings).toEqual([]);
  });
});

describe('grid steps', () => {
  it(`stop at ${MAX_GRID_STEPS_PER_FRAME} a frame where the CFL condition asks for more, counted`, () => {
    // A pool at rest in a closed box under 3e13 m/s² of gravity: the CFL step counts the speed
    // gravity can give within a step, so a 1 ms frame asks for tens of thousands of steps (about
    // 38 000 on 4 cm cells). On 8 cm cells (a few cells: a step costs what its cells cost) the
    // frame's 10 000 steps take 0.8 s of CPU, against 11.4 s on 4 cm cells.
    const s = tiny();
    s.fps = 1000;
    s.gravity = [0, -3e13, 0];
    s.bodies = [{ material: 'syrup', shape: { type: 'box', center: [0, -0.05, 0], size: [0.2, 0.1, 0.2] } }];
    s.domain = { min: [-0.1, -0.1, -0.1], max: [0.1, 0.1, 0.1] };
    s.grid = { cellSize: 0.08, minDt: 1e-12, maxDt: 1e-3 };
    const scene = parseScene(s);
    const sim = createSimulation(scene, 'grid');
    const stats = sim.stepFrame();
    expect(stats.counters.steps).toBe(MAX_GRID_STEPS_PER_FRAME);
    expect(stats.counters.stepCap).toBeGreaterThan(0);
    expect(sim.time).toBeCloseTo(1 / 1000, 12);
    expect(capWarnings('grid', stats.counters).map((w) => w.key)).toEqual(['stepCap']);
    expect(predictFrameCost(scene).warnings.join('\n')).toMatch(/grid\.minDt allows [\d,]+ steps a frame; a frame takes at most 10,000/);
  });

  it('end with an error naming the stage, not a frame of many minutes, where the velocity runs away past the step', () => {
    // Under 1e14 m/s² the steps, lengthened 7× past the CFL limit by the cap, let the pool's velocity
    // run away (1e9 m/s within 200 steps); the level set's transport then stops at its substep cap
    // (MAX_TRANSPORT_SUBSTEPS, counted as levelsetSubstepCap) instead of taking 10 000 substeps a
    // step, and the blow-up is reported.
    const s = tiny();
    s.fps = 1000;
    s.gravity = [0, -1e14, 0];
    s.bodies = [{ material: 'syrup', shape: { type: 'box', center: [0, -0.05, 0], size: [0.2, 0.1, 0.2] } }];
    s.domain = { min: [-0.1, -0.1, -0.1], max: [0.1, 0.1, 0.1] };
    s.grid = { cellSize: 0.04, minDt: 1e-12, maxDt: 1e-3 };
    const sim = createSimulation(parseScene(s), 'grid');
    expect(() => sim.stepFrame()).toThrow(SimulationError);
  });
});

describe('grid.minDt', () => {
  it('binding (a step the CFL limit wants shorter) is counted, and viscid run warns of it once', async () => {
    // cfl 0.1 on 2 cm cells asks for steps of k h / √(g h) ≈ 4.5 ms; grid.minDt is 10 ms.
    const s = tiny();
    s.grid = { cellSize: 0.02, cfl: 0.1, minDt: 0.01, maxDt: 0.01 };
    const sim = createSimulation(parseScene(s), 'grid');
    const stats = sim.stepFrame();
    expect(stats.counters.minDtCap).toBe(stats.counters.steps);
    expect(capWarnings('grid', stats.counters).map((w) => w.key)).toEqual(['minDtCap']);
    // Where minDt does not bind, nothing is counted.
    const free = createSimulation(parseScene(tiny()), 'grid').stepFrame();
    expect(free.counters.minDtCap).toBeUndefined();

    const tmp = mkdtempSync(join(tmpdir(), 'viscid-mindt-'));
    try {
      writeFileSync(join(tmp, 'scene.json'), JSON.stringify(s));
      const r = await cliInProcess(['run', join(tmp, 'scene.json'), '--method', 'grid', '--frames', '2', '--mesh', 'none', '--out', join(tmp, 'out')]);
      expect(r.code).toBe(0);
      const lines = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('taken at grid.minDt'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/warning: frame 1: grid: \d+ grid steps this frame were taken at grid\.minDt/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('viscid info', () => {
  it('predicts the iterations and time of a frame, and warns of a cap that binds', async () => {
    const scene = join(FIXTURES, 'tiny.json');
    const plain = await cliInProcess(['info', scene]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/a frame: particle engine ~\d+ ms on one thread \(2 substeps × 2 moves, implicit viscosity\); grid engine ~\d+ ms \(~[\d,]+ steps of ~[\d,]+ cells; 2–3,334 allowed\)/);
    // No cap binds: the one warning is the grid's refusal of the floor's friction (0.5), which it has no term for.
    const warnings = plain.stdout.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('warning: grid engine ignores materials.floor.friction:');
    const json = JSON.parse((await cliInProcess(['info', '--json', scene])).stdout) as { cost: { particle: { viscosity: { sweepsNeeded: number }[] } } };
    expect(json.cost.particle.viscosity[0].sweepsNeeded).toBe(1);
  });
});
