/**
 * Stopping `viscid run` in the middle of a long frame, as a user does: SIGINT (Ctrl-C) and SIGTERM
 * end the process within seconds though the frame has far to go, keeping every finished frame and
 * a checkpoint of the last, with the manifest saying `interrupted`; SIGKILL in the middle of writes
 * leaves nothing half-written that the manifest takes as a frame, and --resume sweeps what it left.
 *
 * late-blob.json: frame 1 is nearly empty, from frame 2 on a 19 683-particle blob at 400 substeps ×
 * 100 moves makes each frame take a minute or more (at 40 substeps it took 28 s at load 17 on 2
 * cores, about 5 s on a quiet machine; frame 1 takes the same 0.2 s of CPU at either).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/cli/manifest.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import { cliInProcess, FIXTURES, startCli } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-interrupt-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const lateBlob = join(FIXTURES, 'late-blob.json');
const pour = join(FIXTURES, 'pour.json');
const manifestOf = (dir: string): Manifest | null => {
  try {
    return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null; // not there yet
  }
};
/**
 * The size a binary PLY file must have by its header: fixed-size vertex properties, and faces as a
 * count byte and that many indices (triangles). A file cut short, or with bytes past the end, differs.
 */
function plySize(bytes: Buffer): number {
  const end = bytes.indexOf('end_header\n');
  if (bytes.subarray(0, 4).toString() !== 'ply\n' || end < 0) return -1;
  const SIZE: Record<string, number> = { char: 1, uchar: 1, short: 2, ushort: 2, int: 4, uint: 4, float: 4, double: 8 };
  let size = end + 'end_header\n'.length;
  let count = 0;
  for (const line of bytes.subarray(0, end).toString().split('\n')) {
    const w = line.trim().split(/\s+/);
    if (w[0] === 'element') {
      count = Number(w[2]);
    } else if (w[0] === 'property' && w[1] === 'list') {
      size += count * (SIZE[w[2]] + 3 * SIZE[w[3]]);
    } else if (w[0] === 'property') {
      size += count * SIZE[w[1]];
    }
  }
  return size;
}

