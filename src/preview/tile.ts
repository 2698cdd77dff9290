/**
 * One preview image of one frame: the liquid and the solids drawn into layers of their own at
 * `supersample`² samples a pixel, then combined over a backdrop and averaged down to the image.
 *
 * Solids are opaque except where the outside of the liquid lies behind them, where they are drawn
 * at a third of their opacity, so liquid inside a cup, a tank or under a lid stays in sight (where
 * what lies behind is the inside of a liquid film, as behind a ball the honey coats, the solid is
 * drawn opaque: the ball, not the film's far side, is what a viewer expects to see). The liquid
 * casts a soft shadow straight down onto the solids (shadow.ts), which shows where it rests. The liquid's silhouettes
 * and the steps in its depth (a strand in front of a puddle) are darkened a little, which reads
 * shapes in a small image where one flat colour would merge them.
 */
import type { Mesh } from '../types/geometry.ts';
import { linearToSrgb, srgbToLinear } from '../math/color.ts';
import { scaleCamera, type Box, type PreviewCamera, type Vec3 } from './camera.ts';
import { FootprintShadow } from './shadow.ts';
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
/** How much of a solid's light the liquid's footprint shadow takes at its darkest. */
const SHADOW = 0.55;
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

  private readonly shadow: FootprintShadow | null;

  /**
   * `camera` at the image's size; it is drawn at `supersample` times that each way. With
   * `shadowRegion`, the liquid casts a footprint shadow onto the solids within that box (shadow.ts).
   */
  constructor(
    camera: PreviewCamera,
    readonly supersample = 2,
    shadowRegion?: Box,
    readonly shading: { liquid: Shading; solid: Shading } = { liquid: LIQUID_SHADING, solid: SOLID_SHADING },
  ) {
    if (!(Number.isInteger(supersample) && supersample >= 1 && supersample <= 4)) throw new RangeError(`supersample ${supersample} is not a whole number from 1 to 4`);
    this.width = camera.width;
    this.height = camera.height;
    this.camera = scaleCamera(camera, supersample);
    this.shadow = shadowRegion ? new FootprintShadow(shadowRegion) : null;
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
    this.shadow?.cast(solidTriangles > 0 ? content.liquid : undefined);
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
                const d = this.shaded(x, y, sz);
                cr = d * Sc[k];
                cg = d * Sc[k + 1];
                cb = d * Sc[k + 2];
              } else if (sz > lz) {
                cr += SOLID_OVER_LIQUID * (Sc[k] - cr);
                cg += SOLID_OVER_LIQUID * (Sc[k + 1] - cg);
                cb += SOLID_OVER_LIQUID * (Sc[k + 2] - cb);
              }
            } else if (sz > 0) {
              const d = this.shaded(x, y, sz);
              cr = d * Sc[k];
              cg = d * Sc[k + 1];
              cb = d * Sc[k + 2];
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

  /** How much light a solid sample at (x, y), inverse depth `invDepth`, keeps under the liquid's shadow (1: all). */
  private shaded(x: number, y: number, invDepth: number): number {
    if (!this.shadow) return 1;
    const c = this.camera, depth = 1 / invDepth;
    const u = ((x + 0.5 - c.width / 2) / c.focal) * depth, v = (-(y + 0.5 - c.height / 2) / c.focal) * depth;
    const wx = c.eye[0] + u * c.right[0] + v * c.up[0] - depth * c.back[0];
    const wy = c.eye[1] + u * c.right[1] + v * c.up[1] - depth * c.back[1];
    const wz = c.eye[2] + u * c.right[2] + v * c.up[2] - depth * c.back[2];
    return 1 - SHADOW * this.shadow.cover(wx, wy, wz);
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
