/**
 * The frame files `viscid run` writes, read back into a Mesh for the preview: binary PLY (the
 * default, io/ply-read.ts), OBJ (`v x y z [r g b]` with sRGB colours, `vn`, `f` of any of OBJ's
 * index forms; polygons are fanned) and GLB (through @gltf-transform/core, every primitive of every
 * mesh merged; COLOR_0 is linear by glTF's definition).
 */
import { WebIO } from '@gltf-transform/core';
import { fromPLY } from '../io/ply-read.ts';
import { srgbToLinear } from '../math/color.ts';
import type { Mesh } from '../types/geometry.ts';

export type FrameFormat = 'ply' | 'obj' | 'glb';

/** The format of a frame file by its extension, or null. */
export function frameFormat(file: string): FrameFormat | null {
  const m = /\.(ply|obj|glb)$/i.exec(file);
  return m ? (m[1].toLowerCase() as FrameFormat) : null;
}

export async function readFrameMesh(format: FrameFormat, bytes: Uint8Array): Promise<Mesh> {
  switch (format) {
    case 'ply':
      return fromPLY(bytes);
    case 'obj':
      return fromOBJ(new TextDecoder().decode(bytes));
    case 'glb':
      return await fromGLB(bytes);
  }
}

/** An OBJ file's triangles. Normals are kept where each vertex has one of its own (as viscid writes them). */
export function fromOBJ(text: string): Mesh {
  const p: number[] = [], c: number[] = [], vn: number[] = [], idx: number[] = [];
  let colored = true;
  const lines = text.split('\n');
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li];
    const code0 = line.charCodeAt(0), code1 = line.charCodeAt(1);
    if (code0 !== 118 && code0 !== 102) continue; // 'v' or 'f'
    const w = line.trim().split(/\s+/);
    if (w[0] === 'v') {
      p.push(Number(w[1]), Number(w[2]), Number(w[3]));
      if (w.length >= 7) c.push(srgbToLinear(Number(w[4])), srgbToLinear(Number(w[5])), srgbToLinear(Number(w[6])));
      else colored = false;
    } else if (w[0] === 'vn') vn.push(Number(w[1]), Number(w[2]), Number(w[3]));
    else if (w[0] === 'f' && code1 === 32) {
      const nv = p.length / 3;
      const corner = (s: string) => {
        const k = parseInt(s, 10);
        const i = k < 0 ? nv + k : k - 1;
        if (!(i >= 0 && i < nv)) throw new RangeError(`OBJ line ${li + 1}: face names vertex ${k} of ${nv}`);
        return i;
      };
      const first = corner(w[1]);
      for (let k = 2; k + 1 < w.length; k++) idx.push(first, corner(w[k]), corner(w[k + 1]));
    }
  }
  for (const v of p) if (!Number.isFinite(v)) throw new RangeError('OBJ: a vertex coordinate is not a number');
  const n = p.length / 3;
  return {
    positions: Float32Array.from(p),
    normals: vn.length === p.length ? Float32Array.from(vn) : new Float32Array(0),
    indices: Uint32Array.from(idx),
    ...(colored && n > 0 && c.length === p.length ? { colors: Float32Array.from(c) } : {}),
  };
}

/** A GLB file's triangle primitives, merged, in world space of their nodes' parents ignored (viscid writes one node at the origin). */
export async function fromGLB(bytes: Uint8Array): Promise<Mesh> {
  const doc = await new WebIO().readBinary(bytes);
  const p: number[] = [], nrm: number[] = [], col: number[] = [], idx: number[] = [];
  let normals = true, colors = true;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== 4) continue; // TRIANGLES
      const pos = prim.getAttribute('POSITION');
      if (!pos) continue;
      const base = p.length / 3, count = pos.getCount();
      const v: number[] = [];
      const vec3 = (acc: NonNullable<typeof pos>, out: number[]) => {
        for (let i = 0; i < count; i++) {
          const e = acc.getElement(i, v);
          out.push(e[0], e[1], e[2]);
        }
      };
      vec3(pos, p);
      const nAcc = prim.getAttribute('NORMAL'), cAcc = prim.getAttribute('COLOR_0');
      normals &&= nAcc !== null;
      colors &&= cAcc !== null;
      if (nAcc) vec3(nAcc, nrm);
      if (cAcc) vec3(cAcc, col);
      const ind = prim.getIndices();
      if (ind) for (let i = 0; i < ind.getCount(); i++) idx.push(base + ind.getScalar(i));
      else for (let i = 0; i < count; i++) idx.push(base + i);
    }
  }
  return {
    positions: Float32Array.from(p),
    normals: normals && nrm.length === p.length ? Float32Array.from(nrm) : new Float32Array(0),
    indices: Uint32Array.from(idx),
    ...(colors && p.length > 0 && col.length === p.length ? { colors: Float32Array.from(col) } : {}),
  };
}
