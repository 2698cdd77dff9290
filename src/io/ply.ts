/**
 * Binary little-endian PLY: triangle meshes (float xyz, float normals, uchar sRGB colours) and
 * point clouds (float xyz, float velocity, ushort material, float density when known).
 */
import type { FluidPoints, Mesh } from '../types/geometry.ts';
import { linearToSrgb8 } from '../math/color.ts';

function header(lines: string[]): Uint8Array {
  return new TextEncoder().encode(`${['ply', 'format binary_little_endian 1.0', 'comment written by viscid', ...lines, 'end_header'].join('\n')}\n`);
}

function concat(head: Uint8Array, body: ArrayBuffer): Uint8Array {
  const out = new Uint8Array(head.length + body.byteLength);
  out.set(head, 0);
  out.set(new Uint8Array(body), head.length);
  return out;
}

export function toPLY(mesh: Mesh): Uint8Array {
  const n = mesh.positions.length / 3;
  const nt = mesh.indices.length / 3;
  const colors = mesh.colors !== undefined && mesh.colors.length >= 3 * n ? mesh.colors : undefined;
  const normals = mesh.normals.length >= 3 * n ? mesh.normals : undefined;
  const props = ['property float x', 'property float y', 'property float z'];
  if (normals) props.push('property float nx', 'property float ny', 'property float nz');
  if (colors) props.push('property uchar red', 'property uchar green', 'property uchar blue');
  const head = header([`element vertex ${n}`, ...props, `element face ${nt}`, 'property list uchar uint vertex_indices']);
  const vertexBytes = 12 + (normals ? 12 : 0) + (colors ? 3 : 0);
  const body = new ArrayBuffer(n * vertexBytes + nt * 13);
  const view = new DataView(body);
  let o = 0;
  const p = mesh.positions;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++, o += 4) view.setFloat32(o, p[3 * i + k], true);
    if (normals) for (let k = 0; k < 3; k++, o += 4) view.setFloat32(o, normals[3 * i + k], true);
    if (colors) for (let k = 0; k < 3; k++, o++) view.setUint8(o, linearToSrgb8(colors[3 * i + k]));
  }
  const ix = mesh.indices;
  for (let t = 0; t < nt; t++) {
    view.setUint8(o++, 3);
    for (let k = 0; k < 3; k++, o += 4) view.setUint32(o, ix[3 * t + k], true);
  }
  return concat(head, body);
}

export function pointsToPLY(points: FluidPoints): Uint8Array {
  const n = points.count;
  const densities = points.densities !== undefined && points.densities.length >= n ? points.densities : undefined;
  const props = ['property float x', 'property float y', 'property float z', 'property float vx', 'property float vy', 'property float vz', 'property ushort material'];
  if (densities) props.push('property float density');
  const head = header([`element vertex ${n}`, ...props]);
  const stride = 26 + (densities ? 4 : 0);
  const body = new ArrayBuffer(n * stride);
  const view = new DataView(body);
  let o = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++, o += 4) view.setFloat32(o, points.positions[3 * i + k], true);
    for (let k = 0; k < 3; k++, o += 4) view.setFloat32(o, points.velocities[3 * i + k], true);
    view.setUint16(o, points.materials[i], true);
    o += 2;
    if (densities) {
      view.setFloat32(o, densities[i], true);
      o += 4;
    }
  }
  return concat(head, body);
}
