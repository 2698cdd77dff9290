/** `viscid bench` on a tiny scene: results JSON and the regenerated Markdown table. */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchFile } from '../../src/cli/bench.ts';
import { benchScenes } from '../../src/cli/bench-scenes.ts';
import { cli, cliInProcess, FIXTURES, ROOT } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('viscid bench', () => {
  it('every benchmark entry names a scene file that exists', () => {
    expect(benchScenes.length).toBeGreaterThan(0);
    for (const b of benchScenes) {
      expect(existsSync(join(ROOT, b.scene)), b.scene).toBe(true);
      expect(b.frames).toBeGreaterThan(0);
      expect(b.warmup).toBeGreaterThanOrEqual(0);
    }
  });

  it('measures a scene, writes the results and regenerates only the marked table', async () => {
    const out = join(tmp, 'results.json');
    const md = join(tmp, 'BENCH.md');
    writeFileSync(md, '# title\n\n<!-- bench:start -->\nold table\n<!-- bench:end -->\n\nfooter\n');
    const r = await cli(['bench', '--scene', join(FIXTURES, 'tiny.json'), 'particle', '--frames', '2', '--warmup', '1', '--out', out, '--markdown', md]);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8')) as BenchFile;
    expect(file.results).toHaveLength(1);
    const res = file.results[0];
    expect(res).toMatchObject({ engine: 'particle', name: 'tiny', frames: 2, warmup: 1 });
    expect(res.msPerFrame.min).toBeGreaterThan(0);
    expect(res.msPerFrame.min).toBeLessThanOrEqual(res.msPerFrame.mean);
    expect(res.msPerFrame.mean).toBeLessThanOrEqual(res.msPerFrame.max);
    expect(res.points).toBeGreaterThan(0);
    // (points + object points) × substeps ÷ seconds per frame (to 3 decimals).
    expect(res.objectPoints).toBeGreaterThan(0); // the tiny scene has a floor
    expect(res.pointSubstepsPerSecond).toBeCloseTo(((res.points + res.objectPoints) * res.substepsPerFrame) / (res.msPerFrame.mean / 1000), 3);
    expect(Object.keys(res.stages).length).toBeGreaterThan(0);
    const text = readFileSync(md, 'utf8');
    expect(text).not.toContain('old table');
    expect(text).toMatch(/^# title\n\n<!-- bench:start -->\n/);
    expect(text).toMatch(/\| tiny \| particle \| /);
    expect(text).toMatch(/<!-- bench:end -->\n\nfooter\n$/);
  });

  it('exits 2 when the filter matches no benchmark', async () => {
    const r = await cliInProcess(['bench', 'no-such-scene', '--no-markdown', '--out', join(tmp, 'x.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no benchmark matches no-such-scene/);
  });
});
