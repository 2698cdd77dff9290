/**
 * Sources and sinks (Cline §5). Blob sources are liquid bodies with start > 0: at the first step
 * past their start they add liquid (markers, or the union into φ) moving at the body's velocity.
 * Spouts are planar disks or rectangles: the velocity of the cells they cross is set to s·n_s at
 * every step, and new liquid appears over their face every d/s seconds (d the marker spacing),
 * moved forward by the time it has already travelled; with a level set, the column in front of the
 * face is unioned into φ at every step, so the face never runs dry, and the speed set in the spout's
 * cells is scaled to hold what it has put in to area × speed × time (the column over a coarse grid
 * is wider than the disk: a 4 mm spout on 2 mm cells passes 1.4 times the disk's flux at s).
 * Sinks are regions that always hold air: liquid in them is removed after each step.
 */
import type { Scene } from '../scene/scene.ts';
import type { Body, Source, Vec3 } from '../scene/schema.ts';
import { compileShape, perpendicularBasis, type CompiledShape } from '../scene/shapes.ts';
import { cellKey as cellKey_, inBox as inBox_, type GridDomain } from './domain.ts';
import { FACE_ACTIVE as FACE_ACTIVE_, FLUID as FLUID_, type GridStore } from './store.ts';
// Imported bindings are getters under tsx's module transform (several times slower in hot loops),
// so the values used in loops are copied to module-level constants here.
const cellKey = cellKey_, inBox = inBox_, FACE_ACTIVE = FACE_ACTIVE_, FLUID = FLUID_;

export interface Blob {
  body: Body;
  shape: CompiledShape;
  material: number;
  done: boolean;
}

export interface Spout {
  source: Source;
  normal: Vec3;
  basis: [Vec3, Vec3];
  material: number;
  end: number;
  /** Time of the next emission of a marker layer. */
  next: number;
  /** Markers in one layer (the marker tracker counts them once). */
  layerSize?: number;
  /** Volume the spout has put in so far, m³ (the level set's account: it emits while behind area × speed × time). */
  emitted: number;
  /** What the last union of the spout's column added, m³ . */
  lastAdded: number;
  /**
   * Factor on s·n in the spout's cells (applySpoutVelocity): the level set's control of its flux
   * (trackers/levelset.ts, emitSpout), set at every step before it is used; 1 otherwise.
   */
  speedScale: number;
  /**
   * The column's flow ratio (trackers/levelset.ts emitSpout): what the unions have added since the
   * column reached its full length, against what area × speed × scale asked over the same steps.
   * `flowAdded` and `flowAsked` in m³, `seen` the account they last read.
   */
  flowAdded: number;
  flowAsked: number;
  seen: number;
}

/** What a spout should have put in by `time`: its face's area × speed × the time it has run, m³. */
export function spoutAsked(sp: Spout, time: number): number {
  const s = sp.source;
  const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
  return area * s.speed * Math.max(0, Math.min(time, sp.end) - s.start);
}

export interface Sink {
  shape: CompiledShape;
  start: number;
  end: number;
}

export function compileSources(scene: Scene): { blobs: Blob[]; spouts: Spout[]; sinks: Sink[] } {
  const blobs: Blob[] = [];
  for (const body of scene.bodies) {
    if (scene.materials[body.material].kind !== 'liquid' || body.start <= 0) continue;
    blobs.push({ body, shape: compileShape(body.shape, scene.assets.meshes), material: scene.materialNames.indexOf(body.material), done: false });
  }
  const spouts = scene.sources.map((source) => {
    const l = Math.hypot(...source.direction);
    const normal: Vec3 = [source.direction[0] / l, source.direction[1] / l, source.direction[2] / l];
    return {
      source,
      normal,
      basis: perpendicularBasis(normal),
      material: scene.materialNames.indexOf(source.material),
      end: source.end ?? scene.duration,
      next: source.start,
      emitted: 0,
      lastAdded: 0,
      speedScale: 1,
      flowAdded: 0,
      flowAsked: 0,
      seen: 0,
    };
  });
  const sinks = scene.sinks.map((k) => ({ shape: compileShape(k.shape, scene.assets.meshes), start: k.start, end: k.end ?? Infinity }));
  return { blobs, spouts, sinks };
}

/** Signed distance to the slab a spout fills: its face swept `length` along the normal. */
export function spoutDistance(sp: Spout, length: number, x: number, y: number, z: number): number {
  const s = sp.source;
  const px = x - s.center[0], py = y - s.center[1], pz = z - s.center[2];
  const n = sp.normal, [e1, e2] = sp.basis;
  const along = px * n[0] + py * n[1] + pz * n[2];
  const a = px * e1[0] + py * e1[1] + pz * e1[2];
  const b = px * e2[0] + py * e2[1] + pz * e2[2];
  const lateral = s.shape === 'disk' ? Math.hypot(a, b) - s.radius : Math.max(Math.abs(a) - s.size[0] / 2, Math.abs(b) - s.size[1] / 2);
  const axial = Math.abs(along - length / 2) - length / 2;
  return Math.max(lateral, axial);
}

export function spoutActive(sp: Spout, time: number): boolean {
  return time >= sp.source.start && time < sp.end;
}

/** Keys of box cells whose centre satisfies sdf < pad, over the given bounds. */
export function cellsInside(d: GridDomain, min: ArrayLike<number>, max: ArrayLike<number>, sdf: (x: number, y: number, z: number) => number, pad: number, out: number[]): void {
  const h = d.h, o = d.origin;
  const lo = [0, 1, 2].map((a) => Math.max(0, Math.floor((min[a] - o[a]) / h) - 1));
  const hi = [0, 1, 2].map((a) => Math.min(d.n[a] - 1, Math.ceil((max[a] - o[a]) / h) + 1));
  for (let k = lo[2]; k <= hi[2]; k++) {
    for (let j = lo[1]; j <= hi[1]; j++) {
      for (let i = lo[0]; i <= hi[0]; i++) {
        if (!inBox(d, i, j, k)) continue;
        if (sdf(o[0] + h * (i + 0.5), o[1] + h * (j + 0.5), o[2] + h * (k + 0.5)) < pad) out.push(cellKey(d, i, j, k));
      }
    }
  }
}

/** Bounds of a spout's slab. */
export function spoutBounds(sp: Spout, length: number): { min: Vec3; max: Vec3 } {
  const s = sp.source;
  const r = s.shape === 'disk' ? s.radius : Math.hypot(s.size[0], s.size[1]) / 2;
  const min: Vec3 = [0, 0, 0], max: Vec3 = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const tip = s.center[a] + sp.normal[a] * length;
    min[a] = Math.min(s.center[a], tip) - r;
    max[a] = Math.max(s.center[a], tip) + r;
  }
  return { min, max };
}

/** Sets the faces of liquid cells inside the spout's slab to s·n (Cline §5), times the spout's speedScale. */
export function applySpoutVelocity(s: GridStore, d: GridDomain, sp: Spout): void {
  const h = d.h, o = d.origin, speed = sp.source.speed * sp.speedScale;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== FLUID) continue;
    const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5), z = o[2] + h * (s.ck[c] + 0.5);
    if (spoutDistance(sp, h, x, y, z) > 0.5 * h) continue;
    for (let a = 0; a < 3; a++) {
      if (s.face[3 * c + a] === FACE_ACTIVE) s.u[a][c] = speed * sp.normal[a];
      const up = s.nb[6 * c + 2 * a + 1];
      if (up >= 0 && s.face[3 * up + a] === FACE_ACTIVE) s.u[a][up] = speed * sp.normal[a];
    }
  }
}
