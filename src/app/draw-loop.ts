/**
 * The page's animation-frame loop. Drawing happens on demand: when a frame arrives, the camera or
 * the display options change, the canvas is resized, a capture is asked for, or video is being
 * recorded (or always, in continuous mode, for measuring). `pageRate` counts the animation-frame
 * callbacks and `drawRate` the draws.
 *
 * The loop itself runs only while something may need drawing: an animation frame is requested
 * while a draw is due, while every frame is drawn (video, continuous), and for SETTLE_MS after the
 * last wake or draw (so the overlay's and plots' half-second updates land and a change seen a frame
 * late is still drawn); then it stops. `wake()` starts it again: frames and errors from the workers
 * (request), input on the page (pointer, wheel, keys, the panel's controls), a resize of the canvas
 * or a change of devicePixelRatio. While stopped, a slow timer (IDLE_CHECK_MS) redoes the frame's
 * checks (the camera and display signature, the canvas size) and refreshes the overlay, so a change
 * made without an event (a script setting `__viscid.camera.yaw`) is drawn within a second too. A
 * paused viewer then costs the page no animation frames (docs/decisions.md, "A paused app stops its
 * animation-frame loop").
 */
import type { OrbitCamera } from '../render/camera.ts';
import type { DisplayOptions, Renderer, View } from '../render/renderer.ts';
import { RateCounter } from './hud.ts';

/** The smallest resolution scale continuous redraw may fall to. */
const MIN_SCALE = 0.5;
/** How long the loop keeps requesting frames after the last wake or draw, ms (the overlay updates every 500 ms). */
export const SETTLE_MS = 750;
/** How often a stopped loop checks for changes made without an event, ms. */
export const IDLE_CHECK_MS = 1000;

export interface DrawSource {
  /** The views to draw, left to right. */
  views(): View[];
  /** Hands newly arrived frames to their views; true if any came. */
  upload(): boolean;
  /** Redraw every animation frame (video recording, continuous mode). */
  everyFrame(): boolean;
  /** Redraw every frame without lowering resolution (a video is being recorded). */
  recordingVideo(): boolean;
  /** Called after the draw check of each animation frame (overlay, plots). */
  afterFrame(now: number): void;
}

export class DrawLoop {
  readonly pageRate = new RateCounter();
  readonly drawRate = new RateCounter(5000);
  draws = 0;
  lastDrawMs = 0;
  /** Moving averages of the main thread's time per animation frame: the whole callback, and the draw calls. */
  callbackMs = 0;
  drawCallMs = 0;
  frameIntervalMs = 16;
  private needsDraw = true;
  private lastSignature = '';
  /** The canvas's CSS size and devicePixelRatio at the last animation frame. */
  private lastSize = '';
  private captures: ((canvas: HTMLCanvasElement) => void)[] = [];
  private lastFrameAt = 0;
  private lastAdapt = 0;
  /** The animation frame requested, or 0 when the loop is stopped. */
  private rafId = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** performance.now() of the last wake or draw. */
  private lastActive = 0;

  constructor(
    private readonly renderer: Renderer,
    private readonly camera: OrbitCamera,
    private readonly display: DisplayOptions,
    private readonly source: DrawSource,
  ) {
    this.listen();
    this.wake();
  }

  /** The loop requests animation frames now (false once it has settled with nothing to draw). */
  get running(): boolean {
    return this.rafId !== 0;
  }

  /**
   * The loop has settled and stopped (from the last frame that found nothing due to the next wake):
   * what the idle checks' overlay updates see (a frame's own callback runs with no frame requested
   * yet, so `running` cannot tell them apart).
   */
  asleep = false;

  /** Asks for a draw at the next animation frame. */
  request(): void {
    this.needsDraw = true;
    this.wake();
  }

  /** Starts the animation-frame loop if it is stopped, and keeps it running for SETTLE_MS more. */
  wake(): void {
    this.lastActive = performance.now();
    this.asleep = false;
    if (this.idleTimer !== null) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (this.rafId !== 0) return;
    this.lastFrameAt = 0; // the time stopped is no frame interval (adaptResolution)
    this.rafId = requestAnimationFrame(this.tick);
  }

  /** Runs `fn` right after the next frame is drawn, while the drawing buffer still holds it. */
  afterNextDraw<T>(fn: (canvas: HTMLCanvasElement) => T): Promise<T> {
    return new Promise((resolve, reject) => {
      this.captures.push((cv) => {
        try {
          resolve(fn(cv));
        } catch (e) {
          reject(e as Error);
        }
      });
      this.wake();
    });
  }

  /** The cost of one full draw (see Renderer.benchmark). */
  benchmark(n: number): { minMs: number; medianMs: number } {
    const r = this.renderer.benchmark(this.source.views(), this.camera, this.display, n);
    this.request();
    return r;
  }

