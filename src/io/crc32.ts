/**
 * CRC-32 (the IEEE polynomial of zip and PNG), slice-by-4: the checksum a checkpoint carries so that
 * a damaged file is refused instead of resumed into different frames.
 */
const TABLES = (() => {
  const t = new Uint32Array(4 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let s = 1; s < 4; s++) t[256 * s + n] = (t[256 * (s - 1) + n] >>> 8) ^ t[t[256 * (s - 1) + n] & 0xff];
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  const t = TABLES;
  let c = 0xffffffff;
  let i = 0;
  const n = bytes.length;
  for (; i + 4 <= n; i += 4) {
    c ^= bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    c = t[768 + (c & 0xff)] ^ t[512 + ((c >>> 8) & 0xff)] ^ t[256 + ((c >>> 16) & 0xff)] ^ t[c >>> 24];
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
