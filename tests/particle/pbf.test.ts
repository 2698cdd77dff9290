/**
 * PBF density correction (src/particle/pbf.ts): its passes lower the mean compression pass after
 * pass on a squeezed, jittered column of water in a closed box (mirror ghosts at the walls), and
 * ten of them take off more than 25 % of it. Plain Jacobi passes (ω = 1, the default) take off
 * 26 % here (4.30 → 3.19 %), relaxed ones 35 % at ω 0.8 and 36 % at 0.6, relaxed and
 * Chebyshev-accelerated (ρ 0.95, not the default: a cohesive cube shed particles) 46 %. The bound
 * was 30 % while the default was ω 0.6; at the engine's present pressure stage plain passes settle
 * the scenes' liquids in fewer passes (docs/decisions.md "PBF's relaxation, and its last measure").
 * Its passes' pressure goes to the stored pressure (the pressure stage's warm start) where a particle
 * holds one and is not next to a body, and nowhere else (pbf.ts PBF_WARM_SHARE; docs/decisions.md
 * "The dam break's PBF at its cap: its pressure fed to the warm start").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { PBF_WARM_SHARE, solveDensityPBF } from '../../src/particle/pbf.ts';
import { restoreStillWater } from '../../src/particle/still-water.ts';

const SCENE: SceneInput = {
  materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' }, particle: { densityTolerance: 1e-4 } } },
  domain: { min: [-0.012, 0, -0.012], max: [0.012, 0.08, 0.012], boundary: 'slip' },
  bodies: [{ material: 'water', shape: { type: 'box', center: [0, 0.03, 0], size: [0.024, 0.06, 0.024] } }],
  particle: { radius: 0.001 }, // 10 800 particles, 15 layers across and 30 deep
};

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** The column squeezed by 3 % toward the floor and jittered by a fifth of a radius, PBF capped at `passes`. */
function squeezed(passes: number): ParticleSimulation {
  const scene = parseScene(SCENE);
  scene.particle.densityIterations = passes;
  const sim = createSimulation(scene, 'particle', { workers: 1 }) as ParticleSimulation;
  open.push(sim);
  const ctx = sim.ctx, L = ctx.liquid;
  let s = 7;
  const rnd = (): number => (s = (s * 16807) % 2147483647) / 2147483647;
  for (let i = 0; i < L.count; i++) {
    L.pos[3 * i + 1] *= 0.97;
    for (let k = 0; k < 3; k++) L.pos[3 * i + k] += (rnd() - 0.5) * 0.4 * ctx.r;
  }
  return sim;
}

/** The mean compression left after `passes` passes from the same squeezed, jittered state. */
function errorAfter(passes: number): number {
  return solveDensityPBF(squeezed(passes).ctx, 1 / 120).error;
}

describe('PBF density correction', () => {
  it('lowers the mean compression at every pass, and by more than 25 % in ten', () => {
    const e = [0, 1, 2, 3, 5, 10].map(errorAfter);
    expect(e[0]).toBeGreaterThan(0.005);
    for (let k = 1; k < e.length; k++) expect(e[k]).toBeLessThan(e[k - 1]);
    expect(e[5]).toBeLessThan(0.75 * e[0]);
  });

  it("adds its passes' pressure to the stored pressure where a particle holds one, away from bodies; nowhere else; nothing while the liquid moves", () => {
    // Every other particle holds a stored pressure (p/δt², m²/s²: g h at 3 cm is 0.29), every third
    // is flagged next to a body; the others are in free flight (none stored) and must keep none.
    const fill = (sim: ParticleSimulation): Float64Array => {
      const L = sim.ctx.liquid, n = L.count;
      for (let i = 0; i < n; i++) {
        L.lambda[i] = i % 2 === 0 ? 0.3 : 0;
        L.nearObject[i] = i % 3 === 0 ? 1 : 0;
      }
      return L.lambda.slice(0, n);
    };
    const dt = 1 / 120;
    // Moving (the still-water gate's state, still-water.ts feedsWarmStart; a run's start): no feed at all.
    const moving = squeezed(3), mb = fill(moving);
    restoreStillWater(moving.ctx, false);
    expect(solveDensityPBF(moving.ctx, dt).passes).toBe(3);
    for (let i = 0; i < moving.ctx.liquid.count; i++) expect(moving.ctx.liquid.lambda[i]).toBe(mb[i]);
    // Still: the feed.
    const sim = squeezed(3), ctx = sim.ctx, L = ctx.liquid, n = L.count, before = fill(sim);
    restoreStillWater(ctx, true);
    const { passes } = solveDensityPBF(ctx, dt);
    expect(passes).toBe(3);
    let raised = 0, added = 0, elsewhere = 0;
    for (let i = 0; i < n; i++) {
      const d = L.lambda[i] - before[i];
      if (before[i] > 0 && !L.nearObject[i]) {
        expect(d).toBeGreaterThanOrEqual(0);
        if (d > 0) raised++;
        added += d;
      } else elsewhere += Math.abs(d);
    }
    expect(PBF_WARM_SHARE).toBeGreaterThan(0);
    expect(elsewhere).toBe(0);
    // The squeezed column is compressed almost throughout: most of the particles that hold a
    // pressure take some of PBF's (measured: 1 392 of 1 440), and its mean is a real share of the
    // column's own (measured 0.0129 m²/s² in three passes, 4 % of g h; bound 0.005), not round-off.
    const eligible = before.filter((v, i) => v > 0 && !L.nearObject[i]).length;
    expect(raised).toBeGreaterThan(0.5 * eligible);
    expect(added / eligible).toBeGreaterThan(0.005);
  });
});
