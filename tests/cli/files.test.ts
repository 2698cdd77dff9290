/** CLI file helpers, in process: atomic writes, frame names, durations. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { frameFileName, framePadding, writeFileAtomic } from '../../src/cli/files.ts';
import { fmtBytes, fmtDuration } from '../../src/cli/format.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('creates missing folders, replaces an existing file and leaves no temporary file', () => {
    const file = join(tmp, 'a', 'b', 'frame.obj');
    writeFileAtomic(file, 'first');
    writeFileAtomic(file, new Uint8Array([104, 105]));
    expect(readFileSync(file, 'utf8')).toBe('hi');
    expect(readdirSync(join(tmp, 'a', 'b'))).toEqual(['frame.obj']);
  });

  it('leaves the old file whole and no temporary file when the write fails', () => {
    const file = join(tmp, 'keep.txt');
    writeFileAtomic(file, 'old');
    // A directory where the file's folder should be makes the temporary write fail.
    expect(() => writeFileAtomic(join(file, 'inside.txt'), 'x')).toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(tmp).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('frame file names', () => {
  it('pads to four digits, more when the run is longer ($F4 in Houdini)', () => {
    expect(framePadding(60)).toBe(4);
    expect(framePadding(9999)).toBe(4);
    expect(framePadding(10000)).toBe(5);
    expect(frameFileName('mesh', 7, 4, 'obj')).toBe('mesh-0007.obj');
    expect(frameFileName('points', 12345, 5, 'vtk')).toBe('points-12345.vtk');
  });
});

describe('formatting', () => {
  it('formats durations and sizes', () => {
    expect(fmtDuration(4.25)).toBe('4.3s');
    expect(fmtDuration(125)).toBe('2m05s');
    expect(fmtDuration(3 * 3600 + 61)).toBe('3h01m');
    expect(fmtDuration(NaN)).toBe('?');
    expect(fmtBytes(512)).toBe('512 B');
    expect(fmtBytes(1536)).toBe('1.5 KiB');
    expect(fmtBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});
