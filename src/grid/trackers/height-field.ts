/**
 * The height-field surface of Foster & Metaxas 1996 §4.3 for liquids without overturning (pools,
 * puddles, rivers), enabled by `grid.heightField`. One height H per vertical column of domain cells
 * (at the column centre), taken from the level set (or the markers' cells) the first time, then
 * moved by the liquid's velocity at the surface (equation 11, discretised as equation 12):
 *   ∂H/∂t = v_y − v_x ∂H/∂x − v_z ∂H/∂z   (y is up here; central differences, one-sided at edges).
 * It is an output: the grid's cells still come from the tracker it wraps (markers or a level set),
 * and its mesh is the surface the engine shows and exports. Columns without liquid hold NaN and
 * are left out.
 */
import type { Mesh } from '../../api.ts';
import type { CheckpointReader, CheckpointWriter } from '../../io/checkpoint.ts';
import type { CompiledShape } from '../../scene/shapes.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import { velocityAtPoint } from '../interpolate.ts';
import type { Stage } from '../pipeline.ts';
import type { Spout } from '../sources.ts';
import type { GridSimulation, PendingLiquid } from '../step.ts';
import { FLUID, SOLID, type GridStore } from '../store.ts';
import { registerTracker, type SurfaceTracker } from './tracker.ts';

const v3 = new Float64Array(3);

export class HeightField {
  H = new Float64Array(0);
  private next = new Float64Array(0);
  nx = 0;
  nz = 0;

  /** H from the tracker: the top of the liquid in every column (linear in φ across the surface). */
  initialize(sim: GridSimulation, tracker: SurfaceTracker): void {
    const s = sim.store, d = sim.d, h = d.h;
    this.nx = d.n[0];
    this.nz = d.n[2];
    this.H = new Float64Array(this.nx * this.nz).fill(NaN);
    this.next = new Float64Array(this.H.length);
    for (let c = 0; c < s.count; c++) {
      const i = s.ci[c], k = s.ck[c];
      if (i < 0 || k < 0 || i >= this.nx || k >= this.nz || s.type[c] !== FLUID) continue;
      const up = s.nb[6 * c + 3];
      let top = d.origin[1] + h * (s.cj[c] + 1);
      if (up >= 0 && s.type[up] !== SOLID) {
        const p0 = tracker.cellDistance(sim, c), p1 = tracker.cellDistance(sim, up);
        if (p0 < 0 && p1 >= 0) top = d.origin[1] + h * (s.cj[c] + 0.5 + p0 / (p0 - p1));
        else if (p1 < 0) continue;
      }
      const q = i + this.nx * k;
      if (!(this.H[q] >= top)) this.H[q] = top;
    }
  }

  /** Takes the heights of a checkpoint. */
  restore(sim: GridSimulation, H: Float64Array): void {
    this.nx = sim.d.n[0];
    this.nz = sim.d.n[2];
    this.H = H.slice();
    this.next = new Float64Array(H.length);
  }

  /** Equation 12 for one step. */
  advance(sim: GridSimulation, tracker: SurfaceTracker, dt: number): void {
    if (this.H.length === 0) this.initialize(sim, tracker);
    const s = sim.store, d = sim.d, h = d.h, nx = this.nx, nz = this.nz, H = this.H, out = this.next;
    for (let k = 0; k < nz; k++) {
      for (let i = 0; i < nx; i++) {
        const q = i + nx * k, hq = H[q];
        out[q] = hq;
        if (Number.isNaN(hq)) continue;
        const x = d.origin[0] + h * (i + 0.5), z = d.origin[2] + h * (k + 0.5);
        // The velocity just below the surface (the surface itself may sit in air cells).
        velocityAtPoint(s, d, x, hq - 0.25 * h, z, v3);
        const dhdx = slope(H, q, i > 0 ? q - 1 : -1, i < nx - 1 ? q + 1 : -1, h);
        const dhdz = slope(H, q, k > 0 ? q - nx : -1, k < nz - 1 ? q + nx : -1, h);
        out[q] = hq + dt * (v3[1] - v3[0] * dhdx - v3[2] * dhdz);
      }
    }
    H.set(out);
    // Columns that run dry follow the tracker.
    for (let q = 0; q < H.length; q++) {
      const i = q % nx, k = (q - i) / nx;
      const x = d.origin[0] + h * (i + 0.5), z = d.origin[2] + h * (k + 0.5);
      if (Number.isNaN(H[q])) continue;
      if (tracker.signedDistance(sim, x, d.origin[1] + 0.5 * h, z) > 0 && H[q] < d.origin[1] + h) H[q] = NaN;
    }
  }

