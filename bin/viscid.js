#!/usr/bin/env node
// The `viscid` command: runs the built CLI, dist/cli/main.js. In a source checkout (`npm ci`
// builds dist/ there, scripts/build.js), a change to src/ since that build makes it run the
// sources through tsx instead (a devDependency), so that an edit takes effect at once and the
// tests never run a stale build; `npm run build` brings dist/ up to date again.
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url);
let entry = new URL('dist/cli/main.js', root);
const build = new URL('scripts/build.js', root);
if (existsSync(new URL('src/cli/main.ts', root)) && existsSync(build)) {
  const { distIsFresh } = await import(build.href);
  if (!distIsFresh()) {
    const tsx = await import('tsx/esm/api').catch(() => null);
    if (tsx) {
      tsx.register();
      entry = new URL('src/cli/main.ts', root);
    } else if (existsSync(entry)) {
      process.stderr.write('note: dist/ is older than src/ and tsx is not installed: running the old build (npm run build)\n');
    }
  }
}
if (!existsSync(entry)) {
  process.stderr.write('error: viscid is not built (dist/cli/main.js is missing): run `npm ci` or `npm run build` in its folder\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
