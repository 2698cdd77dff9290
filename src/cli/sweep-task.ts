/**
 * Which array task runs a sweep's combination, so that a requeued Slurm task can take over the run
 * folder its own earlier attempt left locked.
 *
 * Slurm requeues a task (`scontrol requeue`, or a node failure with `--requeue`) only after it has
 * ended the earlier attempt, and may run it on another node. That attempt, killed with its node,
 * leaves the run folder's lock behind naming a pid on another host, which nothing on this host can
 * check, so the run would refuse the folder. Before each attempt the task runner records who it is
 * in DIR/tasks/NNNN.json (the array task, `SLURM_ARRAY_JOB_ID_SLURM_ARRAY_TASK_ID`, its
 * `SLURM_RESTART_COUNT`, host and pid); a later attempt of the same array task finding the lock of
 * the pid and host recorded there removes it, saying so, and the run resumes from its checkpoint.
 * Nothing else is taken over: another task's lock, or a lock this record does not account for, is
 * left for the run to judge.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readBoundedFile, writeFileAtomic } from './files.ts';
import { LOCK } from './run-dir.ts';

/** This process's place in a Slurm job array, or null outside one. */
export interface SlurmTask {
  /** `ARRAYJOB_TASK`, the same across requeues. */
  job: string;
  restart: number;
}

interface TaskRecord {
  slurmJob: string;
  restart: number;
  host: string;
  pid: number;
  startedAt: string;
}

/** The array task running combination `index`, from Slurm's variables; null when not one. */
export function slurmTaskOf(index: number, env: NodeJS.ProcessEnv = process.env): SlurmTask | null {
  const array = env.SLURM_ARRAY_JOB_ID, task = env.SLURM_ARRAY_TASK_ID;
  if (!array || !task || !/^\d+$/.test(array) || task !== String(index)) return null;
  const restart = Number(env.SLURM_RESTART_COUNT ?? 0);
  return { job: `${array}_${task}`, restart: Number.isSafeInteger(restart) && restart >= 0 ? restart : 0 };
}

/** DIR/tasks/NNNN.json for the combination whose run folder is runs/NNNN. */
export function taskFile(sweepDir: string, runOut: string): string {
  return join(sweepDir, 'tasks', `${runOut.split(/[\\/]/).pop()}.json`);
}

function readRecord(file: string): TaskRecord | null {
  try {
    const r = JSON.parse(readBoundedFile(file, 4096).toString('utf8')) as Partial<TaskRecord>;
    if (typeof r.slurmJob !== 'string' || typeof r.host !== 'string' || !Number.isSafeInteger(r.pid) || !Number.isSafeInteger(r.restart)) return null;
    return r as TaskRecord;
  } catch {
    return null;
  }
}

/** Whether a lock's text names this pid and host (whatever the lock's layout: words or JSON). */
function lockNames(text: string, pid: number, host: string): boolean {
  const words = new Set(text.match(/[^\s"{}:,[\]]+/g) ?? []);
  return words.has(String(pid)) && words.has(host);
}

/**
 * Before an attempt of `task` runs into `runDir`: removes the lock an earlier attempt of the same
 * array task left (see the header), then records this attempt. Returns the line it says, or null.
 */
export function claimForSlurmTask(sweepDir: string, runDir: string, runOut: string, task: SlurmTask): string | null {
  const file = taskFile(sweepDir, runOut);
  const before = readRecord(file);
  let said: string | null = null;
  if (before && before.slurmJob === task.job && task.restart > before.restart && before.pid !== process.pid) {
    let text: string | null = null;
    try {
      text = readBoundedFile(join(runDir, LOCK), 4096).toString('utf8');
    } catch {
      // no lock: the earlier attempt released it
    }
    if (text !== null && lockNames(text, before.pid, before.host)) {
      rmSync(join(runDir, LOCK), { force: true });
      said = `took over ${runDir}: its lock was left by Slurm task ${task.job} before its requeue (attempt ${before.restart}, pid ${before.pid} on ${before.host}); Slurm ended that attempt before starting this one (attempt ${task.restart})`;
    }
  }
  mkdirSync(join(sweepDir, 'tasks'), { recursive: true });
  const record: TaskRecord = { slurmJob: task.job, restart: task.restart, host: hostname(), pid: process.pid, startedAt: new Date().toISOString() };
  writeFileAtomic(file, `${JSON.stringify(record)}\n`);
  return said;
}
