/**
 * The second pressure solve's measure taken from the first one's (pressure-measure-keep.ts): a
 * squeezed, jittered block of water in a closed box (walled-block.ts), one thread, a frame stepped with
 * the kept measure and with it refused (the second solve measures again, as before): the same
 * positions, velocities and stored pressures bit for bit, with the implicit viscosity (the
 * filter's WALLS before the measure) and with the exchange viscosity (the measure's own WALLS);
 * and the kept measure served every second solve.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { BOX, squeezedBlock } from './walled-block.ts';
import { solveJob } from '../../src/particle/pressure-job.ts';

const open: ParticleSimulation[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.dispose();
});

/** A frame of the block; `keep` false: the kept measure's listing never matches. Returns the state's bytes and the measures served. */
function run(scene: SceneInput, keep: boolean): { state: Buffer; served: number; solves: number } {
  const { sim } = squeezedBlock(scene, 5);
  open.push(sim);
  const ctx = sim.ctx, m = ctx.runner.bind(solveJob).scratch.measure;
  let version = -1, served = 0;
  // takeMeasure marks the kept measure used (version −1); refused, it reads −1 always.
  Object.defineProperty(m, 'version', {
    get: () => (keep ? version : -1),
    set: (x: number) => {
      if (x === -1 && version !== -1) served++;
      version = x;
    },
  });
  let solves = 0;
  solves += sim.stepFrame().counters.substeps ?? 0;
  const L = ctx.liquid, n = L.count;
  const state = Buffer.concat([L.pos.slice(0, 3 * n), L.vel.slice(0, 3 * n), L.lambda.slice(0, n)].map((a) => Buffer.from(a.buffer)));
  return { state, served, solves };
}

describe('the second pressure solve\'s measure kept from the first', () => {
  it.each([
    ['the implicit viscosity', BOX],
    ['the exchange viscosity', { ...BOX, particle: { ...BOX.particle, viscositySolver: 'exchange' } } as SceneInput],
  ])('gives the measure\'s bits with %s', (_, scene) => {
    const kept = run(scene, true), again = run(scene, false);
    expect(kept.state.equals(again.state)).toBe(true);
    expect(again.served).toBe(0);
    // One kept measure a sub-timestep (the second solve's), each sub-timestep.
    expect(kept.served).toBeGreaterThan(0);
    expect(kept.served).toBe(kept.solves);
  });
});
