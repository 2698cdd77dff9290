/**
 * One binary glTF (GLB) file for a whole run: every frame's surface as a mesh of its own under a
 * node whose scale is animated (STEP interpolation) to 1 on that frame's time and 0 elsewhere, so
 * that any glTF reader that plays animations (Blender's importer, three.js, model-viewer) shows
 * the sequence, topology changing from frame to frame as it does. The node's own scale is 1 for the
 * first frame and 0 for the rest, for readers that show no animation.
 *
 * Written in two passes so that a long run never has to be held in memory:
 * `encodeGlbSequenceStart` lays out the JSON and the binary chunk from the frames' sizes and
 * bounds alone, and the caller then appends each frame's arrays (`glbFrameChunks`), in order.
 */
import type { Mesh } from '../types/geometry.ts';

export interface SequenceFrame {
  vertices: number;
  triangles: number;
  /** Simulated time of the frame, s (its animation key). */
  time: number;
}

export interface SequenceOptions {
  name?: string;
  normals: boolean;
  colors: boolean;
}

const FLOAT = 5126, UINT = 5125;
const ARRAY_BUFFER = 34962, ELEMENT_ARRAY_BUFFER = 34963;

/** Bytes of a frame's arrays in the binary chunk: positions, normals, colours (float32), indices (uint32). */
export function frameBytes(f: SequenceFrame, o: SequenceOptions): number {
  return f.vertices * 12 * (1 + (o.normals ? 1 : 0) + (o.colors ? 1 : 0)) + f.triangles * 12;
}

interface GltfJson {
  accessors: { min?: number[]; max?: number[] }[];
  meshes: { primitives: { attributes: Record<string, number> }[] }[];
}

/** The glTF JSON, the animation keys (the binary chunk's start) and the binary chunk's length. */
interface Layout {
  json: GltfJson;
  keys: Float32Array;
  binLength: number;
}

/** Lays out the JSON and the binary chunk: the animation's keys first, then each frame's arrays. */
function layoutSequence(frames: SequenceFrame[], o: SequenceOptions): Layout {
  const name = o.name ?? 'viscid';
  const bufferViews: object[] = [], accessors: object[] = [], meshes: object[] = [], nodes: object[] = [];
  const samplers: object[] = [], channels: object[] = [];
  // Animation keys: per frame k, times (0?, t_k, t_k+1?) and scales (0, 1, 0).
  const keys: number[] = [];
  const keyRanges: { time: number; scale: number; count: number }[] = [];
  for (let k = 0; k < frames.length; k++) {
    const times: number[] = [], scales: number[] = [];
    if (k > 0) times.push(Math.min(0, frames[0].time)), scales.push(0, 0, 0);
    times.push(frames[k].time), scales.push(1, 1, 1);
    if (k + 1 < frames.length) times.push(frames[k + 1].time), scales.push(0, 0, 0);
    keyRanges.push({ time: keys.length * 4, scale: (keys.length + times.length) * 4, count: times.length });
    keys.push(...times, ...scales);
  }
  const keyBytes = keys.length * 4;
  bufferViews.push({ buffer: 0, byteOffset: 0, byteLength: keyBytes });
  for (const [k, r] of keyRanges.entries()) {
    const times = keys.slice(r.time / 4, r.time / 4 + r.count);
    const a = accessors.length;
    accessors.push({ bufferView: 0, byteOffset: r.time, componentType: FLOAT, count: r.count, type: 'SCALAR', min: [Math.min(...times)], max: [Math.max(...times)] });
    accessors.push({ bufferView: 0, byteOffset: r.scale, componentType: FLOAT, count: r.count, type: 'VEC3' });
    samplers.push({ input: a, output: a + 1, interpolation: 'STEP' });
    channels.push({ sampler: k, target: { node: k, path: 'scale' } });
  }
  let offset = keyBytes;
  const view = (byteLength: number, target: number) => {
    bufferViews.push({ buffer: 0, byteOffset: offset, byteLength, target });
    offset += byteLength;
    return bufferViews.length - 1;
  };
  const pad = String(frames.length).length;
  for (const [k, f] of frames.entries()) {
    const label = `${name}-${String(k + 1).padStart(Math.max(4, pad), '0')}`;
    if (f.vertices === 0 || f.triangles === 0) {
      nodes.push({ name: label, scale: [0, 0, 0] });
      continue;
    }
    const attributes: Record<string, number> = {};
    attributes.POSITION = accessors.length;
    accessors.push({ bufferView: view(12 * f.vertices, ARRAY_BUFFER), componentType: FLOAT, count: f.vertices, type: 'VEC3', min: [0, 0, 0], max: [0, 0, 0] });
    if (o.normals) {
      attributes.NORMAL = accessors.length;
      accessors.push({ bufferView: view(12 * f.vertices, ARRAY_BUFFER), componentType: FLOAT, count: f.vertices, type: 'VEC3' });
    }
    if (o.colors) {
      attributes.COLOR_0 = accessors.length;
      accessors.push({ bufferView: view(12 * f.vertices, ARRAY_BUFFER), componentType: FLOAT, count: f.vertices, type: 'VEC3' });
    }
    const indices = accessors.length;
    accessors.push({ bufferView: view(12 * f.triangles, ELEMENT_ARRAY_BUFFER), componentType: UINT, count: 3 * f.triangles, type: 'SCALAR' });
    meshes.push({ name: label, primitives: [{ attributes, indices, material: 0 }] });
    nodes.push({ name: label, mesh: meshes.length - 1, ...(k === 0 ? {} : { scale: [0, 0, 0] }) });
  }
  const gltf = {
    asset: { version: '2.0', generator: 'viscid' },
    scene: 0,
    scenes: [{ name, nodes: nodes.map((_, i) => i) }],
    nodes,
    meshes,
    // White where vertex colours carry the colour (glTF multiplies the two), else honey.
    materials: [{ name: 'liquid', pbrMetallicRoughness: { baseColorFactor: o.colors ? [1, 1, 1, 1] : [0.693, 0.323, 0.013, 1], metallicFactor: 0, roughnessFactor: 0.15 } }],
    animations: [{ name, samplers, channels }],
    buffers: [{ byteLength: offset }],
    bufferViews,
    accessors,
  };
  return { json: gltf as unknown as GltfJson, keys: new Float32Array(keys), binLength: offset };
}

