/**
 * Each scene made for the grid engine (its `engines` names the grid first) opens in the grid
 * engine when picked while the particle engine is on show, with its description shown below the view and
 * its liquid (or smoke) drawn; the plots have a legend. Asserted on the DOM and on read-back
 * pixels after the first frame, waiting for states (never on rates or times).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, ROOT, startApp, waitFor, type App } from './harness.ts';

const hasChromium = existsSync(CHROMIUM);

const GRID_FIRST = readdirSync(join(ROOT, 'scenes'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(ROOT, 'scenes', f), 'utf8')) as { name: string; description: string; engines?: string[] })
  .filter((s) => s.engines?.[0] === 'grid')
  .sort((a, b) => a.name.localeCompare(b.name));

describe.skipIf(!hasChromium)('scenes open in the engine they name', () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    page = await app.open(); // the honey drop, in the particle engine
  }, 150_000);

  afterAll(async () => {
    await app?.close();
  });

  it('has grid scenes to open, smoke-plume and floating-box among them', () => {
    expect(GRID_FIRST.map((s) => s.name)).toEqual(expect.arrayContaining(['smoke-plume', 'floating-box']));
  });

  for (const scene of GRID_FIRST) {
    it(`${scene.name}: picked while the particle engine is on show, it runs on the grid with its description shown`, async () => {
      // The particle engine on show first, as a user would have it after the honey drop.
      await page.evaluate(async () => { const v = (window as any).__viscid; v.pause(); await v.setMode('particle'); });
      const r = await page.evaluate((n) => (window as any).__viscid.openScene(n), scene.name);
      expect(r.ok, r.message).toBe(true);
      // Liquid from a spout may take a few frames to appear (soap-pour's): step until the engine holds some.
      for (let f = 1; f <= 12; f++) {
        await page.evaluate(() => (window as any).__viscid.step());
        await waitFor(page, `window.__viscid.frame >= ${f}`, 180_000);
        await waitFor(page, 'window.__viscid.ready', 120_000);
        if (!/no liquid (yet|left)/.test(await page.evaluate(() => (window as any).__viscid.hudText))) break;
      }
      const state = await page.evaluate(() => {
        const v = (window as any).__viscid;
        return { mode: v.mode, frames: v.frames, description: document.getElementById('description')?.textContent ?? '', legend: document.querySelector('#plots .plots-legend')?.textContent ?? '', hud: v.hudText };
      });
      expect(state.mode).toBe('grid');
      expect(state.frames.map((f: { engine: string; scene: string }) => [f.engine, f.scene])).toEqual([['grid', scene.name]]);
      expect(state.frames[0].error).toBeNull();
      expect(state.description).toBe(scene.description);
      expect(state.legend).toContain('grid engine');
      if (scene.name === 'smoke-plume') expect(state.hud).toContain('smoke');
      expect(state.hud).not.toMatch(/no liquid (yet|left)/);
      expect(await drawnPixels(page), `${scene.name}: pixels the liquid or smoke covers`).toBeGreaterThan(50);
    }, 400_000);
  }

  it('says, beside the description, what the engine on show ignores of the scene', async () => {
    const r = await page.evaluate(async () => { const v = (window as any).__viscid; v.pause(); return v.openScene('smoke-plume', 'particle'); });
    expect(r.ok, r.message).toBe(true);
    await waitFor(page, `(document.getElementById('description')?.textContent ?? '').includes('particle engine ignores grid.smoke:')`, 180_000);
  }, 400_000);

  it('shows both engines in the legend side by side', async () => {
    await page.evaluate(async () => { const v = (window as any).__viscid; v.pause(); await v.openScene('honey-drop', 'side by side'); });
    await waitFor(page, 'window.__viscid.ready', 180_000);
    const legend = await page.evaluate(() => document.querySelector('#plots .plots-legend')?.textContent ?? '');
    expect(legend).toContain('particle engine');
    expect(legend).toContain('grid engine');
  }, 400_000);
});

/** Pixels that change when the liquid (surface, particles, smoke) is hidden, solids hidden in both. */
function drawnPixels(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const v = (window as any).__viscid;
    const d = v.display;
    const saved = { ...d };
    d.objects = false;
    const a = await v.pixels();
    Object.assign(d, { mesh: false, particles: false, smoke: false });
    const b = await v.pixels();
    Object.assign(d, saved);
    let count = 0;
    for (let i = 0; i < a.pixels.length; i += 4) {
      const diff = Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - b.pixels[i + 2]);
      if (diff > 36) count++;
    }
    return count;
  });
}
