/**
 * What slurmctld shows of an array task killed with SIGKILL and requeued some seconds later, with
 * and without the task's slurmstepd frozen in between (tests/sweep/slurm.test.ts's lost node; a
 * loaded machine is a late scontrol). `sbatch --wait` keeps the worst exit code it saw in any of
 * its polls (2 s apart), so a task seen FAILED once makes it exit 1 whatever its requeue ends in.
 *   npx tsx bench/slurm-requeue.ts [freeze|plain] [delay ms]   (as root, with slurm-wlm and munge)
 * Starts its own cluster (tests/sweep/slurm-cluster.ts), submits a one-task array whose script
 * execs `sleep`, stops the task (and with `freeze` its slurmstepd), kills it, waits, requeues it,
 * lets the slurmstepd go, and prints the task's state once a second until it runs again.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobProcesses, startSlurm, stepDaemon } from '../tests/sweep/slurm-cluster.ts';

const mode = process.argv[2] ?? 'freeze';
const delay = Number(process.argv[3] ?? 5000);
const tmp = mkdtempSync(join(tmpdir(), 'slurm-requeue-'));
const cluster = await startSlurm(join(tmp, 'cluster'), 300_000);
if ('failed' in cluster) throw new Error(cluster.failed);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const script = join(tmp, 'task.sh');
writeFileSync(script, `#!/bin/bash\n#SBATCH --requeue\n#SBATCH --output=${tmp}/task-%A_%a.log\n#SBATCH --open-mode=append\necho "attempt $SLURM_RESTART_COUNT"\nexec sleep 1000\n`, { mode: 0o755 });
const job = /(\d+)/.exec(cluster.slurm('sbatch', ['--array=0-0', script]))![1];
const task = `${job}_0`;
const t0 = Date.now();
const state = () => {
  try {
    const show = cluster.slurm('scontrol', ['show', 'job', task]);
    return ['JobState', 'Reason', 'ExitCode'].map((k) => new RegExp(`${k}=(\\S+)`).exec(show)?.[1]).join(' ');
  } catch {
    return '(not listed)';
  }
};
const say = (what: string) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s  ${what}: ${state()}`);

let run: number | undefined;
while (run === undefined) {
  run = jobProcesses(cluster.env.SLURM_CONF!).find((p) => readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'sleep');
  await wait(100);
}
const stepd = stepDaemon(run);
say(`running (pid ${run}, its slurmstepd ${stepd})`);
if (mode === 'freeze') process.kill(stepd!, 'SIGSTOP');
process.kill(run, 'SIGSTOP');
process.kill(run, 'SIGKILL');
await wait(delay);
say(`${delay} ms after the kill${mode === 'freeze' ? ', the slurmstepd frozen' : ''}`);
const requeue = spawnSync('scontrol', ['requeue', task], { env: cluster.env, encoding: 'utf8' });
say(`requeued (scontrol exit ${requeue.status}${requeue.stderr.trim() ? `: ${requeue.stderr.trim()}` : ''})`);
if (mode === 'freeze') process.kill(stepd!, 'SIGCONT');
for (let i = 0; i < 60; i++) {
  await wait(1000);
  const s = state();
  say('');
  if (/^PENDING BeginTime/.test(s)) cluster.slurm('scontrol', ['update', `JobId=${task}`, 'StartTime=now']);
  if (/^RUNNING/.test(s)) break;
}
console.log(readFileSync(join(tmp, `task-${task}.log`), 'utf8').trim());
await cluster.stop();
rmSync(tmp, { recursive: true, force: true });
