/**
 * Which liquid is where, on the grid. The grid engine solves one velocity field for the liquid
 * (liquid.ts); when a scene puts in several liquids (the paint drops' red, yellow and blue), each
 * keeps its colour through passive tracer points carried by that field, the marker particles of
 * Cline §3 (equation 12, RK2) used as dye: seeded two to a cell edge in the liquid each body or
 * blob adds (only where no liquid was before), laid over a spout's face a layer each time its
 * liquid has moved half a cell (as Cline §5 lays markers), moved with the tracking's mid-step
 * velocity, and dropped where they leave the liquid
 * (more than a cell outside φ), enter a sink or leave the box. The surface's vertex colours are
 * the Gaussian-weighted average of the tracers' colours within 2.5 σ (σ = half a cell), so liquids
 * mix only within about a cell of where they meet, as Steele et al. 2004 colour particle surfaces.
 * Where no tracer is near a vertex the liquid's own colour stays.
 *
 * Where the liquids differ in viscosity the tracers also give each cell its ν (`cellLogNu`): the
 * tracer-weighted mean of log ν, each tracer splatted trilinearly onto the eight cell centres
 * around it (cloud in cell), which the viscosity solve reads as Cline §7.2 / Carlson et al. 2002's
 * per-cell ν (the variational form takes it per cell as Batty & Bridson 2008 do). The mean is of
 * log ν (geometric) because the liquids may differ by orders of magnitude: a cell half honey, half
 * water is then the two's geometric mean, between the layered cell's harmonic (shear across the
 * layers) and arithmetic (shear along them) bounds, and the field is as smooth in log ν as the
 * temperature law's. A cell no tracer reaches takes the first liquid's ν. Where the liquids differ
 * in density the same splat (`cellMean`) gives each cell its ρ (variable-density.ts).
 */
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import type { Scene } from '../scene/scene.ts';
import type { CompiledShape } from '../scene/shapes.ts';
import { linearColor } from '../scene/color.ts';
import type { TintSource } from '../surface/index.ts';
import { liquidsPutIn, materialNu } from './liquid.ts';
import { Markers } from './markers.ts';
import { spoutActive, type Spout } from './sources.ts';
import type { GridSimulation } from './step.ts';

/** Tracers per cell edge (8 a cell). */
const PER_AXIS = 2;

export class LiquidTracers {
  readonly points = new Markers();
  /** Linear RGB of each material index (solids included, unused). */
  private readonly palette: Float32Array;
  /** How far each spout's liquid has moved since its last layer of tracers, m. */
  private travelled: Float64Array;
  /** True while the tracker adds a spout's liquid: its tracers are laid by emitSpout instead. */
  private inSpout = false;
  /** log ν of each material index (the first liquid's for solids), or null where the liquids put in share one ν. */
  readonly logNu: Float64Array | null = null;
  private splatW = new Float64Array(0);
  private splatL = new Float64Array(0);
  private cellLog = new Float64Array(0);

  private constructor(scene: Scene, firstNu: number) {
    this.travelled = new Float64Array(scene.sources.length);
    this.palette = new Float32Array(3 * scene.materialNames.length);
    scene.materialNames.forEach((name, m) => this.palette.set(linearColor(scene.materials[name].color), 3 * m));
    const nus = [...liquidsPutIn(scene)].map((name) => materialNu(scene, name)).filter((nu): nu is number => nu !== null);
    if (nus.some((nu) => nu !== nus[0])) {
      this.logNu = new Float64Array(scene.materialNames.map((name) => Math.log(Math.max(materialNu(scene, name) ?? firstNu, 1e-30))));
    }
  }

  /** Tracers for a scene that puts in more than one liquid (bodies and sources), else null. */
  static create(scene: Scene, firstNu: number): LiquidTracers | null {
    if (scene.grid.smoke) return null;
    return liquidsPutIn(scene).size > 1 ? new LiquidTracers(scene, firstNu) : null;
  }

  /**
   * log ν per cell of the store from the tracers around it (see the header), `fallback` (the first
   * liquid's log ν) where none is near; null where the liquids share one ν. The array is reused.
   */
  cellLogNu(sim: GridSimulation, fallback: number): Float64Array | null {
    const table = this.logNu;
    if (!table) return null;
    if (this.cellLog.length < sim.store.count) this.cellLog = new Float64Array(Math.ceil(sim.store.count * 1.3));
    return this.cellMean(sim, table, fallback, this.cellLog);
  }

  /**
   * Into `out` (at least the store's count): per cell of the store, the mean of `table` over the
   * tracers around it, each splatted trilinearly onto the eight cell centres around it (cloud in
   * cell) by its material; `fallback` where none is near. Returns `out`.
   */
  cellMean(sim: GridSimulation, table: Float64Array, fallback: number, out: Float64Array): Float64Array {
    const s = sim.store, d = sim.d, n = s.count, inv = 1 / d.h, o = d.origin, p = this.points;
    if (this.splatW.length < n) {
      const m = Math.ceil(n * 1.3);
      this.splatW = new Float64Array(m);
      this.splatL = new Float64Array(m);
    }
    const W = this.splatW, L = this.splatL;
    W.fill(0, 0, n);
    L.fill(0, 0, n);
    for (let q = 0; q < p.count; q++) {
      // Grid coordinates of the point relative to the cell centres.
      const gx = (p.pos[3 * q] - o[0]) * inv - 0.5, gy = (p.pos[3 * q + 1] - o[1]) * inv - 0.5, gz = (p.pos[3 * q + 2] - o[2]) * inv - 0.5;
      const i = Math.floor(gx), j = Math.floor(gy), k = Math.floor(gz), fx = gx - i, fy = gy - j, fz = gz - k;
      const l = table[p.material[q]];
      for (let corner = 0; corner < 8; corner++) {
        const c = s.find(i + (corner & 1), j + ((corner >> 1) & 1), k + (corner >> 2));
        if (c < 0) continue;
        const w = (corner & 1 ? fx : 1 - fx) * (corner & 2 ? fy : 1 - fy) * (corner & 4 ? fz : 1 - fz);
        W[c] += w;
        L[c] += w * l;
      }
    }
    for (let c = 0; c < n; c++) out[c] = W[c] > 0 ? L[c] / W[c] : fallback;
    return out;
  }

