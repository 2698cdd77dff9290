/**
 * Ends of a run besides Ctrl-C and SIGTERM (tests/cli/interrupt.test.ts) that must end it the same
 * way — finished frames kept, a checkpoint, the manifest `interrupted`, the lock removed, exit 130:
 * SIGHUP (a closed terminal, a scheduler's hang-up), and stderr closing under the run
 * (`viscid run … 2>&1 | head -1`), which Node reports as an EPIPE error.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { FIXTURES, startCli } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-signals-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
const manifestOf = (dir: string): Manifest | null => {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectCleanStop(dir: string): void {
  const m = manifestOf(dir)!;
  expect(m.status).toBe('interrupted');
  expect(m.engines.particle!.status).toBe('interrupted');
  expect(m.engines.particle!.checkpoint?.file).toBe('particle/checkpoint.vscd');
  expect(existsSync(join(dir, 'particle', 'checkpoint.vscd'))).toBe(true);
  expect(existsSync(join(dir, '.viscid-run.lock'))).toBe(false);
}

describe('a run whose terminal goes away', () => {
  it('SIGHUP ends it as Ctrl-C does', async () => {
    const dir = join(tmp, 'hup');
    const { child, done } = startCli(['run', tiny, '--out', dir, '--frames', '3000', '--mesh', 'none']);
    const t0 = Date.now();
    while ((manifestOf(dir)?.engines.particle?.frames.length ?? 0) < 1) {
      if (Date.now() - t0 > 600_000) throw new Error('no frame');
      await sleep(50);
    }
    child.kill('SIGHUP');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/SIGHUP: stopping/);
    expectCleanStop(dir);
  });

  it('stderr closing (EPIPE) ends it as Ctrl-C does, with no crash', async () => {
    const dir = join(tmp, 'epipe');
    const { child, done } = startCli(['run', tiny, '--out', dir, '--frames', '3000', '--mesh', 'none']);
    // The reader goes after the first line, as `| head -1` does.
    child.stderr!.once('data', () => child.stderr!.destroy());
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).not.toMatch(/Unhandled|EPIPE.*at /);
    expectCleanStop(dir);
  });
});
