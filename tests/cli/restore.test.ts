/**
 * A checkpoint is input (src/io/checkpoint.ts): its CRC and the manifest's SHA-256 catch accidents,
 * not forgery, so the scene it stores is checked against its own hash label, the manifest's and the
 * run's scene, version-1 checkpoints (no checksum, no label) are refused, and every restored value
 * is validated: a count larger than its arrays, a negative frame, a NaN position, a material index
 * past the scene's are refused with a message, never run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { CheckpointReader, CheckpointWriter } from '../../src/io/checkpoint.ts';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { sceneHash } from '../../src/scene/hash.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-restore-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tinyText = readFileSync(join(FIXTURES, 'tiny.json'), 'utf8');

type Contents = { scalars: Map<string, number>; arrays: Map<string, Float64Array | Int32Array | Uint16Array | Float32Array | Uint8Array> };
/** A checkpoint rewritten with some values, arrays, the stored scene or its label replaced: what a forger can do. */
function rewrite(bytes: Uint8Array, change: { scalars?: Record<string, number>; arrays?: Record<string, Contents['arrays'] extends Map<string, infer A> ? A : never>; sceneJson?: string; sceneHash?: string }): Uint8Array {
  const r = new CheckpointReader(bytes);
  const { scalars, arrays } = r as unknown as Contents;
  const w = new CheckpointWriter(r.engine, change.sceneJson ?? r.sceneJson, change.sceneHash ?? r.sceneHash);
  for (const [k, v] of scalars) w.scalar(k, change.scalars?.[k] ?? v);
  for (const [k, v] of arrays) w.array(k, change.arrays?.[k] ?? v);
  return w.finish();
}

describe('restored state', () => {
  const scene = parseScene(tinyText);
  const particle = createSimulation(scene, 'particle');
  particle.stepFrame();
  const good = particle.save();
  const grid = createSimulation(scene, 'grid');
  grid.stepFrame();
  const goodGrid = grid.save();

  it('a good checkpoint restores, and a count, frame, position or material index it cannot honour is refused', () => {
    expect(restoreSimulation(good).frame).toBe(1);
    const count = new CheckpointReader(good).scalar('count');
    expect(() => restoreSimulation(rewrite(good, { scalars: { count: count + 1000 } }))).toThrow(/checkpoint array 'pos' has \d+ elements; its counts say \d+/);
    expect(() => restoreSimulation(rewrite(good, { scalars: { frame: -1 } }))).toThrow(/checkpoint value 'frame' is -1; expected a whole number from 0/);
    expect(() => restoreSimulation(rewrite(good, { scalars: { time: NaN } }))).toThrow(/'time' is NaN/);
    const pos = new CheckpointReader(good).array('pos', Float64Array).slice();
    pos[4] = NaN;
    expect(() => restoreSimulation(rewrite(good, { arrays: { pos } }))).toThrow(/'pos' holds NaN at 4/);
    const material = new Uint16Array(count).fill(60000);
    expect(() => restoreSimulation(rewrite(good, { arrays: { material } }))).toThrow(/'material' holds 60000 at 0; expected 0 to 1/);
    expect(restoreSimulation(goodGrid).frame).toBe(1);
    const cells = new CheckpointReader(goodGrid).scalar('cells');
    expect(() => restoreSimulation(rewrite(goodGrid, { scalars: { cells: cells + 5 } }))).toThrow(/checkpoint array 'ci' has \d+ elements/);
    expect(() => restoreSimulation(rewrite(goodGrid, { scalars: { frame: 1.5 } }))).toThrow(/'frame' is 1\.5/);
  });

  it("a stored scene that is not its label's, or not the caller's, is refused", () => {
    const other = parseScene(JSON.stringify({ ...JSON.parse(tinyText), gravity: [0, 9.81, 0] }));
    const swapped = rewrite(good, { sceneJson: new CheckpointReader(createSimulation(other, 'particle').save()).sceneJson });
    expect(() => restoreSimulation(swapped)).toThrow(/checkpoint's scene \(sha256 [0-9a-f]{12}…\) is not the one its label names/);
    expect(() => restoreSimulation(good, { expectSceneHash: sceneHash(other) })).toThrow(/checkpoint holds another scene/);
    expect(restoreSimulation(good, { expectSceneHash: sceneHash(scene) }).frame).toBe(1);
  });

  it('a resume whose checkpoint and manifest were both rewritten for another scene is refused (exit 2)', async () => {
    const dir = join(tmp, 'forged');
    const tiny = join(FIXTURES, 'tiny.json');
    expect((await cliInProcess(['run', tiny, '--frames', '1', '--mesh', 'none', '--out', dir])).code).toBe(0);
    const file = join(dir, 'particle', 'checkpoint.vscd');
    const other = parseScene(JSON.stringify({ ...JSON.parse(tinyText), gravity: [0, 9.81, 0] }));
    // The other scene's state under this scene's label, and the manifest's sha-256 of the file made to match.
    const forged = rewrite(createSimulation(other, 'particle').save(), { sceneHash: new CheckpointReader(readFileSync(file)).sceneHash, scalars: { frame: 1 } });
    writeFileSync(file, forged);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.engines.particle.checkpoint.sha256 = createHash('sha256').update(forged).digest('hex');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: checkpoint particle\/checkpoint\.vscd in .*: checkpoint's scene .* is not the one its label names/);
  });

  it('--resume of a complete run sweeps the temporary files a killed run left', async () => {
    const dir = join(tmp, 'complete');
    const tiny = join(FIXTURES, 'tiny.json');
    expect((await cliInProcess(['run', tiny, '--frames', '1', '--mesh', 'ply', '--out', dir])).code).toBe(0);
    writeFileSync(join(dir, 'particle', 'mesh-0001.ply.tmp-99999-0'), 'stale');
    writeFileSync(join(dir, 'manifest.json.tmp-99999-1'), 'stale');
    const r = await cliInProcess(['run', tiny, '--resume', dir, '--frames', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'particle', 'mesh-0001.ply.tmp-99999-0'))).toBe(false);
    expect(existsSync(join(dir, 'manifest.json.tmp-99999-1'))).toBe(false);
    expect(existsSync(join(dir, 'particle', 'mesh-0001.ply'))).toBe(true);
  });
});
