import { parseScene, createSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';

export function particleSim(input: SceneInput): ParticleSimulation {
  return createSimulation(parseScene(input), 'particle') as ParticleSimulation;
}

/** A liquid material with the given dynamic viscosity (Pa·s). */
export function liquid(viscosity: number, extra: Record<string, unknown> = {}) {
  return { kind: 'liquid' as const, density: 1000, viscosity: { value: viscosity, unit: 'Pa.s' as const }, ...extra };
}

/** Deterministic pseudo-random numbers in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
