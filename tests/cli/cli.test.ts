/**
 * The `viscid` command end to end, spawned as a user runs it: info on every scene, bad scenes and
 * bad flags exit 2 with every problem named, schema output parses. Flag checks run `main()` in
 * process; everything that reads scenes spawns `node bin/viscid.js`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliInProcess, FIXTURES, ROOT } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sceneFiles = readdirSync(join(ROOT, 'scenes'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => join('scenes', f));

describe('viscid info', () => {
  it('summarizes every scene in scenes/', async () => {
    expect(sceneFiles.length).toBeGreaterThan(0);
    const r = await cli(['info', '--json', ...sceneFiles]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as { name: string; frames: number; estimate: { particles: number; cells: number } } | { name: string }[];
    const list = (Array.isArray(parsed) ? parsed : [parsed]) as { name: string; frames: number; estimate: { particles: number; cells: number } }[];
    expect(list).toHaveLength(sceneFiles.length);
    for (const s of list) {
      expect(s.frames).toBeGreaterThan(0);
      expect(s.estimate.particles).toBeGreaterThan(0);
      expect(s.estimate.cells).toBeGreaterThan(0);
    }
  });

  it('prints a readable summary with the estimates', async () => {
    const r = await cli(['info', join(FIXTURES, 'tiny.json')]);
    expect(r.code).toBe(0);
    // 0.08 m cube at lattice spacing 2r = 0.02 m: 4³ = 64 liquid particles.
    expect(r.stdout).toMatch(/64 liquid/);
    expect(r.stdout).toMatch(/materials \(2\)/);
    expect(r.stdout).toMatch(/30 frames at 30 fps/);
  });

  it('exits 2 and names all five mistakes of a bad scene', async () => {
    const r = await cli(['info', join(FIXTURES, 'five-mistakes.json')]);
    expect(r.code).toBe(2);
    for (const path of ['fps', 'colour', 'bodies[0].material', 'bodies[1].shape.radius', 'particle.substeps']) {
      expect(r.stderr).toContain(`  ${path}:`);
    }
    expect(r.stderr).toMatch(/5 problems/);
  });

  it('with several files, summarizes the good ones, names the bad one and exits 2', async () => {
    const r = await cliInProcess(['info', join(FIXTURES, 'tiny.json'), join(FIXTURES, 'five-mistakes.json')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^tiny \(/);
    expect(r.stderr).toMatch(/five-mistakes\.json: scene has 5 problems/);
  });

  it('exits 2 for a file that is missing or not JSON', async () => {
    const missing = await cliInProcess(['info', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read scene file/);
    const notJson = join(tmp, 'broken.json');
    writeFileSync(notJson, '{ "fps": 30,');
    const broken = await cliInProcess(['info', notJson]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
  });

  it('reports a mesh file it cannot read with its scene path', async () => {
    const scene = join(tmp, 'mesh-missing.json');
    writeFileSync(
      scene,
      JSON.stringify({
        materials: { rock: { kind: 'solid' } },
        bodies: [{ material: 'rock', shape: { type: 'mesh', file: 'rock.obj' } }],
      }),
    );
    const r = await cliInProcess(['info', scene]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bodies\[0\]\.shape\.file: cannot read .*rock\.obj: ENOENT/);
  });
});

describe('flags (in process)', () => {
  const scene = join(FIXTURES, 'tiny.json');

  it('exits 2 on an unknown option, a bad choice, a bad number and an unknown command', async () => {
    const unknown = await cliInProcess(['run', scene, '--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--frobnicate'/);
    const choice = await cliInProcess(['run', scene, '--method', 'sph']);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/Allowed choices are particle, grid, both/);
    const frames = await cliInProcess(['run', scene, '--frames', '2.5']);
    expect(frames.code).toBe(2);
    expect(frames.stderr).toMatch(/expected an integer ≥ 1/);
    const missing = await cliInProcess(['run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'scene'/);
    const command = await cliInProcess(['simulate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command 'simulate'/);
  });

  it('exits 2 when --resume names a directory without a run', async () => {
    const r = await cliInProcess(['run', scene, '--resume', tmp]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot resume: .*manifest\.json not found/);
  });

  it('exits 0 for --help and --version', async () => {
    const help = await cliInProcess(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['run', 'info', 'schema', 'bench']) expect(help.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    const version = await cliInProcess(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('viscid schema', () => {
  it('writes a JSON Schema that requires materials and rejects unknown keys', async () => {
    const out = join(tmp, 'scene.schema.json');
    const r = await cliInProcess(['schema', '--out', out]);
    expect(r.code).toBe(0);
    const schema = JSON.parse(readFileSync(out, 'utf8')) as { type: string; properties: Record<string, unknown>; additionalProperties?: unknown };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['fps', 'materials', 'bodies', 'particle', 'grid']));
    expect(schema.additionalProperties).toBe(false);
  });
});
