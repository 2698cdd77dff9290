/**
 * The app in headless Chromium (software WebGL): it opens on the honey drop and draws honey,
 * plays, refuses a bad scene while the old one keeps running, exports a closed OBJ, and draws
 * particle and grid side by side. Pixels are read back from the canvas and counted.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import type { Page } from 'playwright-core';
import { CHROMIUM, countHoney, countSmoke, PAUSED, readPixels, saveArtifact, saveScreenshot, startApp, TEST_TIMEOUT, WAIT, waitFor, type App } from './harness.ts';
import { skipTitle } from '../skips.ts';
import { countAnimationFrames } from './raf-count.ts';

const hasChromium = existsSync(CHROMIUM);

/** Every edge of a closed (watertight) mesh is shared by exactly two triangles. */
function objEdgeReport(text: string): { vertices: number; faces: number; openEdges: number; overusedEdges: number } {
  const weld = new Map<string, number>();
  const id: number[] = [];
  const faces: number[][] = [];
  for (const line of text.split('\n')) {
    const parts = line.trim().split(/\s+/);
    if (parts[0] === 'v') {
      const key = `${parts[1]} ${parts[2]} ${parts[3]}`;
      if (!weld.has(key)) weld.set(key, weld.size);
      id.push(weld.get(key)!);
    } else if (parts[0] === 'f') {
      faces.push(parts.slice(1).map((p) => {
        const i = parseInt(p.split('/')[0], 10);
        return id[i > 0 ? i - 1 : id.length + i];
      }));
    }
  }
  const edges = new Map<string, number>();
  for (const f of faces) {
    for (let k = 0; k < f.length; k++) {
      const a = f[k], b = f[(k + 1) % f.length];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  }
  let openEdges = 0, overusedEdges = 0;
  for (const n of edges.values()) {
    if (n === 1) openEdges++;
    else if (n > 2) overusedEdges++;
  }
  return { vertices: weld.size, faces: faces.length, openEdges, overusedEdges };
}

/** The faces a PLY file's header states (`element face N`), or -1 without a header. */
function plyFaces(bytes: Uint8Array): number {
  const head = strFromU8(bytes.subarray(0, 512), true);
  if (!head.startsWith('ply\n') || !head.includes('end_header\n')) return -1;
  return Number(/^element face (\d+)$/m.exec(head)?.[1] ?? -1);
}

/** Per test: software WebGL on a busy 2-core machine is slow, and simulation frames take seconds; the waits are for states. */
const SLOW = TEST_TIMEOUT;

describe.skipIf(!hasChromium)(skipTitle('chromium', 'viscid app in Chromium'), () => {
  let app: App;
  let page: Page;

  beforeAll(async () => {
    app = await startApp();
    // Counts the page's requestAnimationFrame calls (the idle test below reads it).
    await countAnimationFrames(app.context);
    page = await app.open(PAUSED); // the honey drop at frame 0: the tests play it where they need frames
  }, TEST_TIMEOUT);

  afterAll(async () => {
    await app?.close();
  });

  it('opens on the honey drop and draws honey-coloured pixels', async () => {
    const info = await page.evaluate(() => {
      const v = (window as any).__viscid;
      return { scene: v.sceneName, mode: v.mode, controls: v.paramControls, frames: v.frames };
    });
    expect(info.scene).toBe('honey-drop');
    expect(info.mode).toBe('particle');
    expect(info.frames[0].error).toBeNull();
    // The parameter panel is generated from the schema: viscosity, adhesion strengths, substeps…
    expect(info.controls).toBeGreaterThan(20);
    const pixels = await readPixels(page);
    await saveScreenshot(page, 'app-honey-drop.png');
    const honey = countHoney(pixels);
    // The blob covers thousands of pixels at 960×600; the background and the ball have none.
    expect(honey).toBeGreaterThan(2000);
  }, SLOW);

  it('paused, requests no animation frame once settled, and wakes and draws on a camera drag', async () => {
    const before = await readPixels(page);
    // A window with no draw in it (a frame the worker sends late, answering the display options,
    // is drawn and the loop settles again): the loop asked for no animation frame in it.
    let quiet: { raf: number; draws: number } | null = null;
    for (let tries = 0; tries < 5 && !quiet; tries++) {
      await waitFor(page, 'window.__viscid.loopRunning === false');
      const a = await page.evaluate(() => ({ raf: (window as any).__rafCalls as number, draws: (window as any).__viscid.renderFrames as number }));
      await page.waitForTimeout(2000);
      const b = await page.evaluate(() => ({ raf: (window as any).__rafCalls as number, draws: (window as any).__viscid.renderFrames as number }));
      if (b.draws === a.draws) quiet = { raf: b.raf - a.raf, draws: b.draws - a.draws };
    }
    expect(quiet).toEqual({ raf: 0, draws: 0 });
    // The overlay, refreshed by the stopped loop's check, shows the rate it last drew at, said to be the last, not the 0 a sleeping page counts.
    await waitFor(page, `window.__viscid.hudText.includes('(last; idle)')`);
    expect(await page.evaluate(() => (window as any).__viscid.hudText)).toMatch(/^honey-drop · particle · paused · drawing \d+ fps \(last; idle\)/);
    // A left drag on the canvas orbits the camera: the loop wakes and draws it, nothing else asked.
    const camera0 = await page.evaluate(() => ({ yaw: (window as any).__viscid.camera.yaw, pitch: (window as any).__viscid.camera.pitch }));
    const draws0 = await page.evaluate(() => (window as any).__viscid.renderFrames);
    const box = (await page.locator('#view').boundingBox())!;
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + 120, cy + 20, { steps: 6 });
    await page.mouse.up();
    await waitFor(page, `window.__viscid.renderFrames > ${draws0}`);
    expect(await page.evaluate(() => (window as any).__viscid.camera.yaw)).not.toBe(camera0.yaw);
    const after = await readPixels(page);
    let changed = 0;
    for (let i = 0; i < after.data.length; i += 4) {
      if (Math.abs(after.data[i] - before.data[i]) + Math.abs(after.data[i + 1] - before.data[i + 1]) + Math.abs(after.data[i + 2] - before.data[i + 2]) > 30) changed++;
    }
    // The honey, the ball and the domain box turn by about 55°: tens of thousands of pixels change.
    expect(changed).toBeGreaterThan(5000);
    // Set back from a script (no event): drawn as it was, and the loop settles again.
    await page.evaluate((c) => Object.assign((window as any).__viscid.camera, c), camera0);
    await waitFor(page, 'window.__viscid.loopRunning === false');
    const honey = countHoney(before);
    expect(Math.abs(countHoney(await readPixels(page)) - honey)).toBeLessThanOrEqual(honey * 0.02);
  }, SLOW);

  it('plays: frames advance while the page keeps drawing', async () => {
    const f0 = await page.evaluate(() => (window as any).__viscid.frame);
    const draws0 = await page.evaluate(() => (window as any).__viscid.renderFrames);
    await page.evaluate(() => (window as any).__viscid.play());
    // A frame computed and drawn while playing (a honey-drop frame is seconds of SwiftShader and
    // the worker's CPU: one shows the advance as well as two did).
    await waitFor(page, `window.__viscid.frame >= ${f0 + 1}`);
    const after = await page.evaluate(() => ({ frame: (window as any).__viscid.frame, draws: (window as any).__viscid.renderFrames }));
    expect(after.frame).toBeGreaterThanOrEqual(f0 + 1);
    expect(after.draws).toBeGreaterThan(draws0);
    // The particle engine's surface is meshed on the mesh worker while the next frame steps.
    expect(page.workers().some((w) => w.url().includes('mesh.worker'))).toBe(true);
    await page.evaluate(() => (window as any).__viscid.pause()); // no frames computed beside the checks that need none
  }, SLOW);

  it('shows a bad scene\u2019s errors with their paths and keeps the running scene going', async () => {
    const bad = JSON.stringify({
      name: 'broken',
      materials: { syrup: { kind: 'liquid', viscosity: { value: -2, unit: 'Pa.s' } } },
      bodies: [{ material: 'nothing', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.05 } }],
      particle: { radius: 0.002, substepz: 3 },
    });
    // Through the page's own "open scene file" input, as a user would.
    await page.setInputFiles('#file', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    await waitFor(page, `getComputedStyle(document.getElementById('errors')).display !== 'none'`);
    const box = await page.evaluate(() => {
      const el = document.getElementById('errors')!;
      return { shown: getComputedStyle(el).display !== 'none', text: el.textContent ?? '' };
    });
    expect(box.shown).toBe(true);
    expect(box.text).toContain('materials.syrup.viscosity.value');
    expect(box.text).toContain('bodies[0].material');
    expect(box.text).toContain('particle.substepz');
    await saveScreenshot(page, 'app-bad-scene.png');
    const state = await page.evaluate(() => ({ scene: (window as any).__viscid.sceneName, frame: (window as any).__viscid.frame, error: (window as any).__viscid.lastError }));
    expect(state.scene).toBe('honey-drop');
    expect(state.error).toMatch(/3 problems/);
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, `window.__viscid.frame >= ${state.frame + 1}`);
    expect(countHoney(await readPixels(page))).toBeGreaterThan(1000);
    await page.evaluate(() => (window as any).__viscid.pause());
  }, SLOW);

  it('cuts long values in the error box as the CLI does', async () => {
    const bad = JSON.stringify({ name: 'long', fps: 'f'.repeat(20_000), materials: { ['m'.repeat(3000)]: { kind: 'liquid', viscosity: { value: 1, unit: 'Pa.s' } } } });
    const r = await page.evaluate((t) => (window as any).__viscid.loadSceneText(t, 'long'), bad);
    expect(r.ok).toBe(false);
    const text: string = await page.evaluate(() => document.getElementById('errors')!.textContent ?? '');
    expect(text).toContain('fps');
    expect(text).toContain(`(got "${'f'.repeat(56)}...)`); // JSON cut at 60 characters, as formatIssues does
    expect(text.length).toBeLessThan(2000);
    await page.evaluate(() => (document.querySelector('#errors button') as HTMLButtonElement).click());
  }, SLOW);

  it('overlay: what users read, developer counters behind the toggle, nothing cut', async () => {
    // The overlay is refreshed twice a second: wait for it to be past the refused scene's load.
    await waitFor(page, `window.__viscid.hudText.startsWith('honey-drop · particle · p') && window.__viscid.hudText.includes('since frame 0')`);
    const hud: string = await page.evaluate(() => (window as any).__viscid.hudText);
    expect(hud).toMatch(/^honey-drop · particle · (playing|paused) · drawing \d+ fps/);
    expect(hud).toMatch(/particle.*: frame \d+ \/ 120 · t \d\.\d{3} s · \d+\.\d\d frames\/s/);
    expect(hud).toMatch(/particles · liquid \d+ cm³ · [+−]\d+\.\d % since frame 0/);
    expect(hud).not.toMatch(/guardPushes|densityPasses|stages|triangles|…/);
    await page.evaluate(() => { (window as any).__viscid.details = true; });
    await waitFor(page, `window.__viscid.hudText.includes('surface mesh')`);
    expect(await page.evaluate(() => (window as any).__viscid.hudText)).toMatch(/triangles/);
    // The overlay wraps long lines instead of cutting them.
    const box = await page.evaluate(() => { const el = document.getElementById('hud')!; return { clipped: el.scrollWidth > el.clientWidth + 1, overflow: getComputedStyle(el).textOverflow }; });
    expect(box.clipped).toBe(false);
    expect(box.overflow).not.toBe('ellipsis');
    await page.evaluate(() => { (window as any).__viscid.details = false; });
  }, SLOW);

  it('plots sit below the view and fold away', async () => {
    const layout = () => page.evaluate(() => {
      const r = (id: string) => document.getElementById(id)!.getBoundingClientRect();
      return { view: r('view').bottom, plots: r('plots-panel').top, viewHeight: r('view').height };
    });
    const open = await layout();
    expect(open.view).toBeLessThanOrEqual(open.plots + 0.5); // the plots do not cover the view
    await page.click('#plots-panel > summary');
    const folded = await layout();
    expect(folded.viewHeight).toBeGreaterThan(open.viewHeight + 60);
    await page.click('#plots-panel > summary');
  }, SLOW);

  it('downloads the exported mesh under the name viscid run gives it', async () => {
    await page.evaluate(() => (window as any).__viscid.pause());
    await waitFor(page, 'window.__viscid.frames[0].playing === false'); // the frames still under way are in
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: WAIT }),
      page.evaluate(() => {
        const button = [...document.querySelectorAll('.lil-gui button')].find((b) => b.textContent?.trim() === 'export current mesh') as HTMLButtonElement;
        button.click();
      }),
    ]);
    // The frame on show once the export is in: frames still with the mesh worker at the pause come
    // in before it (frame-poster.ts exportMesh waits for them), so it is the frame exported.
    const frame: number = await page.evaluate(() => (window as any).__viscid.frame);
    // In the scene's output.mesh format (binary PLY by default), as viscid run writes it.
    expect(await page.evaluate(() => (window as any).__viscid.sceneValue('output.mesh'))).toBe('ply');
    expect(download.suggestedFilename()).toBe(`mesh-${String(frame).padStart(4, '0')}.ply`);
  }, SLOW);

  it('exports the current mesh as an OBJ that parses back into a closed mesh', async () => {
    await page.evaluate(() => (window as any).__viscid.pause());
    const b64 = await page.evaluate(() => (window as any).__viscid.exportMesh('obj'));
    const text = Buffer.from(b64, 'base64').toString('utf8');
    saveArtifact('app-export.obj', text);
    const r = objEdgeReport(text);
    expect(r.faces).toBeGreaterThan(100);
    expect(r.vertices).toBeGreaterThan(50);
    expect(r.openEdges).toBe(0);
    expect(r.overusedEdges).toBe(0);
  }, SLOW);

  it('exports PLY, GLB, a PNG screenshot and a recorded frame range as one zip', async () => {
    const ply = Buffer.from(await page.evaluate(() => (window as any).__viscid.exportMesh('ply')), 'base64');
    expect(ply.subarray(0, 4).toString('latin1')).toBe('ply\n');
    const glb = Buffer.from(await page.evaluate(() => (window as any).__viscid.exportMesh('glb')), 'base64');
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(glb.readUInt32LE(8)).toBe(glb.length); // GLB header: total length
    const png = Buffer.from(await page.evaluate(() => (window as any).__viscid.screenshot()), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    saveArtifact('app-screenshot.png', png);
    // 300 ms, and on until 4 frames were drawn into it and the encoder handed over video (hook.ts
    // recordVideo): the WebM's container is what is checked; each 100 ms more was ~3 draws of the
    // whole view on SwiftShader and their encoding.
    const webm = Buffer.from(await page.evaluate(() => (window as any).__viscid.recordVideo(300)), 'base64');
    expect([...webm.subarray(0, 4)]).toEqual([0x1a, 0x45, 0xdf, 0xa3]); // EBML (WebM) magic
    saveArtifact('app-recording.webm', webm);

    // Recorded as binary PLY (a third of the OBJ text's bytes to zip and hand back; the OBJ
    // encoder's closed mesh is the export test's above).
    await page.evaluate(() => (window as any).__viscid.recordMeshes(true, 'ply'));
    const f0 = await page.evaluate(() => (window as any).__viscid.frame);
    await page.evaluate(() => (window as any).__viscid.step());
    await waitFor(page, `window.__viscid.frame >= ${f0 + 1}`);
    await page.evaluate(() => (window as any).__viscid.step());
    await waitFor(page, `window.__viscid.frame >= ${f0 + 2}`);
    const zips = await page.evaluate(() => (window as any).__viscid.recordMeshes(false));
    expect(zips).toHaveLength(1);
    expect(zips[0].frames).toBe(2);
    const files = unzipSync(new Uint8Array(Buffer.from(zips[0].data, 'base64')));
    const names = Object.keys(files).sort();
    // Named as `viscid run` names them (src/io/frame-names.ts), in the engine's folder.
    expect(zips[0].name).toBe('honey-drop-particle.zip');
    expect(names).toEqual([
      `particle/mesh-${String(f0 + 1).padStart(4, '0')}.ply`,
      `particle/mesh-${String(f0 + 2).padStart(4, '0')}.ply`,
    ]);
    // Each frame's PLY holds the surface: the face count its header states.
    for (const name of names) expect(plyFaces(files[name]), name).toBeGreaterThan(100);
  }, SLOW);

  it('applies a parameter edited in the generated panel on reset', async () => {
    const before = await page.evaluate(() => (window as any).__viscid.sceneValue('particle.substeps'));
    const wanted = before === 3 ? 2 : 3;
    const edited = await page.evaluate((value) => {
      const folders = [...document.querySelectorAll('.lil-gui')].filter((g) => g.querySelector(':scope > .lil-title')?.textContent === 'particle');
      const ctrl = folders.flatMap((g) => [...g.querySelectorAll(':scope > .lil-children > .lil-controller')])
        .find((c) => c.querySelector('.lil-name')?.textContent === 'substeps');
      const input = ctrl?.querySelector('input:not([type=checkbox])') as HTMLInputElement | null;
      if (!input) return false;
      input.value = String(value);
      input.dispatchEvent(new Event('input'));
      input.dispatchEvent(new Event('change'));
      input.dispatchEvent(new Event('blur'));
      return (window as any).__viscid.paramsDirty;
    }, wanted);
    expect(edited).toBe(true);
    await page.evaluate(() => (window as any).__viscid.reset());
    expect(await page.evaluate(() => (window as any).__viscid.sceneValue('particle.substeps'))).toBe(wanted);
    expect(await page.evaluate(() => (window as any).__viscid.paramsDirty)).toBe(false);
  }, SLOW);

  it('draws particle and grid side by side in two viewports', async () => {
    await page.evaluate(() => (window as any).__viscid.setMode('side by side'));
    await waitFor(page, `window.__viscid.mode === 'side by side' && window.__viscid.frames.length === 2 && window.__viscid.ready`);
    const frames = await page.evaluate(() => (window as any).__viscid.frames);
    expect(frames.map((f: { engine: string }) => f.engine)).toEqual(['particle', 'grid']);
    expect(frames.map((f: { error: string | null }) => f.error)).toEqual([null, null]);
    const pixels = await readPixels(page);
    await saveScreenshot(page, 'app-side-by-side.png');
    const half = Math.floor(pixels.width / 2);
    const left = countHoney(pixels, 0, half);
    const right = countHoney(pixels, half, pixels.width);
    expect(left).toBeGreaterThan(500);
    expect(right).toBeGreaterThan(500);
    // Two viewports, one camera: a divider column of background separates them.
    expect(countHoney(pixels, half - 1, half + 1)).toBeLessThan(pixels.height / 4);
  }, SLOW);

  it('side by side: a refused scene leaves both views on the previous scene (two-phase load)', async () => {
    const frames0 = await page.evaluate(() => (window as any).__viscid.frames);
    const bad = JSON.stringify({ name: 'half', materials: { syrup: { kind: 'liquid', viscosity: { value: -2, unit: 'Pa.s' } } } });
    const r = await page.evaluate((text) => (window as any).__viscid.loadSceneText(text, 'half'), bad);
    expect(r.ok).toBe(false);
    const after = await page.evaluate(() => ({ scene: (window as any).__viscid.sceneName, frames: (window as any).__viscid.frames }));
    expect(after.scene).toBe('honey-drop');
    expect(after.frames.map((f: { engine: string }) => f.engine)).toEqual(['particle', 'grid']);
    // Both views still run the honey drop: no view restarted at frame 0 with another scene.
    for (let i = 0; i < 2; i++) expect(after.frames[i].frame).toBeGreaterThanOrEqual(frames0[i].frame);
  }, SLOW);

  it('draws the grid engine\u2019s smoke as grey-white density splats', async () => {
    await page.evaluate(() => (window as any).__viscid.openScene('smoke-plume', 'grid'));
    expect(await page.evaluate(() => (window as any).__viscid.display.smoke)).toBe(true);
    await page.evaluate(() => (window as any).__viscid.play());
    await waitFor(page, `window.__viscid.frames[0].frame >= 4`);
    const pixels = await readPixels(page);
    await saveScreenshot(page, 'app-smoke-plume.png');
    const smoke = countSmoke(pixels);
    // A plume of a few hundred pixels at frame 4 (the view shares the page with the scene's
    // description): 416, 561, 640 and 1 003 smoke pixels at frames 1, 3, 4 and 8, none with the smoke
    // off (2026-12-01); the toggle below shows they are the smoke's.
    expect(smoke).toBeGreaterThan(300);
    // Toggled off, the same view has (almost) none: the pixels counted are the smoke's.
    await page.evaluate(() => { (window as any).__viscid.pause(); (window as any).__viscid.display.smoke = false; (window as any).__viscid.display.particles = false; });
    const off = await readPixels(page);
    expect(countSmoke(off)).toBeLessThan(smoke / 10);
    await page.evaluate(() => { (window as any).__viscid.display.smoke = true; });
  }, SLOW);
});
