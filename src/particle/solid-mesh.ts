/**
 * Rest-pose triangle meshes of solid shapes for drawing (`Simulation.solids()`): analytic coarse
 * triangulations, and the mesh itself for OBJ shapes. Normals point out of the solid.
 */
import type { Mesh } from '../api.ts';
import type { Shape, Vec3 } from '../scene/schema.ts';
import type { TriMesh } from '../scene/scene.ts';
import { eulerToMatrix, perpendicularBasis, transformMeshShape } from '../scene/shapes.ts';

class Builder {
  p: number[] = [];
  n: number[] = [];
  idx: number[] = [];
  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number): number {
    const l = Math.hypot(nx, ny, nz) || 1;
    this.p.push(x, y, z);
    this.n.push(nx / l, ny / l, nz / l);
    return this.p.length / 3 - 1;
  }
  tri(a: number, b: number, c: number): void {
    this.idx.push(a, b, c);
  }
  mesh(): Mesh {
    return { positions: Float32Array.from(this.p), normals: Float32Array.from(this.n), indices: Uint32Array.from(this.idx) };
  }
}

/** A surface of revolution about axis a through c: profile points (radial, axial, normal radial, normal axial). */
function revolve(b: Builder, c: Vec3, a: Vec3, profile: [number, number, number, number][], segments = 24): void {
  const [u, v] = perpendicularBasis(a);
  const rows: number[][] = [];
  for (const [rr, ax, nr, na] of profile) {
    const row: number[] = [];
    for (let s = 0; s <= segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const cx = Math.cos(phi), sx = Math.sin(phi);
      const dx = cx * u[0] + sx * v[0], dy = cx * u[1] + sx * v[1], dz = cx * u[2] + sx * v[2];
      row.push(
        b.vertex(
          c[0] + rr * dx + ax * a[0], c[1] + rr * dy + ax * a[1], c[2] + rr * dz + ax * a[2],
          nr * dx + na * a[0], nr * dy + na * a[1], nr * dz + na * a[2],
        ),
      );
    }
    rows.push(row);
  }
  for (let k = 0; k + 1 < rows.length; k++) {
    for (let s = 0; s < segments; s++) {
      const p = rows[k][s], q = rows[k][s + 1], r = rows[k + 1][s], t = rows[k + 1][s + 1];
      b.tri(p, r, q);
      b.tri(q, r, t);
    }
  }
}

function unit(v: ArrayLike<number>): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

