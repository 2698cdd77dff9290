/**
 * Sweeps on a real Slurm: the README's cluster section (its commands and its sbatch script, read
 * from the README itself) run on a two-node Slurm this file starts (slurm-cluster.ts). The README's
 * first command creates a 2 × 1 sweep of 12 frames, its sbatch line runs it as a 2-task job array
 * (one task on each node). Each task's first attempt holds at its checkpoint at frame 3 until
 * Slurm ends it (scripts/hold-first-attempt.mjs), so where it is caught depends neither on how soon
 * the test looks nor on how fast Slurm signals; one task is requeued by hand (`scontrol requeue`:
 * SIGTERM, a clean stop) and the other is lost with its node (frozen, killed with SIGKILL, requeued
 * onto the other node; the first goes to the node the lost one leaves, so the two continue at once):
 * both continue from their checkpoints on the other node, every combination's files are byte
 * for byte those of `viscid sweep --jobs 2`, and the README's report command sees both complete.
 * (A 2-frame sweep run through without a requeue was a test of its own; everything it held, this
 * one holds, and its Slurm round and second reference sweep were a third of the file's time.)
 *
 * Needs root, slurm-wlm and munge (tests/skips.ts); without them, or when the daemons do not
 * start, the suite is skipped and its title says why (.ci/run fails on that skip). Its waits are
 * for states (WAIT bounds each, for a loaded shared machine: the file took 6–9 minutes at a load
 * average of 25–40 on two cores); the work itself is a few dozen seconds: node start-ups and 12
 * frames of a 64-particle scene, four times. A requeued task is let go as soon as Slurm lists it pending
 * again, rather than after Slurm's two-minute hold.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, FIXTURES, ROOT } from '../cli/helpers.ts';
import { skipReason } from '../skips.ts';
import { jobProcesses, startSlurm, stepDaemon, type SlurmCluster } from './slurm-cluster.ts';

/** The README's cluster section: its command lines (continuations joined, comments dropped) and its sbatch script. */
function readmeCluster(): { commands: string[]; script: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('- **Sweeps on a cluster.**'));
  const blocks = [...section.matchAll(/\n {2}```sh\n([\s\S]*?)\n {2}```/g)].map((m) => m[1].replace(/^ {2}/gm, ''));
  const script = blocks.find((b) => b.startsWith('#!/bin/bash'));
  const commands = blocks[0]
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  if (!script || commands.length !== 3) throw new Error('README: the cluster section has no sbatch script, or not three commands before it');
  return { commands, script: `${script}\n` };
}

const { commands: README_COMMANDS, script: SCRIPT } = readmeCluster();
const tiny = join(FIXTURES, 'tiny.json');

/**
 * How long a wait for a state may last (the cluster up, a task at a checkpoint, a requeued task
 * running again): long, so that a loaded machine makes the file slower, not red.
 */
const WAIT = 600_000;
/** How long after its requeue a task is let run again (the old attempt's credential revoked, to the second). */
const REVOKED = 2500;

/** The README's first command with another base scene and sweep (the same form: `npx viscid sweep BASE … --out DIR`). */
function createCommand(args: string, out: string): string {
  const m = /^npx viscid sweep \S+ (.+) --out (\S+)$/.exec(README_COMMANDS[0]);
  if (!m) throw new Error(`README: the first cluster command is not 'npx viscid sweep BASE … --out DIR': ${README_COMMANDS[0]}`);
  return `npx viscid sweep ${tiny} ${args} --out ${out}`;
}
/** The README's sbatch line for `tasks` combinations of the sweep in `dir`. */
function sbatchCommand(tasks: number, dir: string): string {
  const line = README_COMMANDS[1];
  if (!/^sbatch --array=0-\d+ --wait viscid-sweep\.sbatch out\/honey-sweep$/.test(line)) throw new Error(`README: unexpected sbatch line: ${line}`);
  return line.replace(/--array=0-\d+/, `--array=0-${tasks - 1}`).replace(/out\/honey-sweep$/, dir);
}

