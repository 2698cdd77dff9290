/**
 * The app's plots (src/app/plots.ts) as drawn: no axis label is cut off and the side-by-side plots
 * carry a legend whose colours are the lines'. uPlot draws its tick labels on the canvas, so every
 * `fillText` on a 2-D canvas is recorded from the page's first script on (the text, and its box
 * from `measureText`'s actual bounding box under the context's transform, in canvas pixels); a
 * full-canvas `clearRect` (uPlot's redraw) starts the canvas's list again. Each label drawn last on
 * each chart must lie inside its canvas, and the chart (canvas and title) inside the plots' panel,
 * at the default width and in a narrow window (420 px) where the charts are narrower.
 * Waits for states, never times.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, PAUSED, ROOT, startApp, TEST_TIMEOUT, waitFor, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';

const hasChromium = existsSync(CHROMIUM);

/**
 * The 64-particle fixture at an eighth of its size (a 1 cm cube falling 2.5 mm onto an 8 cm floor,
 * 1.25 mm particles, 2.5 mm cells): both engines run it in a moment, and its kinetic energy (at
 * most about 5e-6 J) is ticked in the longest form tickText writes, such as 2.0e-6.
 */
const SMALL = (() => {
  const s = JSON.parse(readFileSync(join(ROOT, 'tests', 'cli', 'fixtures', 'tiny.json'), 'utf8'));
  for (const b of s.bodies) {
    b.shape.center = b.shape.center.map((v: number) => v / 8);
    b.shape.size = b.shape.size.map((v: number) => v / 8);
  }
  s.bodies[0].shape.size = [0.08, 0.005, 0.08]; // a floor wide enough that the liquid stays on it
  s.particle.radius /= 8;
  s.grid.cellSize /= 8;
  return JSON.stringify(s);
})();

/** Records the text drawn on every 2-D canvas of the page: `canvas.__texts`, since the last full clear. */
async function recordCanvasText(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const proto = CanvasRenderingContext2D.prototype;
    const fillText = proto.fillText;
    const clearRect = proto.clearRect;
    proto.clearRect = function (x: number, y: number, w: number, h: number) {
      if (x <= 0 && y <= 0 && x + w >= this.canvas.width && y + h >= this.canvas.height) (this.canvas as any).__texts = [];
      return clearRect.call(this, x, y, w, h);
    };
    proto.fillText = function (text: string, x: number, y: number, maxWidth?: number) {
      const m = this.measureText(text);
      const t = this.getTransform();
      const corners = [
        [x - m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent],
        [x + m.actualBoundingBoxRight, y - m.actualBoundingBoxAscent],
        [x - m.actualBoundingBoxLeft, y + m.actualBoundingBoxDescent],
        [x + m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent],
      ].map(([u, v]) => [t.a * u + t.c * v + t.e, t.b * u + t.d * v + t.f]);
      const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
      const c = this.canvas as any;
      (c.__texts ??= []).push({ text, x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) });
      return maxWidth === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, maxWidth);
    };
  });
}

interface TextBox { text: string; x0: number; x1: number; y0: number; y1: number }
interface Chart {
  title: string;
  /** The canvas's size in its own pixels, and the labels last drawn on it. */
  width: number;
  height: number;
  texts: TextBox[];
  /** Page boxes: the chart (its uPlot root), its title's text, and the plots' panel. */
  chart: DOMRect;
  titleText: DOMRect;
  panel: DOMRect;
  /** The canvas's pixels that are drawn in each of these colours (the legend's), give or take 8 a channel. */
  colourPixels: number[];
}

/** Each chart's labels and boxes, and how many of its pixels are in each of `colours` (CSS rgb()). */
async function charts(page: Page, colours: string[]): Promise<Chart[]> {
  return page.evaluate((colours) => {
    const rgb = colours.map((c) => (c.match(/\d+/g) ?? []).map(Number));
    const box = (r: DOMRect) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }) as DOMRect;
    const panel = document.getElementById('plots')!.getBoundingClientRect();
    return [...document.querySelectorAll('#plots .plot')].map((el) => {
      const canvas = el.querySelector('canvas')!;
      const title = el.querySelector('.u-title')!;
      const range = document.createRange();
      range.selectNodeContents(title);
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      const colourPixels = rgb.map(([r, g, b]) => {
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 3] > 200 && Math.abs(data[i] - r) <= 8 && Math.abs(data[i + 1] - g) <= 8 && Math.abs(data[i + 2] - b) <= 8) n++;
        return n;
      });
      return {
        title: title.textContent ?? '',
        width: canvas.width,
        height: canvas.height,
        texts: ((canvas as any).__texts ?? []) as TextBox[],
        chart: box(el.querySelector('.uplot')!.getBoundingClientRect()),
        titleText: box(range.getBoundingClientRect()),
        panel: box(panel),
        colourPixels,
      };
    });
  }, colours);
}

