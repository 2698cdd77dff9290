/**
 * Gels in the particle engine (gel.ts): the scene's viscoelastic material ties each body with
 * elastic springs that yield; a jello cube dropped on a floor squashes and springs back toward its
 * rest shape; with zero elasticity the engine is exactly what it is without the option; a
 * checkpoint resumes the springs bit for bit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { cubeDrop, sim } from './physics-cases.ts';

const jello = JSON.parse(readFileSync(new URL('../../scenes/jello-drop.json', import.meta.url), 'utf8')) as SceneInput;

/** Centre-of-mass height above the floor over the frames, over the rest cube's (size / 2). */
function heights(input: SceneInput, frames: number): number[] {
  const s = createSimulation(parseScene(input), 'particle');
  const box = input.bodies!.find((b) => b.shape.type === 'box')!.shape as { size: number[] };
  const out: number[] = [];
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    out.push(s.metrics().centerOfMass[1] / (box.size[1] / 2));
  }
  return out;
}

describe('gels in the particle engine', () => {
  // scenes/jello-drop.json (E = 3000 Pa, no yield), 4 mm particles. Measured: lowest 0.59, back
  // to 0.98, settled 0.88 of the rest height (the grid engine: 0.73, 1.65, 1.06; BENCHMARKS.md).
  it('a jello cube squashes on impact and springs back toward its rest shape', () => {
    const h = heights(jello, 30);
    const hit = h.findIndex((x) => x < 0.95);
    const after = h.slice(hit), low = Math.min(...after), lowAt = after.indexOf(low);
    const high = Math.max(...after.slice(lowAt)), settled = h.slice(-5).reduce((s, x) => s + x, 0) / 5;
    expect(low).toBeLessThan(0.75);
    expect(high - low).toBeGreaterThan(0.25);
    expect(settled).toBeGreaterThan(0.75);
    // Without elasticity the same cube is a thick liquid that slumps and stays down.
    const plain = structuredClone(jello);
    (plain.materials!.jello as { grid: { viscoelastic: { elasticModulus: number } } }).grid.viscoelastic.elasticModulus = 0;
    const slump = heights(plain, 30);
    expect(slump.slice(-5).reduce((s, x) => s + x, 0) / 5).toBeLessThan(settled - 0.2);
  }, 120_000);

  it('with zero elasticity the engine is bit for bit what it is without the option', () => {
    const base = cubeDrop({ viscosity: 5, r: 0.004, size: 0.032, drop: 0.02 });
    const withZero = structuredClone(base);
    (withZero.materials!.gel as { grid?: unknown }).grid = { viscoelastic: { elasticModulus: 0, elasticLimit: 0.3, yieldRate: 0.5, decay: 1 } };
    const a = sim(base), b = sim(withZero);
    for (let f = 0; f < 8; f++) { a.stepFrame(); b.stepFrame(); }
    const n = a.ctx.liquid.count;
    expect(b.ctx.liquid.count).toBe(n);
    expect(Buffer.from(a.ctx.liquid.pos.buffer, 0, 24 * n).equals(Buffer.from(b.ctx.liquid.pos.buffer, 0, 24 * n))).toBe(true);
    expect(Buffer.from(a.ctx.liquid.vel.buffer, 0, 24 * n).equals(Buffer.from(b.ctx.liquid.vel.buffer, 0, 24 * n))).toBe(true);
  });

  it('resumes its springs from a checkpoint bit for bit', () => {
    const a = createSimulation(parseScene(jello), 'particle') as ParticleSimulation;
    for (let f = 0; f < 5; f++) a.stepFrame();
    const bytes = a.save();
    for (let f = 0; f < 3; f++) a.stepFrame();
    const b = restoreSimulation(bytes) as ParticleSimulation;
    for (let f = 0; f < 3; f++) b.stepFrame();
    const n = a.ctx.liquid.count;
    expect(Buffer.from(b.ctx.liquid.pos.buffer, 0, 24 * n).equals(Buffer.from(a.ctx.liquid.pos.buffer, 0, 24 * n))).toBe(true);
  }, 60_000);
});
