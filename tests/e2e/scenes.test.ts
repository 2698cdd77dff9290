/**
 * Every shipped scene in the app, in headless Chromium: opened in the engine it is written for,
 * stepped to a fixed frame, photographed into tests/artifacts/scene-<name>.png (kept by CI), and
 * checked from read-back pixels that the liquid is in view: drawn with and without the liquid
 * (solid objects hidden in both), the view differs on a good number of pixels, few of them on the
 * canvas's edge (the camera frames the scene rather than sitting in it or cutting it off), and
 * the camera's eye lies outside the scene's bounds.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, ROOT, changedPixels, readPixels, saveScreenshot, startApp, waitFor, type App, type Pixels } from './harness.ts';

const hasChromium = existsSync(CHROMIUM);

/** The frame every scene is photographed at: early, so that the suite stays quick on two cores. */
const FRAME = 2;

/**
 * The engine each scene is shown in: the one its description names, and the particle engine for
 * Steele et al.'s scenes. gel-fan (64 000 particles) runs on the grid here to keep the suite quick;
 * its framing does not depend on the engine.
 */
const GRID_SCENES = new Set(['dam-break', 'floating-box', 'gel-fan', 'honey-drop-grid', 'honey-melt', 'jello-drop', 'jelly-block', 'smoke-plume', 'soap-pour', 'spout-fill']);

const SCENES = readdirSync(join(ROOT, 'scenes')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

describe.skipIf(!hasChromium)('every shipped scene in the app', () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    page = await app.open();
  }, 150_000);

  afterAll(async () => {
    await app?.close();
  });

  it('covers every scene in scenes/', () => {
    expect(SCENES.length).toBeGreaterThanOrEqual(10);
  });

  for (const name of SCENES) {
    const engine = GRID_SCENES.has(name) ? 'grid' : 'particle';
    it(`${name} (${engine}): the liquid is in view at frame ${FRAME}`, async () => {
      const r = await page.evaluate(([n, e]) => { const v = (window as any).__viscid; v.pause(); return v.openScene(n, e); }, [name, engine]);
      expect(r.ok, r.message).toBe(true);
      for (let f = 1; f <= FRAME; f++) {
        await page.evaluate(() => (window as any).__viscid.step());
        await waitFor(page, `window.__viscid.frame >= ${f}`, 120_000);
      }
      await waitFor(page, 'window.__viscid.ready', 60_000);
      const state = await page.evaluate(() => {
        const v = (window as any).__viscid;
        const b = v.viewBounds;
        return { frames: v.frames, scene: v.sceneName, eyeOutside: v.camera.eyeOutside(b.min, b.max) };
      });
      expect(state.scene).toBe(name);
      expect(state.frames.map((f: { scene: string }) => f.scene)).toEqual([name]);
      expect(state.frames[0].error).toBeNull();
      expect(state.frames[0].frame).toBe(FRAME);
      expect(state.eyeOutside).toBe(true);

      await saveScreenshot(page, `scene-${name}.png`);
      const { shown, hidden } = await liquidPictures(page);
      const liquid = changedPixels(shown, hidden);
      const total = shown.width * shown.height;
      // In view: at frame 2 a spout's stream is the least there is, about 300 pixels at 710 × 470 ...
      expect(liquid.count, `${name}: liquid pixels`).toBeGreaterThan(150);
      // ... not filling it (a camera inside the liquid) ...
      expect(liquid.count, `${name}: liquid pixels`).toBeLessThan(0.6 * total);
      // ... and not cut off by the canvas's edges.
      expect(liquid.onBorder, `${name}: liquid pixels on the edge`).toBeLessThan(0.02 * liquid.count + 4);
    }, 240_000);
  }
});

/**
 * The view drawn without the solid objects, with and without the liquid (surface, particles,
 * smoke), read back; the display is restored after. Objects are left out of both, so that liquid
 * in a cup still counts as in view: the check is on the camera's framing.
 */
async function liquidPictures(page: Page): Promise<{ shown: Pixels; hidden: Pixels }> {
  await page.evaluate(() => {
    const d = (window as any).__viscid.display;
    (window as any).__display = { ...d };
    d.objects = false;
  });
  const shown = await readPixels(page);
  await page.evaluate(() => Object.assign((window as any).__viscid.display, { mesh: false, particles: false, smoke: false }));
  const hidden = await readPixels(page);
  await page.evaluate(() => Object.assign((window as any).__viscid.display, (window as any).__display));
  return { shown, hidden };
}
