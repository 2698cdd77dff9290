/**
 * The filter's pressure split (src/particle/pressure.ts pressurePieces) reads the pressure of the
 * water it damps, not of a drop that has left it: a particle (nearly) alone, its last measured
 * ρ/ρ0 under ALONE, stores a pressure its solve has no neighbours to act on, which grew to 5–50
 * m²/s² on floating-box's drops (the pool's floor holds 1.2) and split every sub-timestep 2–4 ways
 * (docs/decisions.md "info within 1.5× over every shipped scene's whole run"). No stepping: the
 * stored pressures are set by hand, as tests/gpu/pressure-courant.test.ts sets them.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { pressurePieces } from '../../src/particle/pressure.ts';
import { FILTER_PIECE_COURANT } from '../../src/particle/pressure-filter.ts';
import { parseScene } from '../../src/scene/parse.ts';

const pool = () =>
  new ParticleSimulation(
    parseScene({
      name: 'pool', fps: 30, duration: 1,
      domain: { min: [0, 0, 0], max: [0.06, 0.06, 0.06], boundary: 'noslip' },
      materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
      bodies: [{ material: 'water', shape: { type: 'box', center: [0.03, 0.02, 0.03], size: [0.06, 0.04, 0.06] } }],
      particle: { radius: 0.004 },
    }),
    { workers: 1 },
  );

describe('the filter\'s pressure split and particles alone', () => {
  it('a drop\'s stored pressure splits no sub-timestep; the same pressure in the water does', () => {
    const sim = pool(), L = sim.ctx.liquid, dt = 1 / 120;
    // The pool's floor: g h at 4 cm, well under the split's Courant number.
    L.lambda.fill(9.81 * 0.04, 0, L.count);
    L.density.fill(1, 0, L.count);
    expect(pressurePieces(sim.ctx, dt)).toBe(1);
    // One particle holds 40 m²/s²: √40 δt / (FILTER_PIECE_COURANT · 2r) = 5.5 → 6 pieces where it is in the water.
    const wound = 40, expected = Math.ceil((Math.sqrt(wound) * dt) / (FILTER_PIECE_COURANT * sim.ctx.restSpacing));
    expect(expected).toBeGreaterThan(2);
    L.lambda[7] = wound;
    expect(pressurePieces(sim.ctx, dt)).toBe(expected);
    // A drop: ρ/ρ0 0.32 (a lone particle's own kernel weight), under ALONE (0.45).
    L.density[7] = 0.32;
    expect(pressurePieces(sim.ctx, dt)).toBe(1);
    // At the edge of the water (a flat surface reads about 0.6) it is counted.
    L.density[7] = 0.6;
    expect(pressurePieces(sim.ctx, dt)).toBe(expected);
    sim.dispose();
  });
});
