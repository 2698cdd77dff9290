/**
 * The regl renderer. One `View` per simulation shown (two when particle and grid run side by
 * side); each view draws into its own viewport with the shared camera. Frames arrive as typed
 * arrays from the worker and are uploaded into buffers that are reused from frame to frame.
 */
import createREGL from 'regl';
import type { Regl, DrawCommand } from 'regl';
import type { OrbitCamera, CameraMatrices } from './camera.ts';
import { rotationPart } from './mat4.ts';
import * as glsl from './shaders.ts';

import { View } from './view.ts';

export { View, type SolidGeometry, type ViewFrame, type ViewScene } from './view.ts';

export type ColorMode = 'material' | 'surface' | 'speed';

export interface DisplayOptions {
  particles: boolean;
  mesh: boolean;
  objects: boolean;
  domain: boolean;
  velocity: boolean;
  /** Grid engine: outlines of the liquid cells. */
  cells: boolean;
  /** Grid smoke: density splats (soft grey-white sprites, opacity from density). */
  smoke: boolean;
  colorMode: ColorMode;
  /** Surface opacity where it faces the eye (Fresnel raises it towards the rim). */
  opacity: number;
}

interface Viewport { x: number; y: number; width: number; height: number }

const LIGHT: [number, number, number] = (() => {
  const l = [0.45, 0.8, 0.4];
  const n = Math.hypot(l[0], l[1], l[2]);
  return [l[0] / n, l[1] / n, l[2] / n];
})();

/** Two triangles per cell of an n × n grid over clip space [−1, 1]². */
function screenGrid(n: number): number[][] {
  const out: number[][] = [];
  const at = (i: number) => -1 + (2 * i) / n;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const x0 = at(i), x1 = at(i + 1), y0 = at(j), y1 = at(j + 1);
      out.push([x0, y0], [x1, y0], [x1, y1], [x0, y0], [x1, y1], [x0, y1]);
    }
  }
  return out;
}

export class Renderer {
  readonly regl: Regl;
  private readonly drawBackground: DrawCommand;
  private readonly drawPoints: DrawCommand;
  private readonly drawSurface: DrawCommand;
  private readonly drawSolid: DrawCommand;
  private readonly drawLines: DrawCommand;
  private readonly drawSmoke: DrawCommand;
  /** Reused per-draw props (no per-frame allocation for the palette). */
  private readonly paletteProps: Record<string, [number, number, number]> = {};
  private readonly rotation = new Float32Array(9);

