/** Particle blocks for the surface tests: rest lattice (spacing 2r), optionally jittered (seeded). */
export interface Blob {
  count: number;
  positions: Float32Array;
  normals: Float32Array;
  surface: Uint8Array;
  colors: Float32Array;
}

/**
 * Particles at 2r (i, j, k) + offset where `sdf` < 0, jittered by ±jitter·r/2 per axis. Particles
 * within 2r of the boundary are surface particles with the sdf's normal; colour from `color`.
 */
export function lattice(
  r: number,
  half: number,
  sdf: (x: number, y: number, z: number) => number,
  opts: { jitter?: number; offset?: number; color?: (x: number, y: number, z: number) => [number, number, number]; seed?: number } = {},
): Blob {
  let s = opts.seed ?? 3;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
  const pos: number[] = [], nor: number[] = [], surf: number[] = [], col: number[] = [];
  const n = Math.ceil(half / (2 * r)) + 1;
  const off = opts.offset ?? 0;
  for (let k = -n; k <= n; k++) {
    for (let j = -n; j <= n; j++) {
      for (let i = -n; i <= n; i++) {
        const x = 2 * r * i + off, y = 2 * r * j + off, z = 2 * r * k + off;
        const d = sdf(x, y, z);
        if (!(d < 0)) continue;
        const jit = (opts.jitter ?? 0) * r;
        pos.push(x + jit * rand(), y + jit * rand(), z + jit * rand());
        const e = 1e-6;
        const gx = sdf(x + e, y, z) - d, gy = sdf(x, y + e, z) - d, gz = sdf(x, y, z + e) - d;
        const g = Math.hypot(gx, gy, gz) || 1;
        const onSurface = d > -2 * r;
        surf.push(onSurface ? 1 : 0);
        nor.push(onSurface ? gx / g : 0, onSurface ? gy / g : 0, onSurface ? gz / g : 0);
        col.push(...(opts.color ? opts.color(x, y, z) : [0.5, 0.5, 0.5]));
      }
    }
  }
  return {
    count: pos.length / 3,
    positions: new Float32Array(pos),
    normals: new Float32Array(nor),
    surface: Uint8Array.from(surf),
    colors: new Float32Array(col),
  };
}

export const defaults = { resolution: 1, polygonizer: 'marching-cubes' as const, kernelWidth: 2.2, colors: true };

export function angleDeg(x: number, y: number, z: number, ax: number, ay: number, az: number): number {
  const c = (x * ax + y * ay + z * az) / (Math.hypot(x, y, z) * Math.hypot(ax, ay, az));
  return (Math.acos(Math.min(1, Math.max(-1, c))) * 180) / Math.PI;
}

/**
 * Disordered particles, as in a running simulation rather than a rest lattice: a lattice of
 * spacing 2r turned by a fixed oblique rotation (so its rows do not line up with the mesh
 * lattice), each particle displaced by up to ±jitter·r per axis (default 0.4), kept where `sdf` < 0.
 * Surface particles (within 2r of the boundary) carry the sdf normal, turned by up to
 * `normalNoise` radians (default 0) about a random axis, like an engine's estimate.
 */
