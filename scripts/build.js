#!/usr/bin/env node
/**
 * Builds the package's dist/: ES modules and .d.ts from src/ (all but the browser app and its
 * renderer) with tsc and tsconfig.build.json, from a clean folder, then writes the stamp that
 * `distIsFresh` reads. `npm run build` runs it; so do `npm ci` and `npm install` in a checkout
 * (package.json `postprepare`) and `npm pack` / `npm publish` (`prepack`). Not `prepare`: npm
 * (11.16 and later, allowScripts) warns everyone who installs a package that has one, though it
 * never runs it for a package from the registry.
 *
 * tsc rewrites the sources' `.ts` import specifiers to `.js` in the JavaScript it emits but
 * leaves them in the declarations (microsoft/TypeScript#61037); TypeScript reads those anyway,
 * other tools (editors, API extractors) may not, so they are rewritten here too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.built');
/** src/ folders the package leaves out: the browser app (vite serves it from src/). */
const NOT_BUILT = new Set(['app', 'render']);

/** Newest modification time of the sources dist/ is built from, ms. */
function newestSource(dir = join(ROOT, 'src'), top = true) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (top && NOT_BUILT.has(entry.name)) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path, false) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/ was built after the last change to src/ and tsconfig.build.json. */
export function distIsFresh() {
  if (!existsSync(STAMP)) return false;
  const built = statSync(STAMP).mtimeMs;
  return built >= newestSource() && built >= statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs;
}

/** `from './x.ts'`, `import('./x.ts')` → `.js` in a declaration file's relative specifiers. */
export function rewriteDeclaration(text) {
  return text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1$2.js$3');
}

function rewriteDeclarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) rewriteDeclarations(path);
    else if (entry.name.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const out = rewriteDeclaration(text);
      if (out !== text) writeFileSync(path, out);
    }
  }
}

export function build() {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (r.status !== 0) return r.status ?? 1;
  rewriteDeclarations(DIST);
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  const code = build();
  if (code === 0) process.stderr.write(`built dist/ in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  process.exitCode = code;
}
