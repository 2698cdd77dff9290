/**
 * One app server and one Chromium for every browser test file of a run. tests/global-setup.ts
 * listens on a free port of 127.0.0.1 at the start of `npm test` and hands the address to the test
 * files (vitest's provide / inject); tests/e2e/harness.ts `startApp()` asks it, and each file gets
 * a browser context of its own (its own pages, storage and downloads) in the shared browser.
 *
 * Both start on first use, so a run without browser tests (a single Node test file) pays for
 * neither: the vite dev server (middleware mode, with vite.config.ts and its cross-origin
 * isolation headers) is created on the first request, and Chromium is launched when a file first
 * asks `/__viscid/browser` for its endpoint. Sharing them, the app's modules are transformed once a
 * run, not once a file, and Chromium starts once.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteDevServer } from 'vite';
import type { BrowserServer } from 'playwright-core';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared app server's address (tests/global-setup.ts), absent when Chromium is missing. */
    appUrl?: string;
  }
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The path a test file asks for the shared browser's endpoint (JSON `{ wsEndpoint }`). */
export const BROWSER_PATH = '/__viscid/browser';

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
];

export interface SharedApp {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  close(): Promise<void>;
}

/** The vite dev server for the app, serving through `server` (no port of its own). */
export async function createAppVite(): Promise<ViteDevServer> {
  const { createServer } = await import('vite');
  return createServer({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    appType: 'spa',
    server: { middlewareMode: true, hmr: false, watch: null },
    clearScreen: false,
  });
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
 * Listens on a free port of 127.0.0.1 at once; the vite server and Chromium (`chromiumPath`) are
 * started on first use, once.
 */
export async function serveApp(chromiumPath: string): Promise<SharedApp> {
  let vite: Promise<ViteDevServer> | null = null;
  let browser: Promise<BrowserServer> | null = null;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === BROWSER_PATH) {
      vite ??= createAppVite(); // the page will ask for it next: started meanwhile
      vite.catch(() => undefined); // (its failure is answered to the page's requests)
      browser ??= launchSharedChromium(chromiumPath);
      const b = await browser;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ wsEndpoint: b.wsEndpoint() }));
      return;
    }
    vite ??= createAppVite();
    const v = await vite;
    v.middlewares(req, res, () => res.writeHead(404).end());
  };
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
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      http.closeAllConnections();
      await new Promise((done) => http.close(done));
      if (browser) await (await browser.catch(() => null))?.close().catch(() => undefined);
      if (vite) await (await vite.catch(() => null))?.close();
    },
  };
}
