/** File helpers of the CLI: atomic writes, frame file names, generated blocks in Markdown files. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

let tempCounter = 0;

/**
 * Writes `data` next to `file` under a temporary name, then renames it into place, so a reader
 * (or a run that is killed) never sees half a file.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.tmp-${process.pid}-${tempCounter++}`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, file);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
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
