/**
 * The grid step is a per-simulation pipeline built from the scene (pipeline.ts): the stages of
 * Cline et al. Figure 3 in order, extensions only where the scene asks for them, trackers by name.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { createTracker, trackerNames } from '../../src/grid/trackers/tracker.ts';

function scene(grid: Record<string, unknown>, gel = false, extra: Record<string, unknown> = {}) {
  return parseScene({
    ...extra,
    fps: 30,
    domain: { min: [0, 0, 0], max: [0.2, 0.2, 0.04], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: {
      goo: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' }, grid: gel ? { viscoelastic: { elasticModulus: 500 } } : {} },
    },
    bodies: [{ material: 'goo', shape: { type: 'box', center: [0.1, 0.05, 0.02], size: [0.1, 0.1, 0.04] } }],
    grid: { cellSize: 0.02, ...grid },
  });
}

function stages(sc: ReturnType<typeof scene>): string[] {
  const sim = createSimulation(sc, 'grid') as GridEngineSimulation;
  return sim.sim.pipeline.map((s) => s.name);
}

describe('grid pipeline', () => {
  it('is built per simulation: two simulations in one process keep their own stages', () => {
    const gel = createSimulation(scene({ tracking: 'markers' }, true), 'grid') as GridEngineSimulation;
    const plain = createSimulation(scene({ tracking: 'particle-levelset' }), 'grid') as GridEngineSimulation;
    const a = gel.sim.pipeline.map((s) => s.name), b = plain.sim.pipeline.map((s) => s.name);
    expect(a).toContain('viscoelastic-strain');
    expect(a).toContain('elastic-force');
    expect(a).not.toContain('redistance');
    expect(b).not.toContain('viscoelastic-strain');
    expect(b).toEqual(expect.arrayContaining(['redistance', 'pls-correct', 'tracking', 'volume']));
    // Stepping one does not change the other's list.
    gel.stepFrame();
    expect(plain.sim.pipeline.map((s) => s.name)).toEqual(b);
  });

  it('follows Cline et al. Figure 3 (steps 2–4) with each extension in its place', () => {
    const names = stages(scene({ tracking: 'particle-levelset' }, true));
    expect(names).toEqual([
      'grid', 'redistance', 'pls-correct', 'viscoelastic-strain', 'advection', 'forces', 'elastic-force',
      'pressure-pre', 'viscosity', 'pressure', 'extrapolation', 'solids', 'tracking', 'volume',
    ]);
  });

  it('puts sources first only where the scene has them, and the height field after the tracker', () => {
    expect(stages(scene({}))[0]).toBe('grid');
    const withSpout = scene({}, false, { sources: [{ material: 'goo', center: [0.1, 0.15, 0.02], direction: [0, -1, 0], radius: 0.02, speed: 0.2 }] });
    expect(stages(withSpout)[0]).toBe('sources');
    const names = stages(scene({ tracking: 'levelset', heightField: true }));
    expect(names.slice(-3)).toEqual(['tracking', 'volume', 'height-field']);
  });

  it('gives smoke its own grid, forces and transport and no surface tracking', () => {
    const names = stages(scene({ smoke: {}, vorticityConfinement: 1 }));
    expect(names).toEqual(['smoke-grid', 'advection', 'smoke-forces', 'vorticity', 'pressure-pre', 'viscosity', 'pressure', 'extrapolation', 'solids', 'smoke-advect']);
  });

  it('registers the surface trackers by name and says which exist when a name is unknown', () => {
    expect(trackerNames()).toEqual(expect.arrayContaining(['markers', 'levelset', 'particle-levelset', 'height-field']));
    expect(() => createTracker('volume-of-fluid', scene({}))).toThrow(/'volume-of-fluid' is not registered \(registered: .*markers/);
    expect(() => createTracker('height-field', scene({}))).toThrow(/wraps another tracker/);
  });
});
