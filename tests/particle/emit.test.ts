/** Liquid bodies are sampled on the cell centres of a 2r lattice aligned to the body (emit.ts). */
import { describe, expect, it } from 'vitest';
import { particleSim, liquid } from './helpers.ts';

describe('liquid body sampling', () => {
  it('a box from 0 to L = 8 · 2r holds 8³ particles at x = r + 2r·i, its full volume', () => {
    const r = 0.002, L = 16 * r;
    const sim = particleSim({
      gravity: [0, 0, 0],
      materials: { w: liquid(1) },
      bodies: [{ material: 'w', shape: { type: 'box', center: [L / 2, L / 2, L / 2], size: [L, L, L] } }],
      particle: { radius: r },
    });
    const p = sim.fluidPoints();
    expect(p.count).toBe(512);
    let min = Infinity, max = -Infinity;
    for (let i = 0; i < p.count; i++) { min = Math.min(min, p.positions[3 * i]); max = Math.max(max, p.positions[3 * i]); }
    expect(min).toBeCloseTo(r, 6);
    expect(max).toBeCloseTo(L - r, 6);
  });

  it('a sphere of radius R gets its volume within 8 % (lattice roughness at R = 10 r), and a body smaller than a cell one particle', () => {
    const r = 0.002, R = 0.02;
    const sim = particleSim({ materials: { w: liquid(1) }, bodies: [{ material: 'w', shape: { type: 'sphere', center: [0.0013, 0, 0], radius: R } }], particle: { radius: r } });
    const volume = sim.fluidPoints().count * (2 * r) ** 3;
    expect(Math.abs(volume / ((4 / 3) * Math.PI * R ** 3) - 1)).toBeLessThan(0.08);
    const tiny = particleSim({ materials: { w: liquid(1) }, bodies: [{ material: 'w', shape: { type: 'sphere', center: [0.0013, 0, 0], radius: 0.0005 } }], particle: { radius: r } });
    expect(tiny.fluidPoints().count).toBe(1);
  });
});
