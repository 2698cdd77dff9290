/**
 * Wavefront OBJ loader for mesh bodies. Mesh bodies need inside/outside tests (signed distance,
 * particle-izing the surface), so a mesh is accepted only when it is a closed, consistently
 * oriented triangle surface; it is returned oriented outward (positive signed volume).
 *
 * One linear pass over the text (plus sorts for welding and the edge check), with caps on the text
 * length, vertex and triangle counts checked before the work they would cost, so it never hangs.
 */
import type { TriMesh } from './scene.ts';

/** Longest OBJ text accepted, in characters (about 64 MB). */
export const OBJ_MAX_CHARS = 64 * 1024 * 1024;
/** Most `v` lines accepted. */
export const OBJ_MAX_VERTICES = 2_000_000;
/** Most triangles accepted (after fan triangulation of polygons). */
export const OBJ_MAX_TRIANGLES = 4_000_000;

export class ObjError extends Error {
  override name = 'ObjError';
  constructor(
    readonly file: string,
    /** 1-based line number, or 0 when the problem is the mesh as a whole. */
    readonly line: number,
    detail: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${detail}` : `${file}: ${detail}`);
  }
}

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT = /^[+-]?\d+$/;
const KEYWORD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const WS = /[ \t\f\v]+/;
/** Statements that carry nothing a mesh body needs. */
const IGNORED = new Set(['vt', 'vn', 'vp', 'o', 'g', 's', 'usemtl', 'mtllib', 'l', 'p', 'mg', 'lod', 'maplib', 'usemap', 'shadow_obj', 'trace_obj', 'bevel', 'c_interp', 'd_interp', 'ctech', 'stech']);
/** Free-form geometry: valid OBJ, but not triangles. */
const FREEFORM = new Set(['cstype', 'deg', 'bmat', 'step', 'curv', 'curv2', 'surf', 'parm', 'trim', 'hole', 'scrv', 'sp', 'end', 'con']);

const fmtInt = (n: number) => n.toLocaleString('en-US');

/** Parses OBJ text into a closed, outward-oriented triangle mesh; throws ObjError naming file and line. */
export function parseOBJ(text: string, name: string): TriMesh {
  if (typeof text !== 'string') throw new ObjError(name, 0, 'not text');
  if (text.length > OBJ_MAX_CHARS) {
    throw new ObjError(name, 0, `file is too large: ${fmtInt(text.length)} characters, the limit is ${fmtInt(OBJ_MAX_CHARS)}`);
  }
  const raw = readStatements(text, name);
  return finishMesh(raw.positions, raw.vertexCount, raw.indices, raw.triangleCount, name);
}

interface RawMesh {
  positions: Float64Array;
  vertexCount: number;
  indices: Uint32Array;
  triangleCount: number;
}

function readStatements(text: string, name: string): RawMesh {
  let positions = new Float64Array(3 * 1024);
  let indices = new Uint32Array(3 * 2048);
  let nv = 0;
  let nt = 0;
  // Positive indices may refer forward; the largest is checked once all vertices are known.
  let maxIndex = 0;
  let maxIndexLine = 0;
  const poly: number[] = [];

  let lineNo = 0;
  let start = 0;
  const n = text.length;
  while (start <= n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    lineNo++;
    const firstLine = lineNo;
    let line = text.slice(start, end);
    start = end + 1;
    // A trailing backslash continues the statement on the next line.
    while (line.endsWith('\\') || line.endsWith('\\\r')) {
      line = line.slice(0, line.lastIndexOf('\\')) + ' ';
      if (start > n) break;
      let e = text.indexOf('\n', start);
      if (e < 0) e = n;
      line += text.slice(start, e);
      start = e + 1;
      lineNo++;
    }
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    line = line.trim();
    if (line === '') {
      if (end === n) break;
      continue;
    }
    const tokens = line.split(WS);
    const key = tokens[0];
    const at = firstLine;

    if (key === 'v') {
      if (tokens.length < 4) throw new ObjError(name, at, `a vertex needs x y z, got ${tokens.length - 1} value${tokens.length === 2 ? '' : 's'}`);
      if (tokens.length > 8) throw new ObjError(name, at, `a vertex has at most 7 values (x y z [w] or x y z r g b [w]), got ${tokens.length - 1}`);
      for (let k = 1; k < tokens.length; k++) {
        const t = tokens[k];
        if (!FLOAT.test(t)) throw new ObjError(name, at, `malformed number in vertex (value ${k})`);
        const value = Number(t);
        if (!Number.isFinite(value)) throw new ObjError(name, at, `vertex value ${k} is not finite`);
      }
      if (nv >= OBJ_MAX_VERTICES) throw new ObjError(name, at, `too many vertices: the limit is ${fmtInt(OBJ_MAX_VERTICES)}`);
      if (3 * nv + 3 > positions.length) positions = growF64(positions, Math.min(3 * OBJ_MAX_VERTICES, positions.length * 2));
      positions[3 * nv] = Number(tokens[1]);
      positions[3 * nv + 1] = Number(tokens[2]);
      positions[3 * nv + 2] = Number(tokens[3]);
      nv++;
    } else if (key === 'f') {
      const count = tokens.length - 1;
      if (count < 3) throw new ObjError(name, at, `a face needs at least 3 vertices, got ${count}`);
      poly.length = 0;
      for (let k = 1; k < tokens.length; k++) {
        const t = tokens[k];
        const parts = t.split('/');
        if (parts.length > 3 || !INT.test(parts[0]) || (parts.length > 1 && parts[1] !== '' && !INT.test(parts[1])) || (parts.length > 2 && parts[2] !== '' && !INT.test(parts[2]))) {
          throw new ObjError(name, at, `malformed face vertex ${k} (allowed: i, i/t, i//n, i/t/n with integer indices)`);
        }
        const i = Number(parts[0]);
        let index: number;
        if (i === 0) throw new ObjError(name, at, `vertex index 0 in face (OBJ indices start at 1; negative ones count back from the latest vertex)`);
        if (i < 0) {
          if (-i > nv) throw new ObjError(name, at, `vertex index ${i} is out of range: only ${fmtInt(nv)} vertices are defined before this line`);
          index = nv + i;
        } else {
          if (i > OBJ_MAX_VERTICES) throw new ObjError(name, at, `vertex index of face vertex ${k} is out of range (more than the limit of ${fmtInt(OBJ_MAX_VERTICES)} vertices)`);
          if (i > maxIndex) {
            maxIndex = i;
            maxIndexLine = at;
          }
          index = i - 1;
        }
        poly.push(index);
      }
      const add = count - 2;
      if (nt + add > OBJ_MAX_TRIANGLES) throw new ObjError(name, at, `too many triangles: the limit is ${fmtInt(OBJ_MAX_TRIANGLES)}`);
      if (3 * (nt + add) > indices.length) {
        let cap = indices.length;
        while (cap < 3 * (nt + add)) cap *= 2;
        indices = growU32(indices, Math.min(cap, 3 * OBJ_MAX_TRIANGLES));
      }
      // Fan triangulation (exact for convex polygons, which is what exporters write).
      for (let k = 1; k + 1 < count; k++) {
        indices[3 * nt] = poly[0];
        indices[3 * nt + 1] = poly[k];
        indices[3 * nt + 2] = poly[k + 1];
        nt++;
      }
    } else if (IGNORED.has(key)) {
      // Texture coordinates, normals, groups, materials: not needed for a solid body.
    } else if (FREEFORM.has(key)) {
      throw new ObjError(name, at, `free-form geometry ('${key}') is not supported; export the mesh as polygons`);
    } else if (!KEYWORD.test(key)) {
      throw new ObjError(name, at, `not an OBJ statement (expected v, f, vt, vn, o, g, s, usemtl, mtllib, or a comment '#')`);
    }
    // Other well-formed keywords (vendor extensions) are ignored.
    if (end === n) break;
  }
  if (maxIndex > nv) {
    throw new ObjError(name, maxIndexLine, `vertex index ${maxIndex} is out of range: the file defines ${fmtInt(nv)} vertices`);
  }
  return { positions, vertexCount: nv, indices, triangleCount: nt };
}

