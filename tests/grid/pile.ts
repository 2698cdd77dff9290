/**
 * The pile a grid pour lays on the domain's floor, read from the surface tracker's φ: each
 * column's height on a `step` raster (the first zero of φ going up from the floor, so an
 * overhanging fold counts to its underside), and from that map
 *   - radius: the area where the pile is over 2 mm, as a disk;
 *   - height: its highest column outside the stream (more than `core` from the y axis);
 *   - relief: the RMS of the height about its mean at that distance from the axis (4 mm rings
 *     from `core` to 0.8 × radius). A round pile, terraced or not, reads about a millimetre; folds
 *     laid round the stream read a good part of their height.
 */
import type { GridSimulation } from '../../src/grid/step.ts';

export interface Pile {
  radius: number;
  height: number;
  relief: number;
  /** The column heights, m, x-major (`nx` × `nz`, raster `step` from the domain's min corner). */
  map: Float64Array;
  nx: number;
  nz: number;
}

export function measurePile(sim: GridSimulation, core = 0.02, step = 0.002, top = 0.15): Pile {
  const [x0, y0, z0] = sim.d.origin;
  const nx = Math.floor((sim.d.n[0] * sim.d.h) / step), nz = Math.floor((sim.d.n[2] * sim.d.h) / step);
  const dy = 0.001, map = new Float64Array(nx * nz), phi = (x: number, y: number, z: number) => sim.tracker.signedDistance(sim, x, y0 + y, z);
  for (let i = 0; i < nx; i++) {
    for (let k = 0; k < nz; k++) {
      const x = x0 + (i + 0.5) * step, z = z0 + (k + 0.5) * step;
      let prev = phi(x, 0.5 * dy, z);
      if (prev > 0) continue;
      let h = top;
      for (let y = 1.5 * dy; y < top; y += dy) {
        const f = phi(x, y, z);
        if (f > 0) { h = y - dy + (dy * -prev) / (f - prev); break; }
        prev = f;
      }
      map[i * nz + k] = h;
    }
  }
  return pileOfMap(map, nx, nz, x0, z0, step, core);
}

/** A column-height map's radius, height and relief (the measures above); `x0`, `z0`: the raster's min corner. */
export function pileOfMap(map: Float64Array, nx: number, nz: number, x0: number, z0: number, step: number, core: number): Pile {
  let area = 0, height = 0;
  for (let i = 0; i < nx; i++) for (let k = 0; k < nz; k++) {
    const h = map[i * nz + k];
    if (h > 0.002) area += step * step;
    if (Math.hypot(x0 + (i + 0.5) * step, z0 + (k + 0.5) * step) > core) height = Math.max(height, h);
  }
  const radius = Math.sqrt(area / Math.PI);
  const rings = Math.floor((0.8 * radius) / 0.004) + 1;
  const sum = new Float64Array(rings), sum2 = new Float64Array(rings), count = new Float64Array(rings);
  for (let i = 0; i < nx; i++) for (let k = 0; k < nz; k++) {
    const r = Math.hypot(x0 + (i + 0.5) * step, z0 + (k + 0.5) * step);
    if (r < core || r > 0.8 * radius) continue;
    const q = Math.floor(r / 0.004), h = map[i * nz + k];
    sum[q] += h; sum2[q] += h * h; count[q]++;
  }
  let v = 0, n = 0;
  for (let q = 0; q < rings; q++) if (count[q] > 0) { v += sum2[q] - (sum[q] * sum[q]) / count[q]; n += count[q]; }
  return { radius, height, relief: n > 0 ? Math.sqrt(Math.max(0, v) / n) : 0, map, nx, nz };
}
