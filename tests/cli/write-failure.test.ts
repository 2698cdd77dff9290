/**
 * A run whose writes fail part way — the file size limit of the process (RLIMIT_FSIZE: the write
 * fails with EFBIG, as a full disk fails with ENOSPC) or a real full disk (a 64 KiB tmpfs, where
 * this machine lets a test mount one) — stops with exit 1; the manifest says `failed`, with the
 * frame and the file; the frames before it and their checkpoint are kept, whole.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { BIN, FIXTURES, ROOT, type CliResult } from './helpers.ts';
import { mountSmallTmpfs, skipTitle } from '../skips.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-fail-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pour = join(FIXTURES, 'pour.json');
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;

/** `viscid …` under bash with `ulimit -f kib` (KiB a file may grow to). */
function cliWithFileLimit(kib: number, args: string[]): Promise<CliResult> {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['-c', `ulimit -f ${kib} && exec ${quoted}`], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The manifest says where the run failed; what it lists is whole, and the checkpoint is of a listed frame. */
function expectFailedAt(dir: string, r: CliResult, file: RegExp) {
  expect(r.code, r.stderr).toBe(1);
  const m = readManifest(dir);
  expect(m.status).toBe('failed');
  const e = m.engines.particle!;
  expect(e.status).toBe('failed');
  const failure = e.failure!;
  expect(failure.file).toMatch(file);
  expect(r.stderr).toContain(`failed at frame ${failure.frame}, ${failure.file}`);
  const frames = e.frames.map((f) => f.frame);
  expect(frames).toEqual(Array.from({ length: frames.length }, (_, i) => i + 1));
  for (const f of e.frames) for (const name of f.files) expect(existsSync(join(dir, name)), name).toBe(true);
  // A checkpoint of a listed frame, or the reason there is none (a full disk has no room for it).
  if (e.checkpoint) expect(e.checkpoint.frame).toBeLessThanOrEqual(frames.length);
  else expect(failure.message).toMatch(/the checkpoint could not be written: cannot write .*checkpoint\.vscd/);
  expect(readdirSync(join(dir, 'particle')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  return { failure, frames, checkpoint: e.checkpoint };
}

describe('a write that fails mid-run', () => {
  it('(file size limit) fails the run at the frame whose mesh outgrows it, naming frame and file', async () => {
    // The pour's meshes grow: 7, 13, 22 KB… A 16 KiB limit lets frames 1 and 2 through and stops 3.
    const dir = join(tmp, 'efbig');
    const r = await cliWithFileLimit(16, ['run', pour, '--out', dir, '--frames', '10', '--mesh', 'obj']);
    const { failure, frames, checkpoint } = expectFailedAt(dir, r, /^particle\/mesh-\d{4}\.obj$/);
    expect(failure.frame).toBeGreaterThanOrEqual(2);
    expect(failure.message).toMatch(/EFBIG/);
    // A frame file failed: the frames before it are all there, and the checkpoint is of the last.
    expect(frames.length).toBe(failure.frame - 1);
    expect(checkpoint?.frame).toBe(failure.frame - 1);
  });

  // A real full disk, where a test may mount a small tmpfs (root with CAP_SYS_ADMIN; npm test names
  // the skip where it cannot: tests/skips.ts).
  const mnt = join(tmp, 'small-disk');
  mkdirSync(mnt);
  const mounted = mountSmallTmpfs(mnt);
  afterAll(() => {
    if (mounted) spawnSync('umount', [mnt]);
  });
  it.skipIf(!mounted)(mounted ? '(a full disk) fails the run with ENOSPC, naming frame and file, and still says so in the manifest' : skipTitle('tmpfs', '(a full disk) fails the run with ENOSPC, naming frame and file, and still says so in the manifest'), async () => {
    const dir = join(mnt, 'run');
    const r = await cliWithFileLimit(1 << 20, ['run', pour, '--out', dir, '--frames', '30', '--mesh', 'obj']);
    const { failure, frames } = expectFailedAt(dir, r, /^particle\/(mesh-\d{4}\.obj|checkpoint\.vscd)$|^manifest\.json$/);
    expect(failure.message).toMatch(/ENOSPC/);
    expect(frames.length).toBeGreaterThanOrEqual(1);
  });
});
