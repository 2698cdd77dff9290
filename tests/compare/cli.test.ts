/**
 * `viscid compare` and `viscid validate` as a user runs them (spawned, `node bin/viscid.js`); their
 * output files parse. The refusals and the list need no process of their own: `main(argv)` in this
 * process (cliInProcess), which is what the spawned command runs.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliInProcess } from '../cli/helpers.ts';
import { CSV_BASE_COLUMNS, parseCsv } from '../../src/compare/report.ts';

const dir = mkdtempSync(join(tmpdir(), 'viscid-compare-'));
const scene = new URL('./fixtures/tiny-drop.json', import.meta.url).pathname;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('viscid compare', () => {
  it('runs both engines and writes metrics.csv, report.html and SVG plots that parse', async () => {
    const out = join(dir, 'compare');
    const r = await cli(['compare', scene, '--frames', '3', '--out', out, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/metric\s+particle\s+grid/);
    expect(r.stdout).toMatch(/wall time \(ms\/frame\)/);
    const rows = parseCsv(readFileSync(join(out, 'metrics.csv'), 'utf8'));
    const header = rows[0];
    expect(header.slice(0, CSV_BASE_COLUMNS.length)).toEqual([...CSV_BASE_COLUMNS]);
    expect(header.some((h) => h.startsWith('stage_'))).toBe(true);
    expect(rows.slice(1).map((row) => row[0])).toEqual(['particle', 'particle', 'particle', 'particle', 'grid', 'grid', 'grid', 'grid']);
    const col = (name: string) => header.indexOf(name);
    for (const row of rows.slice(1)) {
      expect(row).toHaveLength(header.length);
      for (const name of ['time', 'volume', 'com_y', 'kinetic_energy', 'max_speed', 'front']) expect(Number.isFinite(Number(row[col(name)])), name).toBe(true);
    }
    // Both engines start with liquid in the same place.
    expect(Math.abs(Number(rows[1][col('com_y')]) - Number(rows[5][col('com_y')]))).toBeLessThan(0.006);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const svgs = readdirSync(out).filter((f) => f.endsWith('.svg'));
    expect(svgs.length).toBeGreaterThanOrEqual(7);
    expect((html.match(/<svg /g) ?? []).length).toBe(svgs.length);
    for (const f of svgs) expect(readFileSync(join(out, f), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
  });

  it('refuses an unknown engine with exit code 2', async () => {
    const r = await cliInProcess(['compare', scene, '--engines', 'sph', '--out', join(dir, 'bad')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown engine 'sph'/);
  });
});

describe('viscid validate', () => {
  it('runs a case, prints error against tolerance and writes results.json and plots', async () => {
    const out = join(dir, 'validate');
    const r = await cli(['validate', '--case', 'poiseuille', '--tiny', '--out', out]);
    expect(r.stdout).toMatch(/poiseuille\s+grid\s+max \|u − u_exact\| \/ u_max\s+\S+\s+≤ 0\.0500\s+(PASS|FAIL)/);
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { caseName: string; passed: boolean; checks: { value: number }[] }[];
    expect(results).toHaveLength(1);
    expect(results[0].caseName).toBe('poiseuille');
    expect(Number.isFinite(results[0].checks[0].value)).toBe(true);
    expect(r.code).toBe(results[0].passed ? 0 : 1);
    expect(readFileSync(join(out, 'poiseuille-grid.svg'), 'utf8')).toContain('<svg');
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('id="case-poiseuille"');
    expect((html.match(/<svg /g) ?? []).length).toBe(1);
    expect(html).toMatch(/analytic: plane Poiseuille/);
  });

  it('lists the cases with their sources, and refuses an unknown case with exit code 2', async () => {
    const list = await cliInProcess(['validate', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/cavity\s+grid\s+Lid-driven cavity/);
    expect(list.stdout).toMatch(/Ghia/);
    const bad = await cliInProcess(['validate', '--case', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no validation case 'nope'/);
  });
});
