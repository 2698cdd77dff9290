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

export const defaults = { resolution: 1, polygonizer: 'marching-cubes' as const, kernelWidth: 1.2, colors: true };

export function angleDeg(x: number, y: number, z: number, ax: number, ay: number, az: number): number {
  const c = (x * ax + y * ay + z * az) / (Math.hypot(x, y, z) * Math.hypot(ax, ay, az));
  return (Math.acos(Math.min(1, Math.max(-1, c))) * 180) / Math.PI;
}