/** The PLY files of frames 1…n of `sceneFile` as `viscid run --mesh ply --points ply` writes them, made here. */
async function expectedFiles(sceneFile: string, n: number): Promise<Map<string, Buffer>> {
  const { encodeMesh, encodePoints } = await import('../../src/cli/export.ts');
  const scene = parseScene(readFileSync(sceneFile, 'utf8'));
  const labels = { name: scene.name, output: { colors: scene.output.colors }, materialNames: scene.materialNames };
  const sim = createSimulation(scene, 'particle');
  const files = new Map<string, Buffer>();
  for (let f = 1; f <= n; f++) {
    sim.stepFrame();
    const tag = String(f).padStart(4, '0');
    files.set(`particle/mesh-${tag}.ply`, Buffer.from(await encodeMesh('ply', sim.surfaceMesh(), labels)));
    files.set(`particle/points-${tag}.ply`, Buffer.from(encodePoints('ply', sim.fluidPoints(), labels)));
  }
  sim.dispose();
  return files;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How long a wait for a state may last: long, so that a loaded machine makes the test slower, not red. */
const WAIT = 600_000;

/** Waits until `ready` holds (polling), at most `ms` (a bound that only ends a run that never gets there). */
async function until(ready: () => boolean, ms: number): Promise<void> {
  const t0 = Date.now();
  while (!ready()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await sleep(50);
  }
}

/**
 * A bound on how long the process may take to end after the signal: far above the second or two it
 * takes (0.8–1.8 s at load 17 on the 2-core machine), and below the rest of frame 2 (about 50 s of
 * a core on a quiet machine, minutes loaded), which a run that waited for its frame would take.
 * It scales with the machine: 30 s, or five times what the run took from its start to frame 1
 * recorded (a node start-up, the engine's modules and a frame of 0.2 s of CPU: some 2 s of CPU, a
 * twenty-fifth of frame 2), whichever is longer; so a machine loaded further makes the test slower,
 * not red, and a run that finished frame 2 before it stopped still fails.
 */
const exitWithinMs = (startToFrame1Ms: number) => Math.max(30_000, 5 * startToFrame1Ms);

describe('a signal in the middle of a long frame', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} ends the run at once, keeping the finished frame and its checkpoint`, async () => {
      const dir = join(tmp, signal);
      const started = Date.now();
      const { child, done } = startCli(['run', lateBlob, '--out', dir, '--frames', '50', '--points', 'ply']);
      // Frame 1 is on disk and recorded; frame 2 (seconds long) has just begun.
      await until(() => (manifestOf(dir)?.engines.particle?.frames.length ?? 0) >= 1, WAIT);
      const toFrame1 = Date.now() - started;
      await sleep(300);
      const sent = Date.now();
      child.kill(signal);
      const r = await done;
      const took = Date.now() - sent;
      expect(r.code, r.stderr).toBe(130);
      expect(took, `ended ${took} ms after the signal; frame 1 was recorded ${toFrame1} ms after the start`).toBeLessThan(exitWithinMs(toFrame1));
      expect(r.stderr).toMatch(new RegExp(`${signal}: stopping`));
      expect(r.stderr).toMatch(/stopped; continue with: viscid run .* --resume /);
      const m = manifestOf(dir)!;
      expect(m.status).toBe('interrupted');
      const e = m.engines.particle!;
      expect(e.status).toBe('interrupted');
      expect(e.frames.map((f) => f.frame)).toEqual([1]);
      expect(e.checkpoint).toMatchObject({ file: 'particle/checkpoint.vscd', frame: 1 });
      expect(existsSync(join(dir, 'particle', 'checkpoint.vscd'))).toBe(true);
      for (const f of e.frames[0].files) expect(existsSync(join(dir, f)), f).toBe(true);
      expect(readdirSync(join(dir, 'particle')).filter((f) => /mesh-0002|tmp-/.test(f))).toEqual([]);
      expect(existsSync(join(dir, '.viscid-run.lock'))).toBe(false);
    });
  }
});

describe('SIGKILL in the middle of writing', () => {
  it('leaves only whole frames in the manifest; --resume sweeps the rest and goes on bit for bit', async () => {
    // The pour's frames are fast and their files grow: kill while frames are being written.
    const dir = join(tmp, 'killed');
    const { child, done } = startCli(['run', pour, '--out', dir, '--frames', '30', '--mesh', 'ply', '--points', 'ply', '--checkpoint-every', '3']);
    await until(() => (manifestOf(dir)?.engines.particle?.frames.length ?? 0) >= 4, WAIT);
    child.kill('SIGKILL');
    const r = await done;
    expect(r.signal).toBe('SIGKILL');
    const m = manifestOf(dir)!;
    expect(m.engines.particle!.status).toBe('running'); // it had no chance to say otherwise
    for (const f of m.engines.particle!.frames) {
      for (const file of f.files) {
        const bytes = readFileSync(join(dir, file));
        expect(bytes.length, file).toBe(plySize(bytes));
      }
    }
    const checkpointFrame = m.engines.particle!.checkpoint!.frame;
    expect(checkpointFrame).toBeGreaterThanOrEqual(3);
    expect(checkpointFrame % 3).toBe(0);
    const upTo = checkpointFrame + 2;
    const again = await cliInProcess(['run', pour, '--resume', dir, '--frames', String(upTo)]);
    expect(again.code, again.stderr).toBe(0);
    const resumed = manifestOf(dir)!.engines.particle!;
    expect(resumed.status).toBe('complete');
    expect(resumed.frames.map((f) => f.frame)).toEqual(Array.from({ length: upTo }, (_, i) => i + 1));
    const left = readdirSync(join(dir, 'particle'));
    expect(left.filter((f) => f.includes('.tmp-'))).toEqual([]);
    // Nothing beyond the frames the manifest lists.
    const numbers = left.filter((f) => f.startsWith('mesh-')).map((f) => Number(f.slice(5, 9)));
    expect(Math.max(...numbers)).toBe(upTo);
    // Every frame, before the kill and after the resume, is the one an uninterrupted run makes.
    const expected = await expectedFiles(pour, upTo);
    for (const f of resumed.frames) {
      for (const file of f.files) expect(readFileSync(join(dir, file)).equals(expected.get(file)!), file).toBe(true);
    }
  });
});
