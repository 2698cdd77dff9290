/**
 * The page's animation-frame loop. Drawing happens on demand: when a frame arrives, the camera or
 * the display options change, the canvas is resized, a capture is asked for, or video is being
 * recorded (or always, in continuous mode, for measuring). The page keeps its requestAnimationFrame
 * rate whatever the simulation does; `pageRate` counts those callbacks and `drawRate` the draws.
 */
import type { OrbitCamera } from '../render/camera.ts';
import type { DisplayOptions, Renderer, View } from '../render/renderer.ts';
import { RateCounter } from './hud.ts';

/** The smallest resolution scale continuous redraw may fall to. */
const MIN_SCALE = 0.5;

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
  private captures: ((canvas: HTMLCanvasElement) => void)[] = [];
  private lastFrameAt = 0;
  private lastAdapt = 0;

  constructor(
    private readonly renderer: Renderer,
    private readonly camera: OrbitCamera,
    private readonly display: DisplayOptions,
    private readonly source: DrawSource,
  ) {
    renderer.regl.frame(() => this.frame());
  }

  request(): void {
    this.needsDraw = true;
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
    });
  }

  /** The cost of one full draw (see Renderer.benchmark). */
  benchmark(n: number): { minMs: number; medianMs: number } {
    const r = this.renderer.benchmark(this.source.views(), this.camera, this.display, n);
    this.needsDraw = true;
    return r;
  }

  private signature(): string {
    const c = this.camera;
    const d = this.display;
    return `${c.yaw},${c.pitch},${c.distance},${c.target[0]},${c.target[1]},${c.target[2]},${+d.particles}${+d.mesh}${+d.objects}${+d.domain}${+d.velocity}${+d.cells}${+d.smoke},${d.colorMode},${d.opacity},${this.source.views().length}`;
  }

  private frame(): void {
    const now = performance.now();
    this.pageRate.push(now);
    const resized = this.renderer.resize();
    if (this.source.upload()) this.needsDraw = true;
    const sig = this.signature();
    if (resized || sig !== this.lastSignature || this.captures.length > 0 || this.source.everyFrame()) this.needsDraw = true;
    this.adaptResolution(now, this.needsDraw);
    if (this.needsDraw) {
      this.needsDraw = false;
      this.lastSignature = sig;
      const t0 = performance.now();
      this.renderer.draw(this.source.views(), this.camera, this.display);
      this.lastDrawMs = performance.now() - t0;
      this.drawCallMs = 0.95 * this.drawCallMs + 0.05 * this.lastDrawMs;
      this.draws++;
      this.drawRate.push(now);
      const captures = this.captures;
      this.captures = [];
      for (const fn of captures) fn(this.renderer.canvas);
    }
    this.source.afterFrame(now);
    this.callbackMs = 0.95 * this.callbackMs + 0.05 * (performance.now() - now);
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
