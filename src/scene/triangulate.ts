/**
 * Rest-pose triangle meshes of shapes: the one solid-mesh builder. Both engines' `solids()` give
 * these to the renderer (SolidView, moved by the body's pose) and to `viscid run`'s solid export. Closed shapes give closed meshes (vertices are duplicated only
 * along creases, where the normal jumps) with counter-clockwise outward triangles and outward
 * vertex normals; a plane gives its drawn square, facing along its normal.
 */
import type { Shape, Vec3 } from './schema.ts';
import type { TriMesh } from './scene.ts';
import type { Mesh } from '../types/geometry.ts';
import { eulerToMatrix, perpendicularBasis, transformMeshShape } from './shapes.ts';

/** Growable vertex/triangle lists. */
class Builder {
  private p: number[] = [];
  private n: number[] = [];
  private ix: number[] = [];
  get vertexCount(): number {
    return this.p.length / 3;
  }
  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    this.p.push(x, y, z);
    this.n.push(nx, ny, nz);
    return this.p.length / 3 - 1;
  }
  tri(a: number, b: number, c: number): void {
    this.ix.push(a, b, c);
  }
  /** Quad a b c d counter-clockwise as seen from outside. */
  quad(a: number, b: number, c: number, d: number): void {
    this.ix.push(a, b, c, a, c, d);
  }
  finish(): Mesh {
    return { positions: new Float32Array(this.p), normals: new Float32Array(this.n), indices: new Uint32Array(this.ix) };
  }
}

/**
 * A triangle mesh of `shape` in its rest pose. `detail`: segments around a full circle for round
 * shapes (default 32, at least 8).
 */
export function shapeMesh(shape: Shape, meshes: Record<string, TriMesh> = {}, detail = 32): Mesh {
  const seg = Math.max(8, Math.round(detail));
  switch (shape.type) {
    case 'sphere': {
      const b = new Builder();
      sphereZone(b, shape.center, shape.center, [0, 1, 0], shape.radius, seg);
      return b.finish();
    }
    case 'capsule': {
      const ax = shape.b[0] - shape.a[0], ay = shape.b[1] - shape.a[1], az = shape.b[2] - shape.a[2];
      const len = Math.hypot(ax, ay, az);
      const axis: Vec3 = len > 0 ? [ax / len, ay / len, az / len] : [0, 1, 0];
      const b = new Builder();
      // The lower hemisphere around a, the upper around b; the band between them is the side.
      sphereZone(b, shape.a, shape.b, axis, shape.radius, seg);
      return b.finish();
    }
    case 'box':
      return boxMesh(shape.center, shape.size, eulerToMatrix(shape.rotation));
    case 'cylinder':
      return cylinderMesh(shape.center, shape.axis, shape.radius, shape.height, shape.wall, seg);
    case 'plane': {
      const l = Math.hypot(shape.normal[0], shape.normal[1], shape.normal[2]);
      const n: Vec3 = [shape.normal[0] / l, shape.normal[1] / l, shape.normal[2] / l];
      const [u, v] = perpendicularBasis(n);
      const e = shape.extent, c = shape.point;
      const b = new Builder();
      const corner = (su: number, sv: number) =>
        b.vertex(c[0] + e * (su * u[0] + sv * v[0]), c[1] + e * (su * u[1] + sv * v[1]), c[2] + e * (su * u[2] + sv * v[2]), n[0], n[1], n[2]);
      // u × v = n, so (−,−) (+,−) (+,+) (−,+) is counter-clockwise seen from the normal side.
      b.quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1));
      return b.finish();
    }
    case 'mesh': {
      const loaded = meshes[shape.file];
      if (!loaded) throw new Error(`mesh file '${shape.file}' was not loaded with the scene`);
      return triMeshWithNormals(transformMeshShape(shape, loaded));
    }
  }
}

/**
 * A sphere of `radius` split at its equator: the half below (−axis) centred on `lo`, the half above
 * centred on `hi` (the same point for a sphere, a capsule's ends otherwise), joined by the side band.
 * Rings of latitude between the poles; smooth normals; closed.
 */