/** Every label inside its canvas, every chart and title inside the panel; returns what is cut, as text. */
function cutOff(cs: Chart[]): string[] {
  const cut: string[] = [];
  for (const c of cs) {
    for (const t of c.texts) {
      if (t.x0 < 0 || t.y0 < 0 || t.x1 > c.width || t.y1 > c.height) cut.push(`${c.title}: "${t.text}" at x ${t.x0.toFixed(1)}–${t.x1.toFixed(1)}, y ${t.y0.toFixed(1)}–${t.y1.toFixed(1)} of ${c.width}×${c.height}`);
    }
    const inPanel = (r: DOMRect) => r.left >= c.panel.left - 0.5 && r.right <= c.panel.right + 0.5;
    if (!inPanel(c.chart)) cut.push(`${c.title}: the chart at x ${c.chart.left}–${c.chart.right}, outside the panel ${c.panel.left}–${c.panel.right}`);
    if (c.titleText.left < c.chart.left - 0.5 || c.titleText.right > c.chart.right + 0.5) cut.push(`${c.title}: the title at x ${c.titleText.left}–${c.titleText.right}, wider than its chart ${c.chart.left}–${c.chart.right}`);
  }
  return cut;
}

describe.skipIf(!hasChromium)(skipTitle('chromium', 'the plots: labels inside their charts, a legend side by side'), () => {
  let app: App;
  let page: Page;
  /** The legend's engines and their swatches' colours (CSS rgb()). */
  let legend: { text: string; swatches: { name: string; colour: string }[] };

  beforeAll(async () => {
    app = await startApp();
    await recordCanvasText(app.context);
    page = await app.open(PAUSED);
    // Side by side on the small scene, played for 10 frames (1/3 s) so that each chart has ticks
    // of the run's values on both axes (the kinetic energy's 5.0e-6 among them; 20 frames before,
    // each a frame of both engines, meshed and plotted).
    const r = await page.evaluate(async (t) => { const v = (window as any).__viscid; v.pause(); return v.loadSceneText(t, 'small', 'side by side'); }, SMALL);
    expect(r.ok, r.message).toBe(true);
    await waitFor(page, 'window.__viscid.ready');
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, 'window.__viscid.frames.every((f) => f.frame >= 10)');
    await page.evaluate(() => (window as any).__viscid.pause());
    legend = await page.evaluate(() => {
      const el = document.querySelector('#plots .plots-legend');
      return {
        text: el?.textContent ?? '',
        swatches: [...(el?.querySelectorAll(':scope > span') ?? [])]
          .filter((s) => s.querySelector('span'))
          .map((s) => ({ name: s.textContent ?? '', colour: getComputedStyle(s.querySelector('span')!).backgroundColor })),
      };
    });
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  /** Waits until every chart has drawn tick labels on both axes (the last flush after the data came in). */
  async function drawn(): Promise<void> {
    await waitFor(page, `[...document.querySelectorAll('#plots .plot canvas')].length === 4 && [...document.querySelectorAll('#plots .plot canvas')].every((c) => (c.__texts ?? []).length >= 3)`);
  }

  it('has a legend side by side: both engines, each in its line\'s colour, and what the x axis is', async () => {
    expect(legend.text).toContain('particle engine');
    expect(legend.text).toContain('grid engine');
    expect(legend.text).toContain('simulated time');
    expect(legend.swatches.map((s) => s.name)).toEqual(['particle engine', 'grid engine']);
    await drawn();
    const cs = await charts(page, legend.swatches.map((s) => s.colour));
    // Both engines report a volume and a kinetic energy every frame: each of those charts draws both
    // lines, in the legend's colours (a 1.5 px line over 20 frames covers tens of pixels).
    for (const title of ['kinetic energy (J)', 'volume (cm³)']) {
      const c = cs.find((x) => x.title === title)!;
      expect(c, title).toBeDefined();
      expect(c.colourPixels[0], `${title}: particle line pixels`).toBeGreaterThan(10);
      expect(c.colourPixels[1], `${title}: grid line pixels`).toBeGreaterThan(10);
    }
  }, TEST_TIMEOUT);

  it('draws every axis label inside its chart, and every chart inside the panel, at the default width', async () => {
    await drawn();
    const cs = await charts(page, []);
    expect(cs.map((c) => c.title)).toEqual(['kinetic energy (J)', 'volume (cm³)', 'max speed (m/s)', 'density error (%)']);
    console.log(`plots at 960 px: labels ${cs.map((c) => c.texts.map((t) => t.text).join(' ')).join(' | ')}`);
    for (const c of cs) expect(c.texts.length, c.title).toBeGreaterThanOrEqual(3);
    // The longest tick form is drawn (the kinetic energy's, about 5e-6 J here): the case that was cut before.
    expect(cs[0].texts.some((t) => /e-\d/.test(t.text))).toBe(true);
    expect(cutOff(cs)).toEqual([]);
  }, TEST_TIMEOUT);

  it('draws every axis label inside its chart in a narrow window (the charts at their least width)', async () => {
    const widths0 = (await charts(page, [])).map((c) => c.width);
    await page.setViewportSize({ width: 420, height: 600 });
    // The charts are resized (a ResizeObserver) and redrawn narrower, with fewer ticks (two of
    // them draw one label on each axis at 120 px).
    await waitFor(page, `[...document.querySelectorAll('#plots .plot canvas')].every((c) => c.width < ${Math.min(...widths0)} && (c.__texts ?? []).length >= 2)`);
    const cs = await charts(page, []);
    console.log(`plots in a 420 px window: charts ${cs.map((c) => c.width).join(', ')} px wide (at 960 px: ${widths0.join(', ')}); labels ${cs.map((c) => c.texts.map((t) => t.text).join(' ')).join(' | ')}`);
    expect(cutOff(cs)).toEqual([]);
    await page.setViewportSize({ width: 960, height: 600 });
  }, TEST_TIMEOUT);
});
