/**
 * A draped sheet for the surface tests and benches: particles in `layers` shells of a sphere of
 * radius R (the honey drop's coat on its ball), the layers 2 r apart, each layer's particles
 * `spacing` apart (a Fibonacci lattice: even, without rows; a sheet drawn thin has them farther
 * apart than the rest spacing 2 r), each moved by up to ±jitter·r per axis (seeded). With `drop`,
 * a hanging drop of radius drop·r under the sphere's lowest point, in the same region, as the
 * honey drop's bulk is when its coat is meshed.
 * `openShare` reads a mesh as a viewer of the coat does: the share of rays from the sphere's centre
 * (Fibonacci directions) that meet no triangle, i.e. where the ball would show through.
 */
export interface Sheet {
  count: number;
  positions: Float32Array;
}

export function drapedSheet(r: number, R: number, opts: { layers?: number; spacing?: number; jitter?: number; drop?: number; seed?: number } = {}): Sheet {
  const layers = opts.layers ?? 1, spacing = (opts.spacing ?? 2) * r, jitter = (opts.jitter ?? 0.3) * r;
  let s = opts.seed ?? 5;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
  const out: number[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let l = 0; l < layers; l++) {
    const rad = R + 2 * r * l;
    // Points on the sphere with area spacing² each.
    const n = Math.round((4 * Math.PI * rad * rad) / (spacing * spacing));
    for (let i = 0; i < n; i++) {
      const y = 1 - (2 * (i + 0.5)) / n, ring = Math.sqrt(1 - y * y), phi = golden * i + 1.3 * l;
      out.push(rad * ring * Math.cos(phi) + 2 * jitter * rand(), rad * y + 2 * jitter * rand(), rad * ring * Math.sin(phi) + 2 * jitter * rand());
    }
  }
  if (opts.drop) {
    const D = opts.drop * r, cy = -(R + 2 * r * (layers - 1) + D - r);
    const m = Math.ceil(D / (2 * r));
    for (let k = -m; k <= m; k++) {
      for (let j = -m; j <= m; j++) {
        for (let i = -m; i <= m; i++) {
          const x = 2 * r * i, y = 2 * r * j, z = 2 * r * k;
          if (x * x + y * y + z * z >= D * D) continue;
          // Only the part outside the coat's sphere.
          if (x * x + (y + cy) ** 2 + z * z <= (R + 2 * r * (layers - 1)) ** 2) continue;
          out.push(x + 2 * jitter * rand(), y + cy + 2 * jitter * rand(), z + 2 * jitter * rand());
        }
      }
    }
  }
  return { count: out.length / 3, positions: new Float32Array(out) };
}

/** Share of `rays` directions from the origin that cross no triangle of the mesh, within angle `polar` of −y (default: all). */
export function openShare(mesh: { positions: Float32Array; indices: Uint32Array }, rays = 4000, polar = Math.PI): number {
  const P = mesh.positions, I = mesh.indices, nt = I.length / 3;
  // Triangles binned by their centroid's direction (θ from +y, φ), B × 2B bins.
  const B = 48, bins: number[][] = Array.from({ length: 2 * B * B }, () => []);
  const binOf = (x: number, y: number, z: number) => {
    const l = Math.hypot(x, y, z) || 1;
    const t = Math.min(B - 1, Math.floor((Math.acos(Math.max(-1, Math.min(1, y / l))) / Math.PI) * B));
    const p = Math.min(2 * B - 1, Math.floor(((Math.atan2(z, x) + Math.PI) / (2 * Math.PI)) * 2 * B));
    return [t, p];
  };
  for (let t = 0; t < nt; t++) {
    const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
    const [bt, bp] = binOf(P[a] + P[b] + P[c], P[a + 1] + P[b + 1] + P[c + 1], P[a + 2] + P[b + 2] + P[c + 2]);
    bins[bt * 2 * B + bp].push(t);
  }
  const golden = Math.PI * (3 - Math.sqrt(5));
  let open = 0, cast = 0;
  for (let i = 0; i < rays; i++) {
    const y = 1 - (2 * (i + 0.5)) / rays;
    if (Math.acos(-y) > polar) continue;
    const ring = Math.sqrt(1 - y * y), dx = ring * Math.cos(golden * i), dz = ring * Math.sin(golden * i);
    const [bt, bp] = binOf(dx, y, dz);
    cast++;
    let hit = false;
    for (let u = -1; u <= 1 && !hit; u++) {
      const tt = bt + u;
      if (tt < 0 || tt >= B) continue;
      // Near the poles a bin's neighbours in φ are all of its ring.
      const span = tt < 3 || tt > B - 4 ? B : 1;
      for (let v = -span; v <= span && !hit; v++) {
        const list = bins[tt * 2 * B + ((bp + v + 4 * B) % (2 * B))];
        for (const t of list) {
          if (crosses(P, I, t, dx, y, dz)) {
            hit = true;
            break;
          }
        }
      }
    }
    if (!hit) open++;
  }
  return cast > 0 ? open / cast : 0;
}

/** Whether the ray from the origin along d crosses triangle t (Möller–Trumbore). */
function crosses(P: Float32Array, I: Uint32Array, t: number, dx: number, dy: number, dz: number): boolean {
  const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
  const e1x = P[b] - P[a], e1y = P[b + 1] - P[a + 1], e1z = P[b + 2] - P[a + 2];
  const e2x = P[c] - P[a], e2y = P[c + 1] - P[a + 1], e2z = P[c + 2] - P[a + 2];
  const px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (Math.abs(det) < 1e-30) return false;
  const inv = 1 / det;
  const tx = -P[a], ty = -P[a + 1], tz = -P[a + 2];
  const u = (tx * px + ty * py + tz * pz) * inv;
  if (u < 0 || u > 1) return false;
  const qx = ty * e1z - tz * e1y, qy = tz * e1x - tx * e1z, qz = tx * e1y - ty * e1x;
  const v = (dx * qx + dy * qy + dz * qz) * inv;
  if (v < 0 || u + v > 1) return false;
  return (e2x * qx + e2y * qy + e2z * qz) * inv > 0;
}
