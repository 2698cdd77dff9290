/**
 * One word for the engine on every command: `--engine` (`-e`), with `-m/--method` kept as another
 * name for it; the help says "engine" and two names that disagree are refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, FIXTURES } from './helpers.ts';

const scene = join(FIXTURES, 'tiny.json');
const tmp = mkdtempSync(join(tmpdir(), 'viscid-engine-flag-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('--engine', () => {
  it('is in the help of every command that picks an engine, and -m/--method is not', async () => {
    for (const command of ['run', 'info', 'compare', 'sweep', 'bench', 'validate', 'animate', 'preview']) {
      const r = await cliInProcess([command, '--help']);
      expect(r.stdout, command).toMatch(/-e, --engine <(engine|name)>/);
      expect(r.stdout, command).toMatch(/alias: -m,\s+--method/);
      expect(r.stdout, command).not.toMatch(/^\s+-m, --method/m);
    }
  });

  it('runs the grid engine by either name', async () => {
    for (const flag of ['-e', '--method']) {
      const out = join(tmp, `run${flag}`);
      const r = await cliInProcess(['run', scene, flag, 'grid', '--frames', '1', '--mesh', 'none', '--points', 'none', '--out', out]);
      expect(r.code, r.stderr).toBe(0);
      const { readFileSync } = await import('node:fs');
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
      expect(Object.keys(manifest.engines)).toEqual(['grid']);
    }
  });

  it('refuses --engine and --method that disagree, and an unknown engine', async () => {
    const both = await cliInProcess(['run', scene, '--engine', 'grid', '--method', 'particle']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/disagree/);
    const bad = await cliInProcess(['info', scene, '--engine', 'sph']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Allowed choices are particle, grid/);
  });

  it("info --engine prints only that engine's lines", async () => {
    const grid = await cliInProcess(['info', scene, '--engine', 'grid']);
    expect(grid.code).toBe(0);
    expect(grid.stdout).toMatch(/grid engine/);
    expect(grid.stdout).not.toMatch(/particle engine:|a frame: particle/);
    const particle = await cliInProcess(['info', scene, '-m', 'particle']);
    expect(particle.stdout).toMatch(/particle engine/);
    expect(particle.stdout).not.toMatch(/grid engine/);
  });
});
