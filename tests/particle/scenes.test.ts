/**
 * The Table 1 scenes of Steele et al. 2004 are built at the paper's particle counts (within 3 %),
 * and every particle scene of ours steps one frame without error.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScene, createSimulation } from '../../src/index.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

function load(file: string): ParticleSimulation {
  const scene = parseScene(JSON.parse(readFileSync(new URL(`../../scenes/${file}`, import.meta.url), 'utf8')));
  return createSimulation(scene, 'particle') as ParticleSimulation;
}

/** Liquid particles now plus those of blob sources still to come. */
function liquidCount(sim: ParticleSimulation): number {
  return sim.ctx.liquid.count + sim.emitters.bodies.filter((b) => !b.added).reduce((s, b) => s + b.positions.length / 3, 0);
}

describe('particle scenes', () => {
  const table1: [string, number, number, number, number][] = [
    ['paint-drops.json', 6822, 1410, 4, 6],
    ['honey-drop.json', 9198, 3966, 4, 8],
    ['gel-fan.json', 64296, 8786, 9, 3],
  ];
  for (const [file, liquid, objects, substeps, moves] of table1) {
    it(`${file} has Table 1's ${liquid} + ${objects} particles within 3 %`, () => {
      const sim = load(file);
      expect(Math.abs(liquidCount(sim) / liquid - 1)).toBeLessThan(0.03);
      expect(Math.abs(sim.ctx.objects.count / objects - 1)).toBeLessThan(0.03);
      expect(sim.scene.particle.substeps).toBe(substeps);
      expect(sim.scene.particle.moves).toBe(moves);
    });
  }

  it('cup-pour: an open cup (wall > 0) on keyframes holds honey and steps', () => {
    const sim = load('cup-pour.json');
    const cup = sim.scene.bodies.find((b) => b.name === 'cup')!;
    expect(cup.shape.type === 'cylinder' && cup.shape.wall > 0).toBe(true);
    expect(cup.motion.type).toBe('keyframes');
    const n = sim.ctx.liquid.count;
    sim.stepFrame();
    expect(sim.ctx.liquid.count).toBe(n);
    expect(sim.solids().map((s) => s.name)).toContain('cup');
  });
});
