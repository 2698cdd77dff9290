/**
 * A run an earlier viscid wrote resumes under this one (src/cli/run-scene.ts): the earlier viscid
 * wrote the scene text without a setting added since (here particle.thinPull, default 0, which
 * changes nothing a run does) and hashed that text, so this viscid hashes the same file otherwise.
 * Simulated by rewriting a run's checkpoint and manifest as that viscid would have written them.
 * The resume goes on to the same bits as an uninterrupted run; a changed setting (or a default whose
 * value changed) is refused naming it; a damaged checkpoint is still caught.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckpointReader, CheckpointWriter } from '../../src/io/checkpoint.ts';
import { parseScene, restoreSimulation } from '../../src/index.ts';
import { sceneHash, sceneTextHash } from '../../src/scene/hash.ts';
import { readManifest, type Manifest } from '../../src/cli/manifest.ts';
import { loadScene } from '../../src/cli/load-scene.ts';
import { runScene } from '../../src/cli/preview-run.ts';
import { manifestScene, recordSceneText } from '../../src/cli/run-scene.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-upgrade-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
const tinyText = readFileSync(tiny, 'utf8');
const todayHash = sceneHash(parseScene(tinyText));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** The tiny fixture with `edit` applied, written as `name` into this file's folder; returns its path. */
function tinyEdited(name: string, edit: (data: { materials: { syrup: { viscosity: { value: number } } }; particle: Record<string, unknown> }) => void): string {
  const data = JSON.parse(tinyText);
  edit(data);
  const file = join(tmp, name);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

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
  // Nor did it copy its scene into the manifest (manifests before resume68).
  delete m.scene.text;
  delete m.scene.meshes;
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
    expect(sceneTextHash(m.scene.text!, {})).toBe(todayHash); // the copy of the scene it had none of, this viscid's
    expect(m.scene.meshes).toEqual({});
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
    const other = tinyEdited('thicker.json', (d) => void (d.materials.syrup.viscosity.value = 3));
    const r = await cliInProcess(['run', other, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: .*thicker\.json differs from the scene of the run in .* \(as its particle\/checkpoint\.vscd stores it\): materials\.syrup\.viscosity\.value is 2 in the run, 3 in .*thicker\.json; to run .*thicker\.json as it is now instead, start over from frame 0: viscid run .*thicker\.json --out .* --force\n/);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);
  });

  it('whose default for a setting was another value is refused, naming the value to write; written, it resumes', async () => {
    const dir = await startRun('default', 1);
    // That viscid wrote particle.thinPull at its default then, 0.25; this one's default is 0.
    asEarlierViscid(dir, (s) => void (s.particle.thinPull = 0.25));
    let r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/particle\.thinPull is 0\.25 in the run, 0 in .*tiny\.json \(which leaves it to this viscid's default; write 0\.25 there to go on as the run ran\)/);
    const pinned = tinyEdited('pinned.json', (d) => void (d.particle.thinPull = 0.25));
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

/**
 * Rewrites the run in `dir` as one an earlier viscid that copies its scene into the manifest left
 * before its first checkpoint: that copy edited by `earlier` (by default: without particle.thinPull),
 * the manifest's hash that text's, and no checkpoint. Returns the earlier hash.
 */
function noCheckpointRun(dir: string, earlier = (s: { particle: Record<string, unknown> }) => void delete s.particle.thinPull): string {
  const m = readManifest(dir);
  expect(m.scene.sha256).toBe(todayHash);
  expect(sceneTextHash(m.scene.text!, {})).toBe(todayHash); // a new run records the text its hash is of
  expect(m.scene.meshes).toEqual({});
  const stored = JSON.parse(m.scene.text!);
  earlier(stored);
  m.scene.text = JSON.stringify(stored);
  m.scene.sha256 = sceneTextHash(m.scene.text, {});
  m.engines.particle!.checkpoint = null;
  m.status = 'interrupted';
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m, null, 2));
  return m.scene.sha256;
}

describe('a run with no checkpoint an earlier viscid wrote', () => {
  it('resumes when the scene its manifest stores is the file, both read today, from frame 0 to the same bits', async () => {
    const dir = await startRun('no-checkpoint', 1);
    const earlier = noCheckpointRun(dir);
    expect('scene' in runScene(readManifest(dir), dir)).toBe(true); // preview takes it as this scene too
    const r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: the run's scene hash .*tiny\.json and the scene stored in manifest\.json, both read by this one .*, have no setting that differs, so the run goes on/);
    const m = readManifest(dir);
    expect(m.scene.sha256).toBe(todayHash);
    expect(m.scene.earlier?.map((e) => e.sha256)).toEqual([earlier]);
    expect(m.scene.earlier?.[0].checked).toMatch(/the scene stored in manifest\.json and .*tiny\.json/);
    expect(sceneTextHash(m.scene.text!, {})).toBe(todayHash); // the copy follows the hash
    expect(m.engines.particle!.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
    for (const name of ['points-0001.vtk', 'points-0003.vtk', 'checkpoint.vscd']) expect(file(dir, name).equals(file(await whole(), name)), name).toBe(true);
  });

  it('is refused naming a setting that differs, or a default that changed, and when its copy of the scene was edited', async () => {
    const dir = await startRun('no-checkpoint-changed', 1);
    const pinnedRun = join(tmp, 'no-checkpoint-default');
    cpSync(dir, pinnedRun, { recursive: true });
    noCheckpointRun(dir);
    const before = readFileSync(join(dir, 'manifest.json'), 'utf8');
    const other = tinyEdited('thicker-too.json', (d) => void (d.materials.syrup.viscosity.value = 3));
    let r = await cliInProcess(['run', other, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: .*thicker-too\.json differs from the scene of the run in .* \(as its manifest\.json stores it\): materials\.syrup\.viscosity\.value is 2 in the run, 3 in .*thicker-too\.json; to run .*thicker-too\.json as it is now instead, start over from frame 0: viscid run .*thicker-too\.json --out .* --force\n/);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe(before);

    // Its text edited under the hash it names: damage, not a difference.
    const m = JSON.parse(before) as Manifest;
    m.scene.text = m.scene.text!.replace('"value":2', '"value":3');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    r = await cliInProcess(['run', other, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot be compared with the scene of the run in .*: the scene text its manifest\.json stores hashes to none of the run's scene hashes .*\(the manifest was edited or damaged\); with no checkpoint a resume starts from frame 0 anyway: start the run again: viscid run .*thicker-too\.json --out .* --force\n/);

    noCheckpointRun(pinnedRun, (s) => void (s.particle.thinPull = 0.25));
    r = await cliInProcess(['run', tiny, '--resume', pinnedRun, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\(as its manifest\.json stores it\): particle\.thinPull is 0\.25 in the run, 0 in .*tiny\.json \(which leaves it to this viscid's default; write 0\.25 there/);
  });

  it("compares the scene's meshes by their hashes", () => {
    const dir = join(tmp, 'meshed');
    mkdirSync(dir);
    const obj = (x: number) => `v 0 0 0\nv ${x} 0 0\nv 0 0.02 0\nv 0 0 0.02\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n`;
    writeFileSync(join(dir, 'rock.obj'), obj(0.02));
    const data = JSON.parse(tinyText);
    data.bodies.push({ name: 'rock', material: 'floor', shape: { type: 'mesh', file: 'rock.obj' } });
    writeFileSync(join(dir, 'rock.json'), JSON.stringify(data));
    const loaded = loadScene(join(dir, 'rock.json'));
    const m = { scene: { sha256: loaded.hash } } as Manifest;
    recordSceneText(m, loaded);
    expect(Object.keys(m.scene.meshes!)).toEqual(['rock.obj']);
    const same = manifestScene(m, loaded, 'rock.json');
    expect(same && 'label' in same && same.label).toBe(loaded.hash);

    writeFileSync(join(dir, 'rock.obj'), obj(0.03));
    expect(manifestScene(m, loadScene(join(dir, 'rock.json')), 'rock.json')).toEqual({ differs: 'mesh file "rock.obj" holds other vertices or triangles than the run\'s' });
    writeFileSync(join(dir, 'rock.json'), tinyText);
    expect(manifestScene(m, loadScene(join(dir, 'rock.json')), 'rock.json')).toEqual({ differs: 'mesh file "rock.obj" is loaded by the run, not by rock.json' });
  });
});

describe("a sweep's run with no checkpoint and no copy of its scene", () => {
  it("is refused naming the sweep's way to start it over, which works", async () => {
    const sweep = join(tmp, 'sweep');
    let r = await cliInProcess(['sweep', tiny, '--set', 'particle.substeps=2', '--frames', '1', '--points', 'none', '--mesh', 'none', '--out', sweep]);
    expect(r.code, r.stderr).toBe(0);
    r = await cliInProcess(['sweep', sweep, '--index', '0']);
    expect(r.code, r.stderr).toBe(0);
    const run = join(sweep, JSON.parse(readFileSync(join(sweep, 'sweep.json'), 'utf8')).runs[0].out as string);
    const m = readManifest(run);
    const today = m.scene.sha256;
    // As a viscid before resume68 left it, killed before its first checkpoint, read today under another hash.
    m.scene.sha256 = sceneTextHash(m.scene.text!.replace('"thinPull":0,', ''), {});
    delete m.scene.text;
    delete m.scene.meshes;
    m.engines.particle!.checkpoint = null;
    m.status = 'interrupted';
    writeFileSync(join(run, 'manifest.json'), JSON.stringify(m));
    r = await cliInProcess(['sweep', sweep, '--index', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/and the run has no checkpoint that stores its scene .*: remove .*manifest\.json and run viscid sweep .*sweep --index 0 \(or --jobs\) again, which starts that run over\n/);
    expect(r.stderr).not.toMatch(/--out/);
    rmSync(join(run, 'manifest.json'));
    r = await cliInProcess(['sweep', sweep, '--index', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(readManifest(run).scene.sha256).toBe(today);
    expect(readManifest(run).status).toBe('complete');
  });
});
