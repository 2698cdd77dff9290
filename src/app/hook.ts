/**
 * `window.__viscid`: a small surface for the browser tests (tests/e2e), the app benchmark
 * (bench/app.bench.ts) and scripting from the console.
 */
import type { EngineName } from '../api.ts';
import type { App } from './app.ts';
import { toBase64 } from './export.ts';
import type { Panel } from './panel.ts';
import type { MeshFormat, ParticleBackend, Threads } from './protocol.ts';
import type { LoadOutcome, Mode } from './session.ts';

/** A load's outcome as plain data (what page.evaluate can hand back). */
function outcome(r: LoadOutcome) {
  if (r.ok) return { ok: true as const };
  return { ok: false as const, message: r.message, issues: r.issues, superseded: 'superseded' in r };
}

/**
 * `target` seen through a proxy whose property assignments wake the draw loop: a script that sets
 * `__viscid.display.smoke` or `__viscid.camera.yaw` (or calls `camera.orbit`) is drawn at the next
 * animation frame, not at the stopped loop's next check (draw-loop.ts).
 */
function waking<T extends object>(target: T, wake: () => void): T {
  return new Proxy(target, {
    set(t, key, value) {
      const ok = Reflect.set(t, key, value);
      wake();
      return ok;
    },
  });
}

