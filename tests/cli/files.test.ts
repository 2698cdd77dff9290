/** CLI file helpers, in process: bounded reads, atomic writes, frame names, durations; files viscid reads back from a run folder. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { animateRun } from '../../src/cli/animate.ts';
import { frameFileName, framePadding, readBoundedFile, readJsonFile, writeFileAtomic } from '../../src/cli/files.ts';
import { readManifest } from '../../src/cli/manifest.ts';
import { readSweep } from '../../src/cli/sweep-plan.ts';
import { fmtBytes, fmtDuration } from '../../src/cli/format.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SECRET = 'root:x:0:0:hunter2:/root:/bin/bash\n';

describe('readBoundedFile', () => {
  it('reads a file up to the cap and refuses one byte more, before reading it', () => {
    const file = join(tmp, 'cap.bin');
    writeFileSync(file, Buffer.alloc(100, 7));
    expect(readBoundedFile(file, 100).length).toBe(100);
    expect(() => readBoundedFile(file, 99)).toThrow(/cap\.bin: it is 100 bytes, the limit is 99$/);
  });

  // /proc files say they are 0 bytes long: only a reader that counts what it reads stops at the cap.
  const proc = existsSync('/proc/self/maps');
  it.skipIf(!proc)(`stops at the cap where the size stat gives is wrong${proc ? '' : ' — skipped: no /proc/self/maps (Linux has it; the test needs a file whose size stat says 0)'}`, () => {
    expect(readBoundedFile('/proc/self/maps', 1 << 24).length).toBeGreaterThan(64);
    expect(() => readBoundedFile('/proc/self/maps', 64)).toThrow(/maps: it is over 64 bytes, the limit is 64$/);
  });

  it('names a missing file and what a special one is, never reading it', () => {
    expect(() => readBoundedFile(join(tmp, 'absent'), 10)).toThrow(/cannot read .*absent: ENOENT$/);
    expect(() => readBoundedFile('/dev/zero', 10)).toThrow(/cannot read \/dev\/zero: it is a device, not a regular file/);
    expect(() => readBoundedFile(tmp, 10)).toThrow(/it is a directory/);
  });
});

describe('JSON a run folder holds', () => {
  it('in error says where, never what it holds: readJsonFile, resume, sweep, animate', async () => {
    const dir = join(tmp, 'hostile');
    mkdirSync(join(dir, 'particle'), { recursive: true });
    writeFileSync(join(dir, 'manifest.json'), SECRET);
    writeFileSync(join(dir, 'sweep.json'), `{\n  "viscid": ${SECRET}`);
    const messages: string[] = [];
    for (const f of [() => readJsonFile(join(dir, 'manifest.json'), 1000), () => readManifest(dir), () => readSweep(dir), () => animateRun(dir)]) {
      try {
        f();
        messages.push('no error');
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    expect(messages[0]).toMatch(/manifest\.json is not valid JSON: unexpected character \(line 1, column 1\)$/);
    expect(messages[1]).toMatch(/^cannot resume: .*manifest\.json is not valid JSON: unexpected character \(line 1, column 1\)$/);
    expect(messages[2]).toMatch(/sweep\.json is not valid JSON: unexpected character \(line 2, column 13\)$/);
    expect(messages[3]).toMatch(/^animate: .*manifest\.json is not valid JSON/);
    for (const m of messages) expect(m).not.toMatch(/hunter2|root:x/);
  });

  it("animate reads only the run's own frame files, whatever the manifest names", () => {
    const dir = join(tmp, 'elsewhere');
    mkdirSync(join(dir, 'particle'), { recursive: true });
    const frame = (file: string) => ({ frame: 1, time: 0.1, files: [file] });
    const manifest = (engine: string, file: string) => ({ engines: { [engine]: { status: 'complete', frames: [frame(file)] } } });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest('particle', 'particle/../../secret/mesh-0001.ply')));
    expect(() => animateRun(dir)).toThrow(/the particle run in .* wrote no surface meshes/);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest('..', '../mesh-0001.ply')));
    expect(() => animateRun(dir)).toThrow(/has no particle or grid run \(engines: \.\.\)/);
  });
});

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
