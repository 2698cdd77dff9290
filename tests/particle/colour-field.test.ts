/**
 * The liquids' fractions and their diffusion (src/particle/colour-field.ts, Cleary & Monaghan
 * 1999's SPH Laplacian): on a still lattice of two liquids side by side, the amount of one liquid
 * that crosses the plane where they meet grows as √(D t / π) per unit area (Fick's law across a
 * step), every liquid's total is kept and every fraction stays in [0, 1]; the fractions travel
 * with their particles through sorting, a sink and a checkpoint; and in a run the surface shows
 * a mixture only in a band where the two liquids touch.
 */
import { describe, expect, it } from 'vitest';
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import { restoreSimulation } from '../../src/index.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { liquid, particleSim } from './helpers.ts';

const r = 0.002, spacing = 2 * r;

/** Two blocks of `side`×n×n particles, liquid a at x < 0 and b at x > 0, meeting at x = 0. */
function twoBlocks(D: number, n: number, side: number, extra: Partial<SceneInput> = {}): SceneInput {
  const w = side * spacing, h = n * spacing;
  return {
    gravity: [0, 0, 0],
    materials: { a: liquid(1, { color: '#ff0000' }), b: liquid(1, { color: '#0000ff' }) },
    bodies: [
      { material: 'a', shape: { type: 'box', center: [-w / 2, 0, 0], size: [w, h, h] } },
      { material: 'b', shape: { type: 'box', center: [w / 2, 0, 0], size: [w, h, h] } },
    ],
    particle: { radius: r, mixingDiffusivity: D },
    ...extra,
  };
}

/** Σ over particles of liquid a's fraction, and of it on the b side (x > 0). */
function amounts(sim: ParticleSimulation): { total: number; crossed: number; lo: number; hi: number } {
  const L = sim.ctx.liquid, mix = sim.ctx.mixing!.fractions.array, w = sim.ctx.mixing!.width;
  let total = 0, crossed = 0, lo = Infinity, hi = -Infinity;
  for (let i = 0; i < L.count; i++) {
    const f = mix[w * i];
    total += f;
    if (L.pos[3 * i] > 0) crossed += f;
    for (let m = 0; m < w; m++) {
      lo = Math.min(lo, mix[w * i + m]);
      hi = Math.max(hi, mix[w * i + m]);
    }
  }
  return { total, crossed, lo, hi };
}

describe('colour field', () => {
  it('is off without a diffusivity or with one liquid', () => {
    expect(particleSim(twoBlocks(0, 4, 2)).ctx.mixing).toBeNull();
    const one = particleSim({ materials: { a: liquid(1) }, bodies: [{ material: 'a', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.01 } }], particle: { radius: r, mixingDiffusivity: 1e-6 } });
    expect(one.ctx.mixing).toBeNull();
    expect(one.ctx.liquid.channel('mix')).toBeNull();
  });

  it('moves √(D t / π) of a liquid across the plane where it meets another, keeping totals and bounds', () => {
    const n = 6, side = 8, D = 2e-6;
    const sim = particleSim(twoBlocks(D, n, side)), ctx = sim.ctx, L = ctx.liquid, field = ctx.mixing!;
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const before = amounts(sim);
    expect(before.crossed).toBe(0);
    const t = (4 * spacing * spacing) / D; // √(D t) = 2 spacings: well inside the 8-spacing halves
    const steps = 40;
    let quarter = 0;
    for (let s = 0; s < steps; s++) {
      field.diffuse(L, L.count, ctx.cells.pairs.start, ctx.cells.pairs.j, t / steps);
      if (s + 1 === steps / 4) quarter = amounts(sim).crossed;
    }
    const after = amounts(sim);
    // The mixed band widens as √(D t): four times the time, twice the amount crossed.
    expect(after.crossed / quarter).toBeGreaterThan(1.8);
    expect(after.crossed / quarter).toBeLessThan(2.2);
    expect(Math.abs(after.total - before.total) / before.total).toBeLessThan(1e-5);
    expect(after.lo).toBeGreaterThanOrEqual(0);
    expect(after.hi).toBeLessThanOrEqual(1 + 1e-6);
    // Amount crossed per unit area (fraction × particle volume / face area) against Fick's √(D t / π).
    const crossedDepth = (after.crossed * spacing ** 3) / (n * spacing) ** 2;
    const fick = Math.sqrt((D * t) / Math.PI);
    expect(crossedDepth / fick).toBeGreaterThan(0.85);
    expect(crossedDepth / fick).toBeLessThan(1.15);
  });

  it('a large diffusivity is sub-cycled, not unstable', () => {
    const sim = particleSim(twoBlocks(1e-3, 4, 3)), ctx = sim.ctx, L = ctx.liquid;
    ctx.cells.buildSorted(L);
    computeAdhesion(ctx);
    const cycles = ctx.mixing!.diffuse(L, L.count, ctx.cells.pairs.start, ctx.cells.pairs.j, 1 / 120);
    expect(cycles).toBeGreaterThan(1);
    const a = amounts(sim);
    expect(a.lo).toBeGreaterThanOrEqual(0);
    expect(a.hi).toBeLessThanOrEqual(1 + 1e-6);
  });

  it('fractions follow their particles through sorting, a sink and a checkpoint', () => {
    const input = twoBlocks(1e-6, 4, 3, {
      gravity: [0, -9.81, 0],
      sinks: [{ shape: { type: 'box', center: [0.02, 0, 0], size: [0.01, 0.1, 0.1] } }],
    });
    const sim = particleSim(input);
    sim.stepFrame();
    sim.stepFrame();
    const L = sim.ctx.liquid, w = sim.ctx.mixing!.width, mix = sim.ctx.mixing!.fractions.array;
    // Every particle's fractions sum to 1 and its own liquid still dominates after two frames.
    for (let i = 0; i < L.count; i++) {
      let sum = 0;
      for (let m = 0; m < w; m++) sum += mix[w * i + m];
      expect(sum).toBeCloseTo(1, 5);
      expect(mix[w * i + L.material[i]]).toBeGreaterThan(0.5);
    }
    const copy = restoreSimulation(sim.save()) as ParticleSimulation;
    sim.stepFrame();
    copy.stepFrame();
    expect(Array.from(copy.ctx.mixing!.fractions.array.subarray(0, w * L.count))).toEqual(Array.from(sim.ctx.mixing!.fractions.array.subarray(0, w * L.count)));
  });

  it('the surface shows a mixture only in a band where the liquids touch', () => {
    const sim = particleSim(twoBlocks(2e-6, 5, 8));
    for (let f = 0; f < 6; f++) sim.stepFrame();
    const mesh = sim.surfaceMesh(), colors = mesh.colors!, nv = mesh.positions.length / 3;
    let mixed = 0, far = 0;
    for (let v = 0; v < nv; v++) {
      // Linear RGB: red (1, 0, 0), blue (0, 0, 1); a vertex is a mixture when neither is above 90 %.
      const red = colors[3 * v], blue = colors[3 * v + 2];
      if (red / (red + blue) < 0.9 && blue / (red + blue) < 0.9) {
        mixed++;
        if (Math.abs(mesh.positions[3 * v]) > 3 * spacing) far++;
      }
    }
    expect(mixed).toBeGreaterThan(0);
    // 0.19 at this D on these 3.2 cm blocks (8 spacings a side, for the colours' 3 r along the
    // surface: docs/decisions.md, "A thin coat reads its own paint"); 0.30 at D = 1e-4.
    expect(mixed / nv).toBeLessThan(0.25);
    expect(far).toBe(0);
  });
});