/**
 * Welds vertices at identical positions, drops degenerate triangles and unused vertices, checks
 * that the surface is closed and consistently oriented, and orients it outward.
 */
function finishMesh(positions: Float64Array, nv: number, indices: Uint32Array, nt: number, name: string): TriMesh {
  if (nt === 0) throw new ObjError(name, 0, 'no faces: a mesh body needs a closed triangle surface');

  // Weld identical positions (exporters often split vertices at seams) by sorting.
  const order = new Uint32Array(nv);
  for (let i = 0; i < nv; i++) order[i] = i;
  order.sort((a, b) => positions[3 * a] - positions[3 * b] || positions[3 * a + 1] - positions[3 * b + 1] || positions[3 * a + 2] - positions[3 * b + 2] || a - b);
  const weld = new Uint32Array(nv);
  for (let s = 0; s < nv; s++) {
    const i = order[s];
    if (s > 0) {
      const j = order[s - 1];
      if (positions[3 * i] === positions[3 * j] && positions[3 * i + 1] === positions[3 * j + 1] && positions[3 * i + 2] === positions[3 * j + 2]) {
        weld[i] = weld[j];
        continue;
      }
    }
    weld[i] = i;
  }

  // Degenerate (zero-area) triangles carry no surface; tolerance relative to the mesh size.
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < 3 * nv; i++) {
    if (positions[i] < lo) lo = positions[i];
    if (positions[i] > hi) hi = positions[i];
  }
  const size = hi - lo;
  const minDoubleArea = 1e-12 * size * size;
  const tris = new Uint32Array(3 * nt);
  let kept = 0;
  for (let t = 0; t < nt; t++) {
    const a = weld[indices[3 * t]], b = weld[indices[3 * t + 1]], c = weld[indices[3 * t + 2]];
    if (a === b || b === c || a === c) continue;
    const ux = positions[3 * b] - positions[3 * a], uy = positions[3 * b + 1] - positions[3 * a + 1], uz = positions[3 * b + 2] - positions[3 * a + 2];
    const vx = positions[3 * c] - positions[3 * a], vy = positions[3 * c + 1] - positions[3 * a + 1], vz = positions[3 * c + 2] - positions[3 * a + 2];
    const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    if (Math.hypot(cx, cy, cz) <= minDoubleArea) continue;
    tris[3 * kept] = a;
    tris[3 * kept + 1] = b;
    tris[3 * kept + 2] = c;
    kept++;
  }
  if (kept === 0) throw new ObjError(name, 0, `all ${fmtInt(nt)} triangles are degenerate (zero area)`);

  // Keep only used vertices; remember each one's 1-based number in the file for messages.
  const remap = new Int32Array(nv).fill(-1);
  const fileNumber: number[] = [];
  let used = 0;
  for (let k = 0; k < 3 * kept; k++) {
    const v = tris[k];
    if (remap[v] < 0) {
      remap[v] = used++;
      fileNumber.push(v + 1);
    }
    tris[k] = remap[v];
  }
  const outPositions = new Float64Array(3 * used);
  for (let v = 0; v < nv; v++) {
    const r = remap[v];
    if (r >= 0) {
      outPositions[3 * r] = positions[3 * v];
      outPositions[3 * r + 1] = positions[3 * v + 1];
      outPositions[3 * r + 2] = positions[3 * v + 2];
    }
  }
  const outIndices = tris.slice(0, 3 * kept);
  checkClosedAndOriented(outIndices, used, fileNumber, name);

  // Orient outward: the signed volume (divergence theorem) of a closed outward surface is positive.
  let volume6 = 0;
  for (let t = 0; t < kept; t++) {
    const a = 3 * outIndices[3 * t], b = 3 * outIndices[3 * t + 1], c = 3 * outIndices[3 * t + 2];
    const p = outPositions;
    volume6 +=
      p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) -
      p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) +
      p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  if (!(Math.abs(volume6) > 1e-12 * size * size * size)) {
    throw new ObjError(name, 0, 'the closed surface encloses no volume');
  }
  if (volume6 < 0) {
    for (let t = 0; t < kept; t++) {
      const tmp = outIndices[3 * t + 1];
      outIndices[3 * t + 1] = outIndices[3 * t + 2];
      outIndices[3 * t + 2] = tmp;
    }
  }
  return { positions: outPositions, indices: outIndices };
}

