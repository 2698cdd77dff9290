/**
 * The gel parameters moved from materials.<name>.grid.viscoelastic to materials.<name>.viscoelastic
 * (both engines read them; src/scene/migrate.ts): the old path is still accepted and moved, its
 * per-grid-step yield fraction α becoming the rate −ln(1 − α)/Δt at the grid's elastic step limit
 * Δt = 0.5 h / √(μ_E / ρ); a scene that gives both is refused at the old path.
 */
import { describe, expect, it } from 'vitest';
import { parseScene, SceneError } from '../../src/scene/parse.ts';
import { MIGRATED_RATE_MAX } from '../../src/scene/migrate.ts';

function gelScene(gel: Record<string, unknown>) {
  return {
    grid: { cellSize: 0.01 },
    materials: { jello: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, ...gel } },
    bodies: [{ material: 'jello', shape: { type: 'box', center: [0, 0.1, 0], size: [0.05, 0.05, 0.05] } }],
  };
}

describe('materials.<name>.grid.viscoelastic (the old path)', () => {
  it('is moved to materials.<name>.viscoelastic, the yield fraction per grid step becoming a rate', () => {
    const scene = parseScene(gelScene({ grid: { viscoelastic: { elasticModulus: 3000, elasticLimit: 0.4, yieldRate: 0.2, decay: 1.5 } } }));
    const m = scene.materials.jello;
    if (m.kind !== 'liquid') throw new Error('liquid expected');
    expect(m.grid.viscoelastic).toBeUndefined();
    const dt = (0.5 * 0.01) / Math.sqrt(3000 / 1100);
    expect(m.viscoelastic).toMatchObject({ elasticModulus: 3000, elasticLimit: 0.4, decay: 1.5 });
    expect(m.viscoelastic!.yieldRate).toBeCloseTo(-Math.log(0.8) / dt, 9);
    // One grid step at that limit removes the old fraction of the excess.
    expect(1 - Math.exp(-m.viscoelastic!.yieldRate * dt)).toBeCloseTo(0.2, 12);
  });

  it('takes a fraction of 1 (all the excess at once) as the largest rate, and the defaults of the old block', () => {
    const all = parseScene(gelScene({ grid: { viscoelastic: { elasticModulus: 500, yieldRate: 1 } } })).materials.jello;
    expect(all.kind === 'liquid' && all.viscoelastic?.yieldRate).toBe(MIGRATED_RATE_MAX);
    const defaults = parseScene(gelScene({ grid: { viscoelastic: { elasticModulus: 500 } } })).materials.jello;
    expect(defaults.kind === 'liquid' && defaults.viscoelastic?.elasticLimit).toBe(0.5);
    expect(defaults.kind === 'liquid' && defaults.viscoelastic?.yieldRate).toBeCloseTo(-Math.log(0.5) / ((0.5 * 0.01) / Math.sqrt(500 / 1100)), 9);
  });

  it('is refused beside the new path, naming the old one', () => {
    let error: unknown;
    try {
      parseScene(gelScene({ viscoelastic: { elasticModulus: 3000 }, grid: { viscoelastic: { elasticModulus: 3000 } } }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SceneError);
    expect((error as SceneError).issues.map((i) => i.path)).toContain('materials.jello.grid.viscoelastic');
    expect((error as SceneError).message).toMatch(/given twice/);
  });

  it('the new path passes through unchanged', () => {
    const ve = { elasticModulus: 1500, elasticLimit: 0.6, yieldRate: 100, decay: 0 };
    const m = parseScene(gelScene({ viscoelastic: ve })).materials.jello;
    expect(m.kind === 'liquid' && m.viscoelastic).toEqual(ve);
  });
});
