/**
 * A small PNG reader for the tests: chunks checked against their CRC-32, the IHDR read, the IDAT
 * stream inflated (fflate) and unfiltered (8-bit RGB only, what src/preview/png.ts writes). For an
 * APNG it also counts acTL's frames and the fcTL chunks.
 */
import { unzlibSync } from 'fflate';
import { crc32 } from '../../src/io/crc32.ts';

export interface DecodedPng {
  width: number;
  height: number;
  colorType: number;
  pixels: Uint8Array;
  chunks: string[];
  /** acTL's num_frames, or 0 when there is no acTL. */
  animationFrames: number;
  /** fcTL chunks (frame controls) found. */
  frameControls: number;
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const signature = [137, 80, 78, 71, 13, 10, 26, 10];
  signature.forEach((b, i) => {
    if (bytes[i] !== b) throw new Error('not a PNG signature');
  });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8, width = 0, height = 0, colorType = -1, animationFrames = 0, frameControls = 0;
  const chunks: string[] = [];
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) throw new Error(`bad CRC in ${type}`);
    chunks.push(type);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      if (data[8] !== 8) throw new Error('bit depth is not 8');
      colorType = data[9];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'acTL') animationFrames = view.getUint32(at + 8);
    else if (type === 'fcTL') frameControls++;
    at += 12 + length;
  }
  if (colorType !== 2) throw new Error(`colour type ${colorType} is not RGB`);
  const joined = new Uint8Array(idat.reduce((s, d) => s + d.length, 0));
  let o = 0;
  for (const d of idat) {
    joined.set(d, o);
    o += d.length;
  }
  const raw = unzlibSync(joined);
  const stride = 3 * width;
  if (raw.length !== (stride + 1) * height) throw new Error(`image data is ${raw.length} bytes, expected ${(stride + 1) * height}`);
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const type = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= 3 ? pixels[y * stride + i - 3] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= 3 && y > 0 ? pixels[(y - 1) * stride + i - 3] : 0;
      let p = 0;
      if (type === 1) p = a;
      else if (type === 2) p = b;
      else if (type === 3) p = (a + b) >> 1;
      else if (type === 4) {
        const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (type !== 0) throw new Error(`row ${y} has filter ${type}`);
      pixels[y * stride + i] = (x + p) & 255;
    }
  }
  return { width, height, colorType, pixels, chunks, animationFrames, frameControls };
}
