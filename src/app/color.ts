/** Scene colours ('#rrggbb' in sRGB, or [r, g, b] taken as sRGB too) to linear RGB for shading. */
import type { Color } from '../scene/schema.ts';

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

export function colorToLinear(color: Color): [number, number, number] {
  if (typeof color === 'string') {
    const v = parseInt(color.slice(1), 16);
    return [toLinear(((v >> 16) & 255) / 255), toLinear(((v >> 8) & 255) / 255), toLinear((v & 255) / 255)];
  }
  return [toLinear(color[0]), toLinear(color[1]), toLinear(color[2])];
}