export function installHook(app: App, panel: Panel): void {
  const { session } = app;
  const wake = () => app.loop.wake();
  const hook = {
    get ready() {
      // Every view has something to draw, or its worker has said why not (a worker that failed to start too).
      const cs = session.clients;
      return session.loading === 0 && cs.length > 0 && cs.every((c) => c.error !== null || (c.loaded !== null && (c.view.meshElements > 0 || c.view.pointCount > 0 || c.view.smokeCount > 0)));
    },
    get frame() {
      return session.clients[0]?.frame ?? 0;
    },
    /** Per engine: the frame on show, the scene its worker runs, its state, the loads its worker made (a replay from the start is one), and that frame's metrics (volume, kinetic energy, fastest particle). */
    get frames() {
      return session.clients.map((c) => ({ engine: c.engine, scene: c.loaded?.sceneName ?? null, frame: c.frame, backend: c.loaded?.backend ?? null, time: c.time, playing: c.playing, finished: c.finished, loads: c.loads, error: c.error, triangles: c.triangleCount, points: c.pointCount, volume: c.metrics?.fluidVolume ?? null, volume0: c.volume0, kineticEnergy: c.metrics?.kineticEnergy ?? null, maxSpeed: c.metrics?.maxSpeed ?? null }));
    },
    /** 'loading', 'playing', 'paused' or 'finished', as the overlay says it. */
    get status() {
      return app.status;
    },
    get hudText() {
      return document.getElementById('hud')?.textContent ?? '';
    },
    get renderFrames() {
      return app.loop.draws;
    },
    /** The draw loop requests animation frames now (false once a paused app has settled). */
    get loopRunning() {
      return app.loop.running;
    },
    get lastError() {
      return app.lastError;
    },
    get engines() {
      return session.clients.find((c) => c.loaded)?.loaded?.engines ?? [];
    },
    /** The engine mode asked for. */
    get mode() {
      return session.mode;
    },
    /** The scene asked for. */
    get sceneName() {
      return app.sceneName;
    },
    /** The box the camera frames for the running scene. */
    get viewBounds() {
      return session.running?.loaded.view ?? null;
    },
    get continuous() {
      return app.continuous;
    },
    set continuous(on: boolean) {
      app.continuous = on;
      wake();
    },
    get details() {
      return app.details;
    },
    set details(on: boolean) {
      app.details = on;
      wake();
    },
    /** A value of the running scene (defaults filled) by dotted path, e.g. 'particle.substeps'. */
    sceneValue(path: string): unknown {
      let v: unknown = app.edited;
      for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
      return v;
    },
    get paramsDirty() {
      return app.paramsDirty;
    },
    get paramControls() {
      return panel.params?.controls ?? 0;
    },
    stats() {
      const now = performance.now();
      const l = app.loop;
      const cs = session.clients;
      return { renderFps: l.drawRate.rate(now), pageFps: l.pageRate.rate(now), lastDrawMs: l.lastDrawMs, renderScale: app.renderer.scale, callbackMs: l.callbackMs, drawCallMs: l.drawCallMs, frameIntervalMs: l.frameIntervalMs, simFps: cs.map((c) => c.simFps(now)), simMs: cs.map((c) => (c.stats ? c.stats.wallMs + c.meshMs : 0)), meshMs: cs.map((c) => c.meshMs), threads: cs.map((c) => c.stats?.counters.threads ?? 1) };
    },
    play: () => (session.play(), wake()),
    pause: () => (session.pause(), wake()),
    step: () => (session.step(), wake()),
    async reset() {
      const p = app.reset();
      return p && outcome(await p);
    },
    /** Sets the particle engine's threads ('auto' or a count) and reloads the scene with them. */
    async setThreads(threads: Threads) {
      const p = app.setThreads(threads);
      panel.sync();
      return p && outcome(await p);
    },
    /** Sets where the particle engine steps ('auto', 'webgpu', 'cpu') and reloads the scene there. */
    async setBackend(backend: ParticleBackend) {
      const p = app.setBackend(backend);
      panel.sync();
      return p && outcome(await p);
    },
    async setMode(mode: Mode) {
      const p = app.setMode(mode);
      panel.sync();
      return p && outcome(await p);
    },
    display: waking(app.display, wake),
    camera: waking(app.camera, wake),
    /** Opens a bundled scene (in `mode`, when given: one load for both); resolves with the outcome. */
    async openScene(name: string, mode?: Mode) {
      if (mode) app.session.mode = mode;
      const p = app.openBundled(name, !mode);
      panel.sync();
      return outcome(await p);
    },
    /** Loads scene JSON text as if it were dropped (in `mode`, when given); resolves with the outcome. */
    async loadSceneText(text: string, name = 'dropped', mode?: Mode) {
      if (mode) app.session.mode = mode;
      const p = app.openText(text, name, {}, !mode);
      panel.sync();
      return outcome(await p);
    },
    /** The current mesh in a format, base64 (OBJ/PLY text is UTF-8). */
    async exportMesh(format: MeshFormat, engine?: EngineName) {
      return toBase64(await app.exportMesh(format, engine));
    },
    /** The canvas's pixels in the frame just drawn, for counting in the page (rows bottom to top). */
    pixels: () => app.readPixels(),
    async readPixels() {
      const r = await app.readPixels();
      return { width: r.width, height: r.height, data: toBase64(r.pixels) }; // rows bottom to top
    },
    benchmarkDraw: (n: number) => app.loop.benchmark(n),
    /**
     * Records `ms` of WebM video of the canvas, and on until `minDraws` frames were drawn into it
     * and the encoder has handed over some video (at most 20 s more: a starved page may draw only
     * a few frames a second); resolves with its bytes (base64).
     */
    async recordVideo(ms: number, minDraws = 4) {
      const draws0 = app.loop.draws;
      const t0 = performance.now();
      app.video.start(app.renderer.canvas, 30);
      wake();
      await new Promise((r) => setTimeout(r, ms));
      while ((app.loop.draws - draws0 < minDraws || app.video.bytes === 0) && performance.now() - t0 < ms + 20_000) await new Promise((r) => setTimeout(r, 100));
      return toBase64(new Uint8Array(await (await app.video.stop()).arrayBuffer()));
    },
    /** Starts recording meshes, or stops and resolves with each engine's zip (base64) and its name. */
    async recordMeshes(on: boolean, format: MeshFormat = 'obj') {
      if (on) {
        app.exportFormat = format;
        session.startRecording(format);
        return [];
      }
      const zips = await app.recordingZips(await session.stopRecording());
      return zips.map((z) => ({ engine: z.engine, frames: z.frames, name: z.name, data: toBase64(z.bytes) }));
    },
    async screenshot() {
      return toBase64(new Uint8Array(await (await app.screenshotPNG()).arrayBuffer()));
    },
  };
  (window as unknown as { __viscid: typeof hook }).__viscid = hook;
}
