/**
 * A thread team's own timers (team.ts, worker.ts): where each thread of a team spends a job, kept
 * per job id and per rank in a shared Float64Array while `teamProfile.on` is set (off by default;
 * off, nothing is timed). Read by bench/team-profile.ts. Times are wall milliseconds from
 * `performance.timeOrigin + performance.now()`, which threads of one process share, so the
 * spawned thread's start lag (from the calling thread's notify to the spawned thread's start of
 * its share) is measurable; on a loaded machine every wait includes the time the scheduler gave
 * the thread's core away.
 */

/** Jobs counted: job ids below this (a table with more counts the rest under the last). */
export const PROF_JOBS = 64;
/** Figures kept per (rank, job). */
export const PROF_FIELDS = 15;
/** Runs of the job (a list job's copy run included). */
export const P_RUNS = 0;
/** The thread's share: its kernel, its barriers, its sums and list copies (ms). */
export const P_BUSY = 1;
/** Time waiting at barriers inside the job (ms), and the barriers met. */
export const P_BARRIER_WAIT = 2, P_BARRIERS = 3;
/** Spawned threads: from the calling thread's notify to the start of this thread's share (ms). */
export const P_START_LAG = 4;
/** Calling thread: from the end of its share to the last spawned thread's DONE (ms). */
export const P_DONE_WAIT = 5;
/** Calling thread: wall time since the end of the team's previous job (ms): the serial work before this job. */
export const P_GAP = 6;
/** Calling thread: the whole run, notify to DONE (ms). */
export const P_RUN = 7;
/** Calling thread: bytes of inputs copied to shared mirrors before the job's runs (run-job.ts). */
export const P_MIRRORED = 8;
/**
 * With `teamProfile.cpuClock` set: the thread's CPU time in the job (ms; what it ran on a core,
 * its polls at barriers and for DONE included) and its time runnable but not running (ms: on the
 * run queue, its core given to another thread). Unlike the wall times above they hold on a loaded
 * machine: the work a thread did is its CPU time, whatever the scheduler did meanwhile.
 * A spawned thread's figures are read by the calling thread at the start of the next profiled run
 * (the spawned thread asleep between jobs: its counters are current), so they count its sleep
 * until then too, which costs no CPU.
 */
export const P_CPU = 9, P_RUNQ = 10;
/** Calling thread, with `cpuClock`: its CPU time and run-queue time in the serial work before the job (ms). */
export const P_GAP_CPU = 11, P_GAP_RUNQ = 12;
/**
 * Time the thread polled in its waits (wall ms: at the job's barriers, the calling thread for the
 * others' DONE, a spawned thread for the job itself (worker.ts); wait.ts lastPoll), CPU burnt whether or not the wait then slept (while the thread held
 * its core: on a loaded machine a poll whose core was taken reads long), and the waits that slept
 * (Atomics.wait: a futex sleep and a wake-up).
 */
export const P_POLL = 13, P_SLEPT = 14;

/**
 * A per-thread CPU clock for the team's timers: writes rank `rank`'s CPU time and run-queue time
 * (ms, cumulative) at out[at] and out[at + 1]. The core cannot read one (no `node:*`); a platform
 * that can passes it in (bench/team-profile.ts: Linux's /proc/self/task/TID/schedstat). Called by
 * the calling thread only, for every rank.
 */
export type ThreadClock = (rank: number, out: Float64Array, at: number) => void;

/**
 * Profiling switch (read by ThreadTeam.run at each job, which passes it to the spawned threads).
 * `kept`: teams made while it is true hold the timers' words (profileWords: 15 kB for two threads,
 * posted to the spawned threads at the team's start, 1.15 bytes a point of the honey drop); a team
 * made without them holds one word, and its timers do not run. A bench that profiles sets it before
 * it makes its simulation (bench/team-profile.ts).
 */
export const teamProfile: { on: boolean; kept: boolean; cpuClock: ThreadClock | null } = { on: false, kept: false, cpuClock: null };

/** Float64 words of a team's profile for `size` threads, the last one the time of the last notify. */
export const profileWords = (size: number): number => size * PROF_JOBS * PROF_FIELDS + 1;

export function profileAt(rank: number, job: number, field: number): number {
  return (rank * PROF_JOBS + Math.min(job, PROF_JOBS - 1)) * PROF_FIELDS + field;
}

/** A time comparable between the threads of one process (ms). */
export function profileNow(): number {
  return performance.timeOrigin + performance.now();
}
