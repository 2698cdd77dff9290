/**
 * A run an earlier viscid wrote resumes under this one (src/cli/run-scene.ts): the earlier viscid
 * wrote the scene text without a setting added since (here particle.thinPull, default 0, which
 * changes nothing a run does) and hashed that text, so this viscid hashes the same file otherwise.
 * Simulated by rewriting a run's checkpoint and manifest as that viscid would have written them.
 * The resume goes on to the same bits as an uninterrupted run; a changed setting (or a default whose
 * value changed) is refused naming it; a damaged checkpoint is still caught.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointReader, CheckpointWriter } from '../../src/io/checkpoint.ts';
import { parseScene, restoreSimulation } from '../../src/index.ts';
import { sceneHash, sceneTextHash } from '../../src/scene/hash.ts';
import { readManifest, type Manifest } from '../../src/cli/manifest.ts';
import { runScene } from '../../src/cli/preview-run.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-upgrade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
const tinyText = readFileSync(tiny, 'utf8');
const todayHash = sceneHash(parseScene(tinyText));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

type Arrays = Map<string, Float64Array | Int32Array | Uint32Array | Uint16Array | Float32Array | Uint8Array>;
/** The checkpoint with its stored scene text and label replaced, every value as it was. */
function withScene(bytes: Uint8Array, sceneJson: string, label: string): Uint8Array {
  const r = new CheckpointReader(bytes);
  const { scalars, arrays } = r as unknown as { scalars: Map<string, number>; arrays: Arrays };
  const w = new CheckpointWriter(r.engine, sceneJson, label);
  for (const [k, v] of scalars) w.scalar(k, v);
  for (const [k, v] of arrays) w.array(k, v);
  return w.finish();
}

/**
 * Rewrites the particle run in `dir` as an earlier viscid would have written it: the stored scene
 * text edited by `earlier` (by default: without particle.thinPull), labelled with that text's hash,
 * and the manifest naming that hash and the new checkpoint bytes. Returns the earlier hash.
 */
function asEarlierViscid(dir: string, earlier = (s: { particle: Record<string, unknown> }) => void delete s.particle.thinPull): string {
  const file = join(dir, 'particle', 'checkpoint.vscd');
  const bytes = new Uint8Array(readFileSync(file));
  const stored = JSON.parse(new CheckpointReader(bytes).sceneJson);
  expect(stored.particle.thinPull).toBe(0); // today's text has the setting, at its default
  earlier(stored);
  const text = JSON.stringify(stored);
  const label = sceneTextHash(text, {});
  expect(label).not.toBe(todayHash);
  const rewritten = withScene(bytes, text, label);
  writeFileSync(file, rewritten);
  const m = readManifest(dir);
  m.scene.sha256 = label;
  m.engines.particle!.checkpoint!.sha256 = sha(rewritten);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m, null, 2));
  return label;
}

