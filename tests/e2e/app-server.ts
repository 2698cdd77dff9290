/**
 * One app server and one Chromium for every browser test file of a run. tests/global-setup.ts
 * listens on two free ports of 127.0.0.1 at the start of `npm test` and hands their addresses to
 * the test files (vitest's provide / inject); tests/e2e/harness.ts `startApp()` asks one, and each
 * file gets a browser context of its own (its own pages, storage and downloads) in the shared
 * browser.
 *
 * - `url` serves the app built by `vite build` (what `npm run build:app` ships), built once a run
 *   (again when a file starts after a source changed, in watch mode) into a temporary folder and served from memory with the headers of vite.config.ts `preview`
 *   (cross-origin isolation). A page opens from ~20 bundled files instead of ~680 modules that
 *   vite's dev server transforms one request at a time: every browser file but one uses it.
 * - `devUrl` serves the app from vite's dev server (middleware mode, vite.config.ts `server`), as
 *   `npm start` does; only tests/e2e/dev-server.test.ts opens it, to keep the dev server's own
 *   configuration (its headers, the pre-bundled dependencies the workers import) under test.
 *
 * Everything starts on first use, so a run without browser tests (a single Node test file) pays
 * for none of it: the build when a file first asks `url` for the browser, the dev server when a
 * file first asks `devUrl`, and Chromium when a file first asks either (`/__viscid/browser`, which
 * answers once the server it was asked on is ready, so that a failed build fails the file that
 * asked at once, with the build's error).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, type Stats } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import type { BrowserServer } from 'playwright-core';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared server of the built app (tests/global-setup.ts), absent when Chromium is missing. */
    appUrl?: string;
    /** The shared vite dev server of the app, absent when Chromium is missing. */
    devAppUrl?: string;
  }
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VITE_CONFIG = join(ROOT, 'vite.config.ts');

/** The path a test file asks for the shared browser's endpoint (JSON `{ wsEndpoint }`). */
export const BROWSER_PATH = '/__viscid/browser';

/**
 * Chromium's flags for every browser file. The app's WebGL draws on SwiftShader (ANGLE); the
 * compositor works in software (`--disable-gpu-compositing`): the tests read the app's own
 * gl.readPixels, and Chromium's CPU was 0.81–0.91 of what it was with SwiftShader compositing too
 * (docs/decisions.md, "The test suite, twelfth pass").
 *
 * Under vitest, V8 without its top tier (`--js-flags=--no-turbofan`: Maglev is the highest; the
 * benchmarks, bench/app.bench.ts and bench/app-idle.ts, keep Chromium's default): the tests use a
 * scene for a load and a frame or two, and TurboFan's compiles do not pay back in that time. Before
 * the app reused its simulation workers (src/app/worker-pool.ts) each scene ran in a fresh isolate
 * that compiled its hot functions again; a trace of four scene loads
 * had 2.2 s of the renderer's thread pool in TurboFan jobs and 0.8 s in Maglev's beside 4.0 s of
 * the workers' own tasks. Without TurboFan the browser's CPU for six scene loads and two honey-drop
 * frames was 0.83 of the default's, the frames themselves cheaper too, and scenes.test with
 * app.test's 0.88 over four alternated pairs (docs/decisions.md, "The test suite, twentieth
 * pass"); with the workers reused, 0.86 over two (43.4, 45.4 against 52.3, 51.6 s; "twenty-first
 * pass"). The JavaScript's results are the same in every tier; only its speed is not.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-gpu-compositing',
  ...(process.env.VITEST ? ['--js-flags=--no-turbofan'] : []),
];

export interface SharedApp {
  /** `http://127.0.0.1:PORT/`: the built app. */
  url: string;
  /** `http://127.0.0.1:PORT/`: the app from vite's dev server. */
  devUrl: string;
  close(): Promise<void>;
}

/** The vite dev server for the app, serving through `server` (no port of its own). */
export async function createAppVite(): Promise<ViteDevServer> {
  const { createServer } = await import('vite');
  return createServer({
    root: ROOT,
    configFile: VITE_CONFIG,
    logLevel: 'warn',
    appType: 'spa',
    server: { middlewareMode: true, hmr: false, watch: null },
    clearScreen: false,
  });
}

/** The built app, held in memory: its files by URL path, and the headers every answer carries. */
export interface BuiltApp {
  files: Map<string, Buffer>;
  headers: Record<string, string>;
}

/**
 * `vite build` of the app (vite.config.ts, its output moved to a temporary folder so that a
 * `dist-app/` of the user's is left alone), read into memory, the folder removed; the headers are
 * vite.config.ts `preview.headers`, as `vite preview` sends them.
 */
