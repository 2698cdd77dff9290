/**
 * Two threads' cut of a job that balances (job.ts JobSpec.balance): the calling thread's share of
 * the job's cost, which follows the threads' measured working times (team.ts ThreadTeam.worked) run
 * by run, so that a half the cost model underrates, or a thread whose core runs slower, is given
 * less. Only jobs whose items' results do not depend on the cut balance, so the bits do not depend
 * on the times (docs/decisions.md, branch two5).
 */

/**
 * Whether the shares follow the measured times; off, each stays where it is (0.5 unless set):
 * bench/threads-frames.ts --no-balance measures the two, bench/balance-bits.ts holds shares to check
 * that the bits do not depend on them.
 */
export const teamBalance = { on: true };

/** One job's share (run-job.ts JobBinding.cut). */
export class ShareCut {
  /** The calling thread's share of the cost in the next run. */
  share = 0.5;
  /**
   * Set by a stage whose runs of the job carry, from one run to the next, what a thread kept for the
   * items below its range (the solve's kept slopes: pressure-job.ts): the moved share then waits
   * until the stage takes it (take) where nothing is carried.
   */
  hold = false;
  private next = 0.5;

  /** After a run at `share` in which the threads worked t0 and t1 ms. */
  update(t0: number, t1: number): void {
    if (!teamBalance.on) return;
    this.next = nextShare(this.next, this.share, t0, t1);
    if (!this.hold) this.share = this.next;
  }

  /** The moved share (hold) from the next run on. */
  take(): void {
    this.share = this.next;
  }

  /** The share from the next run on, whatever was measured (bench/balance-bits.ts, with teamBalance off). */
  set(f: number): void {
    this.share = this.next = f;
  }
}

/**
 * The next share of the calling thread (of two) from the share `g` it is moving and the last run's
 * share f and each thread's working time t0, t1 (ms): their speeds f / t0 and (1 − f) / t1 would
 * finish together at f* = (f / t0) / (f / t0 + (1 − f) / t1); g moves a third of the way there (one
 * run's times are noisy: a thread's core taken for a moment), within [SHARE_MIN, 1 − SHARE_MIN], and
 * stays where a run was too short to time (under SHARE_MIN_MS a thread).
 */
export function nextShare(g: number, f: number, t0: number, t1: number): number {
  if (!(t0 >= SHARE_MIN_MS && t1 >= SHARE_MIN_MS)) return g;
  const s0 = f / t0, s1 = (1 - f) / t1, target = s0 / (s0 + s1);
  const next = g + SHARE_STEP * (target - g);
  return next < SHARE_MIN ? SHARE_MIN : next > 1 - SHARE_MIN ? 1 - SHARE_MIN : next;
}
const SHARE_STEP = 1 / 3, SHARE_MIN = 0.2, SHARE_MIN_MS = 0.05;
