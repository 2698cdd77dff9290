/**
 * The liquid-volume warnings: `viscid run` and `viscid compare` say once when the grid engine's
 * liquid is more than 5 % off what was put in (Metrics.volumeChange), and once when none is left.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { volumeWarner } from '../../src/cli/volume-warning.ts';
import { cli } from '../cli/helpers.ts';

describe('volumeWarner', () => {
  it('says drift beyond 5 % and liquid gone once each, and nothing for an engine without an account', () => {
    const warn = volumeWarner('grid');
    expect(warn({ volumeChange: -0.049, liquidGone: false }, 0.1, 3)).toBeUndefined();
    expect(warn({ volumeChange: 0.051, liquidGone: false }, 0.2, 6)).toBe('warning: grid: the liquid volume is 5.1 % off what was put in (sources and sinks counted) at t = 0.200 s (frame 6)');
    expect(warn({ volumeChange: -0.3, liquidGone: false }, 0.3, 9)).toBeUndefined();
    expect(warn({ volumeChange: -1, liquidGone: true }, 0.4, 12)).toBe('warning: grid: no liquid is left at t = 0.400 s (frame 12)');
    expect(warn({ volumeChange: -1, liquidGone: true }, 0.5, 15)).toBeUndefined();
    const particle = volumeWarner('particle');
    expect(particle({}, 0.1, 3)).toBeUndefined();
    expect(particle({ liquidGone: false }, 0.1, 3)).toBeUndefined();
  });
});

// A water sheet about a cell thick on the plain level set without volume correction: the level set
// cannot hold it and it is gone within two frames (about −30 % after the first).
const dir = mkdtempSync(join(tmpdir(), 'viscid-volume-warning-'));
const sheet = join(dir, 'sheet.json');
writeFileSync(sheet, JSON.stringify({
  name: 'sheet',
  fps: 30,
  duration: 0.2,
  domain: { min: [0, 0, 0], max: [0.1, 0.1, 0.1], boundary: 'noslip' },
  materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-3, unit: 'm2/s' } } },
  bodies: [{ material: 'water', shape: { type: 'box', center: [0.05, 0.05, 0.05], size: [0.06, 0.014, 0.06] } }],
  grid: { cellSize: 0.01, tracking: 'levelset', volumeCorrection: false },
}));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (text: string, part: string) => text.split(part).length - 1;

describe('viscid run and compare warn about the liquid', () => {
  it('viscid run: drift and liquid gone, once each', async () => {
    const r = await cli(['run', sheet, '--method', 'grid', '--frames', '4', '--out', join(dir, 'run'), '--mesh', 'none', '--points', 'none']);
    expect(r.code, r.stderr).toBe(0);
    // Warnings go with the progress lines (stderr, as every other line viscid run prints).
    const said = r.stdout + r.stderr;
    expect(count(said, 'warning: grid: the liquid volume is -'), said).toBe(1);
    expect(count(said, 'warning: grid: no liquid is left at t = ')).toBe(1);
  });

  it('viscid compare: the grid engine warned about once each, quiet or not', async () => {
    for (const quiet of [false, true]) {
      const r = await cli(['compare', sheet, '--engines', 'grid', '--frames', '4', '--out', join(dir, `compare-${quiet}`), ...(quiet ? ['--quiet'] : [])]);
      expect(r.code, r.stderr).toBe(0);
      expect(count(r.stderr, 'warning: grid: the liquid volume is -'), r.stderr).toBe(1);
      expect(count(r.stderr, 'warning: grid: no liquid is left at t = ')).toBe(1);
    }
  });
});
