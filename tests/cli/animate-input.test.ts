/**
 * `viscid animate` reads PLY frames a run folder holds, as input: a face index past the vertices,
 * a vertex count past the file, a header it cannot read are refused without quoting the file, and
 * `--out` naming a folder is refused before a temporary file is written.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPLY } from '../../src/io/ply-read.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-animate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function triangle(index: number): Uint8Array {
  const header = 'ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n';
  const body = new Uint8Array(36 + 1 + 12);
  const v = new DataView(body.buffer);
  for (let i = 0; i < 9; i++) v.setFloat32(4 * i, i, true);
  body[36] = 3;
  v.setUint32(37, 0, true);
  v.setUint32(41, 1, true);
  v.setUint32(45, index, true);
  return new Uint8Array([...new TextEncoder().encode(header), ...body]);
}

describe('PLY frames as input', () => {
  it('refuses a face index past the vertices, a vertex count past the file and a bad header, quoting nothing', () => {
    expect(fromPLY(triangle(2)).indices).toEqual(new Uint32Array([0, 1, 2]));
    expect(() => fromPLY(triangle(4e9))).toThrow(/face 0 refers to vertex 4000000000; the file has 3/);
    const text = new TextDecoder().decode(triangle(2));
    expect(() => fromPLY(new TextEncoder().encode(text.replace('element vertex 3', 'element vertex 999999999')))).toThrow(/999999999 vertices do not fit in the file/);
    const secret = text.replace('format binary_little_endian 1.0', 'format SECRET-hunter2');
    let message = '';
    try {
      fromPLY(new TextEncoder().encode(secret));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/line 2 names another format/);
    expect(message).not.toMatch(/hunter2/);
  });

  it('animate --out naming a folder is refused and leaves no temporary file', async () => {
    const dir = join(tmp, 'run');
    expect((await cliInProcess(['run', join(FIXTURES, 'tiny.json'), '--frames', '1', '--mesh', 'ply', '--out', dir])).code).toBe(0);
    const folder = join(tmp, 'a-folder');
    mkdirSync(folder);
    const r = await cliInProcess(['animate', dir, '--out', folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a folder; name the GLB file/);
    expect(readdirSync(tmp).filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
  });
});
