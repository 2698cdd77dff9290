/**
 * A squeezed, jittered block of water in a closed no-slip box (mirror ghosts at every wall), with
 * equal masses (BOX) or two liquids of different densities (MIXED): the set-up of the tests that
 * hold the pressure stage's one-thread sweeps to the loops over full rows bit for bit
 * (filter-half.test.ts, ghost-table.test.ts).
 */
import { parseScene, createSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { lcg } from './helpers.ts';

const water = (density = 1000) => ({ kind: 'liquid' as const, density, viscosity: { value: 0.001, unit: 'Pa.s' as const } });

export const BOX: SceneInput = {
  materials: { water: water() },
  domain: { min: [-0.02, 0, -0.02], max: [0.02, 0.04, 0.02], boundary: 'noslip' },
  bodies: [{ material: 'water', shape: { type: 'box', center: [0, 0.016, 0], size: [0.04, 0.032, 0.04] } }],
  particle: { radius: 0.0015 },
};

export const MIXED: SceneInput = {
  ...BOX,
  materials: { water: water(), brine: water(1600) },
  bodies: [
    { material: 'water', shape: { type: 'box', center: [-0.01, 0.016, 0], size: [0.02, 0.032, 0.04] } },
    { material: 'brine', shape: { type: 'box', center: [0.01, 0.016, 0], size: [0.02, 0.032, 0.04] } },
  ],
};

/**
 * The scene on one thread, its liquid squeezed to 0.96 of its height toward the floor, its positions
 * jittered by ±0.1 r and its velocities by ±0.05 m/s from the numbers of lcg(seed), the adhesion's
 * pairs marked stale (the solve lists them again); `rnd` goes on from there.
 */
export function squeezedBlock(scene: SceneInput, seed: number): { sim: ParticleSimulation; rnd: () => number } {
  const sim = createSimulation(parseScene(scene), 'particle', { workers: 1 }) as ParticleSimulation;
  const ctx = sim.ctx, L = ctx.liquid, n = L.count, rnd = lcg(seed);
  for (let i = 0; i < n; i++) {
    L.pos[3 * i + 1] *= 0.96;
    for (let k = 0; k < 3; k++) {
      L.pos[3 * i + k] += (rnd() - 0.5) * 0.2 * ctx.r;
      L.vel[3 * i + k] = (rnd() - 0.5) * 0.1;
    }
  }
  ctx.adhesionPairsCurrent = false;
  return { sim, rnd };
}