let cluster: SlurmCluster | null = null;
let why = skipReason('slurm');
const tmp = mkdtempSync(join(tmpdir(), 'viscid-slurm-'));
if (!why) {
  const started = await startSlurm(join(tmp, 'cluster'), WAIT);
  if ('failed' in started) why = `the Slurm daemons did not start: ${started.failed}`;
  else cluster = started;
}
afterAll(async () => {
  await cluster?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/**
 * The folder the commands run in, as a user's: viscid installed in node_modules (this checkout,
 * linked), the README's sbatch script beside it.
 */
const work = join(tmp, 'work');
mkdirSync(join(work, 'node_modules', '.bin'), { recursive: true });
symlinkSync(ROOT, join(work, 'node_modules', 'viscid'));
symlinkSync(join('..', 'viscid', 'bin', 'viscid.js'), join(work, 'node_modules', '.bin', 'viscid'));
writeFileSync(join(work, 'viscid-sweep.sbatch'), SCRIPT, { mode: 0o755 });

interface Shell {
  code: number | null;
  out: string;
}
/** Runs a command line in `work` with the cluster's environment (and `extra`); `onOutput` sees stdout as it comes. */
function sh(line: string, onOutput?: (text: string) => void, extra: NodeJS.ProcessEnv = {}): Promise<Shell> {
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', line], { cwd: work, env: { ...cluster!.env, CI: 'true', ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      onOutput?.(out);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out }));
  });
}

/** Every file of every run's engine folder, relative to the sweep folder. */
function runFiles(dir: string): string[] {
  const files: string[] = [];
  for (const run of readdirSync(join(dir, 'runs')).sort()) {
    for (const f of readdirSync(join(dir, 'runs', run, 'particle')).sort()) files.push(join('runs', run, 'particle', f));
  }
  return files;
}

function expectSameFiles(dir: string, reference: string): void {
  const files = runFiles(dir);
  expect(files).toEqual(runFiles(reference));
  for (const f of files) expect(readFileSync(join(dir, f)).equals(readFileSync(join(reference, f))), f).toBe(true);
}

/**
 * The frame at which each task's first attempt holds until Slurm ends it (the moment its manifest
 * names that checkpoint: tests/sweep/scripts/hold-first-attempt.mjs, preloaded through sbatch's
 * environment); each holding task writes its hold's pid to HOLD_DIR/TASK.
 */
const HOLD_AT = 3;
const HOLD = join(ROOT, 'tests', 'sweep', 'scripts', 'hold-first-attempt.mjs');
const HOLD_DIR = join(tmp, 'hold');
mkdirSync(HOLD_DIR);

