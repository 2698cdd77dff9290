/**
 * What the WebGPU backend refuses (src/gpu/refuse.ts), on the shipped scenes and by path; no GPU
 * needed. The backend runs every viscosity method of densitySolver "pbf" (the default implicit
 * viscosity between two pressure solves, or before one; the exchange after one solve, or between
 * two), so the dam break, the honey drop, the cup pour and the gel fan run as shipped, the last two with the
 * thin pull they set (particle.thinPull: src/gpu/thin-pull.ts) (cohesion,
 * static and moving objects, sinks, strong adhesion to a body, which the signed-distance guard
 * holds: src/gpu/sinks.ts, guard-wgsl.ts, moving-objects.ts), and the floating box (a free body:
 * free-bodies.ts). A mesh sink, and adhesion other than the default to a mesh body (no guard for a
 * mesh), are refused by path. Gels run (src/gpu/gel.ts); several liquids and their mixing run
 * (src/gpu/liquids.ts, mixing.ts: paint-drops), but for what liquids.ts liquidRefusals names;
 * temperature-dependent viscosity runs with the implicit viscosity (src/gpu/temperature.ts:
 * honey-melt) and is refused by path with the exchange.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methodDifferences, unportedFeatures } from '../../src/gpu/refuse.ts';
import { MAX_FREE } from '../../src/gpu/free-bodies.ts';
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

  it('runs the dam break, the honey drop, the cup pour, the gel fan and the paint drops (sinks, moving bodies, strong adhesion to bodies; the thin pull) as shipped', () => {
    expect(unportedFeatures(parseScene(shipped('dam-break.json')))).toEqual([]);
    expect(unportedFeatures(parseScene(shipped('honey-drop.json')))).toEqual([]);
    for (const name of ['cup-pour.json', 'gel-fan.json', 'paint-drops.json']) {
      expect(parseScene(shipped(name)).particle.thinPull).toBe(0.5);
      expect(unportedFeatures(parseScene(shipped(name)))).toEqual([]);
      // What the GPU's thin pull does differently (its fixed reach) is said, as the CLI warns.
      expect(methodDifferences(parseScene(shipped(name))).map((f) => f.path)).toContain('particle.thinPull');
    }
    expect(methodDifferences(parseScene(shipped('dam-break.json'))).map((f) => f.path)).not.toContain('particle.thinPull');
  });

  it('runs the gels as shipped (jello-drop, jelly-block; soap-pour with its spouts): src/gpu/gel.ts', () => {
    for (const name of ['jello-drop.json', 'jelly-block.json', 'soap-pour.json']) expect(unportedFeatures(parseScene(shipped(name)))).toEqual([]);
  });

  it('runs several liquids and their mixing (paint-drops); and temperature (honey-melt; refused with the exchange, by its paths), and smoke-plume (whose temperature is the grid engine\'s alone)', () => {
    const paths = (name: string) => unportedFeatures(parseScene(shipped(name))).map((f) => f.path);
    const paths2 = (input: SceneInput) => unportedFeatures(parseScene(input)).map((f) => f.path);
    expect(paths('paint-drops.json')).toEqual([]);
    expect(paths('honey-melt.json')).toEqual([]);
    const exchange = shipped('honey-melt.json');
    exchange.particle = { ...exchange.particle, viscositySolver: 'exchange' };
    expect(paths2(exchange)).toEqual(['materials.honey.grid.temperature', 'materials.hot-honey.grid.temperature']);
    // smoke-plume's temperature block is the grid's (an "explicit" grid viscosity): the particle engine carries none (temperature.ts temperatureLaw).
    expect(paths('smoke-plume.json')).toEqual([]);
  });

  it('refuses the implicit viscosity\'s pairs cut at a reach (kernelReach below 1) by path; the whole kernel, and a cut under the exchange, run', () => {
    const cut = (reach: number, viscositySolver: 'implicit' | 'exchange') => {
      const input = shipped('honey-drop.json');
      input.particle = { ...input.particle, viscositySolver };
      for (const m of Object.values(input.materials)) if (m.kind === 'liquid') m.particle = { ...m.particle, kernelReach: reach };
      return unportedFeatures(parseScene(input)).map((f) => f.path);
    };
    const honey = Object.entries(shipped('honey-drop.json').materials).filter(([, m]) => m.kind === 'liquid').map(([n]) => `materials.${n}.particle.kernelReach`);
    expect(honey.length).toBeGreaterThan(0);
    expect(cut(0.81, 'implicit')).toEqual(honey);
    expect(cut(1, 'implicit')).toEqual([]);
    expect(cut(0.81, 'exchange')).toEqual([]);
  });

  it('refuses, among several liquids, a gel, a free body, the exchange between unlike liquids and unlike adhesion to a solid, by their paths', () => {
    const two = (extra: Partial<SceneInput>, b: Record<string, unknown> = {}): SceneInput => ({
      materials: {
        a: { kind: 'liquid', viscosity: { value: 1, unit: 'Pa.s' } },
        b: { kind: 'liquid', density: 2000, viscosity: { value: 1, unit: 'Pa.s' }, ...b },
        rock: { kind: 'solid', density: 500 },
      },
      bodies: [
        { material: 'a', shape: { type: 'box', center: [0, 0.02, 0], size: [0.01, 0.01, 0.01] } },
        { material: 'b', shape: { type: 'box', center: [0, 0.04, 0], size: [0.01, 0.01, 0.01] } },
        { material: 'rock', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.005 } },
      ],
      ...extra,
    });
    const paths = (input: SceneInput) => unportedFeatures(parseScene(input)).map((f) => f.path);
    expect(paths(two({}))).toEqual([]);
    expect(paths(two({}, { viscoelastic: { elasticModulus: 100 } }))).toEqual(['materials.b.viscoelastic']);
    expect(paths(two({ particle: { viscositySolver: 'exchange' } }))).toEqual(['particle.viscositySolver']);
    expect(paths(two({ adhesion: [{ between: ['b', 'rock'], type: 'attract', strength: 10 }] }))).toEqual(['adhesion']);
    const free = two({});
    free.bodies![2] = { ...free.bodies![2], motion: { type: 'free' } } as NonNullable<SceneInput['bodies']>[number];
    expect(paths(free)).toEqual(['bodies[2].motion']);
  });

  it('refuses a mesh sink and strong adhesion to a mesh body (no guard for a mesh), by their paths', () => {
    const cube = 'v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n' +
      'f 1 4 3\nf 1 3 2\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n';
    const mesh = { type: 'mesh', file: 'cube.obj', scale: 0.01 } as const;
    const input: SceneInput = {
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } }, rock: { kind: 'solid' } },
      adhesion: [{ between: ['w', 'rock'], type: 'attract', strength: 20, support: 8 }],
      bodies: [{ material: 'rock', shape: mesh }, { material: 'w', shape: { type: 'box', center: [0, 0.03, 0], size: [0.01, 0.01, 0.01] } }],
      sinks: [{ shape: mesh }, { shape: { type: 'box', center: [0, -1, 0], size: [1, 1, 1] } }],
    };
    const out = unportedFeatures(parseScene(input, { meshes: { 'cube.obj': cube } }));
    expect(out.map((f) => f.path)).toEqual(['sinks[0].shape', 'adhesion[0]']);
    expect(out[1].message).toMatch(/mesh/);
  });

  it('runs static and moving objects at any adhesion to them; refuses a function of too many points, by its path', () => {
    const input = (motion: boolean, adhesion: boolean): SceneInput => ({
      materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } }, floor: { kind: 'solid' } },
      adhesion: adhesion ? [{ between: ['w', 'floor'], points: Array.from({ length: 40 }, (_, k): [number, number] => [0.1 * k, k < 39 ? -1 : 0]) }] : [],
      bodies: [
        { material: 'floor', shape: { type: 'plane', point: [0, 0, 0], normal: [0, 1, 0], extent: 0.02 }, ...(motion ? { motion: { type: 'linear', velocity: [0, 0.1, 0] } } : {}) },
        { material: 'w', shape: { type: 'box', center: [0, 0.02, 0], size: [0.01, 0.01, 0.01] } },
      ],
    });
    expect(unportedFeatures(parseScene(input(false, false)))).toEqual([]);
    expect(unportedFeatures(parseScene(input(true, false)))).toEqual([]);
    expect(unportedFeatures(parseScene(input(false, true))).map((f) => f.path)).toEqual(['adhesion[0].points']);
    const strong = input(false, false);
    strong.adhesion = [{ between: ['w', 'floor'], type: 'attract', strength: 20, support: 8 }];
    expect(unportedFeatures(parseScene(strong))).toEqual([]);
  });

  it('runs the floating box as shipped (a free body), says where its coupling differs from the CPU\'s, and refuses more free bodies than it couples', () => {
    const box = parseScene(shipped('floating-box.json'));
    expect(unportedFeatures(box)).toEqual([]);
    expect(methodDifferences(box).map((f) => f.path)).toContain('bodies[1].motion');
    const input = shipped('floating-box.json');
    const [pool, free] = input.bodies!;
    input.bodies = [pool, ...Array.from({ length: MAX_FREE + 1 }, (_, k) => ({ ...free, name: `box${k}` }))];
    // (Past MAX_GUARDED solids as well: 'bodies'.)
    const out = unportedFeatures(parseScene(input)).find((f) => f.path === `bodies[${MAX_FREE + 1}].motion`);
    expect(out?.message).toMatch(new RegExp(`more than ${MAX_FREE} free bodies`));
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
