/**
 * `viscid sweep`: a 2 × 2 sweep of a tiny scene written once, run by index (as a job array runs
 * it: --index, SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX) and by --jobs 2, gives the same files;
 * the report tabulates every run; --set paths and values the scene schema refuses are bad input
 * (exit 2) that names the place, and nothing is left to run.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexFromEnvironment } from '../../src/cli/sweep.ts';
import { applySet, combinations, parsePath, parseSet, type SweepFile } from '../../src/cli/sweep-plan.ts';
import { cli, cliInProcess, FIXTURES } from '../cli/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-sweep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
const SETS = ['--set', 'materials.syrup.viscosity.value=1,20', '--set', 'particle.substeps=1,2'];

describe('sweep plans', () => {
  it('parse paths and values, and combine them with the first varying slowest', () => {
    expect(parsePath('adhesion[1].strength')).toEqual(['adhesion', 1, 'strength']);
    expect(() => parsePath('a..b')).toThrow(/cannot read the path/);
    const p = parseSet('gravity=[0,-9.81,0],[0,-1.62,0]');
    expect(p.values).toEqual([[0, -9.81, 0], [0, -1.62, 0]]);
    expect(parseSet('output.mesh=ply,"obj"').values).toEqual(['ply', 'obj']);
    expect(() => parseSet('a=1,1')).toThrow(/given twice/);
    expect(() => parseSet('a=')).toThrow(/empty value/);
    expect(combinations([parseSet('a=1,2'), parseSet('b=x,y,z')])).toEqual([[1, 'x'], [1, 'y'], [1, 'z'], [2, 'x'], [2, 'y'], [2, 'z']]);
    const base = { adhesion: [{ strength: 1 }, { strength: 2 }] };
    expect(applySet(base, parseSet('adhesion[1].strength=5'), 5)).toEqual({ adhesion: [{ strength: 1 }, { strength: 5 }] });
    expect(base.adhesion[1].strength).toBe(2); // a copy
    expect(() => applySet(base, parseSet('adhesion[2].strength=5'), 5)).toThrow(/adhesion\[2\] is not in the base scene \(adhesion has 2 entries\)/);
  });

  it('take the index from --index, then SLURM_ARRAY_TASK_ID, then JOB_COMPLETION_INDEX', () => {
    expect(indexFromEnvironment({})).toBeUndefined();
    expect(indexFromEnvironment({ SLURM_ARRAY_TASK_ID: '3', JOB_COMPLETION_INDEX: '1' })).toBe(3);
    expect(indexFromEnvironment({ SLURM_ARRAY_TASK_ID: '', JOB_COMPLETION_INDEX: '1' })).toBe(1);
    expect(() => indexFromEnvironment({ JOB_COMPLETION_INDEX: 'x' })).toThrow(/not an index/);
  });

  it('refuse paths and values the scene does not have or the schema does not allow (exit 2), writing nothing', async () => {
    const out = join(tmp, 'bad');
    let r = await cliInProcess(['sweep', tiny, '--set', 'materials.sirup.viscosity.value=1', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/materials\.sirup is not in the base scene \(materials has keys: syrup, floor\)/);
    r = await cliInProcess(['sweep', tiny, '--set', 'materials.syrup.viscosity.value=2,-1', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/combination 1 \(materials\.syrup\.viscosity\.value=-1\).*\n.*materials\.syrup\.viscosity\.value: must be ≥ 0 \(got -1\)/);
    r = await cliInProcess(['sweep', tiny, '--set', 'particle.substepz=1,2', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/particle/);
    expect(existsSync(join(out, 'sweep.json'))).toBe(false);
    expect(existsSync(join(out, 'scenes'))).toBe(false);
    r = await cliInProcess(['sweep', join(tmp, 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a sweep directory/);
  });
});

describe('viscid sweep', () => {
  const byIndex = join(tmp, 'by-index'), byJobs = join(tmp, 'by-jobs');

  it('writes one scene per combination and a sweep.json', async () => {
    const r = await cliInProcess(['sweep', tiny, ...SETS, '--frames', '2', '--points', 'ply', '--out', byIndex]);
    expect(r.code, r.stderr).toBe(0);
    const sweep = JSON.parse(readFileSync(join(byIndex, 'sweep.json'), 'utf8')) as SweepFile;
    expect(sweep.parameters).toEqual([{ path: 'materials.syrup.viscosity.value', values: [1, 20] }, { path: 'particle.substeps', values: [1, 2] }]);
    expect(sweep.runs.map((x) => x.values)).toEqual([[1, 1], [1, 2], [20, 1], [20, 2]]);
    const scene3 = JSON.parse(readFileSync(join(byIndex, sweep.runs[3].scene), 'utf8'));
    expect(scene3.materials.syrup.viscosity.value).toBe(20);
    expect(scene3.particle.substeps).toBe(2);
    expect(scene3.name).toBe('tiny-0003');
    cpSync(byIndex, byJobs, { recursive: true });
  });

  it('runs by index as a job array does, and by --jobs 2, with the same files', async () => {
    // Index 0 as a job array's task starts it (a process of its own), index 1 in this process.
    const runs = await Promise.all([
      cli(['sweep', byIndex, '--index', '0']),
      cliInProcess(['sweep', byIndex, '--index', '1']),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    // The job runners' variables, each in this process's environment (put back after): Slurm's
    // array index, then Kubernetes'. (Slurm's was read in a child of its own until branch suite67:
    // the same indexFromEnvironment in a node start-up more; index 0 above is the spawned one.)
    for (const [name, index] of [['SLURM_ARRAY_TASK_ID', '2'], ['JOB_COMPLETION_INDEX', '3']] as const) {
      const saved = process.env[name];
      process.env[name] = index;
      try {
        const r = await cliInProcess(['sweep', byIndex]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(new RegExp(`^sweep ${index}/3: `, 'm'));
      } finally {
        if (saved === undefined) delete process.env[name];
        else process.env[name] = saved;
      }
    }
    // --jobs 2 in this process (its runs are processes of their own either way; index 0 above is
    // the sweep started as a process of its own): a node start-up less.
    const jobs = await cliInProcess(['sweep', byJobs, '--jobs', '2']);
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(jobs.stderr).toMatch(/4 of 4 to run, 2 at a time/);
    for (const id of ['0000', '0001', '0002', '0003']) {
      const files = readdirSync(join(byIndex, 'runs', id, 'particle')).filter((f) => f.endsWith('.ply')).sort();
      expect(files).toEqual(['mesh-0001.ply', 'mesh-0002.ply', 'points-0001.ply', 'points-0002.ply']);
      for (const f of files) {
        expect(readFileSync(join(byJobs, 'runs', id, 'particle', f)).equals(readFileSync(join(byIndex, 'runs', id, 'particle', f))), `${id}/${f}`).toBe(true);
      }
    }
    // Different settings give different liquids (the sweep really varied them).
    const points = (id: string) => readFileSync(join(byIndex, 'runs', id, 'particle', 'points-0002.ply'));
    expect(points('0000').equals(points('0003'))).toBe(false);
    // Run again: everything is complete, nothing runs.
    const again = await cliInProcess(['sweep', byJobs, '--jobs', '2']);
    expect(again.stderr).toMatch(/0 of 4 to run/);
  });

  it('reports the metrics of every run over the swept values', async () => {
    const r = await cliInProcess(['sweep', 'report', byIndex, '--metric', 'spread', 'maxSpeed']);
    expect(r.code, r.stderr).toBe(0);
    const csv = readFileSync(join(byIndex, 'report', 'sweep.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('index,materials.syrup.viscosity.value,particle.substeps,engine,status,frames,spread,maxSpeed');
    expect(csv).toHaveLength(5);
    for (const line of csv.slice(1)) {
      const cells = line.split(',');
      expect(cells[4]).toBe('complete');
      expect(Number(cells[6])).toBeGreaterThan(0.05); // the 8 cm cube, a little spread
      expect(Number(cells[7])).toBeGreaterThan(0);
    }
    expect(readFileSync(join(byIndex, 'report', 'spread.svg'), 'utf8')).toMatch(/^<svg/);
    expect(readFileSync(join(byIndex, 'report', 'report.html'), 'utf8')).toContain('particle.substeps=1');
    const bad = await cliInProcess(['sweep', 'report', byIndex, '--metric', 'colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown metric 'colour'; metrics: volume, height, spread, maxSpeed, msPerFrame/);
  });
});
