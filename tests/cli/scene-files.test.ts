/**
 * Files a scene names stay inside the scene's folder (src/cli/load-scene.ts) unless --allow-paths
 * names another root; they must be regular files under the size cap, read with a bounded reader;
 * no error quotes what a file holds. The scene file itself is read the same way.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SECRET = 'root:x:0:0:hunter2:/root:/bin/bash\n';
const CUBE_OBJ = 'v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\nv -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n';

/** A scene in `dir` whose one solid body is the mesh `file`. */
function meshScene(dir: string, file: string, name = 'scene.json'): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      materials: { rock: { kind: 'solid' } },
      bodies: [{ material: 'rock', shape: { type: 'mesh', file, scale: 0.1 } }],
    }),
  );
  return path;
}

async function refused(args: string[], path: RegExp): Promise<string> {
  const r = await cliInProcess(args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(path);
  expect(r.stderr).not.toMatch(/hunter2|root:x/);
  return r.stderr;
}

describe('files a scene names', () => {
  const secrets = join(tmp, 'secrets');
  mkdirSync(secrets);
  writeFileSync(join(secrets, 'passwd'), SECRET);
  const scenes = join(tmp, 'scenes');

  it('outside the scene folder, by .. or an absolute path, are refused unread, at their path', async () => {
    const up = meshScene(join(scenes, 'up'), '../../secrets/passwd');
    const err = await refused(['info', up], /bodies\[0\]\.shape\.file: .*secrets\/passwd is outside the scene's folder .*scenes\/up; files a scene names must lie in its folder or below it \(or pass --allow-paths <folder> to allow another\)/);
    expect(err).toMatch(/\(got "\.\.\/\.\.\/secrets\/passwd"\)/);
    const abs = meshScene(join(scenes, 'abs'), join(secrets, 'passwd'));
    await refused(['info', abs], /bodies\[0\]\.shape\.file: .* is outside the scene's folder/);
    await refused(['run', abs, '--out', join(tmp, 'never')], /outside the scene's folder/);
  });

  it('through a symbolic link that leads outside are refused, naming where it leads', async () => {
    const dir = join(scenes, 'link');
    const scene = meshScene(dir, 'rock.obj');
    symlinkSync(join(secrets, 'passwd'), join(dir, 'rock.obj'));
    await refused(['info', scene], /rock\.obj \(.*secrets\/passwd\) is outside the scene's folder/);
  });

  it('under a root named by --allow-paths are read; in a subfolder they need none', async () => {
    const shared = join(tmp, 'shared');
    mkdirSync(shared);
    writeFileSync(join(shared, 'cube.obj'), CUBE_OBJ);
    const scene = meshScene(join(scenes, 'allowed'), '../../shared/cube.obj');
    await refused(['info', scene], /outside the scene's folder/);
    const r = await cliInProcess(['info', scene, '--allow-paths', shared]);
    expect(r.code, r.stderr).toBe(0);
    // compare and bench load scenes the same way, with the same flag.
    await refused(['compare', scene, '--frames', '1', '--out', join(tmp, 'cmp')], /outside the scene's folder/);
    const cmp = await cliInProcess(['compare', scene, '--frames', '1', '--engines', 'particle', '--out', join(tmp, 'cmp'), '--quiet', '--allow-paths', shared]);
    expect(cmp.code, cmp.stderr).toBe(0);
    await refused(['bench', '--scene', scene, '--frames', '1', '--warmup', '0', '--out', join(tmp, 'b.json'), '--no-markdown'], /outside the scene's folder/);
    const sub = join(scenes, 'sub');
    mkdirSync(join(sub, 'meshes'), { recursive: true });
    writeFileSync(join(sub, 'meshes', 'cube.obj'), CUBE_OBJ);
    expect((await cliInProcess(['info', meshScene(sub, 'meshes/cube.obj')])).code).toBe(0);
    await refused(['info', scene, '--allow-paths', join(tmp, 'nope')], /--allow-paths .*nope: ENOENT/);
  });

  it('that are not regular files are refused without reading: a device, a FIFO, a folder', async () => {
    const dir = join(scenes, 'special');
    const zero = meshScene(dir, '/dev/zero', 'zero.json');
    await refused(['info', zero, '--allow-paths', '/dev'], /bodies\[0\]\.shape\.file: cannot read \/dev\/zero: it is a device, not a regular file/);
    execFileSync('mkfifo', [join(dir, 'pipe.obj')]);
    await refused(['info', meshScene(dir, 'pipe.obj', 'fifo.json')], /cannot read .*pipe\.obj: it is a FIFO \(named pipe\), not a regular file/);
    mkdirSync(join(dir, 'folder.obj'));
    await refused(['info', meshScene(dir, 'folder.obj', 'folder.json')], /cannot read .*folder\.obj: it is a directory, not a regular file/);
  });

  it('over the size cap are refused before any of them is read', async () => {
    const dir = join(scenes, 'big');
    const scene = meshScene(dir, 'huge.obj');
    closeSync(openSync(join(dir, 'huge.obj'), 'w'));
    truncateSync(join(dir, 'huge.obj'), 65 * 1024 * 1024); // sparse: no time to write
    await refused(['info', scene], /cannot read .*huge\.obj: it is 68,157,440 bytes, the limit is 67,108,864/);
  });

  it("of a sweep's base scene are read by its combinations, whose scenes lie in the sweep's folder", async () => {
    const dir = join(scenes, 'swept');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cube.obj'), CUBE_OBJ);
    const tiny = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));
    tiny.bodies.push({ material: 'floor', shape: { type: 'mesh', file: 'cube.obj', scale: 0.01, translate: [0.06, 0.01, 0.06] } });
    writeFileSync(join(dir, 'scene.json'), JSON.stringify(tiny));
    const out = join(tmp, 'sweep');
    const r = await cliInProcess(['sweep', join(dir, 'scene.json'), '--set', 'fps=30,40', '--out', out, '--frames', '1', '--mesh', 'none', '--index', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'runs', '0001', 'manifest.json'), 'utf8')).engines.particle.status).toBe('complete');
  });

  it('that are not OBJ are refused without quoting them', async () => {
    const dir = join(scenes, 'notobj');
    const scene = meshScene(dir, 'rock.obj');
    writeFileSync(join(dir, 'rock.obj'), SECRET);
    await refused(['info', scene], /bodies\[0\]\.shape\.file: rock\.obj:1: not an OBJ statement/);
  });
});

describe('the scene file', () => {
  it('over the cap (a 50 MB scene) is refused by info and run, unread', async () => {
    const big = join(tmp, 'big.json');
    closeSync(openSync(big, 'w'));
    truncateSync(big, 50 * 1024 * 1024);
    await refused(['info', big], /cannot read scene file .*big\.json: it is 52,428,800 bytes, the limit is 8,388,608/);
    await refused(['run', big, '--out', join(tmp, 'never')], /it is 52,428,800 bytes/);
  });

  it('that is a device, a FIFO or not JSON is refused without quoting it', async () => {
    await refused(['info', '/dev/zero'], /cannot read scene file \/dev\/zero: it is a device/);
    const fifo = join(tmp, 'scene-fifo.json');
    execFileSync('mkfifo', [fifo]);
    await refused(['run', fifo], /it is a FIFO/);
    const secret = join(tmp, 'passwd.json');
    writeFileSync(secret, SECRET);
    await refused(['info', secret], /passwd\.json is not valid JSON: unexpected character \(line 1, column 1\)/);
  });
});
