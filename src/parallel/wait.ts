/**
 * How the threads of a team (team.ts) wait for each other: a poll of a shared word for a while,
 * then a sleep in Atomics.wait; how long each poll runs (SpinBudget). No `node:*`, no DOM.
 */

/**
 * Barrier waits poll for up to this long before sleeping in Atomics.wait. A sleeping thread's
 * wake-up costs tens of µs on an idle machine and up to ~1 ms on a loaded one (its core is given
 * away), against phases of 0.1–1 ms (honey drop viscosity); but polling long (1–2 ms) on a
 * loaded 2-core machine starved the thread doing the work and was 2–3× slower. 50 µs covers the
 * usual phase imbalance.
 */
export const SPIN_MS = 0.05;
/**
 * The calling thread polls for the spawned threads' DONE this long (µs) before it sleeps, as a
 * barrier does: it has finished its own share and the others' are ending, so the core it holds
 * has nothing else of the job to do (without it, every job whose calling thread finished first
 * paid a futex wake-up on the critical path; docs/decisions.md, "Where the particle team's second
 * thread waits").
 */
export const DONE_SPIN_US = 1000 * SPIN_MS;

/**
 * How long (µs) the threads of a team poll between jobs before they sleep in Atomics.wait: a
 * spawned thread for the next job, the calling thread for the others' DONE. 0 (the default): no
 * poll. A poll of 0.3 ms for the next job was slower on a loaded 2-core machine (worker.ts); what a
 * short one does on a quiet machine is for bench/threads-frames.ts to measure (`--poll US`). Read by
 * ThreadTeam.run at each job, so it can be changed between jobs. `adaptive`: a spawned thread's poll
 * for the next job is up to `us` and adapts per job as a wait's (SpinBudget, keyed by the job it
 * last ran): full after a gap it caught, halved after one it slept through, so that on a loaded
 * machine, where gaps run long, it polls little (`--poll US --poll-adapt`); the DONE wait adapts
 * as it does without a teamPoll. Off by default: measured on a quiet machine only by whoever turns it on.
 */
export const teamPoll = { us: 0, adaptive: false };

/**
 * Whether the polls before a sleep adapt to the waits (SpinBudget); off, every barrier polls for
 * teamSpin.us (SPIN_MS, DONE_SPIN_US, by default) (bench/threads-frames.ts --fixed-spin). Read by
 * ThreadTeam.run at each job, which passes it to the spawned threads (team.ts ctrl SPIN). `us`: the
 * longest poll of a barrier and of the calling thread's DONE wait (µs; SPIN_MS by default), passed
 * in the same way (team.ts ctrl SPIN_US), for bench/spin-ab.ts to compare lengths.
 */
export const teamSpin = { adaptive: true, us: DONE_SPIN_US };

/** The shortest poll of an adaptive wait (ms): a few looks at the word and a clock reading. */
const SPIN_FLOOR_MS = 0.002;

/**
 * One thread's poll before it sleeps, per job id (Anderson, Bershad, Lazowska & Levy 1992 and
 * Karlin, Li, Manasse & Owicki 1991 on spinning against blocking: poll about as long as a sleep
 * and wake-up would cost, no longer where the waits run past it). A wait the poll caught keeps the
 * job's poll at its full length (SPIN_MS, or the DONE wait's); a wait that outlasted it, and so
 * slept anyway, halves it, down to SPIN_FLOOR_MS. The poll burns CPU for as long as it runs, while
 * a wait that ends in a sleep has paid the wake-up whatever the poll: on a loaded machine, where
 * the other thread's core is often given away mid-phase, most waits outlast any short poll, and the
 * polls were 4–5 % of the two threads' CPU (docs/decisions.md, branch two7); on a quiet one the
 * phases' imbalance is what a poll waits for, mostly caught, so the polls keep their length.
 */
export class SpinBudget {
  private readonly ms: Float64Array;
  /** `full`: the longest poll (ms). */
  constructor(public full: number) {
    this.ms = new Float64Array(SPIN_JOBS).fill(full);
  }

  /** Sets the longest poll (ms); a change starts every job's poll at it again. */
  setFull(full: number): void {
    if (full === this.full) return;
    this.full = full;
    this.ms.fill(full);
  }

  /** The poll (ms) for the next wait of job `id`. */
  at(id: number): number {
    return this.ms[id < SPIN_JOBS ? id : SPIN_JOBS - 1];
  }

  /** After a wait of job `id` that the poll caught (true) or that slept. */
  after(id: number, caught: boolean): void {
    const k = id < SPIN_JOBS ? id : SPIN_JOBS - 1;
    this.ms[k] = caught ? this.full : Math.max(SPIN_FLOOR_MS, 0.5 * this.ms[k]);
  }
}
const SPIN_JOBS = 64;

/**
 * How long (ms) the last pollWhile or waitWhile of this thread polled before its word changed or it
 * went to sleep: CPU a waiting thread burns (read by the team's timers, profile.ts P_POLL).
 */
export const lastPoll = { ms: 0 };

/** Polls ctrl[index] for up to `us` µs; true when it is no longer `value`. */
export function pollWhile(ctrl: Int32Array, index: number, value: number, us: number): boolean {
  const t0 = performance.now(), ms = us / 1000;
  for (;;) {
    for (let k = 0; k < 64; k++) {
      if (Atomics.load(ctrl, index) !== value) {
        lastPoll.ms = performance.now() - t0;
        return true;
      }
    }
    const t = performance.now() - t0;
    if (t > ms) {
      lastPoll.ms = t;
      return false;
    }
  }
}

/**
 * Waits until ctrl[index] !== value, polling for up to `spinMs` first; throws when a thread aborted
 * the job (ctrl[abort], team.ts ABORT, set). True when the poll caught the change, false when the wait slept.
 */
export function waitWhile(ctrl: Int32Array, index: number, value: number, abort: number, spinMs = SPIN_MS): boolean {
  const t0 = performance.now();
  for (;;) {
    for (let k = 0; k < 256; k++) {
      if (Atomics.load(ctrl, index) !== value) {
        lastPoll.ms = performance.now() - t0;
        return true;
      }
    }
    const t = performance.now() - t0;
    if (t > spinMs) {
      lastPoll.ms = t;
      break;
    }
  }
  while (Atomics.load(ctrl, index) === value) {
    Atomics.wait(ctrl, index, value, 200);
    if (Atomics.load(ctrl, abort) !== 0) throw new TeamAbort();
  }
  return false;
}

export class TeamAbort extends Error {
  override name = 'TeamAbort';
  constructor() {
    super('another thread of the team failed');
  }
}
