/**
 * The lock of a run folder (`.viscid-run.lock`): one run writes into a folder at a time, on one
 * machine or across the nodes of a shared file system.
 *
 * The lock is created exclusively (O_CREAT | O_EXCL, `wx`; NFS v3 and later honour it), so of two
 * runs started at the same instant one gets it and the other is refused. It records who holds it,
 * as one JSON line: the pid, the host name, the process's start time (Linux: /proc/PID/stat field
 * 22, clock ticks since boot) and a random token, and under Slurm the job id and restart count.
 *
 * A lock found in the way is judged:
 * - this host, pid alive, same start time (or none to compare and the process is a viscid one):
 *   held; refused, even with --force (stop that run first);
 * - this host, pid gone, or alive but started at another time (the pid was reused) or not a viscid
 *   process: stale; taken over, saying so;
 * - the same Slurm job at a later restart count (`scontrol requeue` onto any node): the earlier
 *   incarnation was ended by Slurm before the requeue; taken over, saying so;
 * - another host: nothing here can tell whether that run is alive; refused with the remedy
 *   (`--force` takes it over once you know it has ended);
 * - unreadable (not a lock viscid writes): refused with the remedy (`--force`).
 * Taking a lock over is itself exclusive: the stale lock is renamed away under a name only one
 * run can win, then a fresh lock is created with `wx` again.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readBoundedFile } from './files.ts';
import { printable } from './printable.ts';

export const LOCK = '.viscid-run.lock';

export interface LockRecord {
  pid: number;
  host: string;
  /** The process's start time (/proc/PID/stat field 22), or null where there is no /proc. */
  started: string | null;
  token: string;
  createdAt: string;
  slurmJob?: string;
  slurmRestart?: number;
}

/** Tokens of the locks this process holds (a lock naming our pid but another token was left by an earlier run of this process's pid). */
const held = new Set<string>();

/** The start time of process `pid` as /proc gives it, or null (no /proc, no such process). */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 overall
  } catch {
    return null;
  }
}

/** Whether process `pid`'s command line names viscid (Linux), or null where that cannot be read. */
function isViscidProcess(pid: number): boolean | null {
  try {
    return /viscid|cli[/\\]main\.[jt]s/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function slurmJob(env: NodeJS.ProcessEnv): { slurmJob?: string; slurmRestart?: number } {
  const job = env.SLURM_ARRAY_JOB_ID && env.SLURM_ARRAY_TASK_ID ? `${env.SLURM_ARRAY_JOB_ID}_${env.SLURM_ARRAY_TASK_ID}` : env.SLURM_JOB_ID;
  if (!job) return {};
  const restart = Number(env.SLURM_RESTART_COUNT ?? 0);
  return { slurmJob: job, slurmRestart: Number.isSafeInteger(restart) && restart >= 0 ? restart : 0 };
}

/** The record this process writes into a lock it takes. */
export function ownLockRecord(env: NodeJS.ProcessEnv = process.env): LockRecord {
  return {
    pid: process.pid,
    host: hostname(),
    started: processStartTime(process.pid),
    token: randomBytes(12).toString('hex'),
    createdAt: new Date().toISOString(),
    ...slurmJob(env),
  };
}

/** Parses a lock file's text: this format, or the older `PID HOST` line. Null when it is neither. */
export function parseLock(text: string): LockRecord | null {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      const o = JSON.parse(t) as Partial<LockRecord>;
      if (!Number.isSafeInteger(o.pid) || (o.pid as number) <= 0 || typeof o.host !== 'string' || typeof o.token !== 'string') return null;
      return {
        pid: o.pid as number,
        host: o.host,
        started: typeof o.started === 'string' ? o.started : null,
        token: o.token,
        createdAt: typeof o.createdAt === 'string' ? o.createdAt : '',
        ...(typeof o.slurmJob === 'string' ? { slurmJob: o.slurmJob } : {}),
        ...(Number.isSafeInteger(o.slurmRestart) ? { slurmRestart: o.slurmRestart } : {}),
      };
    } catch {
      return null;
    }
  }
  const m = /^(\d+)(?:\s+(\S+))?$/.exec(t);
  if (!m || !Number.isSafeInteger(Number(m[1])) || Number(m[1]) <= 0) return null;
  return { pid: Number(m[1]), host: m[2] ?? hostname(), started: null, token: '', createdAt: '' };
}

export type LockVerdict =
  | { state: 'held'; why: string }
  | { state: 'stale'; why: string }
  | { state: 'unknown'; why: string };

