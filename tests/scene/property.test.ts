/** Property tests: nothing a user can write makes parseScene throw anything but a SceneError. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjError, parseOBJ, parseScene, SceneError, serializeScene } from '../../src/index.ts';

const HONEY = JSON.parse(readFileSync(new URL('../../scenes/honey-drop.json', import.meta.url), 'utf8'));

/** Parses and returns 'ok' or the SceneError; anything else thrown fails the property. */
function outcome(input: unknown): 'ok' | SceneError {
  try {
    const scene = parseScene(input);
    // Whatever parses must round-trip (compared as text: JSON has no -0, which toEqual would see).
    const text = serializeScene(scene);
    expect(serializeScene(parseScene(text))).toBe(text);
    return 'ok';
  } catch (e) {
    if (e instanceof SceneError) {
      expect(e.issues.length).toBeGreaterThan(0);
      for (const i of e.issues) expect(typeof i.path === 'string' && i.message.length > 0).toBe(true);
      return e;
    }
    throw e;
  }
}

type Json = unknown;
/** Sets `value` at a random place in a copy of `root` (path chosen by `picks`). */
function mutate(root: Json, picks: number[], value: Json, remove: boolean): Json {
  const copy = structuredClone(root) as Record<string, Json>;
  let node: Json = copy;
  for (let d = 0; d < picks.length; d++) {
    if (node === null || typeof node !== 'object') break;
    const keys = Object.keys(node as object);
    if (keys.length === 0) break;
    const key = keys[picks[d] % keys.length];
    const child = (node as Record<string, Json>)[key];
    const last = d === picks.length - 1 || child === null || typeof child !== 'object';
    if (last) {
      if (remove && !Array.isArray(node)) delete (node as Record<string, Json>)[key];
      else (node as Record<string, Json>)[key] = value;
      break;
    }
    node = child;
  }
  return copy;
}

describe('parseScene properties', () => {
  it('arbitrary JSON never throws anything but SceneError', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        outcome(v);
        outcome(JSON.stringify(v));
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary objects with scene keys never throw anything but SceneError', () => {
    const key = fc.constantFrom('fps', 'materials', 'bodies', 'shape', 'type', 'kind', 'material', 'domain', 'adhesion', 'between', 'points', 'motion', 'keys', 'sources', '__proto__', 'constructor', 'toString');
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.dictionary(key, tie('node'), { maxKeys: 4 }), fc.array(tie('node'), { maxLength: 3 })),
    })).node;
    fc.assert(fc.property(fc.dictionary(key, tree, { maxKeys: 6 }), (v) => void outcome(v)), { numRuns: 300 });
  });

  it('random mutations of a valid scene never throw anything but SceneError; refusals name a path, acceptances round-trip', () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(NaN, Infinity, -1, 0, 1e308, '', 'honey', 'ball', '#ffffff', [0, 0, 0], {}));
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), value, fc.boolean(), (picks, v, remove) => {
        const mutated = mutate(HONEY, picks, v, remove);
        const result = outcome(mutated);
        // A refused mutation is blamed on a place in the scene, not on the scene as a whole.
        if (result !== 'ok') expect(result.issues.some((i) => i.path !== ''), result.message).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('the OBJ loader fed arbitrary text throws only ObjError', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.tuple(fc.constantFrom('v', 'f', 'vn', 'vt', 'o', '#'), fc.array(fc.oneof(fc.integer({ min: -20, max: 20 }).map(String), fc.double().map(String), fc.constantFrom('1/2/3', '1//2', '-1', 'x', '')), { maxLength: 6 })).map(([k, xs]) => `${k} ${xs.join(' ')}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        try {
          const m = parseOBJ(lines.join('\n'), 'fuzz.obj');
          expect(m.indices.length % 3).toBe(0);
        } catch (e) {
          if (!(e instanceof ObjError)) throw e;
          expect(e.message.startsWith('fuzz.obj')).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
