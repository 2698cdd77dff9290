/**
 * The part of a no-slip wall that the implicit viscosity's mirror ghosts leave uncovered
 * (src/particle/viscosity-weiler-wall-cover.ts): a particle whose kernel a free surface cuts takes
 * the drag of the wall under it, not only the images of the neighbours it has.
 */
import { describe, expect, it } from 'vitest';
import '../../src/index.ts';
import { simulate } from '../../src/compare/validate/case.ts';
import { wallTables } from '../../src/particle/viscosity-weiler-wall-cover.ts';
import { pairFactor } from '../../src/particle/viscosity-weiler-product.ts';
import type { StepContext } from '../../src/particle/context.ts';

/** A row of `count` particles (radius r) along z on a no-slip floor, moving along x at 5 cm/s: its x velocity after each of `frames` frames. */
function threadOnFloor(count: number, frames: number): number[] {
  const r = 0.001;
  const sim = simulate('particle', {
    name: 'thread-on-floor', fps: 60, duration: 1, gravity: [0, 0, 0],
    domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.05, 0.05], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: 0.001, unit: 'm2/s' }, color: '#d9a21b' } },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'liquid', shape: { type: 'box', center: [0, r, 0], size: [2 * r, 2 * r, 2 * count * r] }, velocity: [0.05, 0, 0] }],
    particle: { radius: r, substeps: 4 },
  }) as unknown as { ctx: StepContext; stepFrame(): unknown; dispose(): void };
  try {
    const out: number[] = [];
    for (let f = 0; f < frames; f++) {
      sim.stepFrame();
      const L = sim.ctx.liquid;
      let u = 0;
      for (let i = 0; i < L.count; i++) u += L.vel[3 * i];
      out.push(u / L.count);
    }
    return out;
  } finally {
    sim.dispose();
  }
}

describe('the implicit viscosity: the wall the ghosts leave uncovered', () => {
  // A thread across its motion has no neighbour offset along the motion, so no ghost drags it
  // along x: before the cover it slid on at 0.0500 m/s for as long as it ran. With the cover,
  // 0.0003 m/s after the first frame (ν = 0.001 m²/s, 1 mm particles).
  it('a liquid thread lying on a no-slip floor, moving across its length, is stopped by the floor', () => {
    const u = threadOnFloor(4, 2);
    expect(u[1]).toBeLessThan(0.005);
    expect(u[1]).toBeGreaterThanOrEqual(-0.005);
  });

  it("the tables read what a rest lattice's ghosts sum to, at a first layer's distance r", () => {
    const r = 0.001, s = 2 * r, h = 5 * r, N = 256;
    const drag = new Float64Array(N + 1), dens = new Float64Array(N + 1);
    wallTables(h, s, drag, dens, 0);
    // A lattice layer at r from the floor and those above it: row i at the origin of its layer,
    // its neighbours' images at normal distance r + (r + s b) below it.
    let g = 0;
    for (let b = 0; b < 3; b++) {
      for (let a = -3; a <= 3; a++) {
        for (let c = -3; c <= 3; c++) {
          const xn = 2 * r + s * b, t2 = s * s * (a * a + c * c), r2 = t2 + xn * xn;
          if (r2 < h * h) g += pairFactor(r2, h) * 0.5 * t2;
        }
      }
    }
    const k = (r / h) * N, q = Math.floor(k), f = k - q;
    // Within the linear interpolation between the table's points (d = r falls between two).
    expect(Math.abs((drag[q] + f * (drag[q + 1] - drag[q])) / g - 1)).toBeLessThan(1e-3);
    // Nothing beyond the support; more wall nearer it.
    expect(drag[N]).toBe(0);
    expect(dens[N]).toBe(0);
    expect(dens[0]).toBeGreaterThan(dens[N / 2]);
  });
});
