/**
 * Wavefront OBJ text of a mesh: `v x y z [r g b]`, `vn`, `f a//a b//b c//c` (1-based). Vertex colours
 * are written as sRGB 0..1 after the position (the extension Blender, MeshLab and Houdini read).
 */
import type { Mesh } from '../types/geometry.ts';
import { linearToSrgb } from '../math/color.ts';

export interface ObjOptions {
  /** Write per-vertex colours when the mesh has them (default true). */
  colors?: boolean;
  /** A comment line at the top. */
  comment?: string;
  /**
   * Significant digits of coordinates and normals, 1–9 (default 9: every float32 reads back
   * exactly). 6 keeps a 10 cm mesh to 0.1 µm and makes the file about a seventh smaller
   * (BENCHMARKS.md, "Output formats").
   */
  digits?: number;
}

/**
 * A decimal that reads back as the same float32 (9 significant digits always suffice), trailing
 * zeros of the fraction dropped. toPrecision is several times faster than String(Number(...)) here.
 * (Only after a point: 426242560, nine digits and no point, once lost its zero and came out ten
 * times smaller.)
 */
export function f32(x: number, digits = 9): string {
  let s = Math.fround(x).toPrecision(digits);
  if (s.charCodeAt(s.length - 1) === 48 && s.indexOf('e') < 0 && s.indexOf('.') >= 0) {
    let end = s.length;
    while (s.charCodeAt(end - 1) === 48) end--;
    if (s.charCodeAt(end - 1) === 46) end--;
    s = s.slice(0, end);
  }
  return s;
}

/** Colour components with 4 decimals, from a table (formatting numbers dominates the writer's time). */
let C4: string[] | undefined;
function c4(x: number): string {
  C4 ??= Array.from({ length: 10001 }, (_, k) => String(k / 10000));
  return C4[Math.round(linearToSrgb(x) * 10000)];
}

/**
 * The text is written as ASCII bytes into one buffer and decoded once: numbers are formatted by
 * writeF32 (the digits f32 gives, without making a string per number) and writeInt. Honey drop,
 * 41 000 vertices and 83 000 triangles (7.5 MB): 112 → 44 ms (tests/io/encoders.test.ts checks
 * the text against the former string-per-line writer).
 */
export function toOBJ(mesh: Mesh, options: ObjOptions = {}): string {
  const n = mesh.positions.length / 3;
  const nt = mesh.indices.length / 3;
  const p = mesh.positions, nn = mesh.normals, col = mesh.colors;
  const withColors = options.colors !== false && col !== undefined && col.length >= 3 * n;
  const header = `# viscid mesh: ${n} vertices, ${nt} triangles${options.comment ? `; ${options.comment.replace(/[\r\n]+/g, ' ')}` : ''}`;
  const withNormals = nn.length >= 3 * n && n > 0;
  const digits = Math.min(9, Math.max(1, Math.round(options.digits ?? 9)));
  // At most 17 bytes a coordinate (sign, 9 digits, point, 6 zeros of a small value), 7 a colour
  // component, 11 an index (10 digits and a separator), and the line's own bytes.
  const out = new AsciiBuffer(n * (6 + 3 * 17 + (withColors ? 3 * 8 : 0)) + (withNormals ? n * (4 + 3 * 17) : 0) + nt * (3 + 3 * (withNormals ? 24 : 12)) + 16);
  for (let i = 0; i < n; i++) {
    out.byte(118); // v
    for (let k = 0; k < 3; k++) {
      out.byte(32);
      out.f32(p[3 * i + k], digits);
    }
    if (withColors) {
      for (let k = 0; k < 3; k++) {
        out.byte(32);
        out.ascii(c4(col![3 * i + k]));
      }
    }
    out.byte(10);
  }
  if (withNormals) {
    for (let i = 0; i < n; i++) {
      out.byte(118); out.byte(110); // vn
      for (let k = 0; k < 3; k++) {
        out.byte(32);
        out.f32(nn[3 * i + k], digits);
      }
      out.byte(10);
    }
  }
  const ix = mesh.indices;
  for (let t = 0; t < nt; t++) {
    out.byte(102); // f
    for (let k = 0; k < 3; k++) {
      const a = ix[3 * t + k] + 1;
      out.byte(32);
      out.int(a);
      if (withNormals) {
        out.byte(47); out.byte(47); // //
        out.int(a);
      }
    }
    out.byte(10);
  }
  return `${header}\n${out.text()}`;
}

