/**
 * One preview image of one frame: the liquid and the solids drawn into layers of their own at
 * `supersample`² samples a pixel, then combined over a backdrop and averaged down to the image.
 *
 * Solids are opaque except where the outside of the liquid lies behind them, where they are drawn
 * at a third of their opacity, so liquid inside a cup, a tank or under a lid stays in sight (where
 * what lies behind is the inside of a liquid film, as behind a ball the honey coats, the solid is
 * drawn opaque: the ball, not the film's far side, is what a viewer expects to see). The liquid's silhouettes
 * and the steps in its depth (a strand in front of a puddle) are darkened a little, which reads
 * shapes in a small image where one flat colour would merge them.
 */
import type { Mesh } from '../types/geometry.ts';
import { linearToSrgb, srgbToLinear } from '../math/color.ts';
import { scaleCamera, type PreviewCamera, type Vec3 } from './camera.ts';
import type { RgbImage } from './png.ts';
import { clearLayer, createLayer, drawMesh, LIQUID_SHADING, SOLID_SHADING, type Layer, type Shading } from './raster.ts';

export interface TileContent {
  /** The liquid's surface (absent or empty: none this frame). */
  liquid?: Mesh;
  /** The solids in their pose, coloured per vertex by their material. */
  solids?: Mesh;
}

/** Opacity of a solid in front of liquid. */
export const SOLID_OVER_LIQUID = 0.35;
/** How much an outline darkens the liquid (1: not at all). */
const OUTLINE = 0.6;
/** A step in depth between neighbouring samples larger than this fraction of the depth is an outline. */
const DEPTH_STEP = 0.02;

/** The backdrop, a vertical gradient of display colours: slate at the top to near black. */
const BACKDROP_TOP: Vec3 = [0x34 / 255, 0x3a / 255, 0x45 / 255];
const BACKDROP_BOTTOM: Vec3 = [0x12 / 255, 0x14 / 255, 0x18 / 255];

/** 8-bit sRGB of linear values in [0, 1], from a table of 4096 steps. */
const TO_SRGB8 = (() => {
  const t = new Uint8Array(4097);
  for (let i = 0; i <= 4096; i++) t[i] = Math.round(linearToSrgb(i / 4096) * 255);
  return t;
})();

function srgb8(linear: number): number {
  const i = (linear * 4096 + 0.5) | 0;
  return TO_SRGB8[i < 0 ? 0 : i > 4096 ? 4096 : i];
}

export class TileRenderer {
  readonly width: number;
  readonly height: number;
  private readonly liquid: Layer;
  private readonly solids: Layer;
  private readonly camera: PreviewCamera;
  private readonly backdrop: Float32Array;

  /** `camera` at the image's size; it is drawn at `supersample` times that each way. */
  constructor(camera: PreviewCamera, readonly supersample = 2, readonly shading: { liquid: Shading; solid: Shading } = { liquid: LIQUID_SHADING, solid: SOLID_SHADING }) {
    if (!(Number.isInteger(supersample) && supersample >= 1 && supersample <= 4)) throw new RangeError(`supersample ${supersample} is not a whole number from 1 to 4`);
    this.width = camera.width;
    this.height = camera.height;
    this.camera = scaleCamera(camera, supersample);
    this.liquid = createLayer(this.camera.width, this.camera.height);
    this.solids = createLayer(this.camera.width, this.camera.height);
    const H = this.camera.height;
    this.backdrop = new Float32Array(3 * H);
    for (let y = 0; y < H; y++) {
      const u = y / Math.max(1, H - 1);
      for (let k = 0; k < 3; k++) this.backdrop[3 * y + k] = srgbToLinear(BACKDROP_TOP[k] + u * (BACKDROP_BOTTOM[k] - BACKDROP_TOP[k]));
    }
  }

  /** Draws a frame; returns the image and the triangles of each part that reached it. */
  render(content: TileContent): { image: RgbImage; liquidTriangles: number; solidTriangles: number } {
    clearLayer(this.liquid);
    clearLayer(this.solids);
    const liquidTriangles = content.liquid ? drawMesh(this.liquid, content.liquid, this.camera, this.shading.liquid) : 0;
    const solidTriangles = content.solids ? drawMesh(this.solids, content.solids, this.camera, this.shading.solid) : 0;
    return { image: this.resolve(), liquidTriangles, solidTriangles };
  }

  /** Combines the layers at each sample, averages the samples of each pixel and converts to sRGB. */
  private resolve(): RgbImage {
    const s = this.supersample, W = this.camera.width, H = this.camera.height;
    const Lz = this.liquid.invDepth, Lc = this.liquid.color, Sz = this.solids.invDepth, Sc = this.solids.color;
    const pixels = new Uint8Array(3 * this.width * this.height);
    const weight = 1 / (s * s);
    for (let py = 0; py < this.height; py++) {
      for (let px = 0; px < this.width; px++) {
        let r = 0, g = 0, b = 0;
        for (let sy = 0; sy < s; sy++) {
          const y = py * s + sy;
          for (let sx = 0; sx < s; sx++) {
            const x = px * s + sx, i = y * W + x, k = 3 * i;
            const lz = Lz[i], sz = Sz[i];
            let cr: number, cg: number, cb: number;
            if (lz > 0) {
              cr = Lc[k];
              cg = Lc[k + 1];
              cb = Lc[k + 2];
              if (this.outline(i, x, y, W, H)) {
                cr *= OUTLINE;
                cg *= OUTLINE;
                cb *= OUTLINE;
              }
              if (sz > lz && this.liquid.inside[i]) {
                cr = Sc[k];
                cg = Sc[k + 1];
                cb = Sc[k + 2];
              } else if (sz > lz) {
                cr += SOLID_OVER_LIQUID * (Sc[k] - cr);
                cg += SOLID_OVER_LIQUID * (Sc[k + 1] - cg);
                cb += SOLID_OVER_LIQUID * (Sc[k + 2] - cb);
              }
            } else if (sz > 0) {
              cr = Sc[k];
              cg = Sc[k + 1];
              cb = Sc[k + 2];
            } else {
              cr = this.backdrop[3 * y];
              cg = this.backdrop[3 * y + 1];
              cb = this.backdrop[3 * y + 2];
            }
            r += cr;
            g += cg;
            b += cb;
          }
        }
        const o = 3 * (py * this.width + px);
        pixels[o] = srgb8(r * weight);
        pixels[o + 1] = srgb8(g * weight);
        pixels[o + 2] = srgb8(b * weight);
      }
    }
    return { width: this.width, height: this.height, pixels };
  }

  /** Whether the liquid sample i lies on a silhouette or a step in depth (against its right and lower neighbours). */
  private outline(i: number, x: number, y: number, W: number, H: number): boolean {
    const Z = this.liquid.invDepth, z = Z[i];
    // Inverse depths: a relative step in 1/z is the same relative step in z.
    const step = (j: number) => {
      const w = Z[j];
      return w <= 0 ? true : Math.abs(w - z) > DEPTH_STEP * (w > z ? w : z);
    };
    return (x + 1 < W && step(i + 1)) || (y + 1 < H && step(i + W)) || (x > 0 && step(i - 1)) || (y > 0 && step(i - W));
  }
}