export async function buildApp(): Promise<BuiltApp> {
  const { build, resolveConfig } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'viscid-app-'));
  try {
    await build({
      root: ROOT,
      configFile: VITE_CONFIG,
      logLevel: 'warn',
      clearScreen: false,
      // No timing report: on a loaded machine rolldown warns that its plugins were slow.
      build: { outDir, emptyOutDir: true, reportCompressedSize: false, rolldownOptions: { checks: { bundlerTimings: false } } },
    });
    const files = new Map<string, Buffer>();
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else files.set('/' + relative(outDir, p).split('\\').join('/'), readFileSync(p));
      }
    };
    walk(outDir);
    if (!files.has('/index.html')) throw new Error(`vite build wrote no index.html (${[...files.keys()].join(', ')})`);
    const config = await resolveConfig({ root: ROOT, configFile: VITE_CONFIG, logLevel: 'warn' }, 'serve', 'production', 'production', true);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(config.preview.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    return { files, headers };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** What the built app is made from: vite.config.ts, index.html, src/ and scenes/. */
const APP_SOURCES = ['vite.config.ts', 'index.html', 'src', 'scenes'].map((p) => join(ROOT, p));

/** The newest modification time (ms) under the app's sources. */
function newestAppSource(paths = APP_SOURCES): number {
  let newest = 0;
  for (const p of paths) {
    let st: Stats;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    newest = Math.max(newest, st.mtimeMs, st.isDirectory() ? newestAppSource(readdirSync(p).map((e) => join(p, e))) : 0);
  }
  return newest;
}

/** Answers a request from the built app: a file by its path, index.html for `/` and for a path without an extension. */
export function serveBuilt(app: BuiltApp, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (!app.files.has(path) && extname(path) === '') path = '/index.html';
  const body = app.files.get(path);
  if (!body) {
    res.writeHead(404, { ...app.headers, 'content-type': 'text/plain' }).end(`not in the built app: ${path}`);
    return;
  }
  res.writeHead(200, {
    ...app.headers,
    'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': body.length,
    // File names under assets/ carry their content's hash.
    'cache-control': path.startsWith('/assets/') ? 'max-age=31536000, immutable' : 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Starts Chromium as a server that test files connect to (playwright's launchServer). */
export async function launchSharedChromium(executablePath: string): Promise<BrowserServer> {
  const { chromium } = await import('playwright-core');
  return chromium.launchServer({
    executablePath,
    headless: false, // --headless is in the flags, exactly as listed
    args: CHROMIUM_FLAGS,
  });
}

/**
 * CPU seconds used by process `root` and its descendants, the ended ones they waited for included
 * (/proc/PID/stat: utime, stime, cutime, cstime; USER_HZ 100), or null without /proc. Chromium's
 * renderers and GPU process are its descendants; vitest's own CPU time does not include them.
 */
export function processTreeCpuSeconds(root: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
      procs.set(Number(entry), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // ended meanwhile
    }
  }
  if (!procs.has(root)) return null;
  let ticks = 0;
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    ticks += procs.get(pid)!.ticks;
    for (const [child, p] of procs) if (p.ppid === pid) todo.push(child);
  }
  return ticks / 100;
}

/** Listens on a free port of 127.0.0.1; `handle`'s failures are answered with a 500 and the error. */
async function listen(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<{ http: Server; url: string }> {
  const http: Server = createHttpServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      const message = e instanceof Error ? (e.stack ?? e.message) : String(e);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(message);
    });
  });
  await new Promise<void>((done, fail) => {
    http.once('error', fail);
    http.listen(0, '127.0.0.1', () => done());
  });
  const address = http.address();
  if (!address || typeof address === 'string') throw new Error('the app server did not report a port');
  return { http, url: `http://127.0.0.1:${address.port}/` };
}

/**
 * Listens on two free ports of 127.0.0.1 at once (the built app, the dev server); the build, the
 * vite dev server and Chromium (`chromiumPath`) are started on first use, once each.
 */
export async function serveApp(chromiumPath: string): Promise<SharedApp> {
  let built: Promise<BuiltApp> | null = null;
  let vite: Promise<ViteDevServer> | null = null;
  let browser: Promise<BrowserServer> | null = null;
  const startBrowser = () => (browser ??= launchSharedChromium(chromiumPath));
  const endpoint = async (res: ServerResponse, server: Promise<unknown>) => {
    const [b] = await Promise.all([startBrowser(), server]);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ wsEndpoint: b.wsEndpoint() }));
  };

  let builtAt = 0;
  const builtServer = await listen(async (req, res) => {
    // A file starting (it asks for the browser first) gets a build of the sources as they are now:
    // in watch mode (`npx vitest`) they change between runs of the same server.
    if (!built || (req.url === BROWSER_PATH && newestAppSource() > builtAt && builtAt < Date.now() - 1000)) {
      builtAt = Date.now();
      built = buildApp();
    }
    if (req.url === BROWSER_PATH) return endpoint(res, built);
    serveBuilt(await built, req, res);
  });
  const devServer = await listen(async (req, res) => {
    vite ??= createAppVite();
    if (req.url === BROWSER_PATH) return endpoint(res, vite);
    const v = await vite;
    v.middlewares(req, res, () => res.writeHead(404).end());
  });
  return {
    url: builtServer.url,
    devUrl: devServer.url,
    async close() {
      for (const s of [builtServer.http, devServer.http]) {
        s.closeAllConnections();
        await new Promise((done) => s.close(done));
      }
      const b = browser ? await browser.catch(() => null) : null;
      const pid = b?.process().pid;
      const cpu = pid ? processTreeCpuSeconds(pid) : null;
      // The browser files' CPU beside the test files' own (tests/e2e/app-server.ts; BENCHMARKS.md, "The test suite").
      if (cpu !== null) process.stderr.write(`Chromium used ${cpu.toFixed(1)} s of CPU in this run (its processes, ended ones included)\n`);
      await b?.close().catch(() => undefined);
      if (vite) await (await vite.catch(() => null))?.close();
    },
  };
}
