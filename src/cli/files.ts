/**
 * File helpers of the CLI: bounded reads of files a user names, atomic writes, frame file names,
 * generated blocks in Markdown files.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { jsonSyntaxMessage } from '../scene/json-syntax.ts';

/** Why a file was not read: missing, not a regular file, too large. The message names the file, never its contents. */
export class FileRefusal extends Error {
  override name = 'FileRefusal';
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Reads a regular file of at most `maxBytes`: opened without blocking (a FIFO would wait for a
 * writer), checked with fstat on the open descriptor (a directory, FIFO or device is refused, and
 * so is a file over the cap before any of it is read), then read in chunks that stop past the cap
 * (a file that grows meanwhile is refused too). `label` names the file in errors.
 */
export function readBoundedFile(path: string, maxBytes: number, label = path): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new FileRefusal(`cannot read ${label}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileRefusal(`cannot read ${label}: it is ${kindOf(st)}, not a regular file`);
    const tooLarge = (size: string) => new FileRefusal(`cannot read ${label}: it is ${size} bytes, the limit is ${maxBytes.toLocaleString('en-US')}`);
    if (st.size > maxBytes) throw tooLarge(st.size.toLocaleString('en-US'));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(`over ${maxBytes.toLocaleString('en-US')}`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a JSON file with readBoundedFile and parses it. A syntax error says where (line and
 * column), never what the file holds (V8's own message quotes it). Throws FileRefusal.
 */
export function readJsonFile(path: string, maxBytes: number, label = path): unknown {
  const text = readBoundedFile(path, maxBytes, label).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new FileRefusal(`${label} is not valid JSON: ${jsonSyntaxMessage(text, e)}`);
  }
}

let tempCounter = 0;

/** A file that could not be written (disk full, no permission…): names the file and the reason. */
export class WriteError extends Error {
  override name = 'WriteError';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const e = cause as NodeJS.ErrnoException;
    super(`cannot write ${file}: ${e?.code ? `${e.code} (${e.message})` : (e?.message ?? String(cause))}`);
  }
}

/** Temporary files of writeFileAtomic: `mesh-0001.obj.tmp-<pid>-<n>`. */
export const TEMP_FILE = /\.tmp-(\d+)-\d+$/;

/**
 * Writes `data` next to `file` under a temporary name, then renames it into place, so a reader
 * (or a run that is killed) never sees half a file. Throws a WriteError naming `file`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const temp = `${file}.tmp-${process.pid}-${tempCounter++}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw new WriteError(file, e);
  }
}

// Frame file names live in the core, where the app's exports use them too.
export { frameFileName, framePadding } from '../io/frame-names.ts';

/**
 * Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` (markers kept). Throws
 * when the markers are missing, so a generated block is never silently dropped.
 */
export function replaceBetweenMarkers(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end, i + start.length);
  if (i < 0 || j < 0) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, i + start.length)}\n${content.trim()}\n${text.slice(j)}`;
}
