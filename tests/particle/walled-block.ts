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
import type { StepContext } from '../../src/particle/context.ts';
import { prepareSolve, type Prepared } from '../../src/particle/solve-setup.ts';
import { wallRange } from '../../src/particle/pressure-kernels.ts';
import { listWallLower, WallLower } from '../../src/particle/pressure-wall-lower.ts';
import { teamWork } from '../../src/particle/work.ts';

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

/**
 * The block's solve view with full rows, as a team's gather loops read them (listed by the team's
 * row jobs on the one thread: teamWork.teamRowsOnOneThread), for `use`; its arrays are the stage
 * buffer's, valid until the next prepareSolve.
 */
export function withFullRows<T>(ctx: StepContext, use: (pr: Prepared) => T): T {
  teamWork.teamRowsOnOneThread = true;
  try {
    return use(prepareSolve(ctx));
  } finally {
    teamWork.teamRowsOnOneThread = false;
  }
}

/**
 * The block's solve view on one thread, its rows their upper parts alone (prepareSolve;
 * `filtered`: with the filter's room for its weights), after WALLS with the walled lower entries
 * listed (pressure-wall-lower.ts), as the solve job's WALLS phase leaves them.
 */
export function upperRows(ctx: StepContext, filtered = false): Prepared {
  const pr = prepareSolve(ctx, false, filtered), v = pr.v, hr = v.half!;
  if (!hr.upperOnly) throw new Error('walled block: one thread lists the rows\' upper parts alone');
  wallRange(v, 0, pr.n);
  hr.lower = new WallLower();
  listWallLower(v, pr.n, hr.mid, hr.lower);
  return pr;
}
