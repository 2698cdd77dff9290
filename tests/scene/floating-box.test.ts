/**
 * scenes/floating-box.json in both engines: the pine box (500 kg/m³, 8 cm) dropped into the pool
 * floats, its centre near the water line (half its volume under water), in the grid engine (its
 * buoyant bodies, src/grid/buoyancy.ts) and in the particle engine (two-way coupled free bodies,
 * src/particle/free-bodies.ts; at r = 1 cm instead of the scene's 4 mm, to keep the test short).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

const json = () => JSON.parse(readFileSync(new URL('../../scenes/floating-box.json', import.meta.url), 'utf8'));
/** The pool is 12 cm deep; the box (512 cm³) raises it by half its volume over 30 × 30 cm. */
const WATER_LINE = 0.12 + 256e-6 / 0.09;

/** The solid's drawn position: the translation of its transform applied to its rest centre (0, 0.2, 0). */
function boxCentre(sim: ReturnType<typeof createSimulation>): number {
  const solid = sim.solids().find((s) => s.name === 'box')!;
  const m = solid.transform;
  return m[5] * 0.2 + m[13];
}

describe('floating-box floats in both engines', () => {
  it('grid engine: after 1.5 s the box floats with its centre within 1 cm of the water line', () => {
    const sim = createSimulation(parseScene(json()), 'grid');
    for (let f = 0; f < 45; f++) sim.stepFrame();
    expect(Math.abs(boxCentre(sim) - WATER_LINE)).toBeLessThan(0.01);
  });

  it('particle engine (r = 1 cm): after 1.2 s the box floats with its centre within 1 cm of the water line, and moves the water', () => {
    const input = json();
    input.particle = { radius: 0.01 };
    const sim = createSimulation(parseScene(input), 'particle') as ParticleSimulation;
    let highest = 0;
    for (let f = 0; f < 36; f++) {
      sim.stepFrame();
      if (f > 5) highest = Math.max(highest, sim.metrics().bounds.max[1]);
    }
    const y = sim.ctx.freeBodies!.position(0)[1];
    expect(Math.abs(y - WATER_LINE)).toBeLessThan(0.01);
    // The drawn box is where the body is (its centre of mass from a lattice in its volume: within 0.1 mm).
    expect(Math.abs(boxCentre(sim) - y)).toBeLessThan(5e-4);
    // The plunge pushes the water aside: it rises above its rest level (12 cm, top particle centres 11 cm).
    expect(highest).toBeGreaterThan(0.125);
  });
});
