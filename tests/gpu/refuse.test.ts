/**
 * What the WebGPU backend refuses (src/gpu/refuse.ts), on the shipped scenes and by path; no GPU
 * needed. The backend runs every viscosity method of densitySolver "pbf" (the default implicit
 * viscosity between two pressure solves, or before one; the exchange after one solve, or between
 * two), so the dam break runs as shipped and the honey drop is refused for its sink and its strong
 * honey–ball adhesion only (static objects and the default adhesion to them run: src/gpu/objects.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { unportedFeatures } from '../../src/gpu/refuse.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';

function shipped(name: string): SceneInput {
  const input = JSON.parse(readFileSync(new URL(`../../scenes/${name}`, import.meta.url), 'utf8')) as SceneInput;
  delete (input as { $schema?: string }).$schema;
  return input;
}

describe('WebGPU backend refusals', () => {
  it('runs the dam break as shipped, at every viscosity method and number of pressure solves', () => {
    for (const viscositySolver of ['implicit', 'exchange'] as const) {
      for (const pressureAfterViscosity of [true, false]) {
        const input = shipped('dam-break.json');
        input.particle = { ...input.particle, viscositySolver, pressureAfterViscosity };
        expect(unportedFeatures(parseScene(input))).toEqual([]);
      }
    }
    expect(unportedFeatures(parseScene(shipped('dam-break.json')))).toEqual([]);
  });

  it('refuses the honey drop for its sink and its strong honey–ball adhesion only, not its static ball, floor, cohesion or viscosity', () => {
    expect(unportedFeatures(parseScene(shipped('honey-drop.json'))).map((f) => f.path)).toEqual(['sinks[0]', 'adhesion[1]']);
  });

  it('runs static objects at the default adhesion to them; refuses a moving plane and any other adhesion to it, by their paths', () => {
    const input = (motion: boolean, adhesion: boolean): SceneInput => ({
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } }, floor: { kind: 'solid' } },
      adhesion: adhesion ? [{ between: ['w', 'floor'], points: Array.from({ length: 40 }, (_, k): [number, number] => [0.1 * k, k < 39 ? -1 : 0]) }] : [],
      bodies: [
        { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 0.02 }, ...(motion ? { motion: { type: 'linear', velocity: [0, 0.1, 0] } } : {}) },
        { material: 'w', shape: { type: 'box', center: [0, 0.02, 0], size: [0.01, 0.01, 0.01] } },
      ],
    });
    expect(unportedFeatures(parseScene(input(false, false)))).toEqual([]);
    expect(unportedFeatures(parseScene(input(true, false))).map((f) => f.path)).toEqual(['bodies[0].motion']);
    expect(unportedFeatures(parseScene(input(false, true))).map((f) => f.path)).toEqual(['adhesion[0].points']);
    const strong = input(false, false);
    strong.adhesion = [{ between: ['w', 'floor'], type: 'attract', strength: 20, support: 8 }];
    expect(unportedFeatures(parseScene(strong)).map((f) => f.path)).toEqual(['adhesion[0]']);
  });

  it('refuses a liquid adhesion function of more points than the parameters hold, by its path', () => {
    const points = Array.from({ length: 40 }, (_, k): [number, number] => [0.1 * k, k < 39 ? -1 : 0]);
    const input: SceneInput = {
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
      adhesion: [{ between: ['w', 'w'], points }],
      bodies: [{ material: 'w', shape: { type: 'box', center: [0, 0, 0], size: [0.02, 0.02, 0.02] } }],
    };
    const out = unportedFeatures(parseScene(input));
    expect(out.map((f) => f.path)).toEqual(['adhesion[0].points']);
    expect(out[0].message).toMatch(/40 points: the WebGPU backend holds 32/);
  });
});
