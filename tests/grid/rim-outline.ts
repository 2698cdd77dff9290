/**
 * The outline of a pile as a viewer sees it from above, and how rough it is at the scale of the
 * grid's cells: the spikes and notches of a grid pile's rim ("the gear", soap-pour's crenellated
 * pool), which the 72-direction maximum of tests/grid/film.ts smooths away (a notch between two
 * bins' farthest points does not show there).
 *
 *  - The footprint: every triangle of the surface mesh projected on the floor (x, z), filled on a
 *    raster of spacing `pixel`; no height cut, so the rope, the pile and its foot all count, as
 *    from above.
 *  - The outline r(θ): along each of RIM_RAYS rays from the axis, the farthest raster point of the
 *    footprint that is joined to the axis along the ray by no gap wider than `gap` (a speck lying
 *    apart beyond the rim does not count as the rim; a hole in the middle does not end the ray).
 *  - Its roughness at the cell's scale: r(θ) less the same r(θ) smoothed over an arc of `window`
 *    (a Gaussian of σ = window / 2 along the arc), in cells: the RMS (`roughness`), the share of the
 *    outline's length more than a third of a cell from the smooth one (`offShare`), the spikes and
 *    notches (runs of the residual beyond ±h/2) per 10 cm of rim, and the outline's length over the
 *    smooth one's, less 1 (`excessLength`: crenellations lengthen it).
 */
import type { Mesh } from '../../src/types/geometry.ts';

export const RIM_RAYS = 1440;

export interface RimOutline {
  /** Mean outline radius, m. */
  rim: number;
  /** RMS of the outline less its smooth version, in cells. */
  roughness: number;
  /** Share of the rays whose outline lies more than h/3 from the smooth one. */
  offShare: number;
  /** Runs of the residual above +h/2 (spikes) and below −h/2 (notches) per 10 cm of rim. */
  spikes: number;
  notches: number;
  /** Length of the outline over its smooth version's, less 1. */
  excessLength: number;
  /** The outline itself, r per ray (m). */
  r: Float64Array;
}

export interface OutlineOptions {
  /** Cell size, m: the unit of the figures. */
  h: number;
  /** The axis (x, z) the rays start from. */
  ax?: number;
  az?: number;
  /** Raster spacing, m (default h / 16). */
  pixel?: number;
  /** Widest gap along a ray still counted as the same footprint, m (default h). */
  gap?: number;
  /** Arc length of the smoothing, m (default 4 h). */
  window?: number;
  /** Only triangles with all three vertices below this height count (default: all). */
  below?: number;
}

/** The footprint of a mesh from above on a raster; returns the raster and its frame. */
export function footprint(mesh: Pick<Mesh, 'positions' | 'indices'>, pixel: number, below = Infinity): { mask: Uint8Array; nx: number; nz: number; x0: number; z0: number } {
  const p = mesh.positions, idx = mesh.indices;
  let xmin = Infinity, xmax = -Infinity, zmin = Infinity, zmax = -Infinity;
  for (let v = 0; v < p.length; v += 3) {
    xmin = Math.min(xmin, p[v]); xmax = Math.max(xmax, p[v]);
    zmin = Math.min(zmin, p[v + 2]); zmax = Math.max(zmax, p[v + 2]);
  }
  if (!(xmax >= xmin)) return { mask: new Uint8Array(0), nx: 0, nz: 0, x0: 0, z0: 0 };
  const x0 = xmin - 2 * pixel, z0 = zmin - 2 * pixel;
  const nx = Math.ceil((xmax - x0) / pixel) + 3, nz = Math.ceil((zmax - z0) / pixel) + 3;
  const mask = new Uint8Array(nx * nz);
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    if (p[a + 1] > below || p[b + 1] > below || p[c + 1] > below) continue;
    const ax = (p[a] - x0) / pixel, az = (p[a + 2] - z0) / pixel;
    const bx = (p[b] - x0) / pixel, bz = (p[b + 2] - z0) / pixel;
    const cx = (p[c] - x0) / pixel, cz = (p[c + 2] - z0) / pixel;
    const area = (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
    const i0 = Math.max(0, Math.floor(Math.min(ax, bx, cx))), i1 = Math.min(nx - 1, Math.ceil(Math.max(ax, bx, cx)));
    const k0 = Math.max(0, Math.floor(Math.min(az, bz, cz))), k1 = Math.min(nz - 1, Math.ceil(Math.max(az, bz, cz)));
    if (Math.abs(area) < 1e-12) {
      // Seen edge-on from above: mark its vertices' pixels.
      mask[Math.round(az) * nx + Math.round(ax)] = 1;
      continue;
    }
    for (let k = k0; k <= k1; k++) {
      for (let i = i0; i <= i1; i++) {
        const px = i + 0.5, pz = k + 0.5;
        const w0 = ((bx - px) * (cz - pz) - (cx - px) * (bz - pz)) / area;
        const w1 = ((cx - px) * (az - pz) - (ax - px) * (cz - pz)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 >= -1e-9 && w1 >= -1e-9 && w2 >= -1e-9) mask[k * nx + i] = 1;
      }
    }
  }
  return { mask, nx, nz, x0, z0 };
}