  /** What wakes the loop: input anywhere on the page, a resize of the canvas, a change of devicePixelRatio. */
  private listen(): void {
    const wake = () => this.wake();
    const opts = { capture: true, passive: true };
    for (const type of ['pointerdown', 'pointerup', 'pointercancel', 'wheel', 'keydown', 'keyup', 'input', 'change', 'click']) window.addEventListener(type, wake, opts);
    // A drag moves the camera; a pointer passing over the page does not change the picture.
    window.addEventListener('pointermove', (e) => e.buttons !== 0 && this.wake(), opts);
    window.addEventListener('resize', wake);
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(wake).observe(this.renderer.canvas);
    // devicePixelRatio changes (zoom, a move to another screen) come as a media query that stops matching.
    const watchRatio = () => {
      const mq = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
      mq.addEventListener('change', () => {
        this.wake();
        watchRatio();
      }, { once: true });
    };
    watchRatio();
  }

  /** The animation-frame callback: draws if due, then asks for the next frame or stops. */
  private readonly tick = (): void => {
    this.rafId = 0;
    let now = performance.now();
    try {
      now = this.frame();
    } finally {
      this.schedule(now); // a draw that throws does not end the loop (as under regl.frame)
    }
  };

  private schedule(now: number): void {
    if (this.needsDraw || this.captures.length > 0 || this.source.everyFrame() || now - this.lastActive < SETTLE_MS) this.rafId = requestAnimationFrame(this.tick);
    else {
      this.asleep = true;
      this.idleTimer = setTimeout(this.idleCheck, IDLE_CHECK_MS);
    }
  }

  /** While stopped: a change without an event (the camera or display set by a script, the canvas resized, continuous mode) wakes the loop; the overlay is kept current. */
  private readonly idleCheck = (): void => {
    this.idleTimer = null;
    if (this.signature() !== this.lastSignature || this.sizeKey() !== this.lastSize || this.source.everyFrame()) {
      this.wake();
      return;
    }
    this.source.afterFrame(performance.now());
    this.idleTimer = setTimeout(this.idleCheck, IDLE_CHECK_MS);
  };

  private sizeKey(): string {
    const cv = this.renderer.canvas;
    return `${cv.clientWidth}x${cv.clientHeight}@${window.devicePixelRatio}`;
  }

  private signature(): string {
    const c = this.camera;
    const d = this.display;
    return `${c.yaw},${c.pitch},${c.distance},${c.target[0]},${c.target[1]},${c.target[2]},${+d.particles}${+d.mesh}${+d.objects}${+d.domain}${+d.velocity}${+d.cells}${+d.smoke},${d.colorMode},${d.opacity},${this.source.views().length}`;
  }

  private frame(): number {
    const now = performance.now();
    this.pageRate.push(now);
    const resized = this.renderer.resize();
    this.lastSize = this.sizeKey();
    if (this.source.upload()) this.needsDraw = true;
    const sig = this.signature();
    if (resized || sig !== this.lastSignature || this.captures.length > 0 || this.source.everyFrame()) this.needsDraw = true;
    this.adaptResolution(now, this.needsDraw);
    if (this.needsDraw) {
      this.needsDraw = false;
      this.lastSignature = sig;
      const t0 = performance.now();
      this.renderer.draw(this.source.views(), this.camera, this.display);
      this.renderer.regl._gl.flush(); // as regl.frame did after its callbacks
      this.lastDrawMs = performance.now() - t0;
      this.drawCallMs = 0.95 * this.drawCallMs + 0.05 * this.lastDrawMs;
      this.draws++;
      this.drawRate.push(now);
      const captures = this.captures;
      this.captures = [];
      for (const fn of captures) fn(this.renderer.canvas);
      this.lastActive = performance.now();
    }
    this.source.afterFrame(now);
    this.callbackMs = 0.95 * this.callbackMs + 0.05 * (performance.now() - now);
    return now;
  }

  /**
   * Dynamic resolution while redrawing every frame (continuous mode): software WebGL is largely
   * fill-bound, so when frames take longer than ~40 ms the drawing buffer shrinks (down to half
   * size) and grows back when they are quick again. On-demand drawing and video recordings keep
   * full resolution.
   */
  private adaptResolution(now: number, drawing: boolean): void {
    const r = this.renderer;
    const interval = this.lastFrameAt ? now - this.lastFrameAt : 16;
    this.lastFrameAt = now;
    const adaptive = this.source.everyFrame() && !this.source.recordingVideo();
    if (!adaptive || !drawing) {
      if (!adaptive && r.scale !== 1) r.scale = 1;
      return;
    }
    this.frameIntervalMs = 0.8 * this.frameIntervalMs + 0.2 * interval;
    if (now - this.lastAdapt < 500) return;
    this.lastAdapt = now;
    // Frames land on vsync (16.7 ms steps): 33 ms is a steady 30 fps, an average above 40 ms means
    // frames are being missed. Shrink then; grow back below 22 ms.
    if (this.frameIntervalMs > 40 && r.scale > MIN_SCALE) r.scale = Math.max(MIN_SCALE, r.scale * 0.85);
    else if (this.frameIntervalMs < 22 && r.scale < 1) r.scale = Math.min(1, r.scale * 1.1);
  }
}
