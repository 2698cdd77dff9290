/**
 * The top of the liquid in a cylindrical cup, read from the grid's φ (issue 26 "Films without grid
 * artefacts", branch crown26): the top's height on columns every h/2 within `radius` of the cup's
 * axis, in the cup's frame (its pose at the time read): the highest crossing of φ = 0 below `top`,
 * sampled trilinearly every h/8 and bisected. Figures:
 *   spread  the RMS of the heights, less their tilt (a least-squares plane) and less their mean at
 *           the same radius (bins h/4 wide), m: what is not round about the cup's axis (the liquid's
 *           slump at a no-slip wall is round, the cup's tipping tilts it; spikes at the wall's cell
 *           steps are neither);
 *   crown   the mean height over the outer centimetre less that within radius − 2 cm, m;
 *   peaks   columns higher than their 8 neighbours by more than 0.05 h.
 * Used by tests/grid/cup-top.test.ts and bench/grid-crown-stages.ts.
 */
import type { GridSimulation } from '../../src/grid/step.ts';
import { applyPose, createPose } from '../../src/scene/motion.ts';

export interface CupTop {
  spread: number;
  crown: number;
  peaks: number;
  /** The highest column over the mean, m. */
  highest: number;
  /** The columns (x, z in the cup's frame) and their heights less the tilt, m. */
  columns: [number, number][];
  heights: Float64Array;
}

export interface CupColumns {
  /** The cup body's name in the scene (its pose frames the columns), or null: the world's. */
  cup: string | null;
  /** Columns within this distance of the axis, m. */
  radius: number;
  /** The scan's top and bottom along the cup's axis (y in its rest frame), m. */
  top: number;
  bottom: number;
}

export function cupTop(sim: GridSimulation, o: CupColumns): CupTop {
  const h = sim.d.h, R = o.radius, tr = sim.tracker;
  const body = o.cup === null ? undefined : sim.solids.list.find((b) => b.name === o.cup);
  const pose = createPose(), rest = new Float64Array(3), world = new Float64Array(3);
  body?.motion.poseAt(sim.time, pose);
  const phiAt = (x: number, y: number, z: number) => {
    rest[0] = x; rest[1] = y; rest[2] = z;
    if (body) applyPose(pose, rest, world); else world.set(rest);
    return tr.signedDistance(sim, world[0], world[1], world[2]);
  };
  const topAt = (x: number, z: number): number => {
    const step = h / 8;
    let yHi = o.top;
    for (let y = o.top - step; y > o.bottom; y -= step) {
      if (phiAt(x, y, z) < 0 && phiAt(x, yHi, z) >= 0) {
        let lo = y, hi = yHi;
        for (let it = 0; it < 20; it++) { const m = 0.5 * (lo + hi); if (phiAt(x, m, z) < 0) lo = m; else hi = m; }
        return 0.5 * (lo + hi);
      }
      yHi = y;
    }
    return o.bottom;
  };
  const columns: [number, number][] = [];
  const half = h / 2, n = Math.floor(R / half);
  for (let a = -n; a <= n; a++) for (let b = -n; b <= n; b++) if ((a * a + b * b) * half * half < R * R) columns.push([a * half, b * half]);
  const m = columns.length, H = new Float64Array(m);
  let sum = 0;
  for (let q = 0; q < m; q++) sum += (H[q] = topAt(columns[q][0], columns[q][1]));
  const mean = sum / m;
  let sxx = 0, szz = 0, sxz = 0, sxy = 0, szy = 0;
  for (let q = 0; q < m; q++) {
    const [x, z] = columns[q], y = H[q] - mean;
    sxx += x * x; szz += z * z; sxz += x * z; sxy += x * y; szy += z * y;
  }
  const det = sxx * szz - sxz * sxz, bx = (sxy * szz - szy * sxz) / det, bz = (szy * sxx - sxy * sxz) / det;
  for (let q = 0; q < m; q++) H[q] -= bx * columns[q][0] + bz * columns[q][1];
  const bins = Math.ceil(R / (h / 4)) + 1, bs = new Float64Array(bins), bn = new Float64Array(bins), bin = new Int32Array(m);
  let outer = 0, nOuter = 0, inner = 0, nInner = 0, highest = -Infinity;
  for (let q = 0; q < m; q++) {
    const r = Math.hypot(columns[q][0], columns[q][1]);
    bin[q] = Math.floor(r / (h / 4));
    bs[bin[q]] += H[q]; bn[bin[q]]++;
    if (r > R - 0.01) { outer += H[q]; nOuter++; } else if (r < R - 0.02) { inner += H[q]; nInner++; }
    highest = Math.max(highest, H[q] - mean);
  }
  let ss = 0;
  for (let q = 0; q < m; q++) ss += (H[q] - bs[bin[q]] / bn[bin[q]]) ** 2;
  const index = new Map<number, number>();
  const key = (a: number, b: number) => (a + 1000) * 4096 + (b + 1000);
  columns.forEach(([x, z], q) => index.set(key(Math.round(x / half), Math.round(z / half)), q));
  let peaks = 0;
  for (let q = 0; q < m; q++) {
    const a0 = Math.round(columns[q][0] / half), b0 = Math.round(columns[q][1] / half);
    let peak = true, nbs = 0;
    for (let a = -1; a <= 1 && peak; a++) for (let b = -1; b <= 1; b++) {
      if (a === 0 && b === 0) continue;
      const w = index.get(key(a0 + a, b0 + b));
      if (w === undefined) continue;
      nbs++;
      if (H[w] > H[q] - 0.05 * h) { peak = false; break; }
    }
    if (peak && nbs >= 5) peaks++;
  }
  return { spread: Math.sqrt(ss / m), crown: outer / nOuter - inner / nInner, peaks, highest, columns, heights: H };
}
