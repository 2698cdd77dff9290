/**
 * Reads a binary little-endian PLY triangle mesh back into a Mesh: what toPLY writes (float x y z,
 * nx ny nz, uchar red green blue as sRGB, a uchar-counted list of uint indices) and any file of
 * the same kind whose properties are scalars of the PLY types. `viscid animate` reads a run's
 * frames with it; tests read the encoder's output with it.
 */
import type { Mesh } from '../types/geometry.ts';
import { srgbToLinear } from '../math/color.ts';

const SIZES: Record<string, number> = { char: 1, uchar: 1, int8: 1, uint8: 1, short: 2, ushort: 2, int16: 2, uint16: 2, int: 4, uint: 4, int32: 4, uint32: 4, float: 4, float32: 4, double: 8, float64: 8 };

function read(view: DataView, type: string, at: number): number {
  switch (type) {
    case 'char': case 'int8': return view.getInt8(at);
    case 'uchar': case 'uint8': return view.getUint8(at);
    case 'short': case 'int16': return view.getInt16(at, true);
    case 'ushort': case 'uint16': return view.getUint16(at, true);
    case 'int': case 'int32': return view.getInt32(at, true);
    case 'uint': case 'uint32': return view.getUint32(at, true);
    case 'float': case 'float32': return view.getFloat32(at, true);
    default: return view.getFloat64(at, true);
  }
}

/** Linear values of the 256 8-bit sRGB levels. */
const SRGB8_TO_LINEAR = Float32Array.from({ length: 256 }, (_, v) => srgbToLinear(v / 255));

export class PlyError extends Error {
  override name = 'PlyError';
}