  /** Seeds `material`'s tracers on the lattice points of `shape` that hold no liquid yet (call before the tracker adds it). */
  seed(sim: GridSimulation, shape: CompiledShape, material: number): void {
    if (this.inSpout) return;
    const d = sim.d, tracker = sim.tracker;
    this.points.seed(d, PER_AXIS * PER_AXIS * PER_AXIS, shape.bounds, (x, y, z) => shape.sdf(x, y, z) < 0 && !(tracker.signedDistance(sim, x, y, z) < 0), material);
  }

  /**
   * The spout's step (Cline §5): the tracker emits its liquid, and the tracers get a layer over
   * the face, on a lattice of half a cell in the face's basis, for each half cell the liquid has
   * moved out, each layer placed as far out as its liquid has travelled.
   */
  emitSpout(sim: GridSimulation, sp: Spout, index: number, dt: number): void {
    this.inSpout = true;
    try {
      sim.tracker.emitSpout(sim, sp, dt);
    } finally {
      this.inSpout = false;
    }
    const t0 = Math.max(sim.time, sp.source.start), t1 = Math.min(sim.time + dt, sp.end);
    if (!spoutActive(sp, t0) || !(t1 > t0)) return;
    const src = sp.source, step = 0.5 * sim.d.h, n = sp.normal, [e1, e2] = sp.basis;
    const ra = src.shape === 'disk' ? src.radius : src.size[0] / 2, rb = src.shape === 'disk' ? src.radius : src.size[1] / 2;
    const na = Math.floor(ra / step), nb = Math.floor(rb / step);
    this.travelled[index] += src.speed * (t1 - t0);
    while (this.travelled[index] >= step) {
      this.travelled[index] -= step;
      const out = this.travelled[index] + 0.5 * step;
      for (let ib = -nb; ib <= nb; ib++) {
        for (let ia = -na; ia <= na; ia++) {
          const a = ia * step, b = ib * step;
          if (src.shape === 'disk' ? a * a + b * b > ra * ra : Math.abs(a) > ra || Math.abs(b) > rb) continue;
          this.points.add(
            src.center[0] + a * e1[0] + b * e2[0] + out * n[0],
            src.center[1] + a * e1[1] + b * e2[1] + out * n[1],
            src.center[2] + a * e1[2] + b * e2[2] + out * n[2],
            sp.material,
          );
        }
      }
    }
  }

  /** Carries the tracers through the velocity the tracker has just moved with, then drops those that left the liquid. */
  move(sim: GridSimulation, dt: number): void {
    const p = this.points;
    let removed = p.move(sim.store, sim.d, dt);
    const h = sim.d.h, t = sim.time + dt;
    removed += p.filter((x, y, z) => {
      if (!(sim.tracker.signedDistance(sim, x, y, z) < h)) return false;
      for (const sink of sim.sinks) if (t >= sink.start && sim.time <= sink.end && sink.shape.sdf(x, y, z) < 0) return false;
      return true;
    });
    sim.count('tracers', p.count);
    if (removed > 0) sim.count('tracersRemoved', removed);
  }

  /** The tracers as a colour source for the surface (copied: a worker may mesh it while the grid steps on). */
  tint(sim: GridSimulation): TintSource {
    const p = this.points, n = p.count;
    const positions = new Float32Array(3 * n), colors = new Float32Array(3 * n);
    for (let q = 0; q < 3 * n; q++) positions[q] = p.pos[q];
    for (let q = 0; q < n; q++) {
      const m = 3 * p.material[q];
      colors[3 * q] = this.palette[m];
      colors[3 * q + 1] = this.palette[m + 1];
      colors[3 * q + 2] = this.palette[m + 2];
    }
    return { count: n, positions, colors, sigma: 0.5 * sim.d.h };
  }

  save(w: CheckpointWriter): void {
    w.array('ext.tracerPos', this.points.pos.slice(0, 3 * this.points.count)).array('ext.tracerMaterial', this.points.material.slice(0, this.points.count));
    w.array('ext.tracerTravelled', this.travelled);
  }

  restore(r: CheckpointReader): void {
    const pos = r.array('ext.tracerPos', Float64Array), mat = r.array('ext.tracerMaterial', Uint16Array);
    if (r.has('ext.tracerTravelled')) this.travelled = r.array('ext.tracerTravelled', Float64Array).slice();
    const p = this.points;
    p.count = 0;
    for (let q = 0; q < mat.length; q++) p.add(pos[3 * q], pos[3 * q + 1], pos[3 * q + 2], mat[q]);
  }
}
