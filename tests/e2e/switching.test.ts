/**
 * Picking, dropping and resetting scenes in headless Chromium whatever the app is doing: a
 * replaced scene's worker reset and reused for the next scene, which steps as in a fresh worker;
 * the engine and then the scene changed within a moment while frames compute; a scene dropped
 * while a frame of minutes computes (on two threads) replaces it at once, its workers ended; and
 * the overlay says finished at a scene's end.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Worker } from 'playwright-core';
import { CHROMIUM, PAUSED, ROOT, startApp, TEST_TIMEOUT, WAIT, waitFor, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';

const hasChromium = existsSync(CHROMIUM);
/** Per test: its waits are for states (WAIT each); a slow machine makes it slower, not red. */
const SLOW = TEST_TIMEOUT;

const scene = (name: string) => JSON.parse(readFileSync(join(ROOT, 'scenes', `${name}.json`), 'utf8'));

/**
 * The app's workers by kind: simulation workers (running a scene, or spares started ahead of
 * need), mesh workers (one in each simulation worker) and the particle engine's threads.
 */
function workers(page: Page): { sim: Worker[]; mesh: Worker[]; thread: Worker[] } {
  const all = page.workers();
  return {
    sim: all.filter((w) => w.url().includes('sim.worker')),
    mesh: all.filter((w) => w.url().includes('mesh.worker')),
    thread: all.filter((w) => w.url().includes('thread.worker')),
  };
}

/**
 * The simulation workers running `scene` (read from the worker itself: it must not be mid-frame);
 * each keeps the scenes it has run in `viscidScenes` (src/app/sim.worker.ts).
 */
async function runningScene(page: Page, scene: string): Promise<Worker[]> {
  const sim = workers(page).sim;
  // A worker just terminated may still be listed for a moment: it runs nothing.
  const names = await Promise.all(sim.map((w) => w.evaluate(() => (self as unknown as { viscidScene?: string }).viscidScene ?? null).catch(() => null)));
  return sim.filter((_, i) => names[i] === scene);
}

/** No worker is left over: one mesh worker per simulation worker, as many simulation workers as at the start. */
async function noLeftovers(page: Page, simWorkers: number): Promise<void> {
  await expect.poll(() => workers(page).sim.length, { timeout: WAIT }).toBe(simWorkers);
  await expect.poll(() => workers(page).mesh.length, { timeout: WAIT }).toBe(simWorkers);
}

/**
 * The number of simulation workers once it has settled: unchanged over three reads half a second
 * apart and matched by as many mesh workers (a worker just terminated may still be listed for a
 * moment, and spares are refilled after a switch).
 */
async function steadySimWorkers(page: Page): Promise<number> {
  let last = -1;
  let same = 0;
  for (let i = 0; i < WAIT / 500 && same < 3; i++) {
    const { sim, mesh } = workers(page);
    const n = sim.length === mesh.length ? sim.length : -1;
    same = n >= 0 && n === last ? same + 1 : 0;
    last = n;
    await page.waitForTimeout(500);
  }
  expect(same).toBe(3);
  return last;
}

const closed = (w: Worker) => new Promise<void>((resolve) => w.once('close', () => resolve()));

