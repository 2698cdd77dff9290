/**
 * Per-thread CPU clocks of this process from Linux's /proc/self/task/TID/schedstat (the first two
 * fields: ns run on a core, ns runnable but waiting on a run queue), for the team's timers
 * (src/parallel/profile.ts teamProfile.cpuClock) and for whole-frame splits between the calling
 * thread, the team's spawned threads and the rest of the process (V8's compiler and GC threads,
 * tsx's loader thread). A running thread's counter is brought up to date at the scheduler's ticks
 * and switches, so one reading may lag by up to a tick (4 ms here); sums over many runs read
 * true on average (the lag is as likely at a run's start as at its end). Linux only: elsewhere
 * `threadClock` returns null.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import type { ThreadClock } from '../src/parallel/profile.ts';

/** The process's thread ids now (Linux), or [] where /proc has none. */
export function threadIds(): number[] {
  return existsSync('/proc/self/task') ? readdirSync('/proc/self/task').map(Number).sort((a, b) => a - b) : [];
}

const buf = Buffer.alloc(128);
const fds = new Map<number, number>();

/** Thread `tid`'s [cpu ms, run-queue ms] written at out[at], out[at + 1]; zeros once it has exited. */
export function readThread(tid: number, out: Float64Array, at: number): void {
  let fd = fds.get(tid);
  try {
    if (fd === undefined) fds.set(tid, (fd = openSync(`/proc/self/task/${tid}/schedstat`, 'r')));
    const n = readSync(fd, buf, 0, buf.length, 0);
    let k = 0, a = 0, b = 0;
    for (; k < n && buf[k] !== 32; k++) a = a * 10 + buf[k] - 48;
    for (k++; k < n && buf[k] !== 32; k++) b = b * 10 + buf[k] - 48;
    out[at] = a / 1e6;
    out[at + 1] = b / 1e6;
  } catch {
    out[at] = out[at + 1] = 0;
  }
}

/** Every thread's [cpu, run queue] (ms) now. */
export function readAll(tids: readonly number[]): Float64Array {
  const out = new Float64Array(2 * tids.length);
  tids.forEach((t, k) => readThread(t, out, 2 * k));
  return out;
}

/** A ThreadClock over the given thread id per rank (rank 0: the calling thread, process.pid). */
export function threadClock(tidOfRank: readonly number[]): ThreadClock | null {
  if (tidOfRank.length === 0 || !existsSync(`/proc/self/task/${tidOfRank[0]}/schedstat`)) return null;
  return (rank, out, at) => readThread(tidOfRank[rank], out, at);
}

export function closeThreadClocks(): void {
  for (const fd of fds.values()) closeSync(fd);
  fds.clear();
}
