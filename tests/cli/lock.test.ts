/**
 * The lock of a run folder (src/cli/run-lock.ts): created exclusively, so of several runs started
 * at the same instant exactly one takes the folder; a lock left by a dead pid, a reused pid or an
 * earlier incarnation of a requeued Slurm job is taken over, saying so; another host's lock is
 * refused with the exact remedy, and --force takes it over; a live viscid run's lock is never taken.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claimRunDirectory } from '../../src/cli/run-dir.ts';
import { judgeLock, LOCK, parseLock, processStartTime, type LockRecord } from '../../src/cli/run-lock.ts';
import { cliInProcess, FIXTURES, ROOT } from './helpers.ts';
import { distIsFresh } from '../../scripts/build.js';

/** The race's contenders claim with dist/ when it is up to date with src/ (no tsx to start), else with the sources through tsx. */
const DIST = distIsFresh();
const CONTENDER = [...(DIST ? [] : ['--import', 'tsx']), join(ROOT, 'tests/cli/scripts/claim-race.mjs')];

const tmp = mkdtempSync(join(tmpdir(), 'viscid-lock-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
function capturingStderr<T>(f: () => T): { result: T; stderr: string } {
  const write = process.stderr.write;
  let stderr = '';
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { result: f(), stderr };
  } finally {
    process.stderr.write = write;
  }
}
const lockOf = (over: Partial<LockRecord>): string =>
  `${JSON.stringify({ pid: 2147483646, host: hostname(), started: null, token: 'x'.repeat(24), createdAt: '2026-01-01T00:00:00Z', ...over })}\n`;

describe('run folder locks', () => {
  it('of four runs claiming one folder at the same instant, exactly one wins', async () => {
    const dir = join(tmp, 'race');
    mkdirSync(dir);
    const children = Array.from({ length: 4 }, () =>
      spawn(process.execPath, [...CONTENDER, dir, DIST ? 'dist' : 'src'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    // Each contender's lines: `ready` once started, then `won` or `refused`.
    const lines = children.map((c) => {
      let out = '', ready!: () => void, said!: (s: string) => void;
      const r = { ready: new Promise<void>((f) => (ready = f)), said: new Promise<string>((f) => (said = f)) };
      c.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const l = out.split('\n');
        if (l.length > 1) ready();
        if (l.length > 2) said(l[1].trim());
      });
      c.on('close', () => {
        ready();
        said(out.split('\n')[1]?.trim() ?? '');
      });
      return r;
    });
    // Once every contender has started (however long a loaded machine takes), all claim at one
    // instant shortly after, rather than at a fixed time from now that a slow start-up misses.
    await Promise.all(lines.map((l) => l.ready));
    const at = Date.now() + 100;
    for (const c of children) c.stdin!.write(`${at}\n`);
    const results = await Promise.all(lines.map((l) => l.said));
    for (const c of children) c.stdin!.end();
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('close', r)))));
    expect(results.sort()).toEqual(['refused', 'refused', 'refused', 'won']);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  it("a dead pid's lock, and one whose pid now belongs to another process, are taken over with a note", () => {
    for (const [name, lock] of [
      ['dead', lockOf({})],
      ['reused', lockOf({ pid: process.ppid, started: 'not-its-start-time' })],
      ['old-format', `2147483646 ${hostname()}\n`],
    ] as const) {
      const dir = join(tmp, name);
      mkdirSync(dir);
      writeFileSync(join(dir, LOCK), lock);
      const { result: claim, stderr } = capturingStderr(() => claimRunDirectory(dir, { resume: false, force: false, flag: '--out' }));
      expect(stderr).toMatch(name === 'reused' ? /note: took over .*: a lock left by a run whose pid \d+ now belongs to another process/ : /note: took over .*: a lock left by a run that is no longer running/);
      expect(parseLock(readFileSync(join(dir, LOCK), 'utf8'))!.pid).toBe(process.pid);
      claim.release();
      expect(existsSync(join(dir, LOCK))).toBe(false);
    }
  });

  it("a live viscid run's lock is refused, even with --force; so is a second claim in one process", () => {
    const dir = join(tmp, 'live');
    mkdirSync(dir);
    // The parent of this test process is alive, and its start time is the one recorded.
    writeFileSync(join(dir, LOCK), lockOf({ pid: process.ppid, started: processStartTime(process.ppid) }));
    for (const breakLock of [false, true]) {
      expect(() => claimRunDirectory(dir, { resume: false, force: breakLock, breakLock, flag: '--out' })).toThrow(new RegExp(`being written by another viscid run \\(pid ${process.ppid} on `));
    }
    expect(existsSync(join(dir, LOCK))).toBe(true);
    const mine = join(tmp, 'mine');
    const claim = claimRunDirectory(mine, { resume: false, force: false, flag: '--out' });
    expect(() => claimRunDirectory(mine, { resume: false, force: true, breakLock: true, flag: '--out' })).toThrow(/being written by this process/);
    claim.release();
  });

  it("another host's lock is refused with the remedy, which takes it over (a resume too)", async () => {
    const dir = join(tmp, 'other-host');
    expect((await cliInProcess(['run', tiny, '--frames', '1', '--mesh', 'none', '--out', dir])).code).toBe(0);
    writeFileSync(join(dir, LOCK), lockOf({ pid: 4242, host: 'node017' }));
    const r = await cliInProcess(['run', tiny, '--frames', '2', '--resume', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/locked by a viscid run on another host \(pid 4242 on node017, since 2026-01-01T00:00:00Z\)/);
    expect(r.stderr).toContain(`viscid run ${tiny} --resume ${dir} --force`);
    const forced = await cliInProcess(['run', tiny, '--frames', '2', '--resume', dir, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/took over .*another host.*\(--force\)/);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { engines: { particle: { frames: unknown[] } } };
    expect(m.engines.particle.frames).toHaveLength(2);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  it('an earlier incarnation of a requeued Slurm job is taken over on any host; an unreadable lock needs --force', () => {
    const lock = parseLock(lockOf({ host: 'node001', slurmJob: '777_3', slurmRestart: 0 }));
    expect(judgeLock(lock, { SLURM_ARRAY_JOB_ID: '777', SLURM_ARRAY_TASK_ID: '3', SLURM_RESTART_COUNT: '1' }).state).toBe('stale');
    expect(judgeLock(lock, { SLURM_ARRAY_JOB_ID: '777', SLURM_ARRAY_TASK_ID: '3', SLURM_RESTART_COUNT: '0' }).state).toBe('unknown');
    expect(judgeLock(lock, { SLURM_JOB_ID: '778' }).state).toBe('unknown');
    expect(judgeLock(parseLock('garbage \u001b[2J'), {})).toEqual({ state: 'unknown', why: 'its lock file is not one viscid wrote' });
  });
});
