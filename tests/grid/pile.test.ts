/**
 * tests/grid/pile.ts on piles laid by hand, at the start of a grid run (the level set built from
 * liquid bodies, no step taken): a flat slab reads its height and no relief; the same slab with a
 * fold (a bar along z) lying on it off the axis reads the fold's height and a relief of a good part
 * of it, so that the soap-pour tests read the relief as folds.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { measurePile } from './pile.ts';

/** A grid run of liquid boxes, 8 mm cells, in soap-pour's domain. */
function pile(boxes: { center: number[]; size: number[] }[]) {
  const scene = parseScene({
    name: 'pile',
    engines: ['grid'],
    domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.16, 0.1], boundary: 'noslip' },
    materials: { soap: { kind: 'liquid', density: 1030, viscosity: { value: 3, unit: 'Pa.s' } } },
    bodies: boxes.map((b, i) => ({ name: `b${i}`, material: 'soap', shape: { type: 'box', ...b } })),
    grid: { cellSize: 0.008 },
  });
  return measurePile((createSimulation(scene, 'grid') as GridEngineSimulation).sim);
}

describe('the pile measure', () => {
  it('a slab 9.6 cm square and 2.4 cm deep: its height, the radius of its area, no relief', () => {
    const p = pile([{ center: [0, 0.012, 0], size: [0.096, 0.024, 0.096] }]);
    console.log(`slab: ${(100 * p.height).toFixed(2)} cm high, ${(100 * p.radius).toFixed(2)} cm out, relief ${(1000 * p.relief).toFixed(2)} mm`);
    expect(p.height).toBeGreaterThan(0.024 - 0.004);
    expect(p.height).toBeLessThan(0.024 + 0.004);
    expect(p.radius).toBeGreaterThan(0.9 * 0.096 / Math.sqrt(Math.PI));
    expect(p.radius).toBeLessThan(1.1 * 0.096 / Math.sqrt(Math.PI));
    expect(p.relief).toBeLessThan(0.001);
  });

  it('the same slab with a fold 3.2 cm high lying on it 2.4–4 cm off the axis: the fold\'s height and a relief over a centimetre', () => {
    const p = pile([
      { center: [0, 0.012, 0], size: [0.096, 0.024, 0.096] },
      { center: [0.032, 0.04, 0], size: [0.016, 0.032, 0.08] },
    ]);
    console.log(`slab and fold: ${(100 * p.height).toFixed(2)} cm high, relief ${(1000 * p.relief).toFixed(2)} mm`);
    expect(p.height).toBeGreaterThan(0.056 - 0.004);
    expect(p.height).toBeLessThan(0.056 + 0.004);
    // A ring meets the fold over a share f of its length (up to about a third, 2.4–4 cm out; none
    // nearer), its RMS √(f (1 − f)) × 3.2 cm; measured 11.6 mm over the rings 2–4.3 cm out, against
    // 0.14 mm for the slab alone.
    expect(p.relief).toBeGreaterThan(0.01);
  });
});
