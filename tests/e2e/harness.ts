/**
 * Browser end-to-end harness: the app built by `vite build` (or, asked for, from vite's dev server)
 * served on 127.0.0.1 and driven in Debian's Chromium (/usr/bin/chromium) through playwright-core
 * with software WebGL. Under vitest every test file shares one server and one Chromium for the
 * whole run (tests/e2e/app-server.ts, started on first use by tests/global-setup.ts), each file in
 * a browser context of its own; run outside vitest (bench/app.bench.ts), startApp starts its own
 * servers and Chromium and ends them on close.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM } from '../skips.ts';
import { BROWSER_PATH, CHROMIUM_FLAGS, ROOT, serveApp, type SharedApp } from './app-server.ts';

export { CHROMIUM, ROOT };
export { CHROMIUM_FLAGS };

export const ARTIFACTS = join(ROOT, 'tests/artifacts');

export interface App {
  url: string;
  context: BrowserContext;
  /** Opens the app (optionally with a query string, e.g. PAUSED) and waits until its first frame with data. */
  open(query?: string): Promise<Page>;
  close(): Promise<void>;
}

/**
 * The query that opens the app on its scene's frame 0 without playing it (`?paused`,
 * src/app/main.ts). A browser file starts the frames it needs itself instead of paying for the
 * honey drop stepping on a core beside every check; tests/e2e/dev-server.test.ts opens the app as
 * `npm start` does, playing.
 */
export const PAUSED = '?paused';

export interface StartOptions {
  /**
   * Serve the app from vite's dev server (as `npm start` does) instead of the built app. A page
   * and each of its workers then load ~680 modules transformed one request at a time: about 1.6×
   * the CPU of the build for the same file (BENCHMARKS.md, "The test suite"). Only
   * tests/e2e/dev-server.test.ts asks for it.
   */
  dev?: boolean;
  /**
   * Flags for a Chromium of this file's own, started beside the run's shared one (which keeps the
   * default flags): the WebGPU test (tests/e2e/webgpu.test.ts) asks for WEBGPU_FLAGS.
   */
  chromiumArgs?: string[];
}

/**
 * Headless Chromium's WebGPU on SwiftShader's Vulkan (checked on these machines, 2026-11-28). The
 * page must be served from http://127.0.0.1: about:blank has no navigator.gpu.
 */
export const WEBGPU_FLAGS = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--disable-vulkan-surface'];

/**
 * `VISCID_APP_SERVER=dev npx vitest run tests/e2e` runs every browser file on vite's dev server
 * (to compare the two, or to look for a fault that only the sources show); unset, on the build.
 */
const DEV_BY_DEFAULT = process.env.VISCID_APP_SERVER === 'dev';

/** The run's shared app server, when running under vitest with the global setup. */
async function sharedUrl(dev: boolean): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject(dev ? 'devAppUrl' : 'appUrl');
}

/**
 * A browser context of its own on the app: in the run's shared server and Chromium under vitest,
 * else in a server and Chromium started for it (ended by close).
 */
export async function startApp(options: StartOptions = {}): Promise<App> {
  const dev = options.dev ?? DEV_BY_DEFAULT;
  let own: SharedApp | null = null;
  let url = await sharedUrl(dev);
  if (!url) {
    own = await serveApp(CHROMIUM);
    url = dev ? own.devUrl : own.url;
  }
  let browser: Browser;
  try {
    const r = await fetch(url + BROWSER_PATH.slice(1));
    if (!r.ok) throw new Error(`the app server could not start Chromium: ${await r.text()}`);
    const { wsEndpoint } = (await r.json()) as { wsEndpoint: string };
    browser = options.chromiumArgs
      ? await chromium.launch({ executablePath: CHROMIUM, headless: false, args: [...CHROMIUM_FLAGS, ...options.chromiumArgs] })
      : await chromium.connect(wsEndpoint);
  } catch (e) {
    await own?.close();
    throw e;
  }
  const context = await browser.newContext({ viewport: { width: 960, height: 600 }, deviceScaleFactor: 1, acceptDownloads: true });
  // Page loads and actions wait for states too (a slow machine makes them slower, not red).
  context.setDefaultTimeout(WAIT);
  const appUrl = url;
  return {
    url: appUrl,
    context,
    async open(query = '') {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('[page error]', e.message));
      await page.goto(appUrl + query);
      // The first frame with data: a state, not a time (the limit only catches an app that never gets there).
      await page.waitForFunction(() => (window as any).__viscid?.ready === true, undefined, { timeout: WAIT, polling: 250 });
      return page;
    },
    async close() {
      await context.close().catch(() => undefined);
      await browser.close().catch(() => undefined); // disconnects (the shared Chromium stays up), or ends this file's own
      await own?.close();
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

/**
 * How long a browser test waits for a state before it gives up: long, because a wait is for a
 * state (a frame computed, a scene loaded) and a machine shared with other jobs takes many times
 * longer than a quiet one. The limit is there to end a test that never gets there, not to time it.
 */
export const WAIT = 600_000;

/** A browser test's (or beforeAll's) own limit: a few waits' worth, for the same reason. */
export const TEST_TIMEOUT = 3 * WAIT;

/** Waits until `fn` (evaluated in the page) is true; `timeout` only ends a wait that never ends. */
export async function waitFor(page: Page, fn: string, timeout = WAIT): Promise<void> {
  await page.waitForFunction(fn, undefined, { timeout, polling: 200 });
}