/**
 * The file's first bytes: GLB header, JSON chunk (with each frame's position bounds, which glTF
 * requires, from `bounds`) and the binary chunk's header and animation keys. Frame k's arrays
 * (glbFrameChunks) follow in order; the file is then complete.
 */
export function encodeGlbSequenceStart(frames: SequenceFrame[], o: SequenceOptions, bounds: { min: number[]; max: number[] }[]): Uint8Array {
  const layout = layoutSequence(frames, o);
  let m = 0;
  for (const [k, f] of frames.entries()) {
    if (f.vertices === 0 || f.triangles === 0) continue;
    const acc = layout.json.accessors[layout.json.meshes[m++].primitives[0].attributes.POSITION];
    acc.min = bounds[k].min.map(Math.fround);
    acc.max = bounds[k].max.map(Math.fround);
  }
  const json = new TextEncoder().encode(JSON.stringify(layout.json));
  const jsonPadded = (json.length + 3) & ~3;
  const total = 12 + 8 + jsonPadded + 8 + layout.binLength;
  const head = new Uint8Array(12 + 8 + jsonPadded + 8 + layout.keys.byteLength);
  const dv = new DataView(head.buffer);
  dv.setUint32(0, 0x46546c67, true); // glTF
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonPadded, true);
  dv.setUint32(16, 0x4e4f534a, true); // JSON
  head.set(json, 20);
  head.fill(0x20, 20 + json.length, 20 + jsonPadded);
  dv.setUint32(20 + jsonPadded, layout.binLength, true);
  dv.setUint32(24 + jsonPadded, 0x004e4942, true); // BIN
  for (let i = 0; i < layout.keys.length; i++) dv.setFloat32(28 + jsonPadded + 4 * i, layout.keys[i], true);
  return head;
}

/** A frame's arrays as they follow in the binary chunk (little-endian float32 and uint32). */
export function glbFrameChunks(mesh: Mesh, o: SequenceOptions): Uint8Array[] {
  const n = mesh.positions.length / 3;
  if (n === 0 || mesh.indices.length === 0) return [];
  const le = (a: Float32Array | Uint32Array) => {
    const out = new Uint8Array(a.byteLength);
    const dv = new DataView(out.buffer);
    if (a instanceof Float32Array) for (let i = 0; i < a.length; i++) dv.setFloat32(4 * i, a[i], true);
    else for (let i = 0; i < a.length; i++) dv.setUint32(4 * i, a[i], true);
    return out;
  };
  const parts = [le(Float32Array.from(mesh.positions))];
  if (o.normals) parts.push(le(mesh.normals.length >= 3 * n ? Float32Array.from(mesh.normals.subarray(0, 3 * n)) : new Float32Array(3 * n)));
  if (o.colors) parts.push(le(mesh.colors && mesh.colors.length >= 3 * n ? Float32Array.from(mesh.colors.subarray(0, 3 * n)) : new Float32Array(3 * n).fill(1)));
  parts.push(le(Uint32Array.from(mesh.indices)));
  return parts;
}
