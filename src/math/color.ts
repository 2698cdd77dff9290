/**
 * The sRGB transfer functions, for the scene (display colours in, src/scene/color.ts) and the
 * encoders (display colours out). Meshes carry linear RGB in 0..1 (types/geometry.ts); OBJ and PLY
 * readers (Blender, MeshLab, Houdini) treat their colours as display (sRGB) values, glTF's COLOR_0
 * is linear by specification.
 */

/** Linear 0..1 -> sRGB 0..1 (IEC 61966-2-1), clamped. */
export function linearToSrgb(c: number): number {
  const x = c <= 0 ? 0 : c >= 1 ? 1 : c;
  return x <= 0.0031308 ? 12.92 * x : 1.055 * Math.pow(x, 1 / 2.4) - 0.055;
}

/** sRGB 0..1 -> linear 0..1, clamped. */
export function srgbToLinear(c: number): number {
  const x = c <= 0 ? 0 : c >= 1 ? 1 : c;
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
}

/** Linear 0..1 -> 8-bit sRGB. */
export function linearToSrgb8(c: number): number {
  return Math.round(linearToSrgb(c) * 255);
}
