/**
 * Browser end-to-end harness: serves the app with vite's dev server on 127.0.0.1 (a free port)
 * and drives Debian's Chromium (/usr/bin/chromium) through playwright-core with software WebGL.
 * One server and one browser per test file.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type InlineConfig, type ViteDevServer } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from '../skips.ts';

export { CHROMIUM };

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(ROOT, 'tests/artifacts');

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

export interface App {
  url: string;
  context: BrowserContext;
  /** Opens the app (optionally with a query string) and waits until its first frame with data. */
  open(query?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startApp(extra: InlineConfig = {}): Promise<App> {
  const server: ViteDevServer = await createServer({
    ...extra,
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, strictPort: false, open: false, hmr: false, watch: null },
    clearScreen: false,
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not report a port');
  const url = `http://127.0.0.1:${address.port}/`;

  const userDataDir = mkdtempSync(join(tmpdir(), 'viscid-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: false, // --headless is in the flags, exactly as listed
    args: CHROMIUM_FLAGS,
    viewport: { width: 960, height: 600 },
    deviceScaleFactor: 1,
    acceptDownloads: true,
  });
  const pages: Page[] = [];
  return {
    url,
    context,
    async open(query = '') {
      const page = await context.newPage();
      pages.push(page);
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      await page.goto(url + query);
      await page.waitForFunction(() => (window as any).__viscid?.ready === true, undefined, { timeout: 90_000, polling: 250 });
      return page;
    },
    async close() {
      await context.close().catch(() => undefined);
      await server.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, rows bottom to top (as gl.readPixels gives them). */
  data: Uint8Array;
}

export async function readPixels(page: Page): Promise<Pixels> {
  const r = await page.evaluate(() => (window as any).__viscid.readPixels());
  return { width: r.width, height: r.height, data: new Uint8Array(Buffer.from(r.data, 'base64')) };
}

/**
 * Liquid (honey / amber) coloured: clearly red over blue with green in between — the shaded
 * honey mesh ranges from dark amber to light gold. The blue-grey background, the grey ball and
 * white highlights all fail it.
 */
export function isHoney(r: number, g: number, b: number): boolean {
  return r >= 70 && r - b >= 60 && g >= 0.3 * r && g <= 0.95 * r && b <= 0.75 * g;
}

/** Counts honey-coloured pixels in columns [x0, x1). */
export function countHoney(p: Pixels, x0 = 0, x1 = p.width): number {
  let n = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = x0; x < x1; x++) {
      const i = 4 * (y * p.width + x);
      if (isHoney(p.data[i], p.data[i + 1], p.data[i + 2])) n++;
    }
  }
  return n;
}

/**
 * Smoke coloured: light neutral grey to white (channels within 16 of each other, red ≥ 165).
 * The blue-grey backdrop (red ≤ ~140, blue well above red) and honey both fail it.
 */
export function isSmoke(r: number, g: number, b: number): boolean {
  return r >= 165 && Math.abs(r - g) <= 16 && Math.abs(r - b) <= 16 && Math.abs(g - b) <= 16;
}

/** Counts smoke-coloured pixels in columns [x0, x1). */
export function countSmoke(p: Pixels, x0 = 0, x1 = p.width): number {
  let n = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = x0; x < x1; x++) {
      const i = 4 * (y * p.width + x);
      if (isSmoke(p.data[i], p.data[i + 1], p.data[i + 2])) n++;
    }
  }
  return n;
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, name);
  await page.screenshot({ path });
  return path;
}

export function saveArtifact(name: string, data: string | Uint8Array): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, name);
  writeFileSync(path, data);
  return path;
}

export async function waitFor(page: Page, fn: string, timeout = 60_000): Promise<void> {
  await page.waitForFunction(fn, undefined, { timeout, polling: 200 });
}