  constructor(readonly canvas: HTMLCanvasElement) {
    this.regl = createREGL({
      canvas,
      attributes: { antialias: false, alpha: false, preserveDrawingBuffer: false },
      extensions: ['OES_element_index_uint'],
    });
    const regl = this.regl;
    this.drawBackground = regl({
      vert: glsl.BACKGROUND_VERT,
      frag: glsl.BACKGROUND_FRAG,
      attributes: { corner: screenGrid(24) },
      uniforms: {
        camRight: regl.prop<any, any>('camRight'),
        camUp: regl.prop<any, any>('camUp'),
        camForward: regl.prop<any, any>('camForward'),
        halfExtent: regl.prop<any, any>('halfExtent'),
        lightDir: LIGHT,
      },
      depth: { enable: false, mask: false },
      count: 24 * 24 * 6,
      viewport: regl.prop<any, any>('viewport'),
    });
    this.drawPoints = regl({
      vert: glsl.POINTS_VERT,
      frag: glsl.POINTS_FRAG,
      attributes: { position: regl.prop<any, any>('positions'), aux: regl.prop<any, any>('aux') },
      uniforms: {
        viewProjection: regl.prop<any, any>('viewProjection'),
        radius: regl.prop<any, any>('radius'),
        pixelScale: regl.prop<any, any>('pixelScale'),
        colorMode: regl.prop<any, any>('colorMode'),
        speedScale: regl.prop<any, any>('speedScale'),
        lightDir: LIGHT,
        ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`palette[${i}]`, regl.prop<any, any>(`palette${i}`)])),
      },
      primitive: 'points',
      count: regl.prop<any, any>('count'),
      viewport: regl.prop<any, any>('viewport'),
    });
    // Front faces only, blended over what lies behind: the liquid reads as translucent at a
    // single pass's cost (software WebGL is fill- and vertex-bound).
    this.drawSurface = regl({
      vert: glsl.SURFACE_VERT,
      frag: glsl.SURFACE_FRAG,
      attributes: {
        position: regl.prop<any, any>('positions'),
        normal: regl.prop<any, any>('normals'),
        color: regl.prop<any, any>('colors'),
      },
      uniforms: {
        viewProjection: regl.prop<any, any>('viewProjection'),
        eye: regl.prop<any, any>('eye'),
        baseColor: regl.prop<any, any>('baseColor'),
        useVertexColor: regl.prop<any, any>('useVertexColor'),
        opacity: regl.prop<any, any>('opacity'),
        lightDir: LIGHT,
      },
      elements: regl.prop<any, any>('elements'),
      count: regl.prop<any, any>('count'),
      cull: { enable: true, face: 'back' },
      frontFace: regl.prop<any, any>('frontFace'),
      blend: {
        enable: true,
        func: { srcRGB: 'src alpha', srcAlpha: 1, dstRGB: 'one minus src alpha', dstAlpha: 1 },
      },
      viewport: regl.prop<any, any>('viewport'),
    });
    this.drawSolid = regl({
      vert: glsl.SOLID_VERT,
      frag: glsl.SOLID_FRAG,
      attributes: { position: regl.prop<any, any>('positions'), normal: regl.prop<any, any>('normals') },
      uniforms: {
        viewProjection: regl.prop<any, any>('viewProjection'),
        model: regl.prop<any, any>('model'),
        rotation: regl.prop<any, any>('rotation'),
        eye: regl.prop<any, any>('eye'),
        baseColor: regl.prop<any, any>('baseColor'),
        lightDir: LIGHT,
      },
      elements: regl.prop<any, any>('elements'),
      viewport: regl.prop<any, any>('viewport'),
    });
    this.drawLines = regl({
      vert: glsl.LINES_VERT,
      frag: glsl.LINES_FRAG,
      attributes: { position: regl.prop<any, any>('positions') },
      uniforms: { viewProjection: regl.prop<any, any>('viewProjection'), color: regl.prop<any, any>('color') },
      primitive: 'lines',
      count: regl.prop<any, any>('count'),
      blend: { enable: true, func: { src: 'src alpha', dst: 'one minus src alpha' } },
      viewport: regl.prop<any, any>('viewport'),
    });
    // Smoke: soft splats of one grey-white tone blended "over" without writing depth. With a
    // (nearly) uniform colour, over-compositing is order independent, so no sorting is needed.
    this.drawSmoke = regl({
      vert: glsl.SMOKE_VERT,
      frag: glsl.SMOKE_FRAG,
      attributes: { position: regl.prop<any, any>('positions'), density: regl.prop<any, any>('density') },
      uniforms: {
        viewProjection: regl.prop<any, any>('viewProjection'),
        size: regl.prop<any, any>('size'),
        pixelScale: regl.prop<any, any>('pixelScale'),
      },
      primitive: 'points',
      count: regl.prop<any, any>('count'),
      depth: { enable: true, mask: false },
      blend: {
        enable: true,
        func: { srcRGB: 'src alpha', srcAlpha: 1, dstRGB: 'one minus src alpha', dstAlpha: 1 },
      },
      viewport: regl.prop<any, any>('viewport'),
    });
  }

  createView(): View {
    return new View(this.regl);
  }

  /** Resolution scale (0.5..1) on top of devicePixelRatio: lowered when redraws are too slow. */
  scale = 1;

  /** Matches the drawing buffer to the canvas's CSS size times devicePixelRatio; true if it changed. */
  resize(): boolean {
    const dpr = Math.min(window.devicePixelRatio || 1, 2) * this.scale;
    const w = Math.max(1, Math.round(this.canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(this.canvas.clientHeight * dpr));
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      return true;
    }
    return false;
  }

  /** Clears the whole canvas (colour and depth) and draws each view side by side. */
  draw(views: View[], camera: OrbitCamera, display: DisplayOptions): void {
    const regl = this.regl;
    regl.poll();
    regl.clear({ color: [0.08, 0.09, 0.11, 1], depth: 1 });
    const W = this.canvas.width, H = this.canvas.height;
    const n = Math.max(1, views.length);
    views.forEach((view, i) => {
      const x0 = Math.round((i * W) / n), x1 = Math.round(((i + 1) * W) / n);
      this.drawView(view, { x: x0, y: 0, width: x1 - x0 - (i < n - 1 ? 2 : 0), height: H }, camera, display);
    });
  }

  /**
   * Draws `n` times, each waited for by reading a pixel back (gl.finish does not wait for
   * Chromium's GPU process): the cost of one full draw in ms, as the minimum and the median
   * (the minimum is the least disturbed by other processes on a busy machine).
   */
  benchmark(views: View[], camera: OrbitCamera, display: DisplayOptions, n: number): { minMs: number; medianMs: number } {
    const gl = this.regl._gl;
    const px = new Uint8Array(4);
    const sync = () => gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
    this.draw(views, camera, display);
    sync();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      this.draw(views, camera, display);
      sync();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return { minMs: times[0], medianMs: times[Math.floor(times.length / 2)] };
  }

  private drawView(view: View, viewport: Viewport, camera: OrbitCamera, display: DisplayOptions): void {
    const m: CameraMatrices = camera.matrices(viewport.width / viewport.height, viewport.height);
    const v = m.view;
    const tanHalf = Math.tan(camera.fovY / 2);
    this.drawBackground({
      viewport,
      camRight: [v[0], v[4], v[8]],
      camUp: [v[1], v[5], v[9]],
      camForward: [-v[2], -v[6], -v[10]],
      halfExtent: [tanHalf * (viewport.width / viewport.height), tanHalf],
    });
    const scene = view.scene;
    if (!scene) return;
    const common = { viewport, viewProjection: m.viewProjection, eye: m.eye };
    if (display.objects) {
      view.solids.forEach((s, i) => {
        const model = view.transforms.length >= 16 * (i + 1) ? view.transforms.subarray(16 * i, 16 * i + 16) : IDENTITY;
        this.drawSolid({
          ...common,
          positions: s.positions,
          normals: s.normals,
          elements: s.elements,
          model,
          rotation: rotationPart(this.rotation, model),
          baseColor: s.color,
        });
      });
    }
    if (display.domain && scene.domain) {
      this.drawLines({ ...common, positions: view.domain, count: 24, color: [0.75, 0.8, 0.9, 0.55] });
    }
    if (display.particles && view.pointCount > 0) {
      const palette = this.paletteProps;
      for (let i = 0; i < 8; i++) palette[`palette${i}`] = scene.palette[i] ?? GREY;
      this.drawPoints({
        ...common,
        ...palette,
        positions: view.pointPositions,
        aux: view.pointAux,
        count: view.pointCount,
        radius: scene.particleRadius,
        pixelScale: m.pixelScale,
        colorMode: display.colorMode === 'material' ? 0 : display.colorMode === 'surface' ? 1 : 2,
        speedScale: 1 / Math.max(1e-6, view.maxSpeed),
      });
    }
    if (display.cells && view.cellCount > 0) {
      this.drawLines({ ...common, positions: view.cells, count: view.cellCount, color: [0.45, 0.7, 1.0, 0.35] });
    }
    if (display.velocity && view.velocityCount > 0) {
      this.drawLines({ ...common, positions: view.velocity, count: view.velocityCount, color: [0.3, 0.95, 0.6, 0.9] });
    }
    if (display.smoke && view.smokeCount > 0) {
      this.drawSmoke({
        ...common,
        positions: view.smokePositions,
        density: view.smokeDensity,
        count: view.smokeCount,
        size: view.smokeSize,
        pixelScale: m.pixelScale,
      });
    }
    if (display.mesh && view.meshElements > 0) {
      this.drawSurface({
        ...common,
        positions: view.meshPositions,
        normals: view.meshNormals,
        colors: view.meshColors,
        elements: view.meshElementsBuffer,
        count: view.meshElements,
        baseColor: scene.liquidColor,
        useVertexColor: view.hasMeshColors ? 1 : 0,
        frontFace: view.frontFace,
        opacity: display.opacity,
      });
    }
  }
}

const GREY: [number, number, number] = [0.5, 0.5, 0.5];
const IDENTITY = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