async function startRun(name: string, frames: number): Promise<string> {
  const dir = join(tmp, name);
  const r = await cliInProcess(['run', tiny, '--frames', String(frames), '--mesh', 'none', '--points', 'vtk', '--out', dir]);
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

const file = (dir: string, name: string) => readFileSync(join(dir, 'particle', name));
let wholeRun: Promise<string> | undefined;
/** The run uninterrupted, three frames (run once, for the cases that compare with it). */
const whole = () => (wholeRun ??= startRun('whole', 3));

describe('a run an earlier viscid wrote', () => {
  it('resumes, says so, records both hashes and ends in the same bits as an uninterrupted run', async () => {
    const dir = await startRun('earlier', 1);
    const earlier = asEarlierViscid(dir);
    const checkpoint = new Uint8Array(file(dir, 'checkpoint.vscd'));
    const manifestBefore = readManifest(dir);

    // The library and preview take it as this scene too.
    expect(restoreSimulation(checkpoint, { expectSceneHash: todayHash }).frame).toBe(1);
    expect(restoreSimulation(checkpoint, { expectSceneHash: earlier }).frame).toBe(1);
    expect('scene' in runScene(manifestBefore, dir)).toBe(true);

    const r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: the run's scene hash \([0-9a-f]{12}…\) was written by another viscid's reading of the scene; .*no setting that differs, so the run goes on/);
    const m = readManifest(dir);
    expect(m.scene.sha256).toBe(todayHash);
    expect(m.scene.earlier?.map((e) => e.sha256)).toEqual([earlier]);
    expect(m.scene.earlier?.[0].checked).toMatch(/particle\/checkpoint\.vscd and .*tiny\.json, both read by viscid .*: no setting differs/);
    expect(m.engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    const uninterrupted = await whole();
    for (const name of ['points-0002.vtk', 'points-0003.vtk', 'checkpoint.vscd']) expect(file(dir, name).equals(file(uninterrupted, name)), name).toBe(true);
  });

  it('resumes from a checkpoint under the earlier hash once the manifest took the new one (killed before a new checkpoint)', async () => {
    const dir = await startRun('killed', 1);
    const earlier = asEarlierViscid(dir);
    const m = readManifest(dir);
    m.scene.sha256 = todayHash;
    // Without the earlier hash in its list, the manifest does not take that checkpoint for its run's.
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds another scene \(sha256 [0-9a-f]{12}…\) than the manifest's/);
    m.scene.earlier = [{ sha256: earlier, hashedBy: m.viscid, replacedAt: m.updatedAt, replacedBy: m.viscid, checked: 'by hand' }];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/note: the run's scene hash/);
    expect(readManifest(dir).scene.earlier?.length).toBe(1);
    expect(file(dir, 'checkpoint.vscd').equals(file(await whole(), 'checkpoint.vscd'))).toBe(true);
  });

  it('is refused when a setting differs, naming it with both values, and left as it was', async () => {
    const dir = await startRun('changed', 1);
    asEarlierViscid(dir);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const other = join(tmp, 'thicker.json');
    const data = JSON.parse(tinyText);
    data.materials.syrup.viscosity.value = 3;
    writeFileSync(other, JSON.stringify(data));
    const r = await cliInProcess(['run', other, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: .*thicker\.json differs from the scene of the run in .* \(as its particle\/checkpoint\.vscd stores it\): materials\.syrup\.viscosity\.value is 2 in the run, 3 in .*thicker\.json\n/);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
  });

  it('whose default for a setting was another value is refused, naming the value to write; written, it resumes', async () => {
    const dir = await startRun('default', 1);
    // That viscid wrote particle.thinPull at its default then, 0.25; this one's default is 0.
    asEarlierViscid(dir, (s) => void (s.particle.thinPull = 0.25));
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/particle\.thinPull is 0\.25 in the run, 0 in .*tiny\.json \(which leaves it to this viscid's default; write 0\.25 there to go on as the run ran\)/);
    const pinned = join(tmp, 'pinned.json');
    const data = JSON.parse(tinyText);
    data.particle.thinPull = 0.25;
    writeFileSync(pinned, JSON.stringify(data));
    r = await cliInProcess(['run', pinned, '--resume', dir, '--frames', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(readManifest(dir).engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2]);
  });

  it('is still refused when its checkpoint was damaged, or when no checkpoint holds its scene', async () => {
    const dir = await startRun('damaged', 1);
    const earlier = asEarlierViscid(dir);
    const good = new Uint8Array(file(dir, 'checkpoint.vscd'));
    const manifest = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const cp = join(dir, 'particle', 'checkpoint.vscd');

    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1] ^= 0x10;
    writeFileSync(cp, flipped);
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/checkpoint particle\/checkpoint\.vscd in .* is not the one the manifest recorded \(its sha-256 differs\)/);

    // Its scene text changed under the earlier label, the file's checksum and the manifest's sha-256 made to match.
    const text = new CheckpointReader(good).sceneJson.replace('"value":2', '"value":3');
    const edited = withScene(good, text, earlier);
    writeFileSync(cp, edited);
    const m = JSON.parse(manifest) as Manifest;
    m.engines.particle!.checkpoint!.sha256 = sha(edited);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/checkpoint particle\/checkpoint\.vscd in .*: checkpoint's scene \(sha256 [0-9a-f]{12}…\) is not the one its label names/);

    // No checkpoint: nothing but the earlier hash to go by.
    writeFileSync(cp, good);
    const none = JSON.parse(manifest) as Manifest;
    none.engines.particle!.checkpoint = null;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(none));
    r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: .*tiny\.json hashes to another scene than the run's in .* and the run has no checkpoint that stores its scene/);
  });
});
