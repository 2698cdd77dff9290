/**
 * The checkpoint container (src/io/checkpoint.ts): it carries the scene's hash and a checksum, and a
 * checkpoint with any byte changed, or cut short, is refused with a CheckpointError instead of
 * restoring into a different run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, restoreSimulation } from '../../src/index.ts';
import { CheckpointError, CheckpointReader, CheckpointWriter } from '../../src/io/checkpoint.ts';
import { sceneHash } from '../../src/scene/hash.ts';
import { FIXTURES } from '../cli/helpers.ts';

const TINY = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));

describe('checkpoints', () => {
  const scene = parseScene(TINY);
  const sim = createSimulation(scene, 'particle');
  sim.stepFrame();
  const bytes = sim.save();
  sim.dispose();

  it("carry the scene's hash, and restore bit for bit", () => {
    const reader = new CheckpointReader(bytes);
    expect(reader.sceneHash).toBe(sceneHash(scene));
    const again = restoreSimulation(bytes);
    expect(again.save()).toEqual(bytes);
    again.dispose();
  });

  it('with any byte changed, or cut short, are refused as damaged', () => {
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const bad = bytes.slice();
        bad[at] ^= flip;
        expect(() => new CheckpointReader(bad)).toThrow(CheckpointError);
      }),
      { numRuns: 200 },
    );
    expect(() => new CheckpointReader(bytes.subarray(0, bytes.length - 8))).toThrow(/checkpoint is (truncated|damaged)/);
    expect(() => new CheckpointReader(bytes.subarray(0, 5))).toThrow(/truncated/);
    const damaged = bytes.slice();
    damaged[bytes.length >> 1] ^= 1;
    expect(() => restoreSimulation(damaged)).toThrow(/checkpoint is damaged: its checksum does not match/);
  });

  it('of version 1 (no hash, no checksum) are refused: nothing in them can be checked', () => {
    const v2 = new CheckpointWriter('particle', '{"a":1}', 'abc').scalar('t', 1.5).array('x', new Float64Array([1, 2, 3])).finish();
    // Version 1: no hash string, no trailer.
    const r2 = new CheckpointReader(v2);
    expect([r2.engine, r2.sceneJson, r2.sceneHash, r2.scalar('t')]).toEqual(['particle', '{"a":1}', 'abc', 1.5]);
    const enc = new TextEncoder();
    const parts: number[] = [];
    const u32 = (n: number) => parts.push(n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24);
    const str = (s: string) => {
      const b = enc.encode(s);
      u32(b.length);
      parts.push(...b);
    };
    u32(0x44435356);
    u32(1);
    str('grid');
    str('{}');
    u32(1);
    str('t');
    parts.push(...new Uint8Array(new Float64Array([2.5]).buffer));
    u32(0);
    expect(() => new CheckpointReader(new Uint8Array(parts))).toThrow(/checkpoint version 1 has neither a checksum nor the scene's hash, so it cannot be checked/);
  });
});
