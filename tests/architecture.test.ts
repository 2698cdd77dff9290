/**
 * The pure core (DESIGN.md "Layout"): src/{math,spatial,types,scene,surface,io,particle,grid,compare}/**,
 * src/index.ts, src/api.ts and src/engines.ts import no Node module, no regl, nothing from the app,
 * renderer or CLI, and use no DOM or Node globals. The engines never import each other; the surface
 * builder imports neither. The checker is tested on fabricated sources so that it can fail.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE_DIRS = ['math', 'spatial', 'types', 'scene', 'surface', 'io', 'particle', 'grid', 'compare', 'parallel'];
const CORE_FILES = ['src/index.ts', 'src/api.ts', 'src/engines.ts'];
const NODE_MODULES = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const FORBIDDEN_PACKAGES = ['regl'];
const DOM_GLOBALS = [
  'document', 'window', 'navigator', 'HTMLElement', 'HTMLCanvasElement', 'HTMLImageElement', 'HTMLInputElement', 'Element',
  'localStorage', 'sessionStorage', 'requestAnimationFrame', 'cancelAnimationFrame', 'customElements', 'getComputedStyle',
  'WebGLRenderingContext', 'WebGL2RenderingContext', 'OffscreenCanvas',
];
const NODE_GLOBALS = ['process', 'Buffer', '__dirname', '__filename', 'require'];

/** Replaces comments (and, if asked, string contents) with spaces, keeping offsets; a small lexer. */
export function blank(source: string, strings: boolean): string {
  const out = source.split('');
  let i = 0;
  const n = source.length;
  const fill = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < n) {
    const c = source[i], d = source[i + 1];
    if (c === '/' && d === '/') {
      const end = source.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      fill(i, stop);
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      fill(i, stop);
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < n && source[j] !== c) j += source[j] === '\\' ? 2 : 1;
      if (strings) fill(i + 1, j);
      i = j + 1;
    } else i++;
  }
  return out.join('');
}

/** Module specifiers a source imports (static, dynamic, re-exports, require). */
export function importsOf(source: string): string[] {
  const code = blank(source, false);
  const specs: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s+)?["']([^"']+)["']/g,
    /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+[\w$]+)?\s+from\s+["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) specs.push(m[1]);
  return specs;
}

/** Globals used (not declared locally, not a property or object key). */
export function globalsUsed(source: string, names: readonly string[]): string[] {
  const code = blank(source, true);
  const found: string[] = [];
  for (const name of names) {
    const declared = new RegExp(`(?:\\b(?:const|let|var|function|class)\\s+${name}\\b)|(?:[(,]\\s*${name}\\s*[:,)=?])`).test(code);
    if (declared) continue;
    const use = new RegExp(`(?<![.\\w$])${name}(?![\\w$])(?!\\s*:(?!:))`);
    if (use.test(code)) found.push(name);
  }
  return found;
}

/** Rule violations of one core file; `file` is relative to the repository root with forward slashes. */
export function checkCoreSource(file: string, source: string): string[] {
  const problems: string[] = [];
  const area = file.split('/')[1];
  for (const spec of importsOf(source)) {
    if (NODE_MODULES.has(spec) || spec.startsWith('node:')) problems.push(`${file} imports the Node module '${spec}'`);
    if (FORBIDDEN_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`))) problems.push(`${file} imports '${spec}'`);
    if (spec.startsWith('.')) {
      const target = posix.normalize(posix.join(posix.dirname(file), spec));
      const targetArea = target.startsWith('src/') ? target.split('/')[1] : '';
      if (['render', 'app', 'cli'].includes(targetArea)) problems.push(`${file} imports ${target} (the core must not depend on ${targetArea}/)`);
      if (area === 'particle' && targetArea === 'grid') problems.push(`${file} imports ${target} (the engines never import each other)`);
      if (area === 'grid' && targetArea === 'particle') problems.push(`${file} imports ${target} (the engines never import each other)`);
      if (area === 'surface' && (targetArea === 'particle' || targetArea === 'grid')) problems.push(`${file} imports ${target} (surface knows neither engine)`);
    }
  }
  for (const g of globalsUsed(source, DOM_GLOBALS)) problems.push(`${file} uses the DOM global '${g}'`);
  for (const g of globalsUsed(source, NODE_GLOBALS)) problems.push(`${file} uses the Node global '${g}'`);
  return problems;
}

function listTs(dir: string): string[] {
  let out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out = out.concat(listTs(p));
    else if (/\.(ts|js|mts|mjs)$/.test(e)) out.push(p);
  }
  return out;
}

const coreFiles = [...CORE_DIRS.flatMap((d) => listTs(join(ROOT, 'src', d))), ...CORE_FILES.map((f) => join(ROOT, f))]
  .map((p) => relative(ROOT, p).split('\\').join('/'))
  .sort();

describe('architecture: the pure core', () => {
  it('finds the core files', () => {
    expect(coreFiles).toEqual(expect.arrayContaining(['src/index.ts', 'src/api.ts', 'src/engines.ts', 'src/scene/schema.ts', 'src/io/obj.ts']));
  });

  it('no core file imports Node, regl, app/render/cli or the other engine, or uses DOM/Node globals', () => {
    const problems = coreFiles.flatMap((f) => checkCoreSource(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(problems).toEqual([]);
  });
});

describe('architecture: the checker itself', () => {
  it('catches every kind of violation in fabricated sources', () => {
    const bad = [
      "import fs from 'fs';",
      "import { readFileSync } from 'node:fs';",
      "import * as path from 'path';",
      "import os from 'os'; import { Worker } from 'worker_threads';",
      "export { x } from 'node:crypto';",
      "const m = await import('node:worker_threads');",
      "import createREGL from 'regl';",
      "import { draw } from '../render/mesh.ts';",
      'const el = document.createElement("canvas");',
      'window.addEventListener("x", f);',
      'const c = new OffscreenCanvas(1, 1); const h: HTMLElement = x;',
      'if (process.env.DEBUG) log();',
      'const b = Buffer.from([1]);',
    ];
    for (const src of bad) expect(checkCoreSource('src/particle/step.ts', src), src).not.toEqual([]);
    expect(checkCoreSource('src/particle/step.ts', "import { mac } from '../grid/mac.ts';")).toEqual(["src/particle/step.ts imports src/grid/mac.ts (the engines never import each other)"]);
    expect(checkCoreSource('src/grid/step.ts', "import type { P } from '../particle/state.ts';")).toHaveLength(1);
    expect(checkCoreSource('src/surface/field.ts', "import { s } from '../particle/surface.ts';")).toHaveLength(1);
  });

  it('does not flag comments, strings, properties, object keys or local declarations', () => {
    const fine = [
      "// import fs from 'fs'; document.body",
      "/* window.x */ const s = 'document window process';",
      'const o = { window: 3, document: 1 }; o.window = 2;',
      'function smooth(window: number) { return window * 2; }',
      'const navigator = makeNavigator(); navigator.go();',
      "import { hashCell } from '../spatial/hash-grid.ts';",
      "import { z } from 'zod'; import { Document } from '@gltf-transform/core';",
      'const url = "https://example.com//path"; const t = `a ${b} c`;',
    ];
    for (const src of fine) expect(checkCoreSource('src/particle/step.ts', src), src).toEqual([]);
    expect(checkCoreSource('src/grid/step.ts', "import { k } from '../math/kernels.ts';")).toEqual([]);
  });
});
