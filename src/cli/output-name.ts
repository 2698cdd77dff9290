/**
 * Folder names made from a scene's `name`, which is free text: `viscid run` without --out writes
 * out/<name>, `compare` out/compare-<name>, `sweep` out/sweep-<name>. The name becomes a slug of
 * letters, digits, '.', '_' and '-' (anything else, path separators, '..', control characters
 * among them, turns into '-'; no leading dot or dash; at most 80 characters; 'untitled' when
 * nothing is left), and the folder is checked to lie inside out/ before anything is written.
 */
import { isAbsolute, join, relative, resolve } from 'node:path';
import { printable } from './printable.ts';

const MAX_SLUG = 80;
/** Names Windows reserves for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

export function nameSlug(name: string): string {
  let slug = name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  if (slug.length > MAX_SLUG) slug = slug.slice(0, MAX_SLUG).replace(/[.-]+$/, '');
  if (RESERVED.test(slug)) slug = `${slug}-scene`;
  return slug || 'untitled';
}

/**
 * The default output folder out/<prefix><slug of name>, resolved, with a note to stderr when the
 * name had to change. Throws if the result were to leave out/ (it cannot; checked all the same).
 */
export function defaultOutputFolder(prefix: string, name: string, warn: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): string {
  const slug = nameSlug(name);
  const base = resolve('out');
  const dir = resolve(join(base, `${prefix}${slug}`));
  const rel = relative(base, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw new Error(`internal: output folder ${dir} is not inside ${base}`);
  if (slug !== name) warn(`note: the scene's name '${printable(name)}' is not a plain folder name; writing to ${join('out', `${prefix}${slug}`)} (pass --out to choose)`);
  return dir;
}