export function disordered(
  r: number,
  half: number,
  sdf: (x: number, y: number, z: number) => number,
  opts: { jitter?: number; normalNoise?: number; seed?: number } = {},
): Blob {
  let s = opts.seed ?? 11;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
  // Rotation by 0.5 rad about x, then 0.7 rad about y.
  const [ca, sa, cb, sb] = [Math.cos(0.5), Math.sin(0.5), Math.cos(0.7), Math.sin(0.7)];
  const pos: number[] = [], nor: number[] = [], surf: number[] = [];
  const n = Math.ceil((half * 1.8) / (2 * r)) + 1;
  const jit = 2 * (opts.jitter ?? 0.4) * r, noise = opts.normalNoise ?? 0;
  for (let k = -n; k <= n; k++) {
    for (let j = -n; j <= n; j++) {
      for (let i = -n; i <= n; i++) {
        const u = 2 * r * i, v0 = 2 * r * j, w0 = 2 * r * k;
        const v = ca * v0 - sa * w0, w = sa * v0 + ca * w0;
        const x = cb * u + sb * w + jit * rand(), y = v + jit * rand(), z = -sb * u + cb * w + jit * rand();
        const d = sdf(x, y, z);
        if (!(d < 0)) continue;
        pos.push(x, y, z);
        const e = 1e-7;
        let gx = sdf(x + e, y, z) - d, gy = sdf(x, y + e, z) - d, gz = sdf(x, y, z + e) - d;
        const g = Math.hypot(gx, gy, gz) || 1;
        gx /= g; gy /= g; gz /= g;
        if (noise > 0) {
          // Add a random perpendicular-ish offset of length tan(angle) and renormalise.
          const t = Math.tan(noise * (rand() + 0.5));
          let px = rand(), py = rand(), pz = rand();
          const dot = px * gx + py * gy + pz * gz;
          px -= dot * gx; py -= dot * gy; pz -= dot * gz;
          const pl = Math.hypot(px, py, pz) || 1;
          gx += (t * px) / pl; gy += (t * py) / pl; gz += (t * pz) / pl;
          const l = Math.hypot(gx, gy, gz);
          gx /= l; gy /= l; gz /= l;
        }
        const onSurface = d > -2 * r;
        surf.push(onSurface ? 1 : 0);
        nor.push(onSurface ? gx : 0, onSurface ? gy : 0, onSurface ? gz : 0);
      }
    }
  }
  return { count: pos.length / 3, positions: new Float32Array(pos), normals: new Float32Array(nor), surface: Uint8Array.from(surf), colors: new Float32Array(pos.length).fill(0.5) };
}

/**
 * Smoothness of a mesh against a known shape: per face, the angle between its normal and the
 * shape's normal `truth` at its centroid (area-weighted mean, degrees); per vertex, the distance
 * from the shape (`sdf`, RMS in r, after removing the mean offset); and the mean angle between
 * vertex normals and the shape normal (shading). Only faces whose vertices all pass `keep`.
 */
export function roughness(
  mesh: { positions: Float32Array; normals: Float32Array; indices: Uint32Array },
  r: number,
  sdf: (x: number, y: number, z: number) => number,
  keep: (x: number, y: number, z: number) => boolean = () => true,
): { faceTilt: number; heightRms: number; offset: number; shading: number; faces: number } {
  const P = mesh.positions, N = mesh.normals, I = mesh.indices;
  const e = 1e-7;
  const normalAt = (x: number, y: number, z: number): [number, number, number] => {
    const d = sdf(x, y, z);
    return [sdf(x + e, y, z) - d, sdf(x, y + e, z) - d, sdf(x, y, z + e) - d];
  };
  let area = 0, tilt = 0, faces = 0;
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2];
    if (!keep(P[a], P[a + 1], P[a + 2]) || !keep(P[b], P[b + 1], P[b + 2]) || !keep(P[c], P[c + 1], P[c + 2])) continue;
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2];
    const vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const A = Math.hypot(nx, ny, nz);
    if (!(A > 0)) continue;
    const g = normalAt((P[a] + P[b] + P[c]) / 3, (P[a + 1] + P[b + 1] + P[c + 1]) / 3, (P[a + 2] + P[b + 2] + P[c + 2]) / 3);
    area += A;
    tilt += A * angleDeg(nx, ny, nz, g[0], g[1], g[2]);
    faces++;
  }
  let sum = 0, sum2 = 0, m = 0, shade = 0;
  for (let v = 0; v < P.length / 3; v++) {
    const x = P[3 * v], y = P[3 * v + 1], z = P[3 * v + 2];
    if (!keep(x, y, z)) continue;
    const d = sdf(x, y, z) / r;
    sum += d;
    sum2 += d * d;
    const g = normalAt(x, y, z);
    shade += angleDeg(N[3 * v], N[3 * v + 1], N[3 * v + 2], g[0], g[1], g[2]);
    m++;
  }
  const offset = sum / m;
  return { faceTilt: tilt / area, heightRms: Math.sqrt(Math.max(0, sum2 / m - offset * offset)), offset, shading: shade / m, faces };
}