/** What a lock found in a folder means (see the header). */
export function judgeLock(lock: LockRecord | null, env: NodeJS.ProcessEnv = process.env): LockVerdict {
  if (!lock) return { state: 'unknown', why: 'its lock file is not one viscid wrote' };
  const who = `pid ${lock.pid} on ${printable(lock.host)}${lock.createdAt ? `, since ${printable(lock.createdAt)}` : ''}`;
  const mine = slurmJob(env);
  if (lock.slurmJob !== undefined && lock.slurmJob === mine.slurmJob && (mine.slurmRestart ?? 0) > (lock.slurmRestart ?? 0)) {
    return { state: 'stale', why: `a lock of Slurm job ${printable(lock.slurmJob)} before its requeue (${who})` };
  }
  if (lock.host !== hostname()) {
    return { state: 'unknown', why: `it is locked by a viscid run on another host (${who}), which cannot be checked from here` };
  }
  if (lock.pid === process.pid) {
    return held.has(lock.token) ? { state: 'held', why: `this process (${who})` } : { state: 'stale', why: `a lock left by an earlier run with this process's pid (${who})` };
  }
  if (!alive(lock.pid)) return { state: 'stale', why: `a lock left by a run that is no longer running (${who})` };
  const started = processStartTime(lock.pid);
  if (lock.started !== null && started !== null) {
    return started === lock.started
      ? { state: 'held', why: `another viscid run (${who})` }
      : { state: 'stale', why: `a lock left by a run whose pid ${lock.pid} now belongs to another process (${who})` };
  }
  if (isViscidProcess(lock.pid) === false) return { state: 'stale', why: `a lock left by a run whose pid ${lock.pid} now belongs to a process that is not viscid (${who})` };
  return { state: 'held', why: `another viscid run (${who})` };
}

function readLock(path: string): LockRecord | null | 'gone' {
  try {
    return parseLock(readBoundedFile(path, 4096).toString('utf8'));
  } catch (e) {
    return (e as Error).message.includes('ENOENT') ? 'gone' : null;
  }
}

/** Creates the lock exclusively; false when one is there already. */
function createExclusive(path: string, record: LockRecord): boolean {
  try {
    writeFileSync(path, `${JSON.stringify(record)}\n`, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

export class LockRefused extends Error {
  override name = 'LockRefused';
}

/**
 * Takes `dir`'s lock for this process, or throws LockRefused saying who holds it and what to do.
 * `force` takes over a lock that cannot be judged here (another host's, an unreadable one); a lock
 * held by a live viscid run on this host is never taken. `remedy` is the command line that retries
 * with --force. Returns the release function (removes the lock only while it is still ours).
 */
export function takeLock(dir: string, options: { force: boolean; remedy: string; note: (line: string) => void }): () => void {
  const path = join(dir, LOCK);
  const record = ownLockRecord();
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(path, record)) {
      held.add(record.token);
      return () => release(path, record.token);
    }
    const found = readLock(path);
    if (found === 'gone') continue; // released meanwhile: try again
    // Just created by a run that has not written its line yet: that run holds it.
    if (found === null && Date.now() - safeMtime(path) < 2000) throw new LockRefused(`${dir} is being claimed by another viscid run at this moment; wait for it, or stop it, first`);
    const verdict = judgeLock(found);
    if (verdict.state === 'held') {
      throw new LockRefused(`${dir} is being written by ${verdict.why}; wait for it, or stop it (kill ${found?.pid ?? '?'}), first`);
    }
    if (verdict.state === 'unknown' && !options.force) {
      throw new LockRefused(
        `${dir}: ${verdict.why}. If that run has ended (its node went down, its job was cancelled or requeued), take the folder over with:\n  ${options.remedy}`,
      );
    }
    // Stale, or --force: move the old lock aside under a name of our own, so only one run wins it.
    const aside = `${path}.stale-${record.token}`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // another run moved it first
    }
    const moved = readLock(aside);
    if (moved !== 'gone' && JSON.stringify(moved) !== JSON.stringify(found)) {
      // What we moved is not what we judged: a run took the folder in between. Its lock goes back
      // (link is exclusive too: it fails if yet another lock is there), and we judge again.
      try {
        linkSync(aside, path);
      } catch {
        // a lock is there again; it is judged on the next attempt
      }
      rmSync(aside, { force: true });
      continue;
    }
    rmSync(aside, { force: true });
    options.note(`took over ${dir}: ${verdict.why}${verdict.state === 'unknown' ? ' (--force)' : ''}`);
  }
  throw new LockRefused(`${dir}: could not take its lock (other runs keep claiming it); try again`);
}

function safeMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function release(path: string, token: string): void {
  held.delete(token);
  // Only our own lock: a run that took the folder over after this one was presumed gone keeps its.
  const found = readLock(path);
  if (found && found !== 'gone' && found.token === token) rmSync(path, { force: true });
}
