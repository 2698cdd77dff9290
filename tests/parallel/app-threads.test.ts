/**
 * The browser side of the thread team: the built app is served with COOP/COEP (vite.config.ts
 * `preview.headers`; tests/e2e/dev-server.test.ts checks the dev server's), so the page is
 * cross-origin isolated, and a scene with particle.workers = 2 runs its particle engine
 * on a nested Web Worker (src/app/threads.ts) while frames advance without errors; the app's
 * "threads" setting overrides the scene's count. The honey drop at 3 mm particles (1 / 8 of its
 * liquid particles, some 1 200: enough for the team to split its work), as the property is the
 * team's, not the scene's: a frame of the shipped 1.5 mm drop on SwiftShader's page took most of
 * the file's 25 s in CI (BENCHMARKS.md, "The test suite, tenth pass").
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, PAUSED, startApp, TEST_TIMEOUT, WAIT } from '../e2e/harness.ts';
import { skipTitle } from '../skips.ts';

describe.skipIf(!existsSync(CHROMIUM))(skipTitle('chromium', 'app on 2 threads'), () => {
  it('is cross-origin isolated and steps the honey drop (3 mm particles) with particle.workers = 2 on a nested worker', async () => {
    const app = await startApp();
    try {
      const page = await app.open(PAUSED);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      const scene = JSON.parse(readFileSync(new URL('../../scenes/honey-drop.json', import.meta.url), 'utf8'));
      scene.particle = { ...scene.particle, radius: 2 * scene.particle.radius, workers: 2 };
      const r = await page.evaluate((t) => (window as any).__viscid.loadSceneText(t, 'honey-drop-2'), JSON.stringify(scene));
      expect(r).toEqual({ ok: true });
      const f0: number = await page.evaluate(() => (window as any).__viscid.frame);
      await page.evaluate(() => (window as any).__viscid.play());
      // A frame stepped on the team (one frame of the honey drop; a second stepped the same way added nothing checked).
      await page.waitForFunction((f) => (window as any).__viscid.frame >= f + 1, f0, { timeout: WAIT, polling: 250 });
      const urls = page.workers().map((w) => w.url());
      expect(urls.some((u) => u.includes('thread.worker'))).toBe(true);
      expect(await page.evaluate(() => (window as any).__viscid.stats().threads)).toEqual([2]);
      // The app's own setting overrides the scene's count and reloads the scene with it.
      await page.evaluate(() => (window as any).__viscid.setThreads(3));
      const f1: number = await page.evaluate(() => (window as any).__viscid.frame);
      await page.waitForFunction((f) => (window as any).__viscid.frame >= f + 1, f1, { timeout: WAIT, polling: 250 });
      expect(await page.evaluate(() => (window as any).__viscid.stats().threads)).toEqual([3]);
      expect(errors).toEqual([]);
    } finally {
      await app.close();
    }
  }, TEST_TIMEOUT);
});
