/**
 * Marker particles (Cline §3, §4 step 4): points carried through u by RK2 (equation 12) that say
 * which cells hold liquid. Positions are Float64 so that checkpoints continue bit for bit. A marker
 * that would end inside a solid stays where it was; one that leaves through an open face (beyond
 * the margin of existing cells) is removed. Each marker carries a weight, the volume it stands for
 * in lattice markers (1 when seeded or emitted): the marker tracker's sheet rule splits a marker
 * in two halves to keep a thinning sheet whole (trackers/marker-sheets.ts), and the volume is the
 * sum of the weights.
 */
import type { GridDomain } from './domain.ts';
import { cellKey as cellKey_, inMargin as inMargin_ } from './domain.ts';
import { tracePoint as tracePoint_ } from './interpolate.ts';
import { SOLID as SOLID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const cellKey = cellKey_, inMargin = inMargin_, tracePoint = tracePoint_, SOLID = SOLID_;

const out = new Float64Array(3);

export class Markers {
  count = 0;
  pos = new Float64Array(3 * 1024);
  material = new Uint16Array(1024);
  /** The volume each marker stands for, in lattice markers (h³ / markersPerCell each). */
  weight = new Float64Array(1024);
  /** Total weight of the markers the last `move` or `filter` removed. */
  removedWeight = 0;

  add(x: number, y: number, z: number, material: number, weight = 1): void {
    if (this.count === this.material.length) {
      const p = new Float64Array(2 * this.pos.length);
      p.set(this.pos);
      this.pos = p;
      const m = new Uint16Array(2 * this.material.length);
      m.set(this.material);
      this.material = m;
      const w = new Float64Array(2 * this.weight.length);
      w.set(this.weight);
      this.weight = w;
    }
    const i = this.count++;
    this.pos[3 * i] = x;
    this.pos[3 * i + 1] = y;
    this.pos[3 * i + 2] = z;
    this.material[i] = material;
    this.weight[i] = weight;
  }

  /** Σ weights: the volume of the markers in lattice markers. */
  totalWeight(): number {
    let sum = 0;
    for (let q = 0; q < this.count; q++) sum += this.weight[q];
    return sum;
  }

  /** Whether any marker's weight is not 1 (a sheet rule has split one). */
  anySplit(): boolean {
    for (let q = 0; q < this.count; q++) if (this.weight[q] !== 1) return true;
    return false;
  }

  /** Seeds markersPerCell markers on a sub-lattice of every cell whose sub-points satisfy inside(). */
  seed(d: GridDomain, perCell: number, bounds: { min: number[]; max: number[] }, inside: (x: number, y: number, z: number) => boolean, material: number): void {
    const m = Math.max(1, Math.round(Math.cbrt(perCell)));
    const step = d.h / m;
    const lo = [0, 0, 0], hi = [0, 0, 0];
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.max(0, Math.floor((bounds.min[a] - d.origin[a]) / step));
      hi[a] = Math.min(d.n[a] * m - 1, Math.ceil((bounds.max[a] - d.origin[a]) / step));
    }
    for (let k = lo[2]; k <= hi[2]; k++) {
      const z = d.origin[2] + (k + 0.5) * step;
      for (let j = lo[1]; j <= hi[1]; j++) {
        const y = d.origin[1] + (j + 0.5) * step;
        for (let i = lo[0]; i <= hi[0]; i++) {
          const x = d.origin[0] + (i + 0.5) * step;
          if (inside(x, y, z)) this.add(x, y, z, material);
        }
      }
    }
  }

  /** Moves every marker through u for Δt (RK2); returns how many were removed (their weight: removedWeight). */
  move(s: GridStore, d: GridDomain, dt: number): number {
    const p = this.pos, wt = this.weight, inv = 1 / d.h;
    let w = 0, gone = 0;
    for (let q = 0; q < this.count; q++) {
      tracePoint(s, d, p[3 * q], p[3 * q + 1], p[3 * q + 2], dt, out);
      const i = Math.floor((out[0] - d.origin[0]) * inv), j = Math.floor((out[1] - d.origin[1]) * inv), k = Math.floor((out[2] - d.origin[2]) * inv);
      if (!inMargin(d, i, j, k) || !Number.isFinite(out[0] + out[1] + out[2])) {
        gone += wt[q];
        continue;
      }
      const c = s.find(i, j, k);
      if (c < 0 && !(i >= 0 && j >= 0 && k >= 0 && i < d.n[0] && j < d.n[1] && k < d.n[2])) {
        gone += wt[q];
        continue;
      }
      if (c >= 0 && s.type[c] === SOLID) {
        if (s.wall[c] !== 0) clampInto(d, out);
        else { out[0] = p[3 * q]; out[1] = p[3 * q + 1]; out[2] = p[3 * q + 2]; }
      }
      p[3 * w] = out[0];
      p[3 * w + 1] = out[1];
      p[3 * w + 2] = out[2];
      this.material[w] = this.material[q];
      wt[w] = wt[q];
      w++;
    }
    const removed = this.count - w;
    this.count = w;
    this.removedWeight = gone;
    return removed;
  }

  /** Keeps the markers for which keep() is true; returns how many were removed (their weight: removedWeight). */
  filter(keep: (x: number, y: number, z: number) => boolean): number {
    const p = this.pos, wt = this.weight;
    let w = 0, gone = 0;
    for (let q = 0; q < this.count; q++) {
      if (!keep(p[3 * q], p[3 * q + 1], p[3 * q + 2])) {
        gone += wt[q];
        continue;
      }
      p[3 * w] = p[3 * q]; p[3 * w + 1] = p[3 * q + 1]; p[3 * w + 2] = p[3 * q + 2];
      wt[w] = wt[q];
      this.material[w++] = this.material[q];
    }
    const removed = this.count - w;
    this.count = w;
    this.removedWeight = gone;
    return removed;
  }

  /** Removes the markers of weight 0 (merged into another: trackers/marker-sheets.ts), keeping the others' order; returns how many. */
  dropWeightless(): number {
    const p = this.pos, wt = this.weight;
    let w = 0;
    for (let q = 0; q < this.count; q++) {
      if (wt[q] === 0) continue;
      if (w !== q) {
        p[3 * w] = p[3 * q]; p[3 * w + 1] = p[3 * q + 1]; p[3 * w + 2] = p[3 * q + 2];
        wt[w] = wt[q];
        this.material[w] = this.material[q];
      }
      w++;
    }
    const removed = this.count - w;
    this.count = w;
    return removed;
  }

  /** Cell keys of all markers into `keys` (grown as needed); returns the array. */
  cellKeys(d: GridDomain, keys: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
    if (keys.length < this.count) keys = new Int32Array(Math.ceil(this.count * 1.3));
    const inv = 1 / d.h, p = this.pos;
    for (let q = 0; q < this.count; q++) {
      keys[q] = cellKey(d, Math.floor((p[3 * q] - d.origin[0]) * inv), Math.floor((p[3 * q + 1] - d.origin[1]) * inv), Math.floor((p[3 * q + 2] - d.origin[2]) * inv));
    }
    return keys;
  }
}

/** Pulls a point back inside the box (closed walls), a hair from the wall. */
function clampInto(d: GridDomain, p: Float64Array): void {
  for (let a = 0; a < 3; a++) {
    const lo = d.origin[a], hi = d.origin[a] + d.n[a] * d.h, eps = 1e-3 * d.h;
    if (p[a] < lo + eps && d.kind[2 * a] !== 2) p[a] = lo + eps;
    if (p[a] > hi - eps && d.kind[2 * a + 1] !== 2) p[a] = hi - eps;
  }
}
