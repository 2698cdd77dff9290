/**
 * The `viscid` command end to end, spawned as a user runs it: info on every scene, bad scenes and
 * bad flags exit 2 with every problem named, schema output parses.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, FIXTURES, ROOT } from './helpers.ts';

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

  it('exits 2 for a file that is missing or not JSON', async () => {
    const missing = await cli(['info', join(tmp, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read scene file/);
    const notJson = join(tmp, 'broken.json');
    writeFileSync(notJson, '{ "fps": 30,');
    const broken = await cli(['info', notJson]);
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
    const r = await cli(['info', scene]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bodies\[0\]\.shape\.file: cannot read .*rock\.obj: ENOENT/);
  });
});

describe('flags', () => {
  it('exits 2 on an unknown option, a bad choice and a bad number', async () => {
    const scene = join(FIXTURES, 'tiny.json');
    const unknown = await cli(['run', scene, '--frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--frobnicate'/);
    const choice = await cli(['run', scene, '--method', 'sph']);
    expect(choice.code).toBe(2);
    expect(choice.stderr).toMatch(/Allowed choices are particle, grid, both/);
    const frames = await cli(['run', scene, '--frames', '-3']);
    expect(frames.code).toBe(2);
    expect(frames.stderr).toMatch(/expected an integer ≥ 1/);
    const command = await cli(['simulate']);
    expect(command.code).toBe(2);
  });

  it('exits 0 for --help and --version', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['run', 'info', 'schema', 'bench']) expect(help.stdout).toContain(c);
    const version = await cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('viscid schema', () => {
  it('writes a JSON Schema that requires materials and rejects unknown keys', async () => {
    const out = join(tmp, 'scene.schema.json');
    const r = await cli(['schema', '--out', out]);
    expect(r.code).toBe(0);
    const schema = JSON.parse(readFileSync(out, 'utf8')) as { type: string; properties: Record<string, unknown>; additionalProperties?: unknown };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['fps', 'materials', 'bodies', 'particle', 'grid']));
    expect(schema.additionalProperties).toBe(false);
  });
});
