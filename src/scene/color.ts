/**
 * Scene colours to the linear RGB that meshes and the renderer carry (src/types/geometry.ts). A "#rrggbb"
 * string is an sRGB display colour, as colour pickers give it; an [r, g, b] array is linear already.
 */
import type { Color } from './schema.ts';
import { srgbToLinear } from '../math/color.ts';

export function linearColor(c: Color): [number, number, number] {
  if (Array.isArray(c)) return [c[0], c[1], c[2]];
  return [1, 3, 5].map((k) => srgbToLinear(parseInt(c.slice(k, k + 2), 16) / 255)) as [number, number, number];
}