/**
 * Angles across the edges of a mesh, degrees: `shading` = mean angle between the vertex normals at
 * the two ends of each edge (what a renderer interpolates: shading noise), `dihedral` = mean angle
 * between the two faces of each edge (geometric bumps); `bigShading` / `bigDihedral` only in
 * shells of at least `bigShell` triangles (spray droplets are sharply curved whatever the method).
 */
export function edgeMeasures(
  m: { positions: Float32Array; normals: Float32Array; indices: Uint32Array },
  bigShell = 1000,
): { shading: number; dihedral: number; bigShading: number; bigDihedral: number; edges: number } {
  const P = m.positions, N = m.normals, I = m.indices, nv = P.length / 3;
  const parent = Int32Array.from({ length: nv }, (_, i) => i);
  const find = (a: number): number => { while (parent[a] !== a) a = parent[a] = parent[parent[a]]; return a; };
  for (let t = 0; t < I.length; t += 3) { parent[find(I[t])] = find(I[t + 1]); parent[find(I[t + 1])] = find(I[t + 2]); }
  const size = new Int32Array(nv);
  for (let t = 0; t < I.length; t += 3) size[find(I[t])]++;
  const fn = new Float64Array(I.length);
  for (let t = 0; t < I.length; t += 3) {
    const a = 3 * I[t], b = 3 * I[t + 1], c = 3 * I[t + 2];
    const ux = P[b] - P[a], uy = P[b + 1] - P[a + 1], uz = P[b + 2] - P[a + 2], vx = P[c] - P[a], vy = P[c + 1] - P[a + 1], vz = P[c + 2] - P[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx, l = Math.hypot(nx, ny, nz) || 1;
    fn[t] = nx / l; fn[t + 1] = ny / l; fn[t + 2] = nz / l;
  }
  const acosDeg = (c: number) => (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
  const edge = new Map<number, number>();
  let dih = 0, sh = 0, n = 0, bigDih = 0, bigSh = 0, nb = 0;
  for (let t = 0; t < I.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = I[t + e], b = I[t + ((e + 1) % 3)];
      const key = Math.min(a, b) * nv + Math.max(a, b);
      const o = edge.get(key);
      if (o === undefined) { edge.set(key, t); continue; }
      const d = acosDeg(fn[t] * fn[o] + fn[t + 1] * fn[o + 1] + fn[t + 2] * fn[o + 2]);
      const s = acosDeg(N[3 * a] * N[3 * b] + N[3 * a + 1] * N[3 * b + 1] + N[3 * a + 2] * N[3 * b + 2]);
      dih += d; sh += s; n++;
      if (size[find(a)] >= bigShell) { bigDih += d; bigSh += s; nb++; }
    }
  }
  return { shading: sh / n, dihedral: dih / n, bigShading: nb ? bigSh / nb : NaN, bigDihedral: nb ? bigDih / nb : NaN, edges: n };
}

/**
 * A particle state written by `bench/dump-particles.ts --bin`: 'VPT1', count (u32), radius (f64),
 * positions (float32), surface flags (u8), surface-particle normals (int8 × 127).
 */
export function readParticleDump(buf: Uint8Array): { count: number; radius: number; positions: Float32Array; surface: Uint8Array; normals: Float32Array } {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = String.fromCharCode(buf[0], buf[1], buf[2], buf[3]);
  if (magic !== 'VPT1') throw new Error(`particle dump: magic '${magic}', expected 'VPT1'`);
  const count = view.getUint32(4, true), radius = view.getFloat64(8, true);
  if (buf.byteLength !== 16 + 16 * count) throw new Error(`particle dump: ${buf.byteLength} bytes for ${count} particles, expected ${16 + 16 * count}`);
  const positions = new Float32Array(3 * count), surface = new Uint8Array(count), normals = new Float32Array(3 * count);
  let o = 16;
  for (let i = 0; i < 3 * count; i++, o += 4) positions[i] = view.getFloat32(o, true);
  for (let i = 0; i < count; i++) surface[i] = buf[o++];
  for (let i = 0; i < 3 * count; i++) normals[i] = view.getInt8(o++) / 127;
  return { count, radius, positions, surface, normals };
}
