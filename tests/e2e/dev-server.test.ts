/**
 * The app from vite's dev server, as `npm start` serves it: every other browser file opens the
 * built app (tests/e2e/app-server.ts), so this one keeps what only the dev server does under
 * test: vite.config.ts `server.headers` make the page cross-origin isolated, the app's modules and
 * its workers' load from the sources (the `.ts` files themselves), and the dependencies the
 * workers import are pre-bundled up front (`optimizeDeps.include`), so no module request is
 * answered with an error (vite answers 504 to a worker's request while it re-optimises) and the
 * first frame is computed and drawn. It opens the app as a user does, playing; the other browser
 * files open it with `?paused` (tests/e2e/harness.ts PAUSED).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, countHoney, readPixels, startApp, TEST_TIMEOUT, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';

describe.skipIf(!existsSync(CHROMIUM))(skipTitle('chromium', 'the app from vite dev server (npm start)'), () => {
  let app: App;
  let page: Page;
  const failed: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    app = await startApp({ dev: true });
    app.context.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    app.context.on('weberror', (e) => errors.push(e.error().message));
    page = await app.open(); // waits for the first frame with data
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it('opens cross-origin isolated, its workers loaded from the sources, every request answered', async () => {
    const s = await page.evaluate(() => {
      const v = (window as any).__viscid;
      return { isolated: crossOriginIsolated, scene: v.sceneName, frames: v.frames, status: v.status };
    });
    expect(s.isolated).toBe(true);
    expect(s.scene).toBe('honey-drop');
    // Without a query the app opens playing (the other browser files open it with ?paused).
    expect(s.status).toBe('playing');
    expect(s.frames[0].error).toBeNull();
    const urls = page.workers().map((w) => w.url());
    expect(urls.some((u) => /\/src\/app\/sim\.worker\.ts\b/.test(u)), urls.join(', ')).toBe(true);
    expect(urls.some((u) => /\/src\/app\/mesh\.worker\.ts\b/.test(u)), urls.join(', ')).toBe(true);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  }, TEST_TIMEOUT);

  it('draws the honey drop', async () => {
    const px = await readPixels(page);
    expect(countHoney(px)).toBeGreaterThan(2000); // as in tests/e2e/app.test.ts at 960×600
  }, TEST_TIMEOUT);
});
