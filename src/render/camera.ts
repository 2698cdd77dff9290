/**
 * An orbit camera: yaw/pitch/distance about a target, y up. Left drag orbits, right drag (or
 * shift + drag) pans, the wheel zooms. One camera can drive several viewports.
 */
import { lookAt, perspective, multiply } from './mat4.ts';

export interface CameraMatrices {
  view: Float32Array;
  projection: Float32Array;
  viewProjection: Float32Array;
  eye: [number, number, number];
  /** Pixels per unit of clip-space w at distance 1: turns a world radius into a point size. */
  pixelScale: number;
}

const DEFAULT_YAW = 0.6;
const DEFAULT_PITCH = 0.5;

export class OrbitCamera {
  target: [number, number, number] = [0, 0, 0];
  yaw = DEFAULT_YAW;
  pitch = DEFAULT_PITCH;
  distance = 0.5;
  fovY = (40 * Math.PI) / 180;

  /**
   * Frames an axis-aligned box from the default direction (a little above, turned a little to the
   * side): the distance is the least at which all eight corners lie within `fill` of the half
   * field of view, vertically and, for a viewport `aspect` wide per unit of height, horizontally.
   */
  fit(min: ArrayLike<number>, max: ArrayLike<number>, aspect = 1, fill = 0.85): void {
    this.yaw = DEFAULT_YAW;
    this.pitch = DEFAULT_PITCH;
    this.target = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
    const tanV = Math.tan(this.fovY / 2) * fill;
    const tanH = tanV * Math.max(0.1, aspect);
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw);
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    // The camera's axes: right, up, and back (from the target towards the eye).
    const right = [cy, 0, -sy];
    const up = [-sp * sy, cp, -sp * cy];
    const back = [cp * sy, sp, cp * cy];
    let distance = 1e-3;
    for (let c = 0; c < 8; c++) {
      const p = [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]];
      const d = [p[0] - this.target[0], p[1] - this.target[1], p[2] - this.target[2]];
      const x = d[0] * right[0] + d[1] * right[1] + d[2] * right[2];
      const y = d[0] * up[0] + d[1] * up[1] + d[2] * up[2];
      const z = d[0] * back[0] + d[1] * back[1] + d[2] * back[2];
      // The corner is in view when |x| ≤ tanH (distance − z) and |y| ≤ tanV (distance − z).
      distance = Math.max(distance, z + Math.abs(x) / tanH, z + Math.abs(y) / tanV);
    }
    this.distance = distance;
  }

  /** The eye lies outside the box (grown by `margin` on every side). */
  eyeOutside(min: ArrayLike<number>, max: ArrayLike<number>, margin = 0): boolean {
    const e = this.eye();
    for (let k = 0; k < 3; k++) if (e[k] < min[k] - margin || e[k] > max[k] + margin) return true;
    return false;
  }

  eye(): [number, number, number] {
    const cp = Math.cos(this.pitch);
    return [
      this.target[0] + this.distance * cp * Math.sin(this.yaw),
      this.target[1] + this.distance * Math.sin(this.pitch),
      this.target[2] + this.distance * cp * Math.cos(this.yaw),
    ];
  }

  orbit(dx: number, dy: number): void {
    this.yaw -= dx * 0.008;
    this.pitch = Math.min(1.55, Math.max(-1.55, this.pitch + dy * 0.008));
  }

  /** Moves the target in the view plane by a pixel offset in a viewport `height` pixels tall. */
  pan(dx: number, dy: number, height: number): void {
    const perPixel = (2 * this.distance * Math.tan(this.fovY / 2)) / Math.max(1, height);
    const cy = Math.cos(this.yaw), sy = Math.sin(this.yaw);
    const cp = Math.cos(this.pitch), sp = Math.sin(this.pitch);
    const right = [cy, 0, -sy];
    const up = [-sp * sy, cp, -sp * cy];
    for (let i = 0; i < 3; i++) this.target[i] += (-dx * right[i] + dy * up[i]) * perPixel;
  }

  zoom(factor: number): void {
    this.distance = Math.max(1e-3, this.distance * factor);
  }

  matrices(aspect: number, viewportHeight: number): CameraMatrices {
    const eye = this.eye();
    const view = lookAt(new Float32Array(16), eye, this.target, [0, 1, 0]);
    const near = this.distance * 0.01, far = this.distance * 20;
    const projection = perspective(new Float32Array(16), this.fovY, aspect, near, far);
    const viewProjection = multiply(new Float32Array(16), projection, view);
    const pixelScale = viewportHeight / (2 * Math.tan(this.fovY / 2));
    return { view, projection, viewProjection, eye, pixelScale };
  }

  /** Mouse and wheel handling on `el`; `height()` gives the current viewport height in CSS pixels. */
  attach(el: HTMLElement, height: () => number): void {
    let last: { x: number; y: number } | null = null;
    let panning = false;
    el.addEventListener('contextmenu', (e) => e.preventDefault());
    el.addEventListener('pointerdown', (e) => {
      last = { x: e.clientX, y: e.clientY };
      panning = e.button === 2 || e.button === 1 || e.shiftKey;
      el.setPointerCapture(e.pointerId);
    });
    el.addEventListener('pointermove', (e) => {
      if (!last) return;
      const dx = e.clientX - last.x, dy = e.clientY - last.y;
      last = { x: e.clientX, y: e.clientY };
      if (panning) this.pan(dx, dy, height());
      else this.orbit(dx, dy);
    });
    const end = (e: PointerEvent) => {
      last = null;
      if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
    };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
    el.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(Math.exp(e.deltaY * 0.001));
      },
      { passive: false },
    );
  }
}
