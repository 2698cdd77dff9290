/**
 * A sweep is input twice over: its --set options, and a sweep folder someone else made. Neither may
 * reach Object.prototype, write or clear outside the sweep folder, widen the folders a scene reads,
 * or make more combinations than the cap (counted before anything is written); and a stopped
 * `sweep --jobs` stops its runs with it.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, FIXTURES, startCli } from '../cli/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-sweep-hostile-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = join(FIXTURES, 'tiny.json');
const CUBE_OBJ = 'v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('--set', () => {
  it("refuses __proto__, constructor and prototype with a message, and leaves Object.prototype alone", async () => {
    for (const set of ['__proto__.polluted=1', 'materials.__proto__={"x":1}', 'constructor.prototype.polluted=1', 'materials.syrup.toString=1']) {
      const out = join(tmp, 'proto');
      const r = await cliInProcess(['sweep', tiny, '--set', set, '--out', out]);
      expect(r.code, set).toBe(2);
      expect(r.stderr, set).toMatch(set.includes('toString') ? /materials\.syrup\.toString: must|unknown|Unrecognized|not allowed|toString/ : /is not a scene key/);
      expect(existsSync(join(out, 'sweep.json'))).toBe(false);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('x');
  });

  it('counts the combinations first and refuses past the cap, writing nothing; --max-runs raises it within its ceiling', async () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => 1 + i / 1000).join(',');
    const out = join(tmp, 'huge');
    // Counted, not listed: milliseconds of this process's CPU (not wall time, which a loaded
    // machine stretches); listing a million combinations would take far more than the bound.
    const cpu0 = process.cpuUsage();
    let r = await cliInProcess(['sweep', tiny, '--set', `fps=${list(100)}`, '--set', `duration=${list(100)}`, '--set', `materials.syrup.density=${list(100)}`, '--out', out]);
    expect(r.code).toBe(2);
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(10_000);
    expect(r.stderr).toMatch(/the sweep has 1,000,000 combinations \(100 × fps, 100 × duration, 100 × materials\.syrup\.density\); the limit is 1,000 \(--max-runs raises it, up to 20,000\)/);
    expect(existsSync(out)).toBe(false);
    r = await cliInProcess(['sweep', tiny, '--set', `fps=${list(3)}`, '--max-runs', '2', '--out', out]);
    expect(r.stderr).toMatch(/3 combinations .* the limit is 2/);
    r = await cliInProcess(['sweep', tiny, '--set', `fps=${list(3)}`, '--max-runs', '20001', '--out', out]);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a sweep folder', () => {
  it("whose sweep.json sends a run outside it is refused before anything is cleared or written", async () => {
    const dir = join(tmp, 'crafted');
    expect((await cliInProcess(['sweep', tiny, '--set', 'fps=20,30', '--out', dir, '--frames', '1'])).code).toBe(0);
    const victim = join(tmp, 'victim');
    mkdirSync(join(victim, 'particle'), { recursive: true });
    writeFileSync(join(victim, 'particle', 'mesh-0001.ply'), 'mine');
    const sweep = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'));
    for (const [field, value] of [['out', '../victim'], ['out', '/tmp/x'], ['scene', '../../etc/passwd'], ['index', -1]] as const) {
      const crafted = structuredClone(sweep);
      crafted.runs[0][field] = value;
      writeFileSync(join(dir, 'sweep.json'), JSON.stringify(crafted));
      const r = await cliInProcess(['sweep', dir, '--index', '0']);
      expect(r.code, `${field}=${value}`).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`runs\\[0\\]\\.${field} is not|runs\\[0\\]\\.index`));
    }
    expect(readFileSync(join(victim, 'particle', 'mesh-0001.ply'), 'utf8')).toBe('mine');
    expect(existsSync(join(tmp, 'runs'))).toBe(false);
  });

  it("reads its scenes' meshes from copies inside it; its base cannot widen what a scene may read", async () => {
    const src = join(tmp, 'with-mesh');
    mkdirSync(src);
    writeFileSync(join(src, 'cube.obj'), CUBE_OBJ);
    const scene = JSON.parse(readFileSync(tiny, 'utf8'));
    scene.bodies.push({ material: 'floor', shape: { type: 'mesh', file: 'cube.obj', scale: 0.01, translate: [0.06, 0.01, 0.06] } });
    writeFileSync(join(src, 'scene.json'), JSON.stringify(scene));
    const dir = join(tmp, 'mesh-sweep');
    expect((await cliInProcess(['sweep', join(src, 'scene.json'), '--set', 'fps=20,30', '--out', dir, '--frames', '1'])).code).toBe(0);
    expect(readdirSync(join(dir, 'scenes', 'meshes'))).toEqual(['00-cube.obj']);
    expect(JSON.parse(readFileSync(join(dir, 'scenes', '0000.json'), 'utf8')).bodies[2].shape.file).toBe('meshes/00-cube.obj');
    expect((await cliInProcess(['sweep', dir, '--index', '0'])).code).toBe(0);
    // A scene edited to read a mesh outside the sweep, with a base naming that mesh's folder: refused.
    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.obj'), CUBE_OBJ);
    const s1 = JSON.parse(readFileSync(join(dir, 'scenes', '0001.json'), 'utf8'));
    s1.bodies[2].shape.file = '../../outside/secret.obj';
    writeFileSync(join(dir, 'scenes', '0001.json'), JSON.stringify(s1));
    const sweep = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'));
    sweep.base = '../outside/secret.obj';
    writeFileSync(join(dir, 'sweep.json'), JSON.stringify(sweep));
    const r = await cliInProcess(['sweep', dir, '--index', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/outside the scene's folder/);
  });
});

describe('sweep --jobs', () => {
  it('passes SIGTERM on to its runs, which checkpoint and end with it', async () => {
    const dir = join(tmp, 'jobs');
    expect((await cliInProcess(['sweep', tiny, '--set', 'fps=30,31', '--out', dir, '--frames', '3000', '--mesh', 'none'])).code).toBe(0);
    const { child, done } = startCli(['sweep', dir, '--jobs', '2']);
    const runs = ['0000', '0001'].map((id) => join(dir, 'runs', id));
    const framesOf = (run: string) => {
      try {
        return (JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as { engines: { particle?: { frames: unknown[] } } }).engines.particle?.frames.length ?? 0;
      } catch {
        return 0;
      }
    };
    const t0 = Date.now();
    while (!runs.every((run) => framesOf(run) >= 1)) {
      if (Date.now() - t0 > 600_000) throw new Error('the runs did not start');
      await sleep(100);
    }
    const pids = runs.map((run) => (JSON.parse(readFileSync(join(run, '.viscid-run.lock'), 'utf8')) as { pid: number }).pid);
    child.kill('SIGTERM');
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toMatch(/SIGTERM: stopping 2 runs in flight/);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    for (const run of runs) {
      const m = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as { status: string };
      expect(m.status).toBe('interrupted');
      expect(existsSync(join(run, '.viscid-run.lock'))).toBe(false);
    }
  });
});
