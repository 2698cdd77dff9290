/**
 * The wall-hold tests' block (tests/particle/wall-hold.test.ts on the CPU, tests/gpu/wall-hold.test.ts
 * on WebGPU): a 2 cm cube of a 1 Pa·s liquid resting on a no-slip floor (the rest lattice's bottom
 * layer at r), no gravity; the velocities its cases set and the motions they read, on any liquid's
 * arrays (the CPU's LiquidParticles or a GPU read-back), the bottom layer being y < 2r.
 */
import { computeAdhesion } from '../../src/particle/adhesion.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { particleSim } from './helpers.ts';

export const r = 0.002;

export const BLOCK: SceneInput = {
  gravity: [0, 0, 0],
  domain: { min: [-0.05, 0, -0.05], max: [0.05, 0.05, 0.05], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { m: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' } } },
  bodies: [{ material: 'm', shape: { type: 'box', center: [0, 0.01, 0], size: [0.02, 0.02, 0.02] } }],
  particle: { radius: r },
};

/** The block as a CPU simulation, its pairs listed. */
export function blockOnFloor(): ParticleSimulation {
  const sim = particleSim(BLOCK);
  sim.ctx.cells.buildSorted(sim.ctx.liquid);
  computeAdhesion(sim.ctx);
  return sim;
}

/** The bottom layer at 5 cm/s along x, the rest at the speed that makes the block's momentum zero. */
export function splitLayer(pos: ArrayLike<number>, vel: Float64Array | Float32Array, n: number): void {
  let nb = 0;
  for (let i = 0; i < n; i++) if (pos[3 * i + 1] < 2 * r) nb++;
  for (let i = 0; i < n; i++) vel[3 * i] = pos[3 * i + 1] < 2 * r ? 0.05 : (-0.05 * nb) / (n - nb);
}

/** Turns about the vertical through the block's axis (x = z = 0): the bottom layer at 5 rad/s, the rest at the ω′ that makes L_y zero. */
export function counterTurn(pos: ArrayLike<number>, vel: Float64Array | Float32Array, n: number): void {
  let Ib = 0, Ir = 0;
  for (let i = 0; i < n; i++) {
    const r2 = pos[3 * i] ** 2 + pos[3 * i + 2] ** 2;
    if (pos[3 * i + 1] < 2 * r) Ib += r2;
    else Ir += r2;
  }
  for (let i = 0; i < n; i++) {
    const w = pos[3 * i + 1] < 2 * r ? 5 : (-5 * Ib) / Ir;
    vel[3 * i] = w * pos[3 * i + 2];
    vel[3 * i + 2] = -w * pos[3 * i];
  }
}

/** Per unit mass: the block's mean x velocity; the bottom layer's mean x velocity over the rest's. */
export function xMotion(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number): { all: number; shear: number } {
  let all = 0, bottom = 0, nb = 0;
  for (let i = 0; i < n; i++) {
    all += vel[3 * i];
    if (pos[3 * i + 1] < 2 * r) {
      bottom += vel[3 * i];
      nb++;
    }
  }
  return { all: all / n, shear: bottom / nb - (all - bottom) / (n - nb) };
}

/** The angular momentum about the vertical axis x = z = 0 (per unit mass): the block's and its bottom layer's. */
export function spinY(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number): { all: number; layer: number } {
  let l = 0, l0 = 0;
  for (let i = 0; i < n; i++) {
    const t = pos[3 * i + 2] * vel[3 * i] - pos[3 * i] * vel[3 * i + 2];
    l += t;
    if (pos[3 * i + 1] < 2 * r) l0 += t;
  }
  return { all: l, layer: l0 };
}
