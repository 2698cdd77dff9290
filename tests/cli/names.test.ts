/**
 * A scene's `name` is free text that the CLI turns into folder names (src/cli/output-name.ts) and
 * prints (src/cli/printable.ts): `run`, `compare` and `sweep` never write outside out/ whatever the
 * name, `compare --out` never overwrites another folder's files without --force, and names,
 * descriptions and error messages never reach the terminal with their escape sequences.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nameSlug } from '../../src/cli/output-name.ts';
import { printable, printableJson } from '../../src/cli/printable.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tinyText = readFileSync(join(FIXTURES, 'tiny.json'), 'utf8');
function sceneNamed(file: string, extra: Record<string, unknown>): string {
  writeFileSync(file, JSON.stringify({ ...JSON.parse(tinyText), ...extra }));
  return file;
}

describe('folder names from scene names', () => {
  it('are slugs of safe characters, never a path', () => {
    expect(nameSlug('honey-drop')).toBe('honey-drop');
    expect(nameSlug('../../../victim')).toBe('victim');
    expect(nameSlug('/etc/passwd')).toBe('etc-passwd');
    expect(nameSlug('C:\\Windows\\x')).toBe('C-Windows-x');
    expect(nameSlug('..')).toBe('untitled');
    expect(nameSlug('a\u001b[2Jb\nc')).toBe('a-2Jb-c');
    expect(nameSlug('nul')).toBe('nul-scene');
    expect(nameSlug('x'.repeat(500))).toHaveLength(80);
    expect(nameSlug('miel à 20 °C')).toBe('miel-à-20-C');
  });

  describe('in a working folder beside a victim run', () => {
    let cwd: string;
    let work: string;
    beforeEach(() => {
      cwd = process.cwd();
      work = mkdtempSync(join(tmp, 'work-'));
      // A run of someone else's, and a compare report, just outside out/.
      mkdirSync(join(work, 'victim', 'particle'), { recursive: true });
      writeFileSync(join(work, 'victim', 'manifest.json'), '{"mine":true}');
      writeFileSync(join(work, 'victim', 'particle', 'mesh-0001.ply'), 'mine');
      writeFileSync(join(work, 'victim', 'metrics.csv'), 'mine');
      mkdirSync(join(work, 'cwd'));
      process.chdir(join(work, 'cwd'));
    });
    afterEach(() => process.chdir(cwd));
    const victimUntouched = () => {
      expect(readFileSync(join(work, 'victim', 'manifest.json'), 'utf8')).toBe('{"mine":true}');
      expect(readFileSync(join(work, 'victim', 'particle', 'mesh-0001.ply'), 'utf8')).toBe('mine');
      expect(readFileSync(join(work, 'victim', 'metrics.csv'), 'utf8')).toBe('mine');
    };

    it('run --force writes into out/<slug>, not outside', async () => {
      const scene = sceneNamed(join(work, 's.json'), { name: '../../victim' });
      const r = await cliInProcess(['run', scene, '--frames', '1', '--mesh', 'none', '--force']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/the scene's name '\.\.\/\.\.\/victim' is not a plain folder name; writing to out\/victim/);
      expect(existsSync(join(work, 'cwd', 'out', 'victim', 'manifest.json'))).toBe(true);
      victimUntouched();
    });

    it('compare writes into out/compare-<slug>, and refuses a folder that is not empty without --force', async () => {
      const scene = sceneNamed(join(work, 's.json'), { name: '../../../victim' });
      const args = ['compare', scene, '--frames', '1', '--engines', 'particle', '--quiet'];
      const r = await cliInProcess(args);
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(join(work, 'cwd', 'out', 'compare-victim'))).toContain('metrics.csv');
      victimUntouched();
      const refused = await cliInProcess([...args, '--out', join(work, 'victim')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/victim is not empty \(3 entries: .*\): name a new or empty folder, or pass --force to replace compare's files/);
      victimUntouched();
      const forced = await cliInProcess([...args, '--out', join(work, 'victim'), '--force']);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stderr).toMatch(/--force: replacing 1 of compare's files in .*; leaving 2 other entries there/);
      expect(readFileSync(join(work, 'victim', 'manifest.json'), 'utf8')).toBe('{"mine":true}');
    });

    it('sweep writes into out/sweep-<slug>', async () => {
      const scene = sceneNamed(join(work, 's.json'), { name: '../../victim' });
      const r = await cliInProcess(['sweep', scene, '--set', 'fps=20,30']);
      expect(r.code, r.stderr).toBe(0);
      expect(readdirSync(join(work, 'cwd', 'out', 'sweep-victim')).sort()).toEqual(['scenes', 'sweep.json']);
      victimUntouched();
    });
  });
});

describe('scene-supplied text on the terminal', () => {
  const ESC = '\u001b';
  const hostile = { name: `${ESC}]0;pwned\u0007x`, description: `${ESC}[2J${ESC}[32m✓ all good${ESC}[0m \u202eevil` };

  it('printable escapes control characters and bidi overrides, and keeps the rest', () => {
    expect(printable(`a${ESC}[2Jb\u009bc\u202ed é`)).toBe('a\\x1b[2Jb\\x9bc\\u202ed é');
    expect(JSON.parse(printableJson(JSON.stringify('x\u009by')))).toBe('x\u009by');
    expect(printableJson(JSON.stringify('x\u009by'))).not.toMatch(/\u009b/);
  });

  it('info, info --json, run and an error never print a raw escape', async () => {
    const scene = sceneNamed(join(tmp, 'hostile.json'), {
      ...hostile,
      materials: { ...JSON.parse(tinyText).materials, [`${ESC}[31mred`]: { kind: 'solid', friction: 0.5 } },
    });
    const outputs: string[] = [];
    for (const args of [['info', scene], ['info', scene, '--json'], ['run', scene, '--frames', '1', '--mesh', 'none', '--out', join(tmp, 'hostile-run')]]) {
      const r = await cliInProcess(args);
      expect(r.code, r.stderr).toBe(0);
      outputs.push(r.stdout + r.stderr);
    }
    const bad = sceneNamed(join(tmp, 'bad.json'), { [`${ESC}[2Jkey`]: 1 });
    const refused = await cliInProcess(['info', bad]);
    expect(refused.code).toBe(2);
    outputs.push(refused.stderr);
    for (const text of outputs) expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(outputs[0]).toContain('\\x1b[2J\\x1b[32m✓ all good');
    expect(outputs[2]).toContain('\\x1b]0;pwned\\x07x');
  });
});
