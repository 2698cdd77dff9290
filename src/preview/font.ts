/**
 * A 5×7 bitmap font (with a descender row: 5×8) for the labels of preview tiles: digits, lower-case
 * letters (capitals are drawn as lower-case) and the punctuation labels use. Each glyph is eight
 * rows of five cells, '#' lit, rows separated by '/'.
 */
import type { RgbImage } from './png.ts';

const GLYPHS: Record<string, string> = {
  ' ': '',
  '0': ' ### /#   #/#  ##/# # #/##  #/#   #/ ### ',
  '1': '  #  / ##  /  #  /  #  /  #  /  #  / ### ',
  '2': ' ### /#   #/    #/   # /  #  / #   /#####',
  '3': '#####/   # /  #  /   # /    #/#   #/ ### ',
  '4': '   # /  ## / # # /#  # /#####/   # /   # ',
  '5': '#####/#    /#### /    #/    #/#   #/ ### ',
  '6': '  ## / #   /#    /#### /#   #/#   #/ ### ',
  '7': '#####/    #/   # /  #  / #   / #   / #   ',
  '8': ' ### /#   #/#   #/ ### /#   #/#   #/ ### ',
  '9': ' ### /#   #/#   #/ ####/    #/   # / ##  ',
  a: '     /     / ### /    #/ ####/#   #/ ####',
  b: '#    /#    /# ## /##  #/#   #/#   #/#### ',
  c: '     /     / ### /#    /#    /#   #/ ### ',
  d: '    #/    #/ ## #/#  ##/#   #/#   #/ ####',
  e: '     /     / ### /#   #/#####/#    / ### ',
  f: '  ## / #  #/ #   /###  / #   / #   / #   ',
  g: '     /     / ####/#   #/#   #/ ####/    #/ ### ',
  h: '#    /#    /# ## /##  #/#   #/#   #/#   #',
  i: '  #  /     / ##  /  #  /  #  /  #  / ### ',
  j: '   # /     /  ## /   # /   # /   # /#  # / ##  ',
  k: '#    /#    /#  # /# #  /##   /# #  /#  # ',
  l: ' ##  /  #  /  #  /  #  /  #  /  #  / ### ',
  m: '     /     /## # /# # #/# # #/#   #/#   #',
  n: '     /     /# ## /##  #/#   #/#   #/#   #',
  o: '     /     / ### /#   #/#   #/#   #/ ### ',
  p: '     /     /#### /#   #/#   #/#### /#    /#    ',
  q: '     /     / ####/#   #/#   #/ ####/    #/    #',
  r: '     /     /# ## /##  #/#    /#    /#    ',
  s: '     /     / ####/#    / ### /    #/#### ',
  t: ' #   / #   /###  / #   / #   / #  #/  ## ',
  u: '     /     /#   #/#   #/#   #/#  ##/ ## #',
  v: '     /     /#   #/#   #/#   #/ # # /  #  ',
  w: '     /     /#   #/#   #/# # #/# # #/ # # ',
  x: '     /     /#   #/ # # /  #  / # # /#   #',
  y: '     /     /#   #/#   #/#   #/ ####/    #/ ### ',
  z: '     /     /#####/   # /  #  / #   /#####',
  '.': '     /     /     /     /     / ##  / ##  ',
  ',': '     /     /     /     /     / ##  /  #  / #   ',
  ':': '     / ##  / ##  /     / ##  / ##  /     ',
  ';': '     / ##  / ##  /     / ##  /  #  / #   ',
  '=': '     /     /#####/     /#####/     /     ',
  '-': '     /     /     /#####/     /     /     ',
  '+': '     /  #  /  #  /#####/  #  /  #  /     ',
  '/': '    #/   # /   # /  #  / #   / #   /#    ',
  '(': '   # /  #  / #   / #   / #   /  #  /   # ',
  ')': ' #   /  #  /   # /   # /   # /  #  / #   ',
  '[': ' ### / #   / #   / #   / #   / #   / ### ',
  ']': ' ### /   # /   # /   # /   # /   # / ### ',
  '<': '   # /  #  / #   /#    / #   /  #  /   # ',
  '>': ' #   /  #  /   # /    #/   # /  #  / #   ',
  '%': '##   /##  #/   # /  #  / #   /#  ##/   ##',
  '_': '     /     /     /     /     /     /#####',
  '|': '  #  /  #  /  #  /  #  /  #  /  #  /  #  ',
  "'": '  #  /  #  /     /     /     /     /     ',
  '×': '     /     /#   #/ # # /  #  / # # /#   #',
  '·': '     /     /     /  #  /     /     /     ',
  '?': ' ### /#   #/    #/   # /  #  /     /  #  ',
  '!': '  #  /  #  /  #  /  #  /  #  /     /  #  ',
  '#': ' # # /#####/ # # / # # /#####/ # # /     ',
  '*': '     / # # /  #  /#####/  #  / # # /     ',
};

/** Cell of a glyph in font pixels: 5 wide and 1 apart, 8 tall (the last row for descenders). */
export const GLYPH_ADVANCE = 6;
export const GLYPH_HEIGHT = 8;

/** Lit cells of each glyph, as 8 row bit masks (bit 4 the leftmost cell). */
const BITS: Map<string, Uint8Array> = new Map(
  Object.entries(GLYPHS).map(([ch, art]) => {
    const rows = new Uint8Array(GLYPH_HEIGHT);
    art.split('/').forEach((row, r) => {
      for (let c = 0; c < 5; c++) if (row[c] === '#') rows[r] |= 1 << (4 - c);
    });
    return [ch, rows];
  }),
);

function glyph(ch: string): Uint8Array {
  return BITS.get(ch) ?? BITS.get(ch.toLowerCase()) ?? (ch === '−' || ch === '–' ? BITS.get('-')! : BITS.get('?')!);
}

/** Width of `text` in image pixels at `scale`. */
export function textWidth(text: string, scale: number): number {
  return Math.max(0, [...text].length * GLYPH_ADVANCE - 1) * scale;
}

/**
 * Draws `text` with its top-left corner at (x, y), `scale` image pixels a font pixel, in `color`
 * (8-bit RGB), over a one-pixel dark shadow so it reads on light and dark backgrounds alike.
 * Whatever falls outside the image is cut off.
 */
export function drawText(img: RgbImage, x: number, y: number, text: string, scale: number, color: [number, number, number], shadow = true): void {
  const put = (px: number, py: number, c: readonly number[]) => {
    if (px < 0 || py < 0 || px >= img.width || py >= img.height) return;
    const k = 3 * (py * img.width + px);
    img.pixels[k] = c[0];
    img.pixels[k + 1] = c[1];
    img.pixels[k + 2] = c[2];
  };
  const passes: [number, readonly number[]][] = shadow ? [[1, [0, 0, 0]], [0, color]] : [[0, color]];
  for (const [offset, c] of passes) {
    let cx = x;
    for (const ch of text) {
      const rows = glyph(ch);
      for (let r = 0; r < GLYPH_HEIGHT; r++) {
        for (let col = 0; col < 5; col++) {
          if (!(rows[r] & (1 << (4 - col)))) continue;
          for (let sy = 0; sy < scale; sy++) for (let sx = 0; sx < scale; sx++) put(cx + col * scale + sx + offset, y + r * scale + sy + offset, c);
        }
      }
      cx += GLYPH_ADVANCE * scale;
    }
  }
}
