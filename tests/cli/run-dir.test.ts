/**
 * An output folder belongs to one run (src/cli/run-dir.ts): a second run into it is refused
 * (exit 2) unless --force, which clears viscid's files and nothing else; --resume is the only way
 * to continue; a folder another live run writes into is refused; --out naming a file is refused.
 * Checkpoints are checked before a resume: changed bytes, another scene's checkpoint (exit 2).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { LOCK } from '../../src/cli/run-dir.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-rundir-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tiny = join(FIXTURES, 'tiny.json');
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
const run = (...args: string[]) => cliInProcess(['run', tiny, '--mesh', 'ply', ...args]);

describe('an output folder that holds a run', () => {
  const dir = join(tmp, 'first');
  let otherScene: string;
  beforeAll(async () => {
    expect((await run('--frames', '3', '--out', dir)).code).toBe(0);
    otherScene = join(tmp, 'other.json');
    writeFileSync(otherScene, JSON.stringify({ ...JSON.parse(readFileSync(tiny, 'utf8')), name: 'other', fps: 25 }));
  });

  it('is refused to a second run, of this scene or another (exit 2), and left as it was', async () => {
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    for (const scene of [tiny, otherScene]) {
      const r = await cliInProcess(['run', scene, '--frames', '1', '--out', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/holds a viscid run of scene 'tiny' \(complete\), started .*: continue it with --resume .*, or pass --force/);
    }
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(dir, 'particle')).sort()).toEqual(['checkpoint.vscd', 'mesh-0001.ply', 'mesh-0002.ply', 'mesh-0003.ply']);
  });

  it('with --force is cleared of viscid files only, then holds the new run alone', async () => {
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    writeFileSync(join(dir, 'particle', 'render.blend'), 'mine too');
    const r = await cliInProcess(['run', otherScene, '--frames', '1', '--out', dir, '--mesh', 'obj', '--force']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--force: removed 5 files of an earlier run from .*; left 2 other entries there/);
    expect(readdirSync(join(dir, 'particle')).sort()).toEqual(['checkpoint.vscd', 'mesh-0001.obj', 'render.blend']);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    const m = readManifest(dir);
    expect(m.scene.name).toBe('other');
    expect(m.engines.particle!.frames.map((f) => f.frame)).toEqual([1]);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });

  it('--resume with --force continues the run (--force only takes over a lock there)', async () => {
    const r = await cliInProcess(['run', otherScene, '--resume', dir, '--force', '--frames', '2']);
    expect(r.code).toBe(0);
    expect(readManifest(dir).engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2]);
  });
});

describe('other folders', () => {
  it('a folder with files of its own is refused without --force, named with what it holds', async () => {
    const dir = join(tmp, 'photos');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.jpg'), '');
    const r = await run('--frames', '1', '--out', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not empty \(1 entry: a\.jpg\): name a new or empty folder, or pass --force/);
    expect(readdirSync(dir)).toEqual(['a.jpg']);
  });

  it('--out naming a file is refused with a message (exit 2)', async () => {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    const r = await run('--frames', '1', '--out', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--out .*a-file: it is a file, not a folder/);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('a folder another live run holds is refused; a lock left by a dead run is taken over', async () => {
    const dir = join(tmp, 'locked');
    mkdirSync(dir);
    // The parent of this test process is alive, and not us.
    const { processStartTime } = await import('../../src/cli/run-lock.ts');
    const started = processStartTime(process.ppid);
    writeFileSync(join(dir, LOCK), JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname(), started, token: 't' }));
    const r = await run('--frames', '1', '--out', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`being written by another viscid run \\(pid ${process.ppid} on `));
    writeFileSync(join(dir, LOCK), `2147483646 ${(await import('node:os')).hostname()}\n`); // no such process
    expect((await run('--frames', '1', '--out', dir, '--mesh', 'none')).code).toBe(0);
    expect(existsSync(join(dir, LOCK))).toBe(false);
  });
});

describe('resuming', () => {
  it('sweeps temporary files and frames after the checkpoint, and writes them again', async () => {
    const dir = join(tmp, 'sweep');
    expect((await run('--frames', '2', '--out', dir, '--points', 'ply')).code).toBe(0);
    const stale = ['mesh-0003.ply.tmp-99999-0', 'mesh-0009.ply', 'points-0003.ply', 'mesh-0003.obj'];
    for (const f of stale) writeFileSync(join(dir, 'particle', f), 'stale');
    writeFileSync(join(dir, 'manifest.json.tmp-99999-1'), 'stale');
    const r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/particle: removed 5 files a stopped run left after its checkpoint/);
    expect(readdirSync(join(dir, 'particle')).sort()).toEqual(['checkpoint.vscd', 'mesh-0001.ply', 'mesh-0002.ply', 'mesh-0003.ply', 'points-0001.ply', 'points-0002.ply', 'points-0003.ply']);
    expect(readFileSync(join(dir, 'particle', 'points-0003.ply')).subarray(0, 4).toString()).toBe('ply\n');
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', 'particle']);
  });

  it('continues a run killed between replacing its checkpoint and its manifest saying so (the `next` recorded first)', async () => {
    const dir = join(tmp, 'killed');
    expect((await run('--frames', '2', '--out', dir, '--mesh', 'none', '--checkpoint-every', '1')).code).toBe(0);
    const at2 = readManifest(dir).engines.particle!.checkpoint!;
    const bytes2 = readFileSync(join(dir, 'particle', 'checkpoint.vscd'));
    expect((await cliInProcess(['run', tiny, '--resume', dir, '--frames', '4', '--checkpoint-every', '1'])).code).toBe(0);
    const m4 = readManifest(dir), at4 = m4.engines.particle!.checkpoint!;
    expect(at4.frame).toBe(4);
    expect(at4.next).toBeUndefined();
    // Killed after the new bytes replaced the file: the manifest still names frame 2, with frame 4 as `next`.
    const killed = (): Manifest => {
      const m = JSON.parse(JSON.stringify(m4)) as Manifest;
      m.engines.particle!.checkpoint = { ...at2, next: { frame: 4, sha256: at4.sha256! } };
      return m;
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(killed()));
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '5']);
    expect(r.code, r.stderr).toBe(0);
    let m = readManifest(dir);
    expect(m.engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2, 3, 4, 5]);
    expect(m.engines.particle!.checkpoint!.frame).toBe(5);
    // Killed before the file was replaced: the old bytes, at their frame, and frames 3–4 again.
    writeFileSync(join(dir, 'particle', 'checkpoint.vscd'), bytes2);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(killed()));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '5']);
    expect(r.code, r.stderr).toBe(0);
    m = readManifest(dir);
    expect(m.engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2, 3, 4, 5]);
    // Bytes that are neither are refused as before.
    const bad = killed();
    bad.engines.particle!.checkpoint!.next = { frame: 4, sha256: '0'.repeat(64) };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(bad));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '6']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not the one the manifest recorded \(its sha-256 differs\)/);
  });

  it('refuses a checkpoint whose bytes changed, or that holds another scene (exit 2), and leaves the run as it was', async () => {
    const dir = join(tmp, 'tamper');
    expect((await run('--frames', '2', '--out', dir, '--mesh', 'none')).code).toBe(0);
    const file = join(dir, 'particle', 'checkpoint.vscd');
    const good = readFileSync(file);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');

    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1] ^= 0x10;
    writeFileSync(file, flipped);
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: checkpoint particle\/checkpoint\.vscd in .* is not the one the manifest recorded \(its sha-256 differs\)/);

    // Without the manifest's record of its bytes, the checkpoint's own checksum finds the change.
    const m = readManifest(dir);
    delete m.engines.particle!.checkpoint!.sha256;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: checkpoint particle\/checkpoint\.vscd in .*: checkpoint is damaged: its checksum does not match/);

    // Another scene's checkpoint, whole, in this run's place.
    const sim = createSimulation(parseScene({ ...JSON.parse(readFileSync(tiny, 'utf8')), fps: 24 }), 'particle');
    sim.stepFrame();
    writeFileSync(file, sim.save());
    sim.dispose();
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds another scene \(sha256 [0-9a-f]{12}…\) than the manifest's/);

    // A manifest that names another file as the checkpoint does not get it read.
    const elsewhere = JSON.parse(before) as Manifest;
    elsewhere.engines.particle!.checkpoint!.file = '../../../../dev/zero';
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(elsewhere));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/names "\.\.\/\.\.\/\.\.\/\.\.\/dev\/zero" as the particle checkpoint; it is always particle\/checkpoint\.vscd/);

    // A manifest whose settings or records a resume cannot act on is refused, naming what.
    const damaged: [(m: Manifest) => void, RegExp][] = [
      [(m) => (m.settings.padding = 1e9), /settings\.padding is 1000000000 \(expected a whole number from 4 to 16\)/],
      [(m) => ((m.settings as { mesh: string }).mesh = '../x'), /settings\.mesh is "\.\.\/x" \(expected obj, ply, glb, none\)/],
      [(m) => (m.settings.workers = 200), /settings\.workers is 200 \(expected a whole number from 1 to 64\)/],
      [(m) => ((m.engines as Record<string, unknown>).lattice = m.engines.particle), /engines\.lattice is not an engine/],
      [(m) => ((m.engines.particle!.frames as unknown[])[0] = null), /engines\.particle\.frames\[0\] is not a frame record/],
    ];
    for (const [damage, message] of damaged) {
      const m = JSON.parse(before) as Manifest;
      damage(m);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
      r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/cannot resume: .*manifest\.json is damaged: /);
      expect(r.stderr).toMatch(message);
    }

    writeFileSync(file, good);
    writeFileSync(join(dir, 'manifest.json'), before);
    expect((await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3'])).code).toBe(0);
    expect(readManifest(dir).engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
  });
});

describe('--workers', () => {
  it("is refused beyond particle.workers' range (exit 2)", async () => {
    const r = await cliInProcess(['run', tiny, '--workers', '200', '--out', join(tmp, 'w')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/expected an integer from 1 to 64 \(particle\.workers' range\)/);
    expect(existsSync(join(tmp, 'w'))).toBe(false);
    // Nor does a sweep start processes without bound.
    const sweep = await cliInProcess(['sweep', tmp, '--jobs', '100000']);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toMatch(/expected an integer from 1 to 256 \(processes on one machine\)/);
    const bench = await cliInProcess(['bench', '--scene', tiny, '--workers', '65']);
    expect(bench.code).toBe(2);
    expect(bench.stderr).toMatch(/expected an integer from 1 to 64/);
  });
});
