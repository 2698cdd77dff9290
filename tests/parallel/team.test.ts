/**
 * The thread team (src/parallel/team.ts) under the particle engine: it follows arrays that grow
 * (a spout emitting: a new buffer generation), reports a failing kernel, and a thread that cannot load, instead of hanging, shuts
 * its threads down on dispose(), and does not keep a process alive without it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { parseScene, createSimulation } from '../../src/index.ts';
import type { ParticleSimulation } from '../../src/particle/simulation.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { nodeThreadHandle, startModuleWorker, startNodeWorker } from '../../src/cli/threads.ts';
import { ABORT, READY, teamPoll, teamSpin, ThreadTeam } from '../../src/parallel/team.ts';
import { SpinBudget, waitWhile } from '../../src/parallel/wait.ts';
import { PARTICLE_JOBS } from '../../src/particle/jobs.ts';
import { VISCOSITY_MIN_PARTICLES as MIN_PARTICLES } from '../../src/particle/work.ts';
import { liquid, spawnNodeThread, threadedSim } from './helpers.ts';
import { distIsFresh } from '../../scripts/build.js';

const SPOUT: SceneInput = {
  fps: 30,
  gravity: [0, 0, 0],
  materials: { syrup: liquid(5) },
  sources: [{ name: 'spout', material: 'syrup', shape: 'disk', center: [0, 0, 0], direction: [1, 0, 0], radius: 0.02, speed: 0.6, start: 0, end: 1 }],
  particle: { radius: 0.002, substeps: 2, moves: 3 },
};

describe('thread team', () => {
  it('follows the liquid arrays as a spout makes them grow: same results on every run (threads polling between jobs too), and the spout’s particle counts', () => {
    const run = (workers: number) => {
      const s = threadedSim(SPOUT, workers);
      const buffers = new Set<ArrayBufferLike>();
      const counts: number[] = [];
      // 5 frames since branch suite67 (8 before): 392 to 1 963 particles, the velocities reallocated
      // 3 times from MIN_PARTICLES on (to 3 141 and 5 times over 8; a scratch run printing them), for
      // about 0.57 of the CPU (1.16 of 2.02 s a two-thread run). Red with a slot table that re-posts
      // no slot once written (slot-table.ts update).
      for (let f = 0; f < 5; f++) {
        const st = s.stepFrame();
        expect(st.counters.threads).toBe(workers);
        // Arrays reallocated while the threaded viscosity runs (from MIN_PARTICLES on).
        if (s.ctx.liquid.count >= MIN_PARTICLES) buffers.add(s.ctx.liquid.vel.buffer);
        counts.push(s.ctx.liquid.count);
      }
      const out = { vel: s.ctx.liquid.vel.slice(0, 3 * s.ctx.liquid.count), counts, grew: buffers.size, ke: s.metrics().kineticEnergy };
      s.dispose();
      return out;
    };
    const a = run(2), one = run(1);
    // Threads that poll between jobs before they sleep (teamPoll), or whose waits poll their full
    // length every time (teamSpin off), wait otherwise, and compute the same: three runs more on two
    // threads, each equal to the first (a second run as the first, with the same settings, added
    // nothing these do not hold: a sixth of the test).
    teamPoll.us = 200;
    let polled: ReturnType<typeof run>, adapting: ReturnType<typeof run>, fixed: ReturnType<typeof run>;
    try {
      polled = run(2);
      teamPoll.adaptive = true; // (the poll for the next job adapting too)
      adapting = run(2);
      teamPoll.us = 0;
      teamPoll.adaptive = false;
      teamSpin.adaptive = false;
      teamSpin.us = 300; // (every wait polling 300 µs, on both threads: ctrl SPIN_US)
      fixed = run(2);
    } finally {
      teamPoll.us = 0;
      teamPoll.adaptive = false;
      teamSpin.adaptive = true;
      teamSpin.us = 50;
    }
    expect(a.counts[4]).toBeGreaterThan(2 * a.counts[0]);
    expect(a.grew).toBeGreaterThan(1); // the arrays were reallocated while the team ran on them
    for (const again of [polled, adapting, fixed]) expect(again.counts).toEqual(a.counts);
    expect(Array.from(polled.vel)).toEqual(Array.from(a.vel));
    expect(Array.from(fixed.vel)).toEqual(Array.from(a.vel));
    expect(Array.from(adapting.vel)).toEqual(Array.from(a.vel));
    // Emission does not depend on threads; the stream's energy stays within 1 % of one thread's.
    expect(one.counts).toEqual(a.counts);
    expect(Math.abs(a.ke / one.ke - 1)).toBeLessThan(0.01);
  });

  it("shortens a job's poll after waits that outlast it, down to a floor, and gives it its full length after one it catches", () => {
    const spins = new SpinBudget(0.05);
    expect(spins.at(3)).toBe(0.05);
    for (const want of [0.025, 0.0125, 0.00625, 0.003125, 0.002, 0.002]) {
      spins.after(3, false);
      expect(spins.at(3)).toBeCloseTo(want, 12);
    }
    expect(spins.at(4)).toBe(0.05); // each job its own
    spins.after(3, true);
    expect(spins.at(3)).toBe(0.05);
    // Job ids past the table share its last entry.
    spins.after(500, false);
    expect(spins.at(63)).toBe(0.025);
    // A new longest poll (teamSpin.us) starts every job's poll at it again.
    spins.setFull(0.2);
    expect(spins.at(3)).toBe(0.2);
    expect(spins.at(63)).toBe(0.2);
    spins.after(3, false);
    expect(spins.at(3)).toBeCloseTo(0.1, 12);
    // A wait whose word has already changed returns at once, caught by the poll.
    const ctrl = new Int32Array(new SharedArrayBuffer(16));
    expect(waitWhile(ctrl, 0, 1, 1, 0)).toBe(true);
  });

  it('a job that throws fails on every thread instead of hanging', () => {
    const team = new ThreadTeam(2, spawnNodeThread, PARTICLE_JOBS);
    try {
      // A job id past the table: the spawned thread throws, the calling thread's share does nothing.
      expect(() => team.run(PARTICLE_JOBS.layouts.length, () => {})).toThrow(/no job/);
      // The team is unusable afterwards, and says why (the first thread's message, shared memory).
      expect(() => team.run(0, () => {})).toThrow(/failed earlier: thread \d: no job/);
    } finally {
      team.dispose();
    }
  });

  it('a thread whose module does not load fails the start with its error, blocked on the first job or awaiting ready(), with no clock', async () => {
    // The fixture throws while it is evaluated. Blocked (run() before ready()), the calling thread
    // reads the error from the bootstrap's shared memory (threads.ts), not from its event loop; no
    // start limit is left to reach on a loaded machine, so only the error can end these waits.
    // Were that report lost, the blocked wait would never end (vitest's limit cannot fire in a
    // blocked thread): a watchdog thread then aborts it after the config's 600 s, without a
    // message, which fails the first expectation.
    const entry = new URL('./fixtures/load-fails.mjs', import.meta.url);
    const blocked = new ThreadTeam(2, () => nodeThreadHandle(startModuleWorker(entry)), PARTICLE_JOBS);
    const watchdog = new Worker(
      `const { workerData: b } = await import('node:worker_threads'); const c = new Int32Array(b);` +
        `setTimeout(() => { Atomics.store(c, ${ABORT}, 1); Atomics.notify(c, ${READY}); }, 600_000);`,
      { eval: true, workerData: blocked.ctrl.buffer },
    );
    try {
      expect(() => blocked.run(0, () => {})).toThrow(/worker thread 1 failed to load: Error: load-fails\.mjs: this module does not load/);
      expect(() => blocked.run(0, () => {})).toThrow(/failed earlier: worker thread 1 failed to load/);
    } finally {
      await watchdog.terminate();
      blocked.dispose();
    }
    const awaited = new ThreadTeam(3, () => nodeThreadHandle(startModuleWorker(entry)), PARTICLE_JOBS);
    try {
      await expect(awaited.ready()).rejects.toThrow(/failed to start: .*load-fails\.mjs: this module does not load/);
    } finally {
      awaited.dispose();
    }
  });

  it('dispose() ends the worker threads', async () => {
    const workers: Worker[] = [];
    const spawn = () => {
      const w = startNodeWorker();
      workers.push(w);
      return nodeThreadHandle(w);
    };
    const input = { ...SPOUT, particle: { ...SPOUT.particle, workers: 3 } };
    const s = createSimulation(parseScene(input), 'particle', { spawnThread: spawn }) as ParticleSimulation;
    await s.ready();
    s.stepFrame();
    expect(workers.length).toBe(2);
    const exited = workers.map((w) => new Promise<number>((resolve) => w.once('exit', resolve)));
    s.dispose();
    // They exit: a thread left running would hold this test until vitest.config.ts's limit (no
    // shorter limit of its own, which a loaded machine can run past).
    const codes = await Promise.all(exited);
    expect(codes).toHaveLength(2);
  });

  it('a process that never calls dispose() still exits', async () => {
    const script = fileURLToPath(new URL('./fixtures/no-dispose.mjs', import.meta.url));
    const root = fileURLToPath(new URL('../..', import.meta.url));
    // From dist/ when it is up to date with src/ (as bin/viscid.js runs), else from the sources
    // through tsx, which every thread loads again: 1.3 s of CPU against 3.7 s (load 25).
    const args = distIsFresh() ? [script, 'dist'] : ['--import', 'tsx', script, 'src'];
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(process.execPath, args, { cwd: root, timeout: 600_000 }, (err, stdout) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout });
      });
      void child;
    });
    expect(out.stdout).toContain('threads 2');
    expect(out.code).toBe(0);
  });
});