  /** The height field as triangles over the columns that hold liquid. */
  mesh(sim: GridSimulation, color: [number, number, number]): Mesh {
    const d = sim.d, h = d.h, nx = this.nx, nz = this.nz, H = this.H;
    const positions = new Float32Array(3 * nx * nz), normals = new Float32Array(3 * nx * nz), colors = new Float32Array(3 * nx * nz);
    for (let k = 0; k < nz; k++) {
      for (let i = 0; i < nx; i++) {
        const q = i + nx * k;
        positions[3 * q] = d.origin[0] + h * (i + 0.5);
        positions[3 * q + 1] = Number.isNaN(H[q]) ? d.origin[1] : H[q];
        positions[3 * q + 2] = d.origin[2] + h * (k + 0.5);
        const sx = slope(H, q, i > 0 ? q - 1 : -1, i < nx - 1 ? q + 1 : -1, h);
        const sz = slope(H, q, k > 0 ? q - nx : -1, k < nz - 1 ? q + nx : -1, h);
        const l = Math.hypot(sx, 1, sz);
        // A dry column's slope is NaN: its vertex is in no triangle, but is written out; point it up.
        if (Number.isFinite(l)) { normals[3 * q] = -sx / l; normals[3 * q + 1] = 1 / l; normals[3 * q + 2] = -sz / l; } else normals[3 * q + 1] = 1;
        colors.set(color, 3 * q);
      }
    }
    const idx: number[] = [];
    for (let k = 0; k + 1 < nz; k++) {
      for (let i = 0; i + 1 < nx; i++) {
        const a = i + nx * k, b = a + 1, c = a + nx, e = c + 1;
        if (Number.isNaN(H[a]) || Number.isNaN(H[b]) || Number.isNaN(H[c]) || Number.isNaN(H[e])) continue;
        idx.push(a, c, b, b, c, e);
      }
    }
    return { positions, normals, colors, indices: Uint32Array.from(idx) };
  }
}

/** ∂H/∂x at column q from its neighbours (−1: none; NaN neighbours are skipped). */
function slope(H: Float64Array, q: number, lo: number, hi: number, h: number): number {
  const okLo = lo >= 0 && !Number.isNaN(H[lo]), okHi = hi >= 0 && !Number.isNaN(H[hi]);
  if (okLo && okHi) return (H[hi] - H[lo]) / (2 * h);
  if (okHi) return (H[hi] - H[q]) / h;
  if (okLo) return (H[q] - H[lo]) / h;
  return 0;
}

/** A tracker's cells with a height field for the surface (`grid.heightField`). */
export class HeightFieldTracker implements SurfaceTracker {
  readonly name = 'height-field';
  readonly field = new HeightField();
  readonly afterMove: Stage[];

  constructor(readonly inner: SurfaceTracker) {
    this.afterMove = [...inner.afterMove, { name: 'height-field', run: (sim, dt) => this.field.advance(sim, inner, dt) }];
  }

  get extraLayers(): number { return this.inner.extraLayers; }
  get extrapolateAlongNormals(): boolean { return this.inner.extrapolateAlongNormals; }
  get markers() { return this.inner.markers; }
  get afterGrid(): Stage[] { return this.inner.afterGrid; }
  liquidCells(sim: GridSimulation): number { return this.inner.liquidCells(sim); }
  afterRebuild(sim: GridSimulation, s: GridStore, pending: readonly PendingLiquid[]): void { this.inner.afterRebuild(sim, s, pending); }
  addLiquid(sim: GridSimulation, shape: CompiledShape, material: number): void { this.inner.addLiquid(sim, shape, material); }
  initialize(sim: GridSimulation): void { this.inner.initialize(sim); }
  move(sim: GridSimulation, dt: number): void { this.inner.move(sim, dt); }
  emitSpout(sim: GridSimulation, sp: Spout, dt: number): void { this.inner.emitSpout(sim, sp, dt); }
  sink(sim: GridSimulation, shape: CompiledShape): void { this.inner.sink(sim, shape); }
  endFrame(sim: GridSimulation): void { this.inner.endFrame(sim); }
  cellFraction(s: GridStore, c: number, h: number): number { return this.inner.cellFraction(s, c, h); }
  volume(sim: GridSimulation): number { return this.inner.volume(sim); }
  expectedVolume(sim: GridSimulation): number { return this.inner.expectedVolume(sim); }
  cellDistance(sim: GridSimulation, c: number): number { return this.inner.cellDistance(sim, c); }
  signedDistance(sim: GridSimulation, x: number, y: number, z: number): number { return this.inner.signedDistance(sim, x, y, z); }
  inLiquid(sim: GridSimulation, x: number, y: number, z: number): boolean { return this.inner.inLiquid(sim, x, y, z); }
  wetFraction(sim: GridSimulation, p: ArrayLike<number>, thickness: number): number { return this.inner.wetFraction(sim, p, thickness); }

  /** The height field's mesh once it has heights, else the inner tracker's surface. */
  surfaceJob(sim: GridSimulation, color: [number, number, number]): SurfaceJob {
    if (this.field.H.length === 0) return this.inner.surfaceJob(sim, color);
    return { kind: 'mesh', mesh: this.field.mesh(sim, color) };
  }

  save(w: CheckpointWriter): void {
    this.inner.save(w);
    if (this.field.H.length > 0) w.array('ext.heightField', this.field.H.slice());
  }

  restore(sim: GridSimulation, r: CheckpointReader): void {
    this.inner.restore(sim, r);
    if (r.has('ext.heightField')) this.field.restore(sim, r.array('ext.heightField', Float64Array));
  }
}

registerTracker({
  name: 'height-field',
  create(_scene, inner) {
    if (!inner) throw new Error("the 'height-field' tracker wraps another tracker (markers or a level set) that decides the liquid cells");
    return new HeightFieldTracker(inner);
  },
});
