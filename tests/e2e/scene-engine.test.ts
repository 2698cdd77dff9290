/**
 * The engine a scene opens in, beyond what tests/e2e/scenes.test.ts checks for every scene made
 * for the grid engine (picked while the particle engine is on show, it opens in the grid engine
 * with its description below the view, the grid engine in the legend and its liquid or smoke
 * drawn, in the same load as its picture): there are such scenes, smoke-plume and floating-box
 * among them; a scene opened in an engine that ignores part of it says what, beside the
 * description; side by side, the legend names both engines. Asserted on the DOM, waiting for
 * states (never on rates or times).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, PAUSED, ROOT, startApp, TEST_TIMEOUT, waitFor, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';

const hasChromium = existsSync(CHROMIUM);

const GRID_FIRST = readdirSync(join(ROOT, 'scenes'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(ROOT, 'scenes', f), 'utf8')) as { name: string; description: string; engines?: string[] })
  .filter((s) => s.engines?.[0] === 'grid')
  .sort((a, b) => a.name.localeCompare(b.name));

/** A 64-particle scene that both engines run in a moment. */
const TINY = readFileSync(join(ROOT, 'tests', 'cli', 'fixtures', 'tiny.json'), 'utf8');

describe.skipIf(!hasChromium)(skipTitle('chromium', 'scenes open in the engine they name'), () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    page = await app.open(PAUSED); // the honey drop, in the particle engine
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it('has grid scenes to open, smoke-plume and floating-box among them', () => {
    expect(GRID_FIRST.map((s) => s.name)).toEqual(expect.arrayContaining(['smoke-plume', 'floating-box']));
  });

  it('says, beside the description, what the engine on show ignores of the scene', async () => {
    const r = await page.evaluate(async () => { const v = (window as any).__viscid; v.pause(); return v.openScene('smoke-plume', 'particle'); });
    expect(r.ok, r.message).toBe(true);
    await waitFor(page, `(document.getElementById('description')?.textContent ?? '').includes('particle engine ignores grid.smoke:')`);
  }, TEST_TIMEOUT);

  it('shows both engines in the legend side by side', async () => {
    // A 64-particle scene: what is checked is the legend, not the scene.
    const r = await page.evaluate(async (t) => { const v = (window as any).__viscid; v.pause(); return v.loadSceneText(t, 'tiny', 'side by side'); }, TINY);
    expect(r.ok, r.message).toBe(true);
    await waitFor(page, 'window.__viscid.ready');
    const legend = await page.evaluate(() => document.querySelector('#plots .plots-legend')?.textContent ?? '');
    expect(legend).toContain('particle engine');
    expect(legend).toContain('grid engine');
  }, TEST_TIMEOUT);
});
