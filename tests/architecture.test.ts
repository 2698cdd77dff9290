/**
 * The pure core (DESIGN.md "Layout"): src/{math,spatial,types,scene,surface,io,particle,grid,compare,preview,gpu}/**,
 * src/index.ts, src/api.ts and src/engines.ts import no Node module, no regl, nothing from the app,
 * renderer or CLI, and use no DOM or Node globals. The engines never import each other; the surface
 * builder imports neither. The src tree has no import cycles (type-only imports aside) and no file
 * over 450 lines. The checkers are tested on fabricated sources so that they can fail.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE_DIRS = ['math', 'spatial', 'types', 'scene', 'surface', 'io', 'particle', 'grid', 'compare', 'parallel', 'preview', 'gpu'];
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

// ---------------------------------------------------------------------------------------------
// No import cycles, no long files (issue 16). Type-only imports are erased before run time, so
// they are left out of the cycle check.

/**
 * Relative module specifiers a source loads at run time: `import … from`, side-effect `import '…'`,
 * `export … from` and `import('…')` of a literal. `import type`, `export type` and imports whose
 * every name is marked `type` are left out.
 */
export function runtimeImportsOf(source: string): string[] {
  const code = blank(source, false);
  const specs: string[] = [];
  const statics = /\b(import|export)\s+(type\s+)?([\w$*{}\s,]*?)\s*(?:from\s+)?["']([^"']+)["']/g;
  for (const m of code.matchAll(statics)) {
    const [, keyword, typeOnly, clause, spec] = m;
    if (typeOnly) continue;
    if (keyword === 'export' && !/^(?:\*|\{)/.test(clause)) continue; // `export const x = '…'` is no re-export
    const braces = clause.match(/^\{([^}]*)\}$/);
    if (braces) {
      const names = braces[1].split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length > 0 && names.every((n) => /^type\s/.test(n))) continue;
    }
    specs.push(spec);
  }
  for (const m of code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) specs.push(m[1]);
  return specs.filter((s) => s.startsWith('.'));
}

/** Strongly connected components of more than one file (Tarjan), each sorted, in sorted order. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) cycles.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * Problems of the cycles found against the allowed ones: a cycle is allowed when all its files are
 * in one allowed entry (a cycle may shrink); an entry that no cycle touches any more is stale and
 * must be deleted, so the list only shrinks.
 */
export function checkCycles(cycles: readonly string[][], allowed: readonly (readonly string[])[]): string[] {
  const problems: string[] = [];
  for (const c of cycles) {
    if (!allowed.some((entry) => c.every((f) => entry.includes(f)))) problems.push(`import cycle: ${c.join(' -> ')}`);
  }
  for (const entry of allowed) {
    if (!cycles.some((c) => c.some((f) => entry.includes(f)))) problems.push(`stale allow-list entry (no cycle left; delete it): ${entry.join(', ')}`);
  }
  return problems;
}

/**
 * Known cycles, being removed on other branches. Delete an entry when its branch lands; the test
 * fails on any cycle outside these entries and on an entry no cycle needs any more.
 */
const ALLOWED_CYCLES: readonly (readonly string[])[] = [];

/** The most lines a src file may have (STYLE.md "small files"). */
const MAX_LINES = 450;

/**
 * Files over MAX_LINES that are being split on other branches. Delete an entry when its branch
 * lands; the test fails on any other long file and on an entry that is short enough (or gone).
 */
const ALLOWED_LONG_FILES: readonly string[] = [];

/**
 * DEVELOPING.md "Direction of imports", lowest layer first: a src file imports (types included)
 * only from its own layer or below, and nothing outside src/ (bench/ and tests/ import from src,
 * never the reverse).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['math', 'spatial', 'parallel', 'types'],
  ['scene', 'surface', 'io'],
  ['api.ts', 'engines.ts'],
  ['particle', 'grid'],
  ['compare', 'preview', 'gpu'],
  ['index.ts'],
  ['render', 'app', 'cli'],
];

function layerOf(file: string): number {
  const area = file.split('/')[1];
  return LAYERS.findIndex((layer) => layer.includes(area));
}

/** Imports of one src file that go up the layers or out of src/; `file` is repository-relative. */
export function checkDirection(file: string, source: string): string[] {
  const problems: string[] = [];
  const from = layerOf(file);
  for (const spec of importsOf(source)) {
    if (!spec.startsWith('.')) continue;
    const target = posix.normalize(posix.join(posix.dirname(file), spec));
    if (!target.startsWith('src/')) {
      problems.push(`${file} imports ${target} (src imports nothing outside src/)`);
      continue;
    }
    const to = layerOf(target);
    if (from >= 0 && to > from) problems.push(`${file} imports ${target} (${LAYERS[to].join(', ')} sit above ${LAYERS[from].join(', ')})`);
  }
  return problems;
}

const srcFiles = listTs(join(ROOT, 'src'))
  .map((p) => relative(ROOT, p).split('\\').join('/'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .sort();

/** The run-time import graph of src: file -> files it imports (resolved, repository-relative). */
function srcImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of srcFiles) {
    const targets = runtimeImportsOf(readFileSync(join(ROOT, f), 'utf8')).map((s) => posix.normalize(posix.join(posix.dirname(f), s)));
    graph.set(f, targets);
  }
  return graph;
}

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

