/**
 * A Slurm cluster for one test file, on this machine, as root: munged with its own key and socket,
 * slurmctld and one slurmd per node, all in the foreground as children of the test, configured by
 * a minimal slurm.conf in a temporary folder (SLURM_CONF points the client commands at it) and
 * stopped at the end, with any process a job left.
 *
 * The first node is this host (`hostname -s`, `nproc` CPUs). A second node, `<host>-b`, runs its
 * slurmd in a UTS namespace of its own (`unshare --uts`) so that what runs there sees another host
 * name, as on a second machine; both share this machine's file system, as cluster nodes share
 * theirs. Where the namespace cannot be made the cluster has the one node.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, hostname } from 'node:os';
import { join } from 'node:path';

export interface SlurmCluster {
  dir: string;
  /** The environment the client commands (sbatch, squeue, scontrol…) need. */
  env: NodeJS.ProcessEnv;
  nodes: string[];
  /** Runs a client command (sbatch, scontrol…) against this cluster; throws when it fails. */
  slurm(command: string, args: string[]): string;
  /** The last lines of the daemons' logs, for a failure's message. */
  logs(): string;
  /** Cancels every job, stops the daemons and ends what jobs left behind. */
  stop(): Promise<void>;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The limit on one Slurm command (scontrol, squeue, sinfo, scancel): it only ends a command that
 * hangs (a daemon gone), so it is far above the fraction of a second one takes; a machine at a
 * load of 30–40 makes the command slower, not the test red (it was 10–30 s).
 */
const COMMAND_MS = 300_000;