function sphereZone(b: Builder, lo: Vec3, hi: Vec3, axis: Vec3, radius: number, seg: number): void {
  const [u, v] = perpendicularBasis(axis);
  const rings = Math.max(4, seg >> 1); // latitude steps from pole to pole (even: the equator is a ring)
  const half = rings % 2 === 0 ? rings : rings + 1;
  const point = (c: Vec3, ct: number, st: number, phi: number) => {
    const cp = Math.cos(phi), sp = Math.sin(phi);
    const nx = ct * axis[0] + st * (cp * u[0] + sp * v[0]);
    const ny = ct * axis[1] + st * (cp * u[1] + sp * v[1]);
    const nz = ct * axis[2] + st * (cp * u[2] + sp * v[2]);
    return b.vertex(c[0] + radius * nx, c[1] + radius * ny, c[2] + radius * nz, nx, ny, nz);
  };
  const south = b.vertex(lo[0] - radius * axis[0], lo[1] - radius * axis[1], lo[2] - radius * axis[2], -axis[0], -axis[1], -axis[2]);
  // Ring r (1 … half − 1) at polar angle θ = π r / half from the south pole; the equator ring
  // (r = half/2) is duplicated: once on `lo`, once on `hi` (identical for a sphere, so skip then).
  const same = lo[0] === hi[0] && lo[1] === hi[1] && lo[2] === hi[2];
  const ringStart: number[] = [];
  for (let r = 1; r < half; r++) {
    const theta = (Math.PI * r) / half;
    const ct = -Math.cos(theta), st = Math.sin(theta);
    const centres: Vec3[] = r < half / 2 ? [lo] : r > half / 2 ? [hi] : same ? [lo] : [lo, hi];
    for (const c of centres) {
      ringStart.push(b.vertexCount);
      for (let s = 0; s < seg; s++) point(c, ct, st, (2 * Math.PI * s) / seg);
    }
  }
  const north = b.vertex(hi[0] + radius * axis[0], hi[1] + radius * axis[1], hi[2] + radius * axis[2], axis[0], axis[1], axis[2]);
  // Seen from outside with the axis up and φ increasing counter-clockwise about the axis, a quad
  // between ring r (below) and r + 1 is lower(s) lower(s+1) upper(s+1) upper(s).
  for (let s = 0; s < seg; s++) b.tri(south, ringStart[0] + ((s + 1) % seg), ringStart[0] + s);
  for (let k = 0; k + 1 < ringStart.length; k++) {
    const a = ringStart[k], c = ringStart[k + 1];
    for (let s = 0; s < seg; s++) {
      const s1 = (s + 1) % seg;
      b.quad(a + s, a + s1, c + s1, c + s);
    }
  }
  const last = ringStart[ringStart.length - 1];
  for (let s = 0; s < seg; s++) b.tri(north, last + s, last + ((s + 1) % seg));
}

function boxMesh(center: Vec3, size: Vec3, R: Float64Array): Mesh {
  const b = new Builder();
  const h = [size[0] / 2, size[1] / 2, size[2] / 2];
  // For each face: the outward axis k with sign, and two in-face axes (i, j) with e_i × e_j = ±e_k.
  for (let k = 0; k < 3; k++) {
    for (const sign of [-1, 1]) {
      const i = (k + 1) % 3, j = (k + 2) % 3; // e_i × e_j = e_k
      const local = [0, 0, 0], n = [0, 0, 0];
      n[k] = sign;
      const wn = rotate(R, n);
      const ids: number[] = [];
      for (const [a, c] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        local[k] = sign * h[k];
        local[i] = a * h[i];
        local[j] = c * h[j];
        const w = rotate(R, local);
        ids.push(b.vertex(center[0] + w[0], center[1] + w[1], center[2] + w[2], wn[0], wn[1], wn[2]));
      }
      // Counter-clockwise about +e_k; reversed for the −e_k face.
      if (sign > 0) b.quad(ids[0], ids[1], ids[2], ids[3]);
      else b.quad(ids[0], ids[3], ids[2], ids[1]);
    }
  }
  return b.finish();
}

function rotate(R: Float64Array, p: number[]): Vec3 {
  return [
    R[0] * p[0] + R[1] * p[1] + R[2] * p[2],
    R[3] * p[0] + R[4] * p[1] + R[5] * p[2],
    R[6] * p[0] + R[7] * p[1] + R[8] * p[2],
  ];
}

/**
 * A cylinder along `axis` through `center`; with `wall` > 0 the open cup of `compileShape`: outer
 * side and bottom, a rim at the top, the inner side and the inner floor `wall` above the bottom.
 */
