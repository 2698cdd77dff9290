import { parseScene, createSimulation } from '../../src/index.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import { nodeThreadHandle, spawnNodeThread as sourceThread, startModuleWorker } from '../../src/cli/threads.ts';
import type { SpawnThread } from '../../src/parallel/team.ts';
import { PARTICLE_JOBS } from '../../src/particle/jobs.ts';
import { distIsFresh } from '../../scripts/build.js';

/**
 * The tests' thread spawner: a team's worker thread on dist/cli/thread-entry.js when dist/ is up to
 * date with src/ (as after `npm ci` or `npm run build`; bin/viscid.js and tests/cli/helpers.ts
 * `cliMain` choose the same way), else on the sources through tsx (src/cli/threads.ts). A thread
 * from the sources registers tsx and transforms every engine module again: a team of two for the
 * 1 743-particle drop took 1.6–1.7 s of CPU to start from the sources against 0.73–0.83 s from
 * dist/ (docs/decisions.md, "The test suite, eleventh pass"), and the parallel tests start dozens.
 * The calling thread runs the sources either way; the two are the same code, so the bits are too.
 */
export const spawnNodeThread: SpawnThread = distIsFresh()
  ? () => nodeThreadHandle(startModuleWorker(new URL('../../dist/cli/thread-entry.js', import.meta.url)))
  : sourceThread;

/** A particle simulation on `workers` threads (Node worker_threads). */
export function threadedSim(input: SceneInput, workers: number): ParticleSimulation {
  return createSimulation(parseScene(input), 'particle', { workers, spawnThread: spawnNodeThread }) as ParticleSimulation;
}

/** Deterministic pseudo-random numbers in [0, 1). */
export function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

export function liquid(viscosity: number, extra: Record<string, unknown> = {}) {
  return { kind: 'liquid' as const, density: 1000, viscosity: { value: viscosity, unit: 'Pa.s' as const }, ...extra };
}

/** Σ m v and Σ |m v| of the liquid. */
export function momentum(sim: ParticleSimulation): [number, number, number, number] {
  const L = sim.ctx.liquid;
  const p = [0, 0, 0];
  let scale = 0;
  for (let i = 0; i < L.count; i++) {
    const m = sim.ctx.mass[L.material[i]];
    for (let k = 0; k < 3; k++) {
      p[k] += m * L.vel[3 * i + k];
      scale += Math.abs(m * L.vel[3 * i + k]);
    }
  }
  return [p[0], p[1], p[2], scale];
}

/**
 * The jobs (by name) a simulation's thread team runs from now on (an empty set on one thread): a
 * stage that quietly ran on the calling thread would pass every comparison of results.
 */
export function teamKernels(sim: ParticleSimulation): Set<string> {
  const jobs = new Set<string>();
  const team = sim.ctx.runner.team;
  if (team !== null) {
    const run = team.run.bind(team);
    team.run = (id: number, self: () => void) => {
      jobs.add(PARTICLE_JOBS.layouts[id].job.name);
      run(id, self);
    };
  }
  return jobs;
}