describe.skipIf(!hasChromium)(skipTitle('chromium', 'switching scenes in Chromium'), () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    page = await app.open(PAUSED);
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it("reuses a replaced scene's worker, reset: a scene after another steps to the same bits as in a fresh worker", async () => {
    // 64-particle scenes: B, then A (other sizes in every array the engine keeps), C on the grid.
    const tiny = JSON.parse(readFileSync(join(ROOT, 'tests/cli/fixtures/tiny.json'), 'utf8'));
    const B = JSON.stringify({ ...tiny, name: 'reuse-b' });
    const A = JSON.stringify({ ...tiny, name: 'reuse-a', particle: { radius: 0.008, substeps: 3, moves: 2 } });
    const C = JSON.stringify({ ...tiny, name: 'reuse-c' });
    const load = async (text: string, name: string, mode: string) => {
      const r = await page.evaluate(([t, n, m]) => (window as any).__viscid.loadSceneText(t, n, m), [text, name, mode]);
      expect(r.ok, r.message).toBe(true);
    };
    /** Two frames stepped from the start: what the page shows of them, and the mesh's bytes. */
    const twoFrames = async () => {
      for (let f = 1; f <= 2; f++) {
        await page.evaluate(() => (window as any).__viscid.step());
        await waitFor(page, `window.__viscid.frame >= ${f}`);
      }
      await waitFor(page, 'window.__viscid.ready');
      const mesh = await page.evaluate(() => (window as any).__viscid.exportMesh('ply'));
      const [frame] = await page.evaluate(() => (window as any).__viscid.frames);
      return { ...frame, mesh };
    };
    const history = async (scene: string) => {
      const w = await runningScene(page, scene);
      expect(w).toHaveLength(1);
      return w[0].evaluate(() => (self as unknown as { viscidScenes: string[] }).viscidScenes);
    };

    await page.evaluate(() => (window as any).__viscid.pause());
    // The page's first worker runs the honey drop: B opens in a spare that has run nothing.
    await load(B, 'B', 'particle');
    expect(await history('reuse-b')).toEqual(['reuse-b']);
    const fresh = await twoFrames();
    expect(fresh.frame).toBe(2);
    // A goes to the honey drop's worker, reset; it plays, and is replaced (by C, on the grid) while it plays.
    await load(A, 'A', 'particle');
    expect(await history('reuse-a')).toEqual(['honey-drop', 'reuse-a']);
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, 'window.__viscid.frame >= 2');
    await load(C, 'C', 'grid');
    await waitFor(page, 'window.__viscid.ready && window.__viscid.frames[0].frame >= 1');
    await page.evaluate(() => (window as any).__viscid.pause());
    // B again, in A's worker: nothing of A is left in it.
    await load(B, 'B', 'particle');
    expect(await history('reuse-b')).toEqual(['honey-drop', 'reuse-a', 'reuse-b']);
    const reused = await twoFrames();
    expect({ ...reused, mesh: reused.mesh.length }).toEqual({ ...fresh, mesh: fresh.mesh.length });
    expect(reused.mesh === fresh.mesh, "frame 2's mesh, bytes").toBe(true);
    // The honey drop again, paused at frame 0, as the page opened: the next test's start.
    expect((await page.evaluate(() => (window as any).__viscid.openScene('honey-drop', 'particle'))).ok).toBe(true);
  }, SLOW);

  it('engine and then scene changed within a moment while frames compute: the scene selected runs', async () => {
    const steady = await steadySimWorkers(page); // the spare workers have started
    expect(steady).toBeGreaterThanOrEqual(1);
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, 'window.__viscid.frame >= 1'); // the honey drop is stepping
    await page.evaluate(async () => {
      const v = (window as any).__viscid;
      const engine = v.setMode('grid');
      await new Promise((r) => setTimeout(r, 200));
      // paint-drops names the particle engine; asked for on the grid by name, the grid it is.
      await Promise.all([engine, v.openScene('paint-drops', 'grid')]);
    });
    await waitFor(page, `window.__viscid.ready && window.__viscid.frames[0].frame >= 1`); // it steps
    await waitFor(page, `window.__viscid.hudText.startsWith('paint-drops')`); // refreshed twice a second
    const s = await page.evaluate(() => {
      const v = (window as any).__viscid;
      return { scene: v.sceneName, mode: v.mode, frames: v.frames, status: v.status, hud: v.hudText };
    });
    expect(s.scene).toBe('paint-drops');
    expect(s.mode).toBe('grid');
    expect(s.frames.map((f: { engine: string; scene: string }) => `${f.engine}:${f.scene}`)).toEqual(['grid:paint-drops']);
    expect(s.status).toBe('playing');
    expect(s.hud).toMatch(/^paint-drops · grid · playing/);
    await noLeftovers(page, steady); // the honey drop's workers are gone

    // Reset starts the scene selected over.
    const f = s.frames[0].frame;
    // The frames read as the reset resolves, in the same task (the scene plays on after it).
    const reset = await page.evaluate(async () => { const v = (window as any).__viscid; const r = await v.reset(); return { ok: r.ok, frames: v.frames }; });
    expect(reset.ok).toBe(true);
    const after = reset.frames;
    expect(after.map((x: { engine: string; scene: string }) => `${x.engine}:${x.scene}`)).toEqual(['grid:paint-drops']);
    expect(after[0].frame).toBeLessThan(f);
  }, SLOW);

  it('a scene dropped while a frame of minutes computes on two threads replaces it at once', async () => {
    await page.evaluate(() => (window as any).__viscid.pause()); // play only once its worker is known
    const steadySim = await steadySimWorkers(page); // the spares are back
    // The honey drop at 400 sub-steps a frame: its first frame takes minutes here.
    const slow = scene('honey-drop');
    slow.particle = { ...slow.particle, substeps: 400, workers: 2 };
    expect((await page.evaluate(([t]) => (window as any).__viscid.loadSceneText(t, 'slow honey', 'particle'), [JSON.stringify(slow)])).ok).toBe(true);
    const running = await runningScene(page, 'honey-drop');
    expect(running).toHaveLength(1);
    await page.evaluate(() => (window as any).__viscid.play());
    // The first frame is under way once its threads have started.
    await expect.poll(() => workers(page).thread.length, { timeout: WAIT }).toBeGreaterThanOrEqual(1);
    const threads = workers(page).thread;
    const ended = Promise.all([...running, ...threads].map(closed));
    expect(await page.evaluate(() => (window as any).__viscid.frame)).toBe(0);

    const jello = scene('jello-drop');
    const t0 = Date.now();
    const r = await page.evaluate(([t]) => (window as any).__viscid.loadSceneText(t, 'jello-drop', 'grid'), [JSON.stringify(jello)]);
    expect(r.ok).toBe(true);
    await waitFor(page, `window.__viscid.frames[0].frame >= 1`);
    const ms = Date.now() - t0;
    await ended; // the slow scene's simulation worker and its threads
    const frames = await page.evaluate(() => (window as any).__viscid.frames);
    expect(frames.map((x: { engine: string; scene: string }) => `${x.engine}:${x.scene}`)).toEqual(['grid:jello-drop']);
    expect(workers(page).thread).toHaveLength(0);
    await noLeftovers(page, steadySim); // its mesh worker went with it
    console.log(`jello-drop replaced the slow honey mid-frame and ran a frame in ${ms} ms`);
  }, SLOW);

  it('says finished at the end of a scene, and plays it again from the start', async () => {
    // Two frames long: the end is reached, and the replay's end after a load of its own.
    const short = scene('jello-drop');
    short.duration = 2 / short.fps;
    expect((await page.evaluate(([t]) => (window as any).__viscid.loadSceneText(t, 'short jello', 'grid'), [JSON.stringify(short)])).ok).toBe(true);
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, `window.__viscid.status === 'finished'`);
    await waitFor(page, `window.__viscid.hudText.includes('finished')`);
    const s = await page.evaluate(() => ({ frames: (window as any).__viscid.frames, hud: (window as any).__viscid.hudText }));
    expect(s.frames[0].frame).toBe(2);
    expect(s.frames[0].finished).toBe(true);
    expect(s.hud).toMatch(/^short jello · grid · finished/);
    expect(s.hud).toContain('frame 2 / 2');
    const loads = s.frames[0].loads;
    await page.evaluate(() => (window as any).__viscid.play());
    // Back at the start: the worker loads the scene again (its frame 0), then plays it to its end.
    // Counted, not caught in passing: a read of "playing, or a frame before the end" could miss a
    // replay faster than its polling, and waited out its timeout (600 s in a CI run of 2026-11-29).
    await waitFor(page, `window.__viscid.frames[0].loads > ${loads}`);
    await waitFor(page, `window.__viscid.frames[0].finished && window.__viscid.frames[0].frame === 2`);
  }, SLOW);
});