/** r(θ) of a footprint from the axis, RIM_RAYS rays (see the header). */
export function outlineRadius(fp: ReturnType<typeof footprint>, pixel: number, ax: number, az: number, gap: number): Float64Array {
  const r = new Float64Array(RIM_RAYS);
  const step = 0.5 * pixel;
  const { mask, nx, nz, x0, z0 } = fp;
  const reach = Math.hypot(nx, nz) * pixel;
  for (let q = 0; q < RIM_RAYS; q++) {
    const t = (2 * Math.PI * (q + 0.5)) / RIM_RAYS, cx = Math.cos(t), sz = Math.sin(t);
    let last = 0, dry = 0;
    for (let d = 0; d < reach; d += step) {
      const i = Math.floor((ax + d * cx - x0) / pixel), k = Math.floor((az + d * sz - z0) / pixel);
      const wet = i >= 0 && k >= 0 && i < nx && k < nz && mask[k * nx + i] !== 0;
      if (wet) { last = d; dry = 0; }
      else if ((dry += step) > gap && last > 0) break;
    }
    r[q] = last;
  }
  return r;
}

/** The figures of an outline r(θ) (RIM_RAYS rays) at cell size h, smoothed over `window` of arc. */
export function outlineFigures(r: Float64Array, h: number, window: number): RimOutline {
  const n = r.length;
  let mean = 0;
  for (let q = 0; q < n; q++) mean += r[q] / n;
  const sigma = Math.max((0.5 * window) / Math.max(mean, 1e-9), (2 * Math.PI) / n) * (n / (2 * Math.PI)); // in rays
  const half = Math.ceil(3 * sigma);
  const w = new Float64Array(2 * half + 1);
  let ws = 0;
  for (let j = -half; j <= half; j++) ws += w[j + half] = Math.exp(-0.5 * (j / sigma) ** 2);
  const smooth = new Float64Array(n);
  for (let q = 0; q < n; q++) {
    let s = 0;
    for (let j = -half; j <= half; j++) s += w[j + half] * r[(q + j + n * (1 + Math.ceil(half / n))) % n];
    smooth[q] = s / ws;
  }
  let sq = 0, off = 0, spikes = 0, notches = 0;
  let prevSign = 0;
  for (let q = 0; q < n; q++) {
    const e = r[q] - smooth[q];
    sq += e * e;
    if (Math.abs(e) > h / 3) off++;
    const sign = e > 0.5 * h ? 1 : e < -0.5 * h ? -1 : 0;
    if (sign !== 0 && sign !== prevSign) { if (sign > 0) spikes++; else notches++; }
    prevSign = sign;
  }
  // Lengths through every k-th ray, about a quarter cell of arc apart, so that the raster's steps
  // along a ray (h / 16) do not read as length.
  const k = Math.max(1, Math.round((0.25 * h) / Math.max((2 * Math.PI * mean) / n, 1e-12)));
  let len = 0, lenSmooth = 0;
  for (let q = 0; q < n; q += k) {
    const q1 = q + k < n ? q + k : 0;
    const t0 = (2 * Math.PI * (q + 0.5)) / n, t1 = (2 * Math.PI * (q1 + 0.5)) / n;
    len += Math.hypot(r[q1] * Math.cos(t1) - r[q] * Math.cos(t0), r[q1] * Math.sin(t1) - r[q] * Math.sin(t0));
    lenSmooth += Math.hypot(smooth[q1] * Math.cos(t1) - smooth[q] * Math.cos(t0), smooth[q1] * Math.sin(t1) - smooth[q] * Math.sin(t0));
  }
  const per10cm = lenSmooth > 0 ? 0.1 / lenSmooth : 0;
  return {
    rim: mean,
    roughness: Math.sqrt(sq / n) / h,
    offShare: off / n,
    spikes: spikes * per10cm,
    notches: notches * per10cm,
    excessLength: lenSmooth > 0 ? len / lenSmooth - 1 : 0,
    r,
  };
}

/** The outline of a mesh seen from above and its roughness (see the header). */
export function rimOutline(mesh: Pick<Mesh, 'positions' | 'indices'>, o: OutlineOptions): RimOutline {
  const pixel = o.pixel ?? o.h / 16;
  const fp = footprint(mesh, pixel, o.below ?? Infinity);
  const r = outlineRadius(fp, pixel, o.ax ?? 0, o.az ?? 0, o.gap ?? o.h);
  return outlineFigures(r, o.h, o.window ?? 4 * o.h);
}

/** One line of figures. */
export function describeOutline(f: RimOutline): string {
  return `outline ${(1000 * f.rim).toFixed(1)} mm, roughness ${f.roughness.toFixed(3)} h, ${(100 * f.offShare).toFixed(1)} % off by h/3, ` +
    `${f.spikes.toFixed(1)} spikes and ${f.notches.toFixed(1)} notches per 10 cm, length +${(100 * f.excessLength).toFixed(1)} %`;
}