export function solidMesh(shape: Shape, meshes: Record<string, TriMesh>): Mesh {
  const b = new Builder();
  switch (shape.type) {
    case 'sphere': {
      const prof: [number, number, number, number][] = [];
      for (let k = 0; k <= 12; k++) {
        const th = Math.PI * (1 - k / 12);
        prof.push([shape.radius * Math.sin(th), shape.radius * Math.cos(th), Math.sin(th), Math.cos(th)]);
      }
      revolve(b, shape.center, [0, 1, 0], prof);
      break;
    }
    case 'capsule': {
      const a = unit([shape.b[0] - shape.a[0], shape.b[1] - shape.a[1], shape.b[2] - shape.a[2]]);
      const len = Math.hypot(shape.b[0] - shape.a[0], shape.b[1] - shape.a[1], shape.b[2] - shape.a[2]);
      const prof: [number, number, number, number][] = [];
      const R = shape.radius;
      for (let k = 0; k <= 6; k++) {
        const th = Math.PI - (Math.PI / 2) * (k / 6);
        prof.push([R * Math.sin(th), R * Math.cos(th), Math.sin(th), Math.cos(th)]);
      }
      for (let k = 0; k <= 6; k++) {
        const th = (Math.PI / 2) * (1 - k / 6);
        prof.push([R * Math.sin(th), len + R * Math.cos(th), Math.sin(th), Math.cos(th)]);
      }
      revolve(b, shape.a, a, prof);
      break;
    }
    case 'cylinder': {
      const a = unit(shape.axis), R = shape.radius, hh = shape.height / 2;
      if (shape.wall > 0) {
        const ri = R - shape.wall, floor = -hh + shape.wall;
        revolve(b, shape.center, a, [
          [0, -hh, 0, -1], [R, -hh, 0, -1], [R, -hh, 1, 0], [R, hh, 1, 0], [R, hh, 0, 1],
          [ri, hh, 0, 1], [ri, hh, -1, 0], [ri, floor, -1, 0], [ri, floor, 0, 1], [0, floor, 0, 1],
        ]);
      } else {
        revolve(b, shape.center, a, [
          [0, -hh, 0, -1], [R, -hh, 0, -1], [R, -hh, 1, 0], [R, hh, 1, 0], [R, hh, 0, 1], [0, hh, 0, 1],
        ]);
      }
      break;
    }
    case 'box': {
      const R = eulerToMatrix(shape.rotation);
      const h = [shape.size[0] / 2, shape.size[1] / 2, shape.size[2] / 2];
      const c = shape.center;
      for (let axis = 0; axis < 3; axis++) {
        for (const sign of [-1, 1]) {
          const n = [0, 0, 0];
          n[axis] = sign;
          const u = (axis + 1) % 3, v = (axis + 2) % 3;
          const ids: number[] = [];
          for (const [su, sv] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
            const l = [0, 0, 0];
            l[axis] = sign * h[axis]; l[u] = su * h[u]; l[v] = sv * h[v];
            ids.push(
              b.vertex(
                c[0] + R[0] * l[0] + R[1] * l[1] + R[2] * l[2],
                c[1] + R[3] * l[0] + R[4] * l[1] + R[5] * l[2],
                c[2] + R[6] * l[0] + R[7] * l[1] + R[8] * l[2],
                R[0] * n[0] + R[1] * n[1] + R[2] * n[2],
                R[3] * n[0] + R[4] * n[1] + R[5] * n[2],
                R[6] * n[0] + R[7] * n[1] + R[8] * n[2],
              ),
            );
          }
          if (sign > 0) { b.tri(ids[0], ids[1], ids[2]); b.tri(ids[0], ids[2], ids[3]); }
          else { b.tri(ids[0], ids[2], ids[1]); b.tri(ids[0], ids[3], ids[2]); }
        }
      }
      break;
    }
    case 'plane': {
      const n = unit(shape.normal);
      const [u, v] = perpendicularBasis(n);
      const e = shape.extent, p = shape.point;
      const ids = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([a, c]) =>
        b.vertex(p[0] + e * (a * u[0] + c * v[0]), p[1] + e * (a * u[1] + c * v[1]), p[2] + e * (a * u[2] + c * v[2]), n[0], n[1], n[2]),
      );
      b.tri(ids[0], ids[1], ids[2]);
      b.tri(ids[0], ids[2], ids[3]);
      break;
    }
    case 'mesh': {
      const loaded = meshes[shape.file];
      if (!loaded) throw new Error(`mesh file '${shape.file}' was not loaded with the scene`);
      const m = transformMeshShape(shape, loaded);
      const pos = Float32Array.from(m.positions);
      const nrm = new Float32Array(pos.length);
      const ix = m.indices;
      for (let t = 0; t < ix.length; t += 3) {
        const a = 3 * ix[t], c = 3 * ix[t + 1], d = 3 * ix[t + 2];
        const ex = pos[c] - pos[a], ey = pos[c + 1] - pos[a + 1], ez = pos[c + 2] - pos[a + 2];
        const fx = pos[d] - pos[a], fy = pos[d + 1] - pos[a + 1], fz = pos[d + 2] - pos[a + 2];
        const nx = ey * fz - ez * fy, ny = ez * fx - ex * fz, nz = ex * fy - ey * fx;
        for (const v of [a, c, d]) { nrm[v] += nx; nrm[v + 1] += ny; nrm[v + 2] += nz; }
      }
      for (let v = 0; v < nrm.length; v += 3) {
        const l = Math.hypot(nrm[v], nrm[v + 1], nrm[v + 2]) || 1;
        nrm[v] /= l; nrm[v + 1] /= l; nrm[v + 2] /= l;
      }
      return { positions: pos, normals: nrm, indices: Uint32Array.from(ix) };
    }
  }
  return b.mesh();
}
