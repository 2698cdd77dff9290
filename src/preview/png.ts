/**
 * PNG and animated PNG (APNG) of 8-bit RGB images: the files `viscid preview` writes. Rows are
 * filtered with the per-row heuristic of the PNG specification (§12.8: the filter with the least
 * sum of absolute signed bytes), then deflated by fflate; chunk checksums are CRC-32 (io/crc32.ts).
 * APNG (Mozilla's extension, https://wiki.mozilla.org/APNG_Specification): an `acTL` chunk, one
 * `fcTL` per frame, the first frame as `IDAT` (what a reader without APNG support shows) and the
 * rest as `fdAT`, every frame full-size and replacing the last.
 */
import { zlibSync } from 'fflate';
import { crc32 } from '../io/crc32.ts';

export interface RgbImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, rows top to bottom. */
  pixels: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** The five PNG filters of one row into `out` (filter byte first); `prev` is the row above (zeros for the first). */
function filterRow(row: Uint8Array, prev: Uint8Array, out: Uint8Array, type: number): number {
  const n = row.length;
  out[0] = type;
  let cost = 0;
  for (let i = 0; i < n; i++) {
    const a = i >= 3 ? row[i - 3] : 0, b = prev[i], c = i >= 3 ? prev[i - 3] : 0;
    let predicted = 0;
    if (type === 1) predicted = a;
    else if (type === 2) predicted = b;
    else if (type === 3) predicted = (a + b) >> 1;
    else if (type === 4) {
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    const v = (row[i] - predicted) & 255;
    out[i + 1] = v;
    cost += v < 128 ? v : 256 - v;
  }
  return cost;
}

/** The image's rows, each filtered as the heuristic picks, deflated (zlib stream). */
export function compressImage(img: RgbImage, level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 6): Uint8Array {
  const stride = 3 * img.width;
  if (img.pixels.length !== stride * img.height) throw new RangeError(`image is ${img.width}×${img.height} but has ${img.pixels.length} bytes (expected ${stride * img.height})`);
  const raw = new Uint8Array((stride + 1) * img.height);
  const zero = new Uint8Array(stride);
  const trial = new Uint8Array(stride + 1);
  for (let y = 0; y < img.height; y++) {
    const row = img.pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? img.pixels.subarray((y - 1) * stride, y * stride) : zero;
    let best = 0, bestCost = Infinity;
    for (let type = 0; type <= 4; type++) {
      const cost = filterRow(row, prev, trial, type);
      if (cost < bestCost) {
        bestCost = cost;
        best = type;
      }
    }
    filterRow(row, prev, raw.subarray(y * (stride + 1), (y + 1) * (stride + 1)), best);
  }
  return zlibSync(raw, { level });
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function ihdr(width: number, height: number): Uint8Array {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1)) throw new RangeError(`image size ${width}×${height} is not a positive whole size`);
  const d = new Uint8Array(13);
  const v = new DataView(d.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  d[8] = 8; // bit depth
  d[9] = 2; // colour type: RGB
  return chunk('IHDR', d);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A PNG file of an RGB image. */
export function encodePNG(img: RgbImage): Uint8Array {
  return concat([Uint8Array.from(SIGNATURE), ihdr(img.width, img.height), chunk('IDAT', compressImage(img)), chunk('IEND', new Uint8Array(0))]);
}

/**
 * An APNG built a frame at a time, so that a long run is never held as pixels: `add` compresses a
 * frame at once, `finish` writes the file. Each frame is shown for `delay` = num/den seconds.
 */
export class ApngWriter {
  private readonly frames: Uint8Array[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
    private readonly delay: { num: number; den: number },
  ) {
    ihdr(width, height); // checks the size
    if (!(delay.num >= 0 && delay.num <= 65535 && delay.den >= 1 && delay.den <= 65535)) throw new RangeError(`frame delay ${delay.num}/${delay.den} s is outside APNG's 16-bit fraction`);
  }

  get frameCount(): number {
    return this.frames.length;
  }

  add(img: RgbImage): void {
    if (img.width !== this.width || img.height !== this.height) throw new RangeError(`frame is ${img.width}×${img.height}, the animation ${this.width}×${this.height}`);
    this.frames.push(compressImage(img));
  }

  finish(): Uint8Array {
    if (this.frames.length === 0) throw new RangeError('an animation needs at least one frame');
    const parts = [Uint8Array.from(SIGNATURE), ihdr(this.width, this.height)];
    const actl = new Uint8Array(8);
    new DataView(actl.buffer).setUint32(0, this.frames.length); // num_plays 0: loop forever
    parts.push(chunk('acTL', actl));
    let sequence = 0;
    this.frames.forEach((data, k) => {
      const fc = new Uint8Array(26);
      const v = new DataView(fc.buffer);
      v.setUint32(0, sequence++);
      v.setUint32(4, this.width);
      v.setUint32(8, this.height);
      // x, y offsets 0; delay; dispose 0 (none), blend 0 (source): every frame is whole.
      v.setUint16(20, this.delay.num);
      v.setUint16(22, this.delay.den);
      parts.push(chunk('fcTL', fc));
      if (k === 0) parts.push(chunk('IDAT', data));
      else {
        const fd = new Uint8Array(4 + data.length);
        new DataView(fd.buffer).setUint32(0, sequence++);
        fd.set(data, 4);
        parts.push(chunk('fdAT', fd));
      }
    });
    parts.push(chunk('IEND', new Uint8Array(0)));
    return concat(parts);
  }
}
