/** SHA-256 in the core (src/io/sha256.ts) against node:crypto, the scene hash built on it, and the setting-by-setting comparison (scene/difference.ts). */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex, Sha256 } from '../../src/io/sha256.ts';
import { sceneHash, sceneTextHash } from '../../src/scene/hash.ts';
import { sceneDifference } from '../../src/scene/difference.ts';
import { serializeScene } from '../../src/scene/scene.ts';
import { parseScene } from '../../src/scene/parse.ts';

const CUBE_OBJ = 'v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';

describe('sha256', () => {
  it('matches node:crypto on the standard vectors and on random input fed in random pieces', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300), { maxLength: 5 }), (bytes, cuts) => {
        const sha = new Sha256();
        let at = 0;
        for (const c of [...cuts].sort((a, b) => a - b)) {
          const to = Math.min(c, bytes.length);
          if (to > at) sha.update(bytes.subarray(at, to));
          at = Math.max(at, to);
        }
        sha.update(bytes.subarray(at));
        expect(sha.hex()).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('sceneHash', () => {
  const scene = (extra: Record<string, unknown> = {}) => ({
    materials: { rock: { kind: 'solid' } },
    bodies: [{ material: 'rock', shape: { type: 'mesh', file: 'cube.obj', ...extra } }],
  });

  it('is the same for the same scene and meshes, whatever the OBJ text says beside them', () => {
    const a = parseScene(scene(), { meshes: { 'cube.obj': CUBE_OBJ } });
    const b = parseScene(JSON.stringify(scene()), { meshes: { 'cube.obj': `# exported\n${CUBE_OBJ}` } });
    expect(sceneHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(sceneHash(b)).toBe(sceneHash(a));
    // A checkpoint's label, checked as written (engines.ts), is this hash for today's text.
    expect(sceneTextHash(serializeScene(a, 0), a.assets.meshes)).toBe(sceneHash(a));
    expect(sceneTextHash(serializeScene(a, 0), {})).not.toBe(sceneHash(a));
  });

  it('differs when a setting or a mesh vertex differs', () => {
    const a = parseScene(scene(), { meshes: { 'cube.obj': CUBE_OBJ } });
    const moved = parseScene(scene({ translate: [0, 1e-9, 0] }), { meshes: { 'cube.obj': CUBE_OBJ } });
    const other = parseScene(scene(), { meshes: { 'cube.obj': CUBE_OBJ.replace('v 1 1 1', 'v 1 1 1.5') } });
    expect(sceneHash(moved)).not.toBe(sceneHash(a));
    expect(sceneHash(other)).not.toBe(sceneHash(a));
  });
});

describe('sceneDifference', () => {
  const scene = (extra: Record<string, unknown> = {}, particle: Record<string, unknown> = {}) => ({
    materials: { rock: { kind: 'solid' } },
    bodies: [{ material: 'rock', shape: { type: 'mesh', file: 'cube.obj', ...extra } }],
    particle,
  });
  const read = (s: unknown, obj = CUBE_OBJ) => parseScene(typeof s === 'string' ? s : JSON.stringify(s), { meshes: { 'cube.obj': obj } });

  it('is none for a text without a setting that today has a default (another hash), and names the first setting or mesh that differs', () => {
    const a = read(scene());
    // An earlier viscid's text: particle.thinPull not written.
    const text = JSON.parse(serializeScene(a, 0));
    delete text.particle.thinPull;
    const earlier = read(text);
    expect(sceneTextHash(JSON.stringify(text), a.assets.meshes)).not.toBe(sceneHash(a));
    expect(sceneDifference(earlier, a)).toBeNull();
    expect(sceneDifference(read(scene({ translate: [0, 1e-9, 0] })), a)).toMatchObject({ path: 'bodies[0].shape.translate', a: [0, 1e-9, 0], b: [0, 0, 0] });
    expect(sceneDifference(read(scene({}, { thinPull: 0.5 })), a)).toMatchObject({ path: 'particle.thinPull', keys: ['particle', 'thinPull'], a: 0.5, b: 0 });
    expect(sceneDifference(read(scene(), CUBE_OBJ.replace('v 1 1 1', 'v 1 1 1.5')), a)).toMatchObject({ path: 'mesh file "cube.obj"', mesh: 'cube.obj' });
  });
});