/** The digits (at most nine) of the number AsciiBuffer.f32 is writing, as character codes. */
const DIGITS = new Uint8Array(9);

/** 10^k for k = 0 … 22 (exact doubles). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** ASCII text built in one byte buffer (toOBJ). */
class AsciiBuffer {
  private buf: Uint8Array;
  private len = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
  }
  private room(k: number): void {
    if (this.len + k <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(2 * this.buf.length, this.len + k));
    bigger.set(this.buf.subarray(0, this.len));
    this.buf = bigger;
  }
  byte(c: number): void {
    this.room(1);
    this.buf[this.len++] = c;
  }
  /** A string of ASCII characters. */
  ascii(s: string): void {
    this.room(s.length);
    for (let k = 0; k < s.length; k++) this.buf[this.len++] = s.charCodeAt(k);
  }
  /** A non-negative integer (below 2³²: mesh indices). */
  int(v: number): void {
    this.room(10);
    let digits = 1;
    while (digits < 10 && v >= POW10[digits]) digits++;
    const buf = this.buf, end = this.len + digits;
    let u = v >>> 0;
    for (let at = end - 1; at >= this.len; at--) {
      const q = (u / 10) >>> 0;
      buf[at] = 48 + u - 10 * q;
      u = q;
    }
    this.len = end;
  }
  /**
   * f32(x, digits) without the string: a float32's significant digits (toPrecision(digits),
   * rounded half away from zero at a tie) in fixed notation, trailing zeros and point dropped.
   * Where that notation or rounding is not certain (0, exponents outside −6 … 8, a scaled value
   * within 1e-6 of a tie, a mis-estimated exponent) it takes f32's string.
   */
  f32(x: number, digits = 9): void {
    x = Math.fround(x);
    const a = Math.abs(x);
    const e = a > 0 ? Math.floor(Math.log10(a)) : 0;
    const top = digits - 1;
    if (!(a > 0) || e < -6 || e > 8 || e > top || !Number.isFinite(a)) {
      this.ascii(f32(x, digits));
      return;
    }
    const scaled = a * POW10[top - e];
    const fl = Math.floor(scaled), frac = scaled - fl;
    const kept = frac >= 0.5 ? fl + 1 : fl;
    if (Math.abs(frac - 0.5) < 1e-6 || kept < POW10[top] || kept >= POW10[digits]) {
      this.ascii(f32(x, digits));
      return;
    }
    let v = kept;
    for (let k = top; k >= 0; k--) {
      const d = v % 10;
      DIGITS[k] = 48 + d;
      v = (v - d) / 10;
    }
    // The last digit to keep: trailing zeros after the point go.
    let last = top;
    while (last > Math.max(e, 0) && DIGITS[last] === 48) last--;
    this.room(20);
    const buf = this.buf;
    if (x < 0) buf[this.len++] = 45; // -
    if (e >= 0) {
      for (let k = 0; k <= e; k++) buf[this.len++] = DIGITS[k];
      if (last > e) {
        buf[this.len++] = 46; // .
        for (let k = e + 1; k <= last; k++) buf[this.len++] = DIGITS[k];
      }
    } else {
      buf[this.len++] = 48; // 0
      buf[this.len++] = 46; // .
      for (let k = 0; k < -e - 1; k++) buf[this.len++] = 48;
      for (let k = 0; k <= last; k++) buf[this.len++] = DIGITS[k];
    }
  }
  text(): string {
    return new TextDecoder().decode(this.buf.subarray(0, this.len));
  }
}
