/**
 * Wavefront OBJ text of a mesh: `v x y z [r g b]`, `vn`, `f a//a b//b c//c` (1-based). Vertex colours
 * are written as sRGB 0..1 after the position (the extension Blender, MeshLab and Houdini read).
 */
import type { Mesh } from '../api.ts';
import { linearToSrgb } from './color.ts';

export interface ObjOptions {
  /** Write per-vertex colours when the mesh has them (default true). */
  colors?: boolean;
  /** A comment line at the top. */
  comment?: string;
}

/**
 * A decimal that reads back as the same float32 (9 significant digits always suffice), trailing
 * zeros dropped. toPrecision is several times faster than String(Number(...)) here.
 */
export function f32(x: number): string {
  let s = Math.fround(x).toPrecision(9);
  if (s.charCodeAt(s.length - 1) === 48 && s.indexOf('e') < 0) {
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

export function toOBJ(mesh: Mesh, options: ObjOptions = {}): string {
  const n = mesh.positions.length / 3;
  const nt = mesh.indices.length / 3;
  const p = mesh.positions, nn = mesh.normals, col = mesh.colors;
  const withColors = options.colors !== false && col !== undefined && col.length >= 3 * n;
  const lines: string[] = [`# viscid mesh: ${n} vertices, ${nt} triangles${options.comment ? `; ${options.comment.replace(/[\r\n]+/g, ' ')}` : ''}`];
  for (let i = 0; i < n; i++) {
    const v = `v ${f32(p[3 * i])} ${f32(p[3 * i + 1])} ${f32(p[3 * i + 2])}`;
    lines.push(withColors ? `${v} ${c4(col![3 * i])} ${c4(col![3 * i + 1])} ${c4(col![3 * i + 2])}` : v);
  }
  const withNormals = nn.length >= 3 * n && n > 0;
  if (withNormals) for (let i = 0; i < n; i++) lines.push(`vn ${f32(nn[3 * i])} ${f32(nn[3 * i + 1])} ${f32(nn[3 * i + 2])}`);
  const ix = mesh.indices;
  for (let t = 0; t < nt; t++) {
    const a = ix[3 * t] + 1, b = ix[3 * t + 1] + 1, c = ix[3 * t + 2] + 1;
    lines.push(withNormals ? `f ${a}//${a} ${b}//${b} ${c}//${c}` : `f ${a} ${b} ${c}`);
  }
  lines.push('');
  return lines.join('\n');
}
