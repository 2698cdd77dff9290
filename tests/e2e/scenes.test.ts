/**
 * Every shipped scene in the app, in headless Chromium: opened paused in the engine it is written
 * for and pictured as it opens (frame 0, drawn once: the framing is the camera's, set on load), or,
 * for a scene whose liquid all comes from sources (nothing to see at frame 0), stepped one frame;
 * photographed into tests/artifacts/scene-<name>.png (kept by CI), and
 * checked from read-back pixels that the liquid is in view: drawn with and without the liquid
 * (solid objects hidden in both), the view differs on a good number of pixels, few of them on the
 * canvas's edge (the camera frames the scene rather than sitting in it or cutting it off), and
 * the camera's eye lies outside the scene's bounds.
 *
 * A scene made for the grid engine (its `engines` names the grid first) is picked by name while
 * the particle engine is on show, as a user would: it opens in the grid engine, with its
 * description below the view, the grid engine in the plots' legend and its liquid (or smoke) in
 * the overlay (one load per scene checks both). gpu-dam-break, in this Chromium without WebGPU,
 * runs on the CPU engine and says why (tests/e2e/webgpu.test.ts runs it on WebGPU). Then the rest
 * of the engine choice, on the same page: there are such scenes, smoke-plume and floating-box among
 * them; a scene opened in an engine that ignores part of it says what, beside the description
 * (these were tests/e2e/scene-engine.test.ts, a page of its own opened for three checks: 8 s of the
 * CI run of 2026-12-01, 5 s of it the page's opening; its third, that the legend side by side
 * names both engines, is tests/e2e/plots.test.ts's first). Waits are for states, never on rates or
 * times.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, PAUSED, ROOT, saveScreenshot, startApp, TEST_TIMEOUT, waitFor, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';

const hasChromium = existsSync(CHROMIUM);

/**
 * The frame a scene is photographed at: 0, as it opens, where a body holds liquid from time 0;
 * 1 where it has none then (its liquid comes from sources: the first frame emits it). Stepping a frame took as
 * long as opening the scene or longer (cup-pour 15 s, dam-break 9 s at a load of 17), and the
 * camera that the check is on is set when the scene opens; the scenes with sources still step a
 * frame in each engine (honey-on-spinner in the particle engine, four on the grid).
 */
function frameOf(scene: SceneFile): number {
  const liquid = (scene.bodies ?? []).some((b) => scene.materials[b.material]?.kind !== 'solid' && !((b.start ?? 0) > 0));
  return liquid ? 0 : 1;
}

/**
 * The engine each scene is shown in: the one its description names, and the particle engine for
 * Steele et al.'s scenes. gel-fan (64 000 particles) runs on the grid here to keep the suite quick;
 * its framing does not depend on the engine.
 */
const GRID_SCENES = new Set(['dam-break', 'floating-box', 'gel-fan', 'honey-drop-grid', 'honey-melt', 'jello-drop', 'jelly-block', 'smoke-plume', 'soap-pour', 'spout-fill']);

