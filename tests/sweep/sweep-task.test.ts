/**
 * A requeued Slurm array task takes over the run folder's lock that its own earlier attempt left
 * (sweep-task.ts), and no other lock: another task's, an attempt that is not earlier, a lock the
 * task record does not account for. tests/sweep/slurm.test.ts does the same on a real Slurm.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK } from '../../src/cli/run-dir.ts';
import { claimForSlurmTask, slurmTaskOf, taskFile } from '../../src/cli/sweep-task.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-sweep-task-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A sweep folder whose run 0001 holds a lock of `pid` on `host` and a task record of `job` at `restart`. */
function sweepWith(name: string, lock: { pid: number; host: string } | null, record: { job: string; restart: number; pid: number; host: string }) {
  const dir = join(tmp, name);
  const run = join(dir, 'runs', '0001');
  mkdirSync(run, { recursive: true });
  // The lock as `viscid run` writes it today ("PID HOST"); a JSON lock naming the same pid and host reads the same.
  if (lock) writeFileSync(join(run, LOCK), `${lock.pid} ${lock.host}\n`);
  mkdirSync(join(dir, 'tasks'));
  writeFileSync(taskFile(dir, 'runs/0001'), JSON.stringify({ slurmJob: record.job, restart: record.restart, host: record.host, pid: record.pid, startedAt: '' }));
  return { dir, run };
}

describe('a Slurm array task', () => {
  it('is read from SLURM_ARRAY_JOB_ID, SLURM_ARRAY_TASK_ID and SLURM_RESTART_COUNT, for its own index only', () => {
    expect(slurmTaskOf(1, { SLURM_ARRAY_JOB_ID: '17', SLURM_ARRAY_TASK_ID: '1', SLURM_RESTART_COUNT: '2' })).toEqual({ job: '17_1', restart: 2 });
    expect(slurmTaskOf(1, { SLURM_ARRAY_JOB_ID: '17', SLURM_ARRAY_TASK_ID: '1' })).toEqual({ job: '17_1', restart: 0 });
    expect(slurmTaskOf(2, { SLURM_ARRAY_JOB_ID: '17', SLURM_ARRAY_TASK_ID: '1' })).toBeNull(); // --index 2 inside task 1
    expect(slurmTaskOf(1, { SLURM_ARRAY_TASK_ID: '1' })).toBeNull();
    expect(slurmTaskOf(1, { SLURM_ARRAY_JOB_ID: '', SLURM_ARRAY_TASK_ID: '' })).toBeNull(); // what --jobs gives its children
  });

  it("takes over the lock its earlier attempt left on another node, and records this attempt", () => {
    const { dir, run } = sweepWith('requeued', { pid: 4242, host: 'node-a' }, { job: '17_1', restart: 0, pid: 4242, host: 'node-a' });
    const said = claimForSlurmTask(dir, run, 'runs/0001', { job: '17_1', restart: 1 });
    expect(said).toMatch(/took over .*runs\/0001: its lock was left by Slurm task 17_1 before its requeue \(attempt 0, pid 4242 on node-a\)/);
    expect(existsSync(join(run, LOCK))).toBe(false);
    const now = JSON.parse(readFileSync(taskFile(dir, 'runs/0001'), 'utf8'));
    expect(now).toMatchObject({ slurmJob: '17_1', restart: 1, host: hostname(), pid: process.pid });
  });

  it('reads a JSON lock naming the same pid and host alike', () => {
    const { dir, run } = sweepWith('json-lock', null, { job: '17_1', restart: 0, pid: 4242, host: 'node-a' });
    writeFileSync(join(run, LOCK), `${JSON.stringify({ pid: 4242, host: 'node-a', token: 'x' })}\n`);
    expect(claimForSlurmTask(dir, run, 'runs/0001', { job: '17_1', restart: 1 })).toMatch(/took over/);
    expect(existsSync(join(run, LOCK))).toBe(false);
  });

  it('leaves every other lock for the run to judge', () => {
    const cases: [string, { pid: number; host: string }, { job: string; restart: number; pid: number; host: string }, { job: string; restart: number }][] = [
      ['other-task', { pid: 4242, host: 'node-a' }, { job: '17_2', restart: 0, pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1 }],
      ['other-array', { pid: 4242, host: 'node-a' }, { job: '16_1', restart: 0, pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1 }],
      ['not-later', { pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1, pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1 }],
      ['other-pid', { pid: 5151, host: 'node-a' }, { job: '17_1', restart: 0, pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1 }],
      ['other-host', { pid: 4242, host: 'node-b' }, { job: '17_1', restart: 0, pid: 4242, host: 'node-a' }, { job: '17_1', restart: 1 }],
    ];
    for (const [name, lock, record, task] of cases) {
      const { dir, run } = sweepWith(name, lock, record);
      expect(claimForSlurmTask(dir, run, 'runs/0001', task), name).toBeNull();
      expect(readFileSync(join(run, LOCK), 'utf8'), name).toBe(`${lock.pid} ${lock.host}\n`);
    }
  });
});
