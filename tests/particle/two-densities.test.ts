/**
 * Two liquid densities in contact: a block of heavy liquid set on a water pool in a closed box (the
 * case tests/gpu/liquids.test.ts ran before it became a slab), 2.5 mm particles, 264 of them. The
 * run's first (cold) pressure solve stops at COLD_TOLERANCE in about the passes of a block of the
 * water's density, where it ran all 1 000 with the diagonal scaled
 * by the reference slot's mass (pressure-kernels.ts factorRange: α over the particle's own mass),
 * and the heavy block still sinks faster than a block of the water's density, to the floor: the
 * velocity filter leaves the first solve's buoyant push alone (pressure-filter.ts buoyantPush), so
 * the water under the block rises past it rather than staying as a film. And a pool already
 * in two layers (the heavy liquid under the water) costs what one density costs and rests: the
 * still-water gate, the deep stop and the filter's sub-timestep split read the stored pressure
 * λ_a, which is each particle's own p/ρ_a (the heavy floor's 0.18 = g(h_h + h_w ρ_w/ρ_h) where one
 * density's floor holds 0.37), so the heavy layer does not read as a deeper pool.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { heavyOnWater } from './heavy-pool.ts';

const pool = (heavy: number): SceneInput => heavyOnWater({ heavy });

/** The first frame's pressure passes (its cold solve and the warm ones after it) and the block's mean height (m) after `frames`. */
function run(heavy: number, frames: number): { passes: number; block: number } {
  const sim = new ParticleSimulation(parseScene(pool(heavy)));
  const passes = sim.stepFrame().counters.pressurePasses ?? 0;
  for (let f = 1; f < frames; f++) sim.stepFrame();
  const L = sim.ctx.liquid;
  let s = 0, c = 0;
  for (let i = 0; i < L.count; i++) if (L.material[i] === 1) { s += L.pos[3 * i + 1]; c++; }
  sim.dispose();
  return { passes, block: s / c };
}

/** The pool in two layers from the start: a 1 cm heavy layer (two rows) under 2.5 cm of water, the same box. */
function layered(heavy: number): SceneInput {
  const s = pool(heavy);
  s.bodies = [
    { material: 'heavy', shape: { type: 'box', center: [0.025, 0.005, 0.01], size: [0.05, 0.01, 0.02] } },
    { material: 'water', shape: { type: 'box', center: [0.025, 0.0225, 0.01], size: [0.05, 0.025, 0.02] } },
  ];
  return s;
}

/** Over frames `from`..`to` − 1 of the layered pool: the largest pressure passes and sub-timesteps a frame, and the largest speed (m/s) at the end. */
function layeredCost(heavy: number, from: number, to: number): { passes: number; substeps: number; speed: number; deep: number } {
  const sim = new ParticleSimulation(parseScene(layered(heavy)));
  let passes = 0, substeps = 0, deep = 0;
  for (let f = 0; f < to; f++) {
    const c = sim.stepFrame().counters;
    if (f < from) continue;
    passes = Math.max(passes, c.pressurePasses ?? 0);
    substeps = Math.max(substeps, c.substeps ?? 0);
    deep += c.pressureDeep ?? 0;
  }
  const L = sim.ctx.liquid;
  let v2 = 0;
  for (let i = 0; i < 3 * L.count; i += 3) v2 = Math.max(v2, L.vel[i] ** 2 + L.vel[i + 1] ** 2 + L.vel[i + 2] ** 2);
  sim.dispose();
  return { passes, substeps, speed: Math.sqrt(v2), deep };
}

/** dens21's pool after `frames`: the block's mean height (m) and the water particles in the floor's 5 mm band (the block starts with 40 there). */
function sunk(frames: number): { block: number; floorWater: number } {
  const sim = new ParticleSimulation(parseScene(pool(3000)));
  for (let f = 0; f < frames; f++) sim.stepFrame();
  const L = sim.ctx.liquid;
  let s = 0, c = 0, floorWater = 0;
  for (let i = 0; i < L.count; i++) {
    if (L.material[i] === 1) { s += L.pos[3 * i + 1]; c++; } else if (L.pos[3 * i + 1] < 0.005) floorWater++;
  }
  sim.dispose();
  return { block: s / c, floorWater };
}

describe('two liquid densities in contact', () => {
  it('stops the first solve in about the passes of one density, and the heavy block sinks', () => {
    const same = run(1000, 3), heavy = run(3000, 3);
    // The first frame's passes, the cold solve's and the warm solves' after it: 45 at one density.
    expect(same.passes).toBeLessThan(80);
    // At ρ 3000: 50 (1 010 with the reference slot's mass in the diagonal: the cold solve's 1 000).
    expect(heavy.passes).toBeLessThan(same.passes + 30);
    // Frame 3's block: 27.3 mm at the water's density, 20.3 mm at ρ 3000 (22.5 before).
    expect(heavy.block).toBeLessThan(same.block - 0.004);
  });

  it('sinks the heavy block to the floor, through the water under it', () => {
    // Frame 60: the block's mean height 5.1 mm, 6 water particles left in the floor's band (two
    // clean rows of the 64 heavy particles: 4.4 mm). With the buoyant push filtered as any other
    // velocity (pressure-filter.ts buoyantPush) the block stayed on a water film: 7.1 mm, 24 water
    // (bench/heavy-sink.ts, docs/decisions.md "A heavy liquid that sinks to the floor").
    const { block, floorWater } = sunk(60);
    expect(block).toBeLessThan(0.0062);
    expect(floorWater).toBeLessThan(15);
  });

  it('costs a settled two-layer pool what one density costs, and it rests', () => {
    // Frames 10–14: one density 4 sub-timesteps and 11–12 passes a frame, never the deep stop; the
    // ρ 3000 layer the same. Read with one rest density (λ_a ρ_a/ρ_w, the heavy floor's 0.55) the
    // filter's Courant split every sub-timestep and the deep stop held: 8 sub-timesteps, 35–51 passes.
    const same = layeredCost(1000, 10, 15), heavy = layeredCost(3000, 10, 15);
    expect(heavy.substeps).toBeLessThanOrEqual(same.substeps);
    expect(heavy.passes).toBeLessThanOrEqual(2 * same.passes);
    expect(heavy.deep).toBe(same.deep);
    // At rest: the largest speed 0.001–0.005 m/s (√(g h) 0.57 m/s).
    expect(heavy.speed).toBeLessThan(0.02);
  });
});