const SCENES = readdirSync(join(ROOT, 'scenes')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

interface SceneFile {
  name: string;
  description: string;
  engines?: string[];
  materials: Record<string, { kind: string }>;
  bodies?: { material: string; start?: number }[];
}
const sceneFile = (name: string) => JSON.parse(readFileSync(join(ROOT, 'scenes', `${name}.json`), 'utf8')) as SceneFile;

/** The scenes made for the grid engine: their `engines` names the grid first. */
const GRID_FIRST = SCENES.filter((n) => sceneFile(n).engines?.[0] === 'grid');

/** The engine a scene is shown in here. */
const engineOf = (name: string) => (GRID_SCENES.has(name) || GRID_FIRST.includes(name) ? 'grid' : 'particle');

/**
 * The order the scenes are shown in: the honey drop first (the page opens on it, paused, in the
 * particle engine: it is pictured as it opened, with no second load), then each scene shown in the
 * particle engine followed by a grid-first scene, which is thus picked by name while the particle
 * engine is on show; the grid-first scenes left over come after a 64-particle scene loaded in the
 * particle engine (TINY), and the other grid scenes last. Five loads of TINY fewer than one before
 * every grid-first scene (BENCHMARKS.md, "The browser files, eleventh pass").
 */
const ORDER = (() => {
  const particle = SCENES.filter((n) => engineOf(n) === 'particle' && n !== 'honey-drop');
  const gridFirst = [...GRID_FIRST];
  const order = ['honey-drop'];
  if (gridFirst.length) order.push(gridFirst.shift()!);
  for (const p of particle) {
    order.push(p);
    if (gridFirst.length) order.push(gridFirst.shift()!);
  }
  order.push(...gridFirst, ...SCENES.filter((n) => !order.includes(n) && !gridFirst.includes(n)));
  return order;
})();

/** A 64-particle scene, loaded in the particle engine to have that engine on show at little cost. */
const TINY = readFileSync(join(ROOT, 'tests', 'cli', 'fixtures', 'tiny.json'), 'utf8');

describe.skipIf(!hasChromium)(skipTitle('chromium', 'every shipped scene in the app'), () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    page = await app.open(PAUSED);
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it('covers every scene in scenes/', () => {
    expect(SCENES.length).toBeGreaterThanOrEqual(10);
  });

  it('has grid scenes to open, smoke-plume and floating-box among them', () => {
    expect(GRID_FIRST).toEqual(expect.arrayContaining(['smoke-plume', 'floating-box']));
  });

  it('shows every scene, the honey drop first', () => {
    expect([...ORDER].sort()).toEqual(SCENES);
    expect(ORDER[0]).toBe('honey-drop');
  });

  for (const name of ORDER) {
    const engine = engineOf(name);
    const FRAME = frameOf(sceneFile(name));
    it(`${name} (${engine}): the liquid is in view at frame ${FRAME}`, async () => {
      const gridFirst = GRID_FIRST.includes(name);
      if (gridFirst && (await page.evaluate(() => (window as any).__viscid.mode)) !== 'particle') {
        // The particle engine on show (a small scene in it), then the scene picked by name alone.
        const tiny = await page.evaluate((t) => { const v = (window as any).__viscid; v.pause(); return v.loadSceneText(t, 'tiny', 'particle'); }, TINY);
        expect(tiny.ok, tiny.message).toBe(true);
      }
      if (gridFirst) expect(await page.evaluate(() => (window as any).__viscid.mode)).toBe('particle');
      // The honey drop is what the page opened on (paused, at frame 0, in the particle engine): pictured as it opened.
      if (name !== 'honey-drop') {
        const r = await page.evaluate(([n, e]) => { const v = (window as any).__viscid; v.pause(); return v.openScene(n, e || undefined); }, [name, gridFirst ? '' : engine]);
        expect(r.ok, r.message).toBe(true);
      }
      for (let f = 1; f <= FRAME; f++) {
        await page.evaluate(() => (window as any).__viscid.step());
        await waitFor(page, `window.__viscid.frame >= ${f}`);
      }
      await waitFor(page, 'window.__viscid.ready');
      const state = await page.evaluate(() => {
        const v = (window as any).__viscid;
        const b = v.viewBounds;
        return {
          frames: v.frames,
          scene: v.sceneName,
          mode: v.mode,
          eyeOutside: v.camera.eyeOutside(b.min, b.max),
          description: document.getElementById('description')?.textContent ?? '',
          legend: document.querySelector('#plots .plots-legend')?.textContent ?? '',
          backend: v.frames[0]?.backend ?? null,
        };
      });
      expect(state.scene).toBe(name);
      expect(state.mode).toBe(engine);
      expect(state.frames.map((f: { engine: string }) => f.engine)).toEqual([engine]);
      if (gridFirst) {
        // The description, then a line for each feature the grid engine ignores of the scene
        // (honey-drop-grid's ball friction, for one: engines.ts ignoredFeatures).
        const [shown, ...ignored] = state.description.split('\n');
        expect(shown).toBe(sceneFile(name).description);
        for (const line of ignored) expect(line).toMatch(/^grid engine ignores \S+: /);
        expect(state.legend).toContain('grid engine');
      }
      expect(state.frames.map((f: { scene: string }) => f.scene)).toEqual([name]);
      expect(state.frames[0].error).toBeNull();
      expect(state.frames[0].frame).toBe(FRAME);
      expect(state.eyeOutside).toBe(true);

      await waitFor(page, `window.__viscid.hudText.includes('frame ${FRAME} /')`); // the overlay in the picture is up to date
      if (name === 'gpu-dam-break') {
        // Chromium's default flags give no WebGPU: the GPU scene runs on the CPU engine and says why
        // (the run on WebGPU is tests/e2e/webgpu.test.ts's, in a Chromium started with WebGPU).
        expect(state.backend?.name).toBe('cpu');
        expect(state.backend?.note).toMatch(/^no WebGPU/);
        await waitFor(page, "window.__viscid.hudText.includes('on the CPU: no WebGPU')");
      }
      if (gridFirst) {
        const hud: string = await page.evaluate(() => (window as any).__viscid.hudText);
        expect(hud).not.toMatch(/no liquid (yet|left)/);
        if (name === 'smoke-plume') expect(hud).toContain('smoke');
      }
      await saveScreenshot(page, `scene-${name}.png`);
      const liquid = await liquidPixels(page);
      const total = liquid.total;
      // In view: at frame 1 honey-coil's 3 mm stream is the least there is, about 150 pixels of 710 × 470 ...
      expect(liquid.count, `${name}: liquid pixels`).toBeGreaterThan(50);
      // ... not filling it (a camera inside the liquid) ...
      expect(liquid.count, `${name}: liquid pixels`).toBeLessThan(0.6 * total);
      // ... and not cut off by the canvas's edges.
      expect(liquid.onBorder, `${name}: liquid pixels on the edge`).toBeLessThan(0.02 * liquid.count + 4);
    }, TEST_TIMEOUT);
  }

  it('says, beside the description, what the engine on show ignores of the scene', async () => {
    const r = await page.evaluate(async () => { const v = (window as any).__viscid; v.pause(); return v.openScene('smoke-plume', 'particle'); });
    expect(r.ok, r.message).toBe(true);
    await waitFor(page, `(document.getElementById('description')?.textContent ?? '').includes('particle engine ignores grid.smoke:')`);
  }, TEST_TIMEOUT);
});

/**
 * The pixels the liquid covers: the view drawn without the solid objects, with and without the
 * liquid (surface, particles, smoke), compared in the page (summed channel difference above 36);
 * the display is restored after. Objects are left out of both, so that liquid in a cup still
 * counts as in view: the check is on the camera's framing.
 */
function liquidPixels(page: Page): Promise<{ count: number; onBorder: number; total: number }> {
  return page.evaluate(async () => {
    const v = (window as any).__viscid;
    const d = v.display;
    const saved = { ...d };
    d.objects = false;
    const a = await v.pixels();
    Object.assign(d, { mesh: false, particles: false, smoke: false });
    const b = await v.pixels();
    Object.assign(d, saved);
    const { width: w, height: h } = a;
    let count = 0, onBorder = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = 4 * (y * w + x);
        const diff = Math.abs(a.pixels[i] - b.pixels[i]) + Math.abs(a.pixels[i + 1] - b.pixels[i + 1]) + Math.abs(a.pixels[i + 2] - b.pixels[i + 2]);
        if (diff <= 36) continue;
        count++;
        if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2) onBorder++;
      }
    }
    return { count, onBorder, total: w * h };
  });
}