/** Sends `signal` to process `pid` unless it has ended. */
function signalIfThere(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/** Whether process `pid` is gone (or a zombie: ended, not yet reaped). */
function gone(pid: number): boolean {
  try {
    return /^State:\s*Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

const slurmLog = (job: string, task: number) => readFileSync(join(work, `viscid-sweep-${job}_${task}.log`), 'utf8');

describe.skipIf(why)(why ? `Slurm job arrays (skipped: ${why.split('\n')[0]})` : 'Slurm job arrays', () => {
  const sweep = 'out/honey-sweep';

  it("run the README's cluster commands; a task requeued mid-run, and one lost with its node, continue from their checkpoints: every task's files the same bytes as --jobs 2, both complete in the report", async () => {
    // Two combinations, one task a node at once (each node has nproc CPUs, the script asks for 2).
    // 64 particles at 40 substeps a frame, 12 frames: a run held at frame 3 has 9 left to continue.
    const FRAMES = 12;
    const dir = sweep;
    const created = await sh(createCommand(`--set materials.syrup.viscosity.value=1,20 --set particle.substeps=40 --frames ${FRAMES} --checkpoint-every 1 --points ply`, dir));
    expect(created.code, created.out).toBe(0);
    const reference = join(tmp, 'requeue-jobs-2');
    cpSync(join(work, dir), reference, { recursive: true });
    const jobs = cli(['sweep', reference, '--jobs', '2']);
    let job = '';
    // sbatch passes its environment to the tasks (--export=ALL): each first attempt holds itself at HOLD_AT.
    const hold = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${HOLD}`.trim(), VISCID_HOLD_AT_FRAME: String(HOLD_AT), VISCID_HOLD_DIR: HOLD_DIR };
    const submitted = sh(sbatchCommand(2, dir), (out) => (job = /Submitted batch job (\d+)/.exec(out)?.[1] ?? job), hold);
    let ended: Shell | null = null;
    void submitted.then((r) => (ended = r));

    /** The checkpoint frame of a task's first attempt while it runs, and that attempt's pid and host; null before. */
    const firstAttempt = (task: number): { frame: number; pid: number; host: string } | null => {
      try {
        const record = JSON.parse(readFileSync(join(work, dir, 'tasks', `000${task}.json`), 'utf8')) as { pid: number; host: string; restart: number };
        const r = JSON.parse(readFileSync(join(work, dir, 'runs', `000${task}`, 'manifest.json'), 'utf8')).engines.particle;
        return record.restart === 0 && r.status === 'running' && r.checkpoint ? { frame: r.checkpoint.frame, pid: record.pid, host: record.host } : null;
      } catch {
        return null;
      }
    };
    /** scontrol until it takes (a task being requeued is for a moment neither running nor pending). */
    const scontrol = async (args: string[]) => {
      for (let i = 0; ; i++) {
        try {
          return cluster!.slurm('scontrol', args);
        } catch (e) {
          if (i > 40) throw e;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    };
    /** True once a task's second attempt has started (it records itself in DIR/tasks/NNNN.json). */
    const restarted = (task: number): boolean => {
      try {
        return (JSON.parse(readFileSync(join(work, dir, 'tasks', `000${task}.json`), 'utf8')) as { restart: number }).restart >= 1;
      } catch {
        return false;
      }
    };
    /** A task's state and, when pending, why (squeue: 'PENDING BeginTime'); '' once it is not listed. */
    const taskState = (task: number): string => {
      try {
        return cluster!.slurm('squeue', ['-h', '-j', `${job}_${task}`, '-o', '%T %r']).trim();
      } catch {
        return '';
      }
    };
    const lost: { host?: string } = {};
    const moved: { host?: string } = {};
    const caught = new Set<number>();
    /** Tasks requeued and not yet seen running again, with when their requeue was asked. */
    const requeued = new Map<number, number>();
    const t0 = Date.now();
    while (caught.size < 2 || requeued.size > 0) {
      // A wait for states, bounded only to end a run that never gets there.
      expect(Date.now() - t0, `both tasks hold at frame ${HOLD_AT} (${HOLD}), and run again once requeued`).toBeLessThan(WAIT);
      // A task that ran to its end without holding (or failed) ends the job array: said at once.
      if (ended && caught.size < 2) expect.fail(`sbatch --wait ended before both tasks held at frame ${HOLD_AT}: ${(ended as Shell).out}\n${cluster!.logs()}`);
      for (const task of [0, 1]) {
        const at = caught.has(task) || !job ? null : firstAttempt(task);
        // Held between two frames by the task itself (HOLD), whatever the test was doing meanwhile,
        // and kept there while Slurm is told.
        if (!at || !existsSync(join(HOLD_DIR, String(task)))) continue;
        expect(at.frame, `task ${task} holds at its checkpoint at frame ${HOLD_AT}`).toBe(HOLD_AT);
        caught.add(task);
        requeued.set(task, Date.now());
        if (task === 1) {
          // Its node is lost: every process of the task freezes and dies (the run without releasing
          // its lock), and Slurm requeues the task onto another node. The task must never be seen
          // failed in between: `sbatch --wait` keeps the worst exit code of every poll (2 s
          // apart), so a task once seen FAILED makes it exit 1 whatever its requeue ends in.
          // The slurmstepd of the task, the one process that would report the run's death to
          // slurmctld, freezes with it; the run is killed, the requeue taken (slurmctld marks the
          // task requeued before scontrol returns), and only then is the slurmstepd let go: it
          // reaps the run and reports an end that slurmctld reads as the requeued attempt's,
          // whatever the load. (Sending the requeue as the run was killed, without the
          // slurmstepd frozen, raced the two: under load the death was reported first.)
          lost.host = at.host;
          const stepd = stepDaemon(at.pid);
          expect(stepd, `the run (pid ${at.pid}) runs under a slurmstepd`).not.toBeNull();
          process.kill(stepd!, 'SIGSTOP');
          try {
            // (In the try: a failure here must not leave the slurmstepd stopped after the file.)
            const inTask = (env: string) => env.includes(`\0SLURM_ARRAY_JOB_ID=${job}\0`) && env.includes('\0SLURM_ARRAY_TASK_ID=1\0');
            const processes = jobProcesses(cluster!.env.SLURM_CONF!, inTask);
            expect(processes, 'the run is one of the task\'s processes').toContain(at.pid);
            // The run first; the others may end meanwhile (the hold's `sleep`s come and go).
            process.kill(at.pid, 'SIGSTOP');
            for (const pid of processes) signalIfThere(pid, 'SIGSTOP');
            for (const pid of processes) signalIfThere(pid, 'SIGKILL');
            await scontrol(['requeue', `${job}_1`]);
            if (cluster!.nodes.length > 1) await scontrol(['update', `JobId=${job}_1`, `ExcNodeList=${at.host}`]);
          } finally {
            process.kill(stepd!, 'SIGCONT');
          }
        } else {
          // Requeued by hand: Slurm sends every process of the task SIGCONT, then SIGTERM (slurmd's
          // _rpc_terminate_job), the hold ends on the SIGTERM, and the run, whose own SIGTERM came
          // in the same pass, stops cleanly with a checkpoint of the frame it held at (or of the
          // one after, if its files were written by then). It continues on the other node: the
          // one the lost task's attempt leaves free (the lost task may not return to its node, and
          // each node holds one task), so the two continue at once rather than one after the
          // other on the same node.
          await scontrol(['requeue', `${job}_0`]);
          const asked = Date.now();
          while (!gone(at.pid) && Date.now() - asked < WAIT) await new Promise((r) => setTimeout(r, 100));
          moved.host = at.host;
          if (cluster!.nodes.length > 1) await scontrol(['update', `JobId=${job}_0`, `ExcNodeList=${at.host}`]);
        }
      }
      // Slurm holds a requeued task back for two minutes (its credentials' lifetime), from the
      // moment its attempt has ended: once it is pending again, let it run now, but not within
      // REVOKED ms of the requeue: slurmd revokes the old attempt's credential at a one-second
      // resolution, and a task started on the same node in that second is killed as "Job
      // credential revoked" (exit 1, FAILED, never run again).
      for (const [task, at] of requeued) {
        if (restarted(task)) requeued.delete(task);
        else if (taskState(task) === 'PENDING BeginTime' && Date.now() - at > REVOKED) await scontrol(['update', `JobId=${job}_${task}`, 'StartTime=now']);
      }
      await new Promise((r) => setTimeout(r, requeued.size > 0 ? 250 : 50));
    }
    const [done, ref] = await Promise.all([submitted, jobs]);
    expect(done.code, `${done.out}\n${cluster!.logs()}`).toBe(0);
    expect(ref.code, ref.stderr).toBe(0);

    for (const task of [0, 1]) {
      const log = slurmLog(job, task);
      // Both attempts' lines, appended to one log (the script's --open-mode=append).
      expect(log).toMatch(new RegExp(`^sweep ${task}/1: `, 'm'));
      const resumed = new RegExp(`^sweep: continuing runs/000${task} \\(particle from its checkpoint at frame (\\d+)\\)$`, 'm').exec(log);
      expect(resumed, log).not.toBeNull();
      expect(Number(resumed![1])).toBeGreaterThanOrEqual(3);
      expect(Number(resumed![1])).toBeLessThan(FRAMES);
      const record = JSON.parse(readFileSync(join(work, dir, 'tasks', `000${task}.json`), 'utf8')) as { restart: number; host: string; slurmJob: string };
      expect(record.slurmJob).toBe(`${job}_${task}`);
      expect(record.restart).toBe(1);
      if (task === 1) {
        // The lost attempt's lock, naming a pid on the lost node, was taken over on the other.
        expect(log).toMatch(/^sweep: took over .*runs\/0001: its lock was left by Slurm task \d+_1 before its requeue \(attempt 0/m);
        if (cluster!.nodes.length > 1) expect(record.host).not.toBe(lost.host);
      } else if (cluster!.nodes.length > 1) expect(record.host).not.toBe(moved.host);
    }
    const files = runFiles(join(work, dir));
    for (const id of ['0000', '0001']) {
      for (const f of ['mesh-0001.ply', `mesh-00${FRAMES}.ply`, 'points-0001.ply', `points-00${FRAMES}.ply`, 'checkpoint.vscd']) expect(files).toContain(join('runs', id, 'particle', f));
    }
    expectSameFiles(join(work, dir), reference);

    const report = await sh(README_COMMANDS[2]);
    expect(report.code, report.out).toBe(0);
    const csv = readFileSync(join(work, dir, 'report', 'sweep.csv'), 'utf8').trim().split('\n').slice(1);
    expect(csv.map((l) => l.split(',').slice(0, 6).join(','))).toEqual([
      `0,1,40,particle,complete,${FRAMES}`,
      `1,20,40,particle,complete,${FRAMES}`,
    ]);
  }, 2 * WAIT);
});


it("the Kubernetes manifest runs what the Slurm test runs: the README's commands around it, the program the sbatch script execs", () => {
  const manifest = readFileSync(join(ROOT, 'docs', 'kubernetes-indexed-job.yaml'), 'utf8');
  expect(manifest).toMatch(/^ {2}completionMode: Indexed\b/m);
  expect(manifest).toMatch(/UNTESTED/);
  const program = /^exec (\S+) sweep "\$1"/m.exec(SCRIPT);
  expect(program, SCRIPT).not.toBeNull();
  expect(manifest).toContain(`command: ["${program![1]}", "sweep", "out/honey-sweep"]`);
  // Its header's commands: the README's sweep and report, around `kubectl apply` in place of sbatch.
  const header = manifest.replace(/\\\n#\s*/g, '').split('\n').map((l) => l.replace(/^#\s*/, '').trim());
  expect(header).toContain(README_COMMANDS[0]);
  expect(header).toContain(README_COMMANDS[2]);
});