describe('architecture: no import cycles, no long files', () => {
  it('every src import follows the direction of imports (types included)', () => {
    expect(srcFiles.every((f) => layerOf(f) >= 0)).toBe(true);
    expect(srcFiles.flatMap((f) => checkDirection(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('src has no import cycles beyond the shrinking allow-list', () => {
    expect(checkCycles(importCycles(srcImportGraph()), ALLOWED_CYCLES)).toEqual([]);
  });

  it(`no src file is over ${MAX_LINES} lines beyond the shrinking allow-list`, () => {
    const problems: string[] = [];
    const long = new Set<string>();
    for (const f of srcFiles) {
      const n = lineCount(readFileSync(join(ROOT, f), 'utf8'));
      if (n > MAX_LINES) {
        long.add(f);
        if (!ALLOWED_LONG_FILES.includes(f)) problems.push(`${f} has ${n} lines (at most ${MAX_LINES}: split it by responsibility)`);
      }
    }
    for (const f of ALLOWED_LONG_FILES) if (!long.has(f)) problems.push(`stale allow-list entry (${f} is at most ${MAX_LINES} lines or gone; delete it)`);
    expect(problems).toEqual([]);
  });
});

describe('architecture: the cycle checker itself', () => {
  it('reads run-time imports and leaves type-only ones out', () => {
    const src = [
      "import { a } from './a.ts';",
      "import './side-effect.ts';",
      "import * as b from '../b.ts';",
      "import def, { c } from './c.ts';",
      "export { d } from './d.ts';",
      "export * from './e.ts';",
      "const f = await import('./f.ts');",
      "import { type G, h } from './h.ts';",
      "import type { T } from './t.ts';",
      "export type { U } from './u.ts';",
      "import { type V, type W } from './v.ts';",
      "import { z } from 'zod';",
      "// import { x } from './comment.ts';",
      "export const url = './not-an-import.ts';",
    ].join('\n');
    expect(runtimeImportsOf(src)).toEqual(['./a.ts', './side-effect.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './h.ts', './f.ts']);
  });

  it('flags an import up the layers or out of src/, and allows its own layer and below', () => {
    expect(checkDirection('src/io/obj.ts', "import type { Mesh } from '../api.ts';")).toHaveLength(1);
    expect(checkDirection('src/scene/color.ts', "import { f } from '../compare/metrics.ts';")).toHaveLength(1);
    expect(checkDirection('src/cli/bench.ts', "import { b } from '../../bench/harness.ts';")).toEqual([
      'src/cli/bench.ts imports bench/harness.ts (src imports nothing outside src/)',
    ]);
    expect(checkDirection('src/io/obj.ts', "import type { Mesh } from '../types/geometry.ts'; import { c } from '../scene/color.ts';")).toEqual([]);
    expect(checkDirection('src/compare/x.ts', "import { g } from '../engines.ts'; import { p } from '../particle/simulation.ts';")).toEqual([]);
  });

  it('finds every cycle with its files, and checks them against the allow-list', () => {
    const graph = new Map<string, string[]>([
      ['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []],
      ['e', ['f']], ['f', ['e']], ['g', ['g', 'a']],
    ]);
    const cycles = importCycles(graph);
    expect(cycles).toEqual([['a', 'b', 'c'], ['e', 'f']]);
    expect(checkCycles(cycles, [])).toEqual(['import cycle: a -> b -> c', 'import cycle: e -> f']);
    expect(checkCycles(cycles, [['a', 'b', 'c', 'x'], ['e', 'f']])).toEqual([]);
    // A cycle that reaches a file outside its entry is new; an entry nothing needs is stale.
    expect(checkCycles(cycles, [['a', 'b'], ['e', 'f'], ['y', 'z']])).toEqual([
      'import cycle: a -> b -> c',
      'stale allow-list entry (no cycle left; delete it): y, z',
    ]);
  });
});

describe('architecture: the threads load what they use', () => {
  // Every team thread, and every frame writer of `viscid run`, starts by importing its entry's
  // modules (on dist/: compiled afresh in each thread). Through index.ts or the scene schema they
  // loaded zod and built the schema, which they never use: the frame writer's start cost 0.54–0.64 s
  // of CPU with them, 0.09–0.11 without; a team thread's 0.35–0.52 and 0.17–0.26 (BENCHMARKS.md,
  // "The test suite, thirteenth pass").
  it('the team thread and the frame writer reach neither src/index.ts nor zod', () => {
    const graph = srcImportGraph();
    for (const entry of ['src/cli/thread-entry.ts', 'src/cli/frame-writer-entry.ts']) {
      const seen = new Set([entry]);
      const queue = [entry];
      while (queue.length) for (const t of graph.get(queue.shift()!) ?? []) if (!seen.has(t)) (seen.add(t), queue.push(t));
      expect(seen.size, entry).toBeGreaterThan(3);
      expect([...seen].filter((f) => f === 'src/index.ts' || /^\s*import\s+(?!type\b)[^;]*?\bfrom\s+['"]zod['"]/m.test(readFileSync(join(ROOT, f), 'utf8'))), entry).toEqual([]);
    }
  });
});
