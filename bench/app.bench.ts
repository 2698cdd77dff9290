/**
 * The web app's speed in headless Chromium with software WebGL (SwiftShader), the honey drop
 * simulating in its worker. Prints JSON:
 *   pageFps       requestAnimationFrame callbacks per second (the page's responsiveness)
 *   renderFps     full redraws per second with `continuous` on (a redraw every animation frame)
 *   drawMs        cost of one full draw (min and median of 15), waited for by a pixel read-back
 *   simFps, simMs simulated frames per wall second and worker ms per frame (step + surface mesh)
 *
 *   npx tsx bench/app.bench.ts [--scene honey-drop] [--engine particle] [--seconds 10] [--size 960x600] [--dev]
 *
 * The app is the one `vite build` makes (tests/e2e/app-server.ts builds it on start); `--dev`
 * serves it from vite's dev server instead, as `npm start` does (figures before 2026-11-29 were
 * taken so).
 */
import { startApp } from '../tests/e2e/harness.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const scene = arg('scene', 'honey-drop');
const engine = arg('engine', 'particle');
const seconds = Number(arg('seconds', '10'));
const [width, height] = arg('size', '960x600').split('x').map(Number);

const app = await startApp({ dev: process.argv.includes('--dev') });
try {
  const page = await app.open(`?scene=${encodeURIComponent(scene)}&engine=${encodeURIComponent(engine)}&continuous`);
  await page.setViewportSize({ width, height });
  await page.evaluate(() => (window as any).__viscid.play());
  await page.waitForTimeout(seconds * 1000);
  const playing = await page.evaluate(() => {
    const v = (window as any).__viscid;
    return { ...v.stats(), frames: v.frames, draw: v.benchmarkDraw(15) };
  });
  await page.evaluate(() => {
    (window as any).__viscid.continuous = false;
  });
  await page.waitForTimeout(3000);
  const onDemand = await page.evaluate(() => (window as any).__viscid.stats());
  const result = {
    scene,
    engine,
    size: `${width}x${height}`,
    seconds,
    whilePlaying: {
      pageFps: +playing.pageFps.toFixed(1),
      renderFps: +playing.renderFps.toFixed(1),
      renderScale: +playing.renderScale.toFixed(2),
      mainThreadMsPerFrame: { callback: +playing.callbackMs.toFixed(1), drawCalls: +playing.drawCallMs.toFixed(1), interval: +playing.frameIntervalMs.toFixed(1) },
      drawMs: { min: +playing.draw.minMs.toFixed(1), median: +playing.draw.medianMs.toFixed(1) },
      simFps: playing.simFps.map((x: number) => +x.toFixed(2)),
      simMsPerFrame: playing.simMs.map((x: number) => +x.toFixed(0)),
      meshMs: playing.meshMs.map((x: number) => +x.toFixed(0)),
      frame: playing.frames.map((f: { frame: number }) => f.frame),
      triangles: playing.frames.map((f: { triangles: number }) => f.triangles),
    },
    onDemandDrawing: { pageFps: +onDemand.pageFps.toFixed(1), drawsPerSecond: +onDemand.renderFps.toFixed(1) },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await app.close();
}