function cylinderMesh(center: Vec3, axisIn: Vec3, radius: number, height: number, wall: number, seg: number): Mesh {
  const l = Math.hypot(axisIn[0], axisIn[1], axisIn[2]);
  const axis: Vec3 = [axisIn[0] / l, axisIn[1] / l, axisIn[2] / l];
  const [u, v] = perpendicularBasis(axis); // u × v = axis
  const hh = height / 2;
  const b = new Builder();
  const at = (r: number, a: number, s: number) => {
    const phi = (2 * Math.PI * s) / seg, cp = Math.cos(phi), sp = Math.sin(phi);
    return [
      center[0] + a * axis[0] + r * (cp * u[0] + sp * v[0]),
      center[1] + a * axis[1] + r * (cp * u[1] + sp * v[1]),
      center[2] + a * axis[2] + r * (cp * u[2] + sp * v[2]),
      cp * u[0] + sp * v[0], cp * u[1] + sp * v[1], cp * u[2] + sp * v[2],
    ];
  };
  /** A ring of vertices at radius r and axial a with radial normals (sign ±1) or an axial normal. */
  const ring = (r: number, a: number, normal: 'out' | 'in' | 'up' | 'down') => {
    const first = b.vertexCount;
    for (let s = 0; s < seg; s++) {
      const [x, y, z, rx, ry, rz] = at(r, a, s);
      if (normal === 'out') b.vertex(x, y, z, rx, ry, rz);
      else if (normal === 'in') b.vertex(x, y, z, -rx, -ry, -rz);
      else {
        const sg = normal === 'up' ? 1 : -1;
        b.vertex(x, y, z, sg * axis[0], sg * axis[1], sg * axis[2]);
      }
    }
    return first;
  };
  /** Side band between rings lo (lower) and hi; facing outward from the axis when `out`. */
  const band = (lo: number, hi: number, out: boolean) => {
    for (let s = 0; s < seg; s++) {
      const s1 = (s + 1) % seg;
      if (out) b.quad(lo + s, lo + s1, hi + s1, hi + s);
      else b.quad(lo + s, hi + s, hi + s1, lo + s1);
    }
  };
  /** A disc at axial a facing up (+axis) or down. */
  const disc = (r: number, a: number, up: boolean) => {
    const rim = ring(r, a, up ? 'up' : 'down');
    const c = b.vertex(center[0] + a * axis[0], center[1] + a * axis[1], center[2] + a * axis[2],
      (up ? 1 : -1) * axis[0], (up ? 1 : -1) * axis[1], (up ? 1 : -1) * axis[2]);
    for (let s = 0; s < seg; s++) {
      const s1 = (s + 1) % seg;
      if (up) b.tri(c, rim + s, rim + s1);
      else b.tri(c, rim + s1, rim + s);
    }
  };
  /** An annulus at axial a between radii r0 < r1, facing up. */
  const annulus = (r0: number, r1: number, a: number) => {
    const inner = ring(r0, a, 'up'), outer = ring(r1, a, 'up');
    for (let s = 0; s < seg; s++) {
      const s1 = (s + 1) % seg;
      b.quad(inner + s, outer + s, outer + s1, inner + s1);
    }
  };
  band(ring(radius, -hh, 'out'), ring(radius, hh, 'out'), true);
  disc(radius, -hh, false);
  const ri = radius - wall;
  if (wall > 0 && ri > 0 && 2 * hh > wall) {
    annulus(ri, radius, hh);
    band(ring(ri, -hh + wall, 'in'), ring(ri, hh, 'in'), false);
    disc(ri, -hh + wall, true);
  } else {
    disc(radius, hh, true);
  }
  return b.finish();
}

/** A loaded mesh in Float32 with angle-weighted vertex normals (the mesh is closed and outward). */
function triMeshWithNormals(mesh: TriMesh): Mesh {
  const p = mesh.positions, ix = mesh.indices;
  const normals = new Float64Array(p.length);
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    const e1x = p[b] - p[a], e1y = p[b + 1] - p[a + 1], e1z = p[b + 2] - p[a + 2];
    const e2x = p[c] - p[a], e2y = p[c + 1] - p[a + 1], e2z = p[c + 2] - p[a + 2];
    let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
    const l = Math.hypot(nx, ny, nz);
    if (!(l > 0)) continue;
    nx /= l; ny /= l; nz /= l;
    for (let k = 0; k < 3; k++) {
      const v = 3 * ix[t + k], v1 = 3 * ix[t + ((k + 1) % 3)], v2 = 3 * ix[t + ((k + 2) % 3)];
      const ax = p[v1] - p[v], ay = p[v1 + 1] - p[v + 1], az = p[v1 + 2] - p[v + 2];
      const bx = p[v2] - p[v], by = p[v2 + 1] - p[v + 1], bz = p[v2 + 2] - p[v + 2];
      const angle = Math.atan2(Math.hypot(ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx), ax * bx + ay * by + az * bz);
      normals[v] += angle * nx; normals[v + 1] += angle * ny; normals[v + 2] += angle * nz;
    }
  }
  for (let v = 0; v < normals.length; v += 3) {
    const l = Math.hypot(normals[v], normals[v + 1], normals[v + 2]);
    if (l > 0) { normals[v] /= l; normals[v + 1] /= l; normals[v + 2] /= l; }
  }
  return { positions: new Float32Array(p), normals: new Float32Array(normals), indices: new Uint32Array(ix) };
}
