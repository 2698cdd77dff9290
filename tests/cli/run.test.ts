/**
 * `viscid run` end to end on a 64-particle scene: frame files and manifest, --resume, Ctrl-C
 * (SIGINT) leaving finished frames and a checkpoint, and a failing run leaving a checkpoint.
 * The first run and the Ctrl-C are the command as a user starts it (`node bin/viscid.js`, a
 * process of its own); the rest call `main(argv)` in this process (cliInProcess: the same
 * command, its threads included, without a process start-up each).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { threadsNote } from '../../src/cli/run.ts';
import { cli, cliInProcess, FIXTURES, startCli } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-run-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const tiny = join(FIXTURES, 'tiny.json');
const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;

describe('the start line of a particle run', () => {
  it('gives the thread count, and on one thread of a many-core machine points to --workers', () => {
    expect(threadsNote(1, 1)).toBe('1 thread');
    expect(threadsNote(1, 2)).toBe('1 thread'); // the frame writer has the second core
    expect(threadsNote(1, 16)).toBe('1 thread (this machine has 16 cores: see --workers)');
    expect(threadsNote(4, 16)).toBe('4 threads');
  });
});

describe('viscid run (particle engine)', () => {
  const out = join(tmp, 'run');

  it('writes numbered mesh and point files and a manifest', async () => {
    const r = await cli(['run', tiny, '--frames', '2', '--out', out, '--mesh', 'obj', '--points', 'vtk']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    // The start line says how many threads the particle engine runs on.
    expect(r.stderr).toMatch(/^particle: .*, obj meshes, vtk points, 1 thread( \(this machine has \d+ cores: see --workers\))? → /m);
    // Progress goes to stderr with every other message: stdout stays empty for pipes.
    expect(r.stderr).toMatch(/^particle frame 2\/2 /m);
    expect(r.stdout).toBe('');
    for (const f of ['mesh-0001.obj', 'mesh-0002.obj', 'points-0001.vtk', 'points-0002.vtk', 'checkpoint.vscd']) {
      expect(existsSync(join(out, 'particle', f)), f).toBe(true);
    }
    expect(existsSync(join(out, 'particle', 'mesh-0003.obj'))).toBe(false);
    const m = readManifest(out);
    const info = JSON.parse((await cliInProcess(['info', '--json', tiny])).stdout) as { sha256: string };
    expect(m.scene.sha256).toBe(info.sha256);
    expect(m.settings).toMatchObject({ method: 'particle', frames: 2, mesh: 'obj', points: 'vtk', padding: 4 });
    const e = m.engines.particle!;
    expect(e.status).toBe('complete');
    expect(e.checkpoint).toEqual({ file: 'particle/checkpoint.vscd', frame: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(e.frames.map((f) => f.frame)).toEqual([1, 2]);
    for (const f of e.frames) {
      expect(f.wallMs).toBeGreaterThan(0);
      expect(f.wallMs).toBeGreaterThanOrEqual(f.stepMs);
      expect(Object.keys(f.stages).length).toBeGreaterThan(0);
      expect(f.points).toBeGreaterThan(0);
      expect(f.time).toBeCloseTo(f.frame / 30, 9);
      const vtk = readFileSync(join(out, 'particle', `points-000${f.frame}.vtk`), 'utf8');
      expect(vtk).toMatch(/^# vtk DataFile Version 3\.0\n/);
      expect(vtk).toContain(`POINTS ${f.points} float`);
      expect(readFileSync(join(out, 'particle', `mesh-000${f.frame}.obj`), 'utf8')).toMatch(/^v /m);
    }
  });

  it('--resume continues from the checkpoint without redoing finished frames', async () => {
    const before = readManifest(out).engines.particle!.frames;
    const r = await cliInProcess(['run', tiny, '--resume', out, '--frames', '3']);
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'particle', 'mesh-0003.obj'))).toBe(true);
    expect(existsSync(join(out, 'particle', 'points-0003.vtk'))).toBe(true);
    const e = readManifest(out).engines.particle!;
    expect(e.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    expect(e.frames.slice(0, 2)).toEqual(before);
    expect(e.checkpoint?.frame).toBe(3);
  });

  it('refuses to resume with a different scene (exit 2)', async () => {
    const other = join(tmp, 'other.json');
    writeFileSync(other, JSON.stringify({ ...JSON.parse(readFileSync(tiny, 'utf8')), fps: 25 }));
    const r = await cliInProcess(['run', other, '--resume', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/differs from the scene of the run/);
  });

  it('Ctrl-C (SIGINT) leaves the finished frames and a checkpoint, and --resume goes on', async () => {
    const dir = join(tmp, 'interrupted');
    const { child, done } = startCli(['run', tiny, '--frames', '5000', '--out', dir, '--checkpoint-every', '1000', '--mesh', 'glb', '--points', 'ply']);
    const manifestFile = join(dir, 'manifest.json');
    const started = Date.now();
    const frames = () => (existsSync(manifestFile) ? (readManifest(dir).engines.particle?.frames.length ?? 0) : 0);
    while (frames() < 2 && Date.now() - started < 600_000) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const r = await done;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/--resume/);
    const e = readManifest(dir).engines.particle!;
    expect(e.status).toBe('interrupted');
    const last = e.frames[e.frames.length - 1].frame;
    expect(last).toBeGreaterThanOrEqual(2);
    expect(last).toBeLessThan(5000);
    expect(e.checkpoint).toMatchObject({ file: 'particle/checkpoint.vscd', frame: last });
    for (const f of e.frames) {
      expect(f.files).toEqual([`particle/mesh-${String(f.frame).padStart(4, '0')}.glb`, `particle/points-${String(f.frame).padStart(4, '0')}.ply`]);
      for (const file of f.files) expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(readFileSync(join(dir, e.frames[0].files[0])).subarray(0, 4).toString()).toBe('glTF');

    const again = await cliInProcess(['run', tiny, '--resume', dir, '--frames', String(last + 1)]);
    expect(again.code).toBe(0);
    const after = readManifest(dir).engines.particle!;
    expect(after.status).toBe('complete');
    expect(after.frames.map((f) => f.frame)).toEqual(Array.from({ length: last + 1 }, (_, i) => i + 1));
  });

  it('--method both runs each engine into its own directory, with --solids', async () => {
    const dir = join(tmp, 'both');
    const r = await cliInProcess(['run', tiny, '--method', 'both', '--frames', '1', '--out', dir, '--mesh', 'ply', '--solids', 'obj']);
    expect(r.code).toBe(0);
    const m = readManifest(dir);
    for (const engine of ['particle', 'grid'] as const) {
      expect(m.engines[engine]?.status, engine).toBe('complete');
      expect(m.engines[engine]?.frames[0].files).toEqual([`${engine}/mesh-0001.ply`, `${engine}/solids-0001.obj`]);
      expect(readFileSync(join(dir, engine, 'mesh-0001.ply')).subarray(0, 4).toString()).toBe('ply\n');
      // The floor box: 8 corners at least, inside the floor's bounds (y from -0.04 to 0).
      const ys = [...readFileSync(join(dir, engine, 'solids-0001.obj'), 'utf8').matchAll(/^v \S+ (\S+) /gm)].map((v) => Number(v[1]));
      expect(ys.length).toBeGreaterThanOrEqual(8);
      expect(Math.min(...ys)).toBeGreaterThanOrEqual(-0.04 - 1e-6);
      expect(Math.max(...ys)).toBeLessThanOrEqual(1e-6);
    }
  });

  it('a failing run exits 1 and leaves a checkpoint of the last finished frame', async () => {
    // maxSpeed far below what one frame of free fall reaches (g/30 ≈ 0.33 m/s) stops the engine.
    const scene = join(tmp, 'too-fast.json');
    const data = JSON.parse(readFileSync(tiny, 'utf8'));
    writeFileSync(scene, JSON.stringify({ ...data, particle: { ...data.particle, maxSpeed: 0.001 } }));
    const dir = join(tmp, 'failed');
    const r = await cliInProcess(['run', scene, '--frames', '3', '--out', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/particle engine failed/);
    const e = readManifest(dir).engines.particle!;
    expect(e.status).toBe('failed');
    expect(e.error).toBeTruthy();
    expect(e.checkpoint).not.toBeNull();
    expect(e.checkpoint!.frame).toBe(e.frames.length);
    expect(existsSync(join(dir, e.checkpoint!.file))).toBe(true);
  });

  it("a run failing while a frame's files are being written keeps them, and checkpoints that frame", async () => {
    // 0.5 m/s passes frame 1 of the fall (0.33 m/s) and stops frame 2, which steps while the frame
    // writer's thread writes frame 1 (frame-writer.ts).
    const scene = join(tmp, 'fails-at-2.json');
    const data = JSON.parse(readFileSync(tiny, 'utf8'));
    writeFileSync(scene, JSON.stringify({ ...data, particle: { ...data.particle, maxSpeed: 0.5 } }));
    const dir = join(tmp, 'failed-later');
    const r = await cliInProcess(['run', scene, '--frames', '3', '--out', dir, '--points', 'vtk']);
    expect(r.code).toBe(1);
    const e = readManifest(dir).engines.particle!;
    expect(e.status).toBe('failed');
    expect(e.frames.map((f) => f.frame)).toEqual([1]);
    expect(e.checkpoint).toMatchObject({ file: 'particle/checkpoint.vscd', frame: 1 });
    expect(e.frames[0].files).toEqual(['particle/mesh-0001.ply', 'particle/points-0001.vtk']); // binary PLY by default
    for (const file of e.frames[0].files) expect(existsSync(join(dir, file)), file).toBe(true);
    expect(existsSync(join(dir, 'particle', 'mesh-0002.ply'))).toBe(false);
  });

  it('a frame whose file cannot be written fails the run, with the reason, and is not recorded', async () => {
    const dir = join(tmp, 'unwritable');
    mkdirSync(join(dir, 'particle', 'mesh-0002.ply'), { recursive: true }); // a directory where the file goes
    // --force: the folder is not empty (the directory stays: it is not one of viscid's files).
    const r = await cliInProcess(['run', tiny, '--frames', '3', '--out', dir, '--force']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/failed at frame 2, particle\/mesh-0002\.ply: cannot write .*mesh-0002\.ply/);
    const m = readManifest(dir);
    expect(m.status).toBe('failed');
    const e = m.engines.particle!;
    expect(e.status).toBe('failed');
    expect(e.failure).toMatchObject({ frame: 2, file: 'particle/mesh-0002.ply' });
    expect(e.frames.map((f) => f.frame)).toEqual([1]);
    expect(e.checkpoint!.frame).toBe(1);
  });
});