/** The mesh of a binary little-endian PLY file (vertex colours as linear RGB, as in a Mesh). */
export function fromPLY(bytes: Uint8Array): Mesh {
  const limit = Math.min(bytes.length, 65536);
  let end = -1;
  for (let i = 0; i + 11 <= limit; i++) {
    if (bytes[i] === 101 && new TextDecoder().decode(bytes.subarray(i, i + 11)) === 'end_header\n') {
      end = i + 11;
      break;
    }
  }
  if (end < 0) throw new PlyError('not a PLY file: no end_header line in its first 64 KiB');
  const lines = new TextDecoder().decode(bytes.subarray(0, end)).split('\n');
  // Errors name the line, never quote it: the file's text stays out of messages.
  if (lines[0] !== 'ply') throw new PlyError("not a PLY file: its first line is not 'ply'");
  if (lines[1] !== 'format binary_little_endian 1.0') throw new PlyError('only binary_little_endian 1.0 PLY is read; line 2 names another format');
  const elements: { name: string; count: number; props: { name: string; type: string; list?: { count: string; item: string } }[] }[] = [];
  for (const [k, line] of lines.slice(2).entries()) {
    const w = line.trim().split(/\s+/);
    if (w[0] === 'element') {
      const count = Number(w[2]);
      if (!Number.isSafeInteger(count) || count < 0) throw new PlyError(`line ${k + 3}: an element count that is not a whole number ≥ 0`);
      elements.push({ name: w[1], count, props: [] });
    } else if (w[0] === 'property') {
      const el = elements[elements.length - 1];
      if (!el) throw new PlyError(`line ${k + 3}: a property before any element`);
      if (w[1] === 'list' && SIZES[w[2]] !== undefined && SIZES[w[3]] !== undefined) el.props.push({ name: w[4], type: 'list', list: { count: w[2], item: w[3] } });
      else if (SIZES[w[1]] !== undefined) el.props.push({ name: w[2], type: w[1] });
      else throw new PlyError(`line ${k + 3}: an unknown property type`);
    }
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = end;
  let positions = new Float32Array(0), normals = new Float32Array(0);
  let colors: Float32Array | undefined;
  let indices = new Uint32Array(0);
  let nIndices = 0;
  for (const el of elements) {
    if (el.name === 'vertex') {
      const n = el.count;
      // Refused before allocating: the vertices must fit in what the file holds.
      const record = el.props.reduce((s, p) => s + (SIZES[p.type] ?? 1), 0);
      if (n * Math.max(1, record) > bytes.length - at) throw new PlyError(`${n} vertices do not fit in the file`);
      positions = new Float32Array(3 * n);
      const names = el.props.map((p) => p.name);
      const hasNormals = ['nx', 'ny', 'nz'].every((k) => names.includes(k));
      const hasColors = ['red', 'green', 'blue'].every((k) => names.includes(k));
      if (hasNormals) normals = new Float32Array(3 * n);
      if (hasColors) colors = new Float32Array(3 * n);
      const slot: Record<string, [Float32Array | undefined, number]> = {
        x: [positions, 0], y: [positions, 1], z: [positions, 2],
        nx: [hasNormals ? normals : undefined, 0], ny: [hasNormals ? normals : undefined, 1], nz: [hasNormals ? normals : undefined, 2],
        red: [colors, 0], green: [colors, 1], blue: [colors, 2],
      };
      // Each property's place in a vertex record (all are scalars, so records are of one size) and where it goes.
      let stride = 0;
      const plan = el.props.map((p) => {
        if (p.list) throw new PlyError(`list property '${p.name}' on vertices is not read`);
        const s = slot[p.name];
        const entry = { type: p.type, offset: stride, out: s?.[0], component: s?.[1] ?? 0, srgb8: p.type === 'uchar' && s?.[0] !== undefined && s[0] === colors };
        stride += SIZES[p.type];
        return entry;
      }).filter((e) => e.out !== undefined);
      if (at + n * stride > bytes.length) throw new PlyError(`file ends inside vertex ${Math.floor((bytes.length - at) / Math.max(1, stride))} of ${n}`);
      for (const e of plan) {
        const out = e.out!;
        let q = at + e.offset;
        if (e.type === 'float' || e.type === 'float32') for (let i = e.component; i < 3 * n; i += 3, q += stride) out[i] = view.getFloat32(q, true);
        else if (e.srgb8) for (let i = e.component; i < 3 * n; i += 3, q += stride) out[i] = SRGB8_TO_LINEAR[bytes[q]];
        else for (let i = e.component; i < 3 * n; i += 3, q += stride) out[i] = read(view, e.type, q);
      }
      at += n * stride;
    } else {
      const isFace = el.name === 'face';
      if (isFace && indices.length < 3 * el.count) {
        const grown = new Uint32Array(nIndices + 3 * el.count);
        grown.set(indices.subarray(0, nIndices));
        indices = grown;
      }
      const only = el.props.length === 1 ? el.props[0].list : undefined;
      if (isFace && only && (only.count === 'uchar' || only.count === 'uint8') && SIZES[only.item] === 4 && at + 13 * el.count <= bytes.length) {
        // What toPLY writes: a byte 3 and three 32-bit indices per face.
        const signed = only.item === 'int' || only.item === 'int32';
        for (let i = 0; i < el.count; i++, at += 13) {
          if (bytes[at] !== 3) throw new PlyError(`face ${i} has ${bytes[at]} corners; only triangles are read`);
          for (let j = 0; j < 3; j++) indices[nIndices++] = signed ? view.getInt32(at + 1 + 4 * j, true) : view.getUint32(at + 1 + 4 * j, true);
        }
        continue;
      }
      for (let i = 0; i < el.count; i++) {
        for (const p of el.props) {
          if (!p.list) {
            at += SIZES[p.type];
            if (at > bytes.length) throw new PlyError(`file ends inside ${el.name} ${i} of ${el.count}`);
            continue;
          }
          if (at + SIZES[p.list.count] > bytes.length) throw new PlyError(`file ends inside ${el.name} ${i} of ${el.count}`);
          const k = read(view, p.list.count, at);
          at += SIZES[p.list.count];
          const size = SIZES[p.list.item];
          if (at + k * size > bytes.length) throw new PlyError(`file ends inside ${el.name} ${i} of ${el.count}`);
          if (isFace && k !== 3) throw new PlyError(`face ${i} has ${k} corners; only triangles are read`);
          if (isFace) {
            if (nIndices + 3 > indices.length) {
              const grown = new Uint32Array(2 * indices.length + 3);
              grown.set(indices.subarray(0, nIndices));
              indices = grown;
            }
            for (let j = 0; j < 3; j++, at += size) indices[nIndices++] = read(view, p.list.item, at);
          } else at += k * size;
        }
      }
    }
  }
  const vertices = positions.length / 3;
  for (let i = 0; i < nIndices; i++) {
    if (!(indices[i] < vertices)) throw new PlyError(`face ${Math.floor(i / 3)} refers to vertex ${indices[i]}; the file has ${vertices}`);
  }
  return { positions, normals, indices: nIndices === indices.length ? indices : indices.slice(0, nIndices), ...(colors ? { colors } : {}) };
}
