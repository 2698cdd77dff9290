/**
 * Every feature of the scene format runs in an engine or is named as ignored by it
 * (engines.ts ignoredFeatures), and `info` says so for the shipped scenes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ignoredFeatures, parseScene } from '../../src/index.ts';
import { cliInProcess } from '../cli/helpers.ts';

const shipped = (name: string) => parseScene(JSON.parse(readFileSync(new URL(`../../scenes/${name}.json`, import.meta.url), 'utf8')));
const liquid = (density: number, pas: number, color: string) => ({ kind: 'liquid', density, viscosity: { value: pas, unit: 'Pa.s' }, color });
const twoLiquids = (b: object) => parseScene({
  fps: 30,
  domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.1, 0.1], boundary: 'noslip' },
  materials: { a: liquid(1300, 2, '#c8202a'), b },
  bodies: [
    { material: 'a', shape: { type: 'box', center: [-0.05, 0.02, 0], size: [0.04, 0.04, 0.04] } },
    { material: 'b', shape: { type: 'box', center: [0.05, 0.02, 0], size: [0.04, 0.04, 0.04] } },
  ],
});

describe('features an engine ignores', () => {
  it('the grid names a second liquid whose density or viscosity differs, not one that differs in colour only', () => {
    expect(ignoredFeatures(twoLiquids(liquid(1300, 2, '#2a4fc8')), 'grid')).toEqual([]);
    const denser = ignoredFeatures(twoLiquids(liquid(1800, 20, '#2a4fc8')), 'grid');
    expect(denser.map((f) => f.path)).toEqual(['materials.b']);
    expect(denser[0].message).toMatch(/density \(1800 kg\/m³ against 1300\).*viscosity/);
    expect(ignoredFeatures(shipped('paint-drops'), 'grid')).toEqual([]);
    expect(ignoredFeatures(shipped('honey-melt'), 'grid')).toEqual([]);
  });

  it('the particle engine names smoke, and honours temperature and free bodies', () => {
    expect(ignoredFeatures(shipped('floating-box'), 'particle')).toEqual([]);
    expect(ignoredFeatures(shipped('honey-melt'), 'particle')).toEqual([]);
    expect(ignoredFeatures(shipped('smoke-plume'), 'particle').map((f) => f.path)).toEqual(['grid.smoke']);
    expect(ignoredFeatures(shipped('honey-drop'), 'particle')).toEqual([]);
    expect(ignoredFeatures(shipped('honey-drop'), 'grid')).toEqual([]);
  });

  it('info says which engine ignores what, and where in the scene', async () => {
    const r = await cliInProcess(['info', new URL('../../scenes/smoke-plume.json', import.meta.url).pathname]);
    expect(r.stdout + r.stderr).toContain('warning: particle engine ignores grid.smoke:');
  });
});