/**
 * Every undirected edge must be used by exactly two triangles, once in each direction. Directed
 * edges are sorted by a numeric key (min·n + max, times 2, plus direction) and scanned in groups.
 */
function checkClosedAndOriented(indices: Uint32Array, nv: number, fileNumber: number[], name: string): void {
  const nt = indices.length / 3;
  const keys = new Float64Array(3 * nt);
  for (let t = 0; t < nt; t++) {
    for (let e = 0; e < 3; e++) {
      const a = indices[3 * t + e], b = indices[3 * t + ((e + 1) % 3)];
      const lo = a < b ? a : b, hi = a < b ? b : a;
      keys[3 * t + e] = (lo * nv + hi) * 2 + (a < b ? 0 : 1);
    }
  }
  keys.sort();
  let open = 0, nonManifold = 0, flipped = 0;
  let openExample = -1, nonManifoldExample = -1, flippedExample = -1;
  for (let s = 0; s < keys.length; ) {
    const edge = Math.floor(keys[s] / 2);
    let e = s;
    let forward = 0;
    while (e < keys.length && Math.floor(keys[e] / 2) === edge) {
      if (keys[e] % 2 === 0) forward++;
      e++;
    }
    const count = e - s;
    if (count === 1) {
      open++;
      if (openExample < 0) openExample = edge;
    } else if (count > 2) {
      nonManifold++;
      if (nonManifoldExample < 0) nonManifoldExample = edge;
    } else if (forward !== 1) {
      flipped++;
      if (flippedExample < 0) flippedExample = edge;
    }
    s = e;
  }
  const edgeName = (edge: number) => {
    const lo = Math.floor(edge / nv), hi = edge - lo * nv;
    const a = fileNumber[lo], b = fileNumber[hi];
    return `between vertices ${Math.min(a, b)} and ${Math.max(a, b)}`;
  };
  if (open > 0 || nonManifold > 0) {
    const parts: string[] = [];
    if (open > 0) parts.push(`${fmtInt(open)} edge${open === 1 ? '' : 's'} used by only one face (e.g. the edge ${edgeName(openExample)})`);
    if (nonManifold > 0) parts.push(`${fmtInt(nonManifold)} edge${nonManifold === 1 ? '' : 's'} shared by more than two faces (e.g. the edge ${edgeName(nonManifoldExample)})`);
    throw new ObjError(name, 0, `mesh is not closed: ${parts.join('; ')}. A mesh body must be a watertight surface (every edge shared by exactly two faces)`);
  }
  if (flipped > 0) {
    throw new ObjError(
      name,
      0,
      `mesh is inconsistently oriented: ${fmtInt(flipped)} edge${flipped === 1 ? ' is' : 's are'} used twice in the same direction (e.g. the edge ${edgeName(flippedExample)}); make the face windings agree`,
    );
  }
}

function growF64(a: Float64Array<ArrayBuffer>, size: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(size);
  b.set(a);
  return b;
}

function growU32(a: Uint32Array<ArrayBuffer>, size: number): Uint32Array<ArrayBuffer> {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