/** `n` ports free at this moment (the kernel's choice), so two clusters on one machine do not collide. */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((done, fail) => {
      const s = createServer();
      s.once('error', fail);
      s.listen(0, '127.0.0.1', () => done(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function slurmConf(dir: string, socket: string, ports: number[], nodes: string[]): string {
  const cpus = availableParallelism();
  return [
    'ClusterName=viscidtest',
    'SlurmctldHost=localhost(127.0.0.1)',
    `SlurmctldPort=${ports[0]}`,
    `SlurmdPort=${ports[1]}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${socket}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'MpiDefault=none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool', '%n')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd-%n.pid')}`,
    `SlurmctldLogFile=${join(dir, 'log', 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'log', 'slurmd-%n.log')}`,
    // A stopped job gets SIGTERM, then SIGKILL this many seconds later; finished jobs are kept
    // this long, which also keeps `sbatch --wait` polling every 2 s rather than backing off.
    'KillWait=5',
    'MinJobAge=4',
    'ReturnToService=1',
    ...nodes.map((n, i) => `NodeName=${n} NodeAddr=127.0.0.1 Port=${ports[1 + i]} CPUs=${cpus} State=UNKNOWN`),
    'PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

/** Pids of processes whose environment points at `conf`: what jobs of this cluster started. */
export function jobProcesses(conf: string, match: (env: string) => boolean = () => true): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let env: string;
    try {
      env = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue;
    }
    env = `\0${env}`;
    if (env.includes(`\0SLURM_CONF=${conf}\0`) && /\0SLURM_JOB_ID=\d+\0/.test(env) && match(env)) pids.push(Number(entry));
  }
  return pids;
}

/**
 * The slurmstepd that runs the batch step holding `pid` (its nearest such ancestor), or null. It is
 * the process that reports the step's end to slurmctld: while it is stopped, a job process's death
 * is known to no one but it.
 */
export function stepDaemon(pid: number): number | null {
  for (let p = pid, hops = 0; p > 1 && hops < 16; hops++) {
    let status: string;
    try {
      status = readFileSync(`/proc/${p}/status`, 'utf8');
    } catch {
      return null;
    }
    const parent = Number(/^PPid:\s*(\d+)$/m.exec(status)?.[1] ?? 0);
    if (parent <= 1) return null;
    let comm = '';
    try {
      comm = readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
    } catch {
      return null;
    }
    if (comm === 'slurmstepd') return parent;
    p = parent;
  }
  return null;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

async function end(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await Promise.race([exited(child).then(() => true), wait(5000).then(() => false)])) return;
  child.kill('SIGKILL');
  await exited(child);
}

/**
 * Starts the cluster in `dir` (a new, empty folder), waiting (at most `timeoutMs`) until every
 * node is idle. Resolves to the reason it could not, with the daemons stopped again.
 */
export async function startSlurm(dir: string, timeoutMs = 30_000): Promise<SlurmCluster | { failed: string }> {
  const host = hostname().split('.')[0];
  const twoNodes = spawnSync('unshare', ['--uts', 'true']).status === 0;
  const nodes = twoNodes ? [host, `${host}-b`] : [host];
  for (const d of ['munge', 'state', 'log', ...nodes.map((n) => join('spool', n))]) mkdirSync(join(dir, d), { recursive: true, mode: 0o700 });
  const socket = join(dir, 'munge', 'munge.socket');
  const conf = join(dir, 'slurm.conf');
  writeFileSync(join(dir, 'munge', 'munge.key'), randomBytes(128), { mode: 0o600 });
  const ports = await freePorts(1 + nodes.length);
  writeFileSync(conf, slurmConf(dir, socket, ports, nodes));
  const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf };
  const children: ChildProcess[] = [];
  const start = (name: string, command: string, args: string[]) => {
    const log = openSync(join(dir, 'log', `${name}.out`), 'a');
    const child = spawn(command, args, { env, stdio: ['ignore', log, log] });
    closeSync(log);
    child.on('error', () => {}); // a missing program: seen as an early exit below
    children.push(child);
  };
  const logs = () =>
    readdirSync(join(dir, 'log'))
      .map((f) => `--- ${f}\n${readFileSync(join(dir, 'log', f), 'utf8').trim().split('\n').slice(-8).join('\n')}`)
      .join('\n');
  const stopAll = async () => {
    for (const child of children.slice().reverse()) await end(child);
  };
  const slurm = (command: string, args: string[]): string => {
    const r: SpawnSyncReturns<string> = spawnSync(command, args, { env, encoding: 'utf8', timeout: COMMAND_MS });
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${r.stderr || r.error?.message || ''}`);
    return r.stdout;
  };

  start('munged', 'munged', ['--foreground', '--force', `--socket=${socket}`, `--key-file=${join(dir, 'munge', 'munge.key')}`, `--log-file=${join(dir, 'log', 'munged.log')}`, `--pid-file=${join(dir, 'munge', 'munged.pid')}`, `--seed-file=${join(dir, 'munge', 'munged.seed')}`]);
  const t0 = Date.now();
  const early = () => children.find((c) => c.exitCode !== null || c.signalCode !== null);
  while (!existsSync(socket) && !early() && Date.now() - t0 < timeoutMs) await wait(100);
  if (!existsSync(socket)) {
    const text = logs();
    await stopAll();
    return { failed: `munged did not start\n${text}` };
  }
  start('slurmctld', 'slurmctld', ['-D', '-i']);
  start(`slurmd-${nodes[0]}`, 'slurmd', ['-D', '-N', nodes[0]]);
  if (twoNodes) start(`slurmd-${nodes[1]}`, 'unshare', ['--uts', 'sh', '-c', `hostname ${nodes[1]} && exec slurmd -D -N ${nodes[1]}`]);
  for (;;) {
    const r = spawnSync('sinfo', ['-h', '-N', '-o', '%N %t'], { env, encoding: 'utf8', timeout: COMMAND_MS });
    const idle = r.status === 0 ? r.stdout.split('\n').filter((l) => / idle$/.test(l.trim())).length : 0;
    if (idle === nodes.length) break;
    const gone = early();
    if (gone || Date.now() - t0 > timeoutMs) {
      const text = logs();
      await stopAll();
      const why = gone ? `${gone.spawnfile} ${gone.spawnargs.slice(1).join(' ')} exited (${gone.exitCode ?? gone.signalCode})` : `the nodes were not idle within ${timeoutMs / 1000} s (sinfo: ${(r.stdout || r.stderr).trim().replace(/\n/g, '; ')})`;
      return { failed: `${why}\n${text}` };
    }
    await wait(250);
  }

  return {
    dir,
    env,
    nodes,
    slurm,
    logs,
    async stop() {
      spawnSync('scancel', ['--full', '--user=root'], { env, timeout: COMMAND_MS });
      for (let i = 0; i < 40; i++) {
        const q = spawnSync('squeue', ['-h', '-o', '%i'], { env, encoding: 'utf8', timeout: COMMAND_MS });
        if (q.status !== 0 || q.stdout.trim() === '') break;
        await wait(250);
      }
      await stopAll();
      // What jobs started and left (a frozen or orphaned process): ended by pid.
      for (const pid of jobProcesses(conf)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
    },
  };
}
