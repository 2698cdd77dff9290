/**
 * `viscid run --workers 2`: the CLI hands the engine Node worker threads (src/cli/threads.ts), the
 * manifest records 2 threads per frame, and `--resume` continues a 2-thread run bit for bit.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { cli, cliInProcess, FIXTURES } from '../cli/helpers.ts';
import { VISCOSITY_MIN_PARTICLES as MIN_PARTICLES } from '../../src/particle/work.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-threads-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// tests/cli's tiny scene with particles small enough (1 728 of them) for the threaded viscosity to run.
const scene = join(tmp, 'small.json');
const tinyScene = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));
writeFileSync(scene, JSON.stringify({ ...tinyScene, particle: { ...tinyScene.particle, radius: 0.00333 } }));

describe('viscid run --workers 2', () => {
  it('runs on 2 threads, and --resume continues bit for bit', async () => {
    const straight = join(tmp, 'straight'), resumed = join(tmp, 'resumed');
    const common = ['--workers', '2', '--mesh', 'none', '--points', 'vtk'];
    // The straight run as a user starts it (a process of its own); the run to resume, and the
    // resume, in this process (tests/cli/helpers.ts cliInProcess: the same command and threads).
    const a = await cli(['run', scene, '--frames', '3', '--out', straight, ...common]);
    expect(a.code, a.stderr).toBe(0);
    const b = await cliInProcess(['run', scene, '--frames', '2', '--out', resumed, ...common]);
    expect(b.code, b.stderr).toBe(0);
    const c = await cliInProcess(['run', scene, '--resume', resumed, '--frames', '3']);
    expect(c.code, c.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(resumed, 'manifest.json'), 'utf8')) as Manifest;
    expect(m.settings.workers).toBe(2);
    const frames = m.engines.particle!.frames;
    expect(frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    for (const f of frames) {
      expect(f.counters.threads).toBe(2);
      expect(f.counters.particles).toBeGreaterThanOrEqual(MIN_PARTICLES);
    }
    const file = (dir: string) => readFileSync(join(dir, 'particle', 'points-0003.vtk'));
    expect(file(resumed).equals(file(straight))).toBe(true);
  });
});
