/**
 * Every feature of the scene format runs in an engine or is named as ignored by it
 * (engines.ts ignoredFeatures), and `info` says so for the shipped scenes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  it('the grid names a second liquid whose viscosity model differs, not one that differs in colour, viscosity or density only', () => {
    expect(ignoredFeatures(twoLiquids(liquid(1300, 2, '#2a4fc8')), 'grid')).toEqual([]);
    // Viscosity is honoured per cell (grid/liquid-tracers.ts).
    expect(ignoredFeatures(twoLiquids(liquid(1300, 200, '#2a4fc8')), 'grid')).toEqual([]);
    // Density is honoured per cell and face (grid/variable-density.ts).
    expect(ignoredFeatures(twoLiquids(liquid(1800, 20, '#2a4fc8')), 'grid')).toEqual([]);
    const implicit = ignoredFeatures(twoLiquids({ ...liquid(1800, 20, '#2a4fc8'), grid: { viscosityModel: 'implicit' } }), 'grid');
    expect(implicit.map((f) => f.path)).toEqual(['materials.b']);
    expect(implicit[0].message).toMatch(/keeps its colour, viscosity and density but moves with 'a's viscosity model, not its own viscosity model \('implicit' against 'variational'\)$/);
    // paint-drops' three paints differ in colour only (its adhesion entries are named: see below).
    expect(ignoredFeatures(shipped('paint-drops'), 'grid').map((f) => f.path)).toEqual(['adhesion']);
    expect(ignoredFeatures(shipped('honey-melt'), 'grid')).toEqual([]);
  });

  it('the particle engine names smoke, and honours temperature and free bodies', () => {
    expect(ignoredFeatures(shipped('floating-box'), 'particle')).toEqual([]);
    expect(ignoredFeatures(shipped('honey-melt'), 'particle')).toEqual([]);
    expect(ignoredFeatures(shipped('smoke-plume'), 'particle').map((f) => f.path)).toEqual(['grid.smoke']);
    expect(ignoredFeatures(shipped('honey-drop'), 'particle')).toEqual([]);
  });

  it('the grid names the adhesion entries and the solid friction a scene sets, which it has no term for', () => {
    // honey-drop: honey–honey and honey–ball adhesion; the ball's friction 0.8 and the floor's 0.6.
    const f = ignoredFeatures(shipped('honey-drop'), 'grid');
    expect(f.map((x) => x.path)).toEqual(['adhesion', 'materials.ball.friction', 'materials.floor.friction']);
    expect(f[0].message).toMatch(/no adhesion on the grid: entries \[0\] honey–honey, \[1\] honey–ball are not read/);
    expect(f[1].message).toMatch(/no friction on the grid \(0\.8 asked\).*no slip/);
    // One entry is named by its index; a solid at the default friction (0.3) or a scene without
    // adhesion entries is not named; an entry for a material the scene does not put in is not either.
    expect(ignoredFeatures(shipped('jelly-block'), 'grid').map((x) => x.path)).toEqual(['adhesion[0]']);
    expect(ignoredFeatures(shipped('dam-break'), 'grid')).toEqual([]);
    const unused = parseScene({
      fps: 30,
      materials: { a: liquid(1300, 2, '#c8202a'), rock: { kind: 'solid', friction: 0.9 } },
      adhesion: [{ between: ['a', 'rock'], type: 'attract', strength: 5 }],
      bodies: [{ material: 'a', shape: { type: 'box', center: [0, 0.02, 0], size: [0.04, 0.04, 0.04] } }],
    });
    expect(ignoredFeatures(unused, 'grid')).toEqual([]);
    // The particle engine runs both.
    expect(ignoredFeatures(shipped('honey-on-spinner'), 'particle')).toEqual([]);
  });

  it('info says which engine ignores what, and where in the scene', async () => {
    const r = await cliInProcess(['info', new URL('../../scenes/smoke-plume.json', import.meta.url).pathname]);
    expect(r.stdout + r.stderr).toContain('warning: particle engine ignores grid.smoke:');
  });

  it('run and compare say it before they run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'viscid-ignored-'));
    try {
      // A two-paint scene whose second paint asks for another viscosity model: the grid names it (and its adhesion entry).
      const scene = join(dir, 'two.json');
      writeFileSync(scene, JSON.stringify({
        fps: 30, duration: 0.1,
        domain: { min: [-0.06, 0, -0.02], max: [0.06, 0.04, 0.02], boundary: 'noslip' },
        materials: { a: liquid(1300, 2, '#c8202a'), b: { ...liquid(1800, 20, '#2a4fc8'), grid: { viscosityModel: 'implicit' } } },
        adhesion: [{ between: ['a', 'b'], type: 'attract', strength: 1 }],
        bodies: [
          { material: 'a', shape: { type: 'box', center: [-0.03, 0.015, 0], size: [0.04, 0.03, 0.03] } },
          { material: 'b', shape: { type: 'box', center: [0.03, 0.015, 0], size: [0.04, 0.03, 0.03] } },
        ],
        particle: { radius: 0.005, substeps: 1, moves: 1 }, grid: { cellSize: 0.01 }, output: { resolution: 2 },
      }));
      const run = await cliInProcess(['run', scene, '--engine', 'grid', '--frames', '1', '--mesh', 'none', '--out', join(dir, 'run')]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('warning: grid engine ignores materials.b:');
      expect(run.stderr).toContain('warning: grid engine ignores adhesion[0]:');
      const cmp = await cliInProcess(['compare', scene, '--frames', '1', '--quiet', '--out', join(dir, 'cmp')]);
      expect(cmp.code).toBe(0);
      expect(cmp.stderr).toContain('warning: grid engine ignores materials.b:');
      expect(cmp.stderr).not.toContain('particle engine ignores');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
