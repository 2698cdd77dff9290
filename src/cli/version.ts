/** viscid's version, from package.json. */
import { readFileSync } from 'node:fs';

export function viscidVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
