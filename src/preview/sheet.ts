/**
 * A contact sheet: tiles of one size in rows and columns under a title bar, each tile labelled in
 * its top-left corner (and, where it has one, a note in its bottom-left corner).
 */
import { drawText, GLYPH_HEIGHT, textWidth } from './font.ts';
import type { RgbImage } from './png.ts';

export interface SheetTile {
  image: RgbImage;
  label: string;
  /** A second line at the tile's foot: "no liquid in this frame". */
  note?: string;
}

const GAP = 4;
const SHEET_BACKGROUND = [0x0b, 0x0c, 0x0f];
const TITLE = [0xe8, 0xe8, 0xe8] as [number, number, number];
const LABEL = [0xf2, 0xf2, 0xf2] as [number, number, number];
const NOTE = [0xff, 0xc8, 0x60] as [number, number, number];

/** Font scale that suits a tile `height` pixels tall: 1 below 280 pixels, 2 below 700, else 3. */
export function labelScale(height: number): number {
  return height < 280 ? 1 : height < 700 ? 2 : 3;
}

/** Writes `label` (top left) and `note` (bottom left) onto a tile image. */
export function labelTile(image: RgbImage, label: string, note?: string): void {
  const scale = labelScale(image.height);
  const pad = 3 * scale;
  drawText(image, pad, pad, label, scale, LABEL);
  if (note) drawText(image, pad, image.height - pad - GLYPH_HEIGHT * scale, note, scale, NOTE);
}

/**
 * The sheet: `columns` tiles a row, `GAP` pixels between and around them, the `title` in a bar
 * above. Every tile must have the first tile's size.
 */
export function contactSheet(tiles: readonly SheetTile[], columns: number, title: string): RgbImage {
  if (tiles.length === 0) throw new RangeError('a contact sheet needs at least one tile');
  const tw = tiles[0].image.width, th = tiles[0].image.height;
  for (const t of tiles) if (t.image.width !== tw || t.image.height !== th) throw new RangeError(`tile is ${t.image.width}×${t.image.height}, the first ${tw}×${th}`);
  const cols = Math.max(1, Math.min(columns, tiles.length));
  const rows = Math.ceil(tiles.length / cols);
  const scale = labelScale(th);
  const titleHeight = (GLYPH_HEIGHT + 6) * scale;
  const width = cols * tw + (cols + 1) * GAP;
  const height = titleHeight + rows * th + (rows + 1) * GAP;
  const pixels = new Uint8Array(3 * width * height);
  for (let i = 0; i < width * height; i++) {
    pixels[3 * i] = SHEET_BACKGROUND[0];
    pixels[3 * i + 1] = SHEET_BACKGROUND[1];
    pixels[3 * i + 2] = SHEET_BACKGROUND[2];
  }
  const sheet: RgbImage = { width, height, pixels };
  // A title longer than the sheet is shortened, with '..' to say so.
  let shown = title;
  while (shown.length > 3 && textWidth(shown, scale) > width - 2 * GAP - 2 * scale) shown = `${shown.slice(0, shown.endsWith('..') ? -3 : -1).trimEnd()}..`;
  drawText(sheet, GAP + 2 * scale, Math.round(4 * scale), shown, scale, TITLE, false);
  tiles.forEach((t, n) => {
    const x0 = GAP + (n % cols) * (tw + GAP), y0 = titleHeight + GAP + Math.floor(n / cols) * (th + GAP);
    const tile = { ...t.image, pixels: Uint8Array.from(t.image.pixels) };
    labelTile(tile, t.label, t.note);
    for (let y = 0; y < th; y++) pixels.set(tile.pixels.subarray(3 * y * tw, 3 * (y + 1) * tw), 3 * ((y0 + y) * width + x0));
  });
  return sheet;
}
