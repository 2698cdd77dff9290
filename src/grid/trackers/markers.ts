/**
 * Marker-particle tracking (Cline et al. §3, §4 step 4, Figure 4): markers seeded on a sub-lattice
 * of the liquid are carried through u by RK2; a cell holding a marker is a liquid cell. Volume is
 * the sum of the markers' weights (each a lattice marker's volume when seeded; the sheet rule,
 * marker-sheets.ts, splits one into halves), so it is conserved while no marker leaves. Spouts
 * emit a layer of markers over their face every d/s seconds (§5); sinks remove markers.
 */
import { HashGrid } from '../../spatial/hash-grid.ts';
import { CheckpointError, type CheckpointReader, type CheckpointWriter } from '../../io/checkpoint.ts';
import type { Scene } from '../../scene/scene.ts';
import type { CompiledShape } from '../../scene/shapes.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import { Markers } from '../markers.ts';
import { MarkerSheets } from './marker-sheets.ts';
import type { Stage } from '../pipeline.ts';
import type { Spout } from '../sources.ts';
import type { GridSimulation } from '../step.ts';
import { FLUID, SOLID, type GridStore } from '../store.ts';
import { surfaceBox } from './surface-box.ts';
import { registerTracker, type SurfaceTracker } from './tracker.ts';

/** Markers along each axis of a cell: ∛(markersPerCell), rounded. */
export function markersPerAxis(scene: Scene): number {
  return Math.max(1, Math.round(Math.cbrt(scene.grid.markersPerCell)));
}

/** The cell of a point (by division, as the stages that read it always have), or −1. */
function cellAt(sim: GridSimulation, x: number, y: number, z: number): number {
  const d = sim.d;
  return sim.store.find(Math.floor((x - d.origin[0]) / d.h), Math.floor((y - d.origin[1]) / d.h), Math.floor((z - d.origin[2]) / d.h));
}

export class MarkerTracker implements SurfaceTracker {
  readonly name = 'markers';
  readonly extrapolateAlongNormals = false;
  readonly extraLayers = 0;
  readonly markers = new Markers();
  readonly afterGrid: Stage[] = [];
  readonly afterMove: Stage[] = [];
  private readonly perAxis: number;
  /** Weight of the markers put in less that of the markers sunk (markers that leave the grid are lost, not expected to go). */
  private expectedCount = 0;

  constructor(scene: Scene) {
    this.perAxis = markersPerAxis(scene);
    this.sheets = new MarkerSheets(this.perAxis ** 3);
  }

  liquidCells(sim: GridSimulation): number {
    sim.liquidKeys = this.markers.cellKeys(sim.d, sim.liquidKeys);
    return this.markers.count;
  }

  afterRebuild(): void {}

  addLiquid(sim: GridSimulation, shape: CompiledShape, material: number): void {
    const d = sim.d, inv = 1 / d.h, before = this.markers.count;
    this.markers.seed(d, sim.scene.grid.markersPerCell, shape.bounds, (x, y, z) =>
      shape.sdf(x, y, z) < 0 && sim.solids.solidAt(Math.floor((x - d.origin[0]) * inv), Math.floor((y - d.origin[1]) * inv), Math.floor((z - d.origin[2]) * inv)) < 0, material);
    this.expectedCount += this.markers.count - before;
  }

  initialize(): void {}

  move(sim: GridSimulation, dt: number): void {
    const removed = this.markers.move(sim.store, sim.d, dt);
    // Markers that left the box's margin went out through an open face: taken out, as by a sink.
    this.expectedCount -= this.markers.removedWeight;
    sim.count('markersRemoved', removed);
    if (this.sheets) {
      sim.count('markersSpread', this.sheets.keep(sim.store, sim.d, this.markers));
      sim.count('markersSplit', this.sheets.split);
      sim.count('markersMerged', this.sheets.merged);
      sim.count('markersGathered', this.sheets.gathered);
    }
  }

  /** The sheet rule (marker-sheets.ts): a thin sheet's markers spread over it so that it stays whole; null: off (Cline et al. as written). */
  sheets: MarkerSheets | null;

  /**
   * One marker layer over the spout's face each time the column through it has grown by the layer's
   * volume over the face's area (about d, the marker spacing), moved on by the time it has
   * travelled: a layer of n markers holds n d³, so the spout puts in area × speed × time however
   * coarsely the lattice covers a small face.
   */
  emitSpout(sim: GridSimulation, sp: Spout, dt: number): void {
    const t1 = sim.time + dt;
    if (!(t1 > sp.source.start) || sim.time >= sp.end) return;
    const speed = sp.source.speed, spacing = sim.d.h / this.perAxis;
    const src = sp.source, [e1, e2] = sp.basis;
    const r = src.shape === 'disk' ? src.radius : Math.max(src.size[0], src.size[1]) / 2;
    const m = Math.ceil(r / spacing);
    const area = src.shape === 'disk' ? Math.PI * src.radius * src.radius : src.size[0] * src.size[1];
    sp.layerSize ??= spoutLayerSize(src, spacing, m);
    const interval = (Math.max(1, sp.layerSize) * spacing ** 3) / area / speed;
    while (sp.next < Math.min(t1, sp.end) - 1e-9 * interval) {
      const travelled = Math.max(0, (t1 - sp.next) * speed);
      for (let a = -m; a <= m; a++) {
        for (let c = -m; c <= m; c++) {
          const pa = (a + 0.5) * spacing, pc = (c + 0.5) * spacing;
          const inside = src.shape === 'disk' ? Math.hypot(pa, pc) <= src.radius : Math.abs(pa) <= src.size[0] / 2 && Math.abs(pc) <= src.size[1] / 2;
          if (!inside) continue;
          const x = src.center[0] + pa * e1[0] + pc * e2[0] + travelled * sp.normal[0];
          const y = src.center[1] + pa * e1[1] + pc * e2[1] + travelled * sp.normal[1];
          const z = src.center[2] + pa * e1[2] + pc * e2[2] + travelled * sp.normal[2];
          this.markers.add(x, y, z, sp.material);
          this.expectedCount++;
        }
      }
      // Emission times start + n·d/s, computed (not accumulated) so that no layer is gained to round-off.
      sp.next = sp.source.start + (Math.round((sp.next - sp.source.start) / interval) + 1) * interval;
    }
  }

  sink(sim: GridSimulation, shape: CompiledShape): void {
    const sunk = this.markers.filter((x, y, z) => shape.sdf(x, y, z) >= 0);
    this.expectedCount -= this.markers.removedWeight;
    sim.count('markersSunk', sunk);
  }

  endFrame(): void {}

  /** The markers' weight in each cell over a full cell's (markersPerCell lattice markers). */
  liquidFractions(sim: GridSimulation, out: Float64Array): void {
    const s = sim.store, d = sim.d, inv = 1 / d.h, m = this.markers, per = 1 / this.perAxis ** 3;
    out.fill(0, 0, s.count);
    for (let q = 0; q < m.count; q++) {
      const c = s.find(Math.floor((m.pos[3 * q] - d.origin[0]) * inv), Math.floor((m.pos[3 * q + 1] - d.origin[1]) * inv), Math.floor((m.pos[3 * q + 2] - d.origin[2]) * inv));
      if (c >= 0) out[c] += m.weight[q] * per;
    }
  }

  /** A cell holding a marker is liquid, all of it (the metrics' bounds; the markers' own volume per cell, the metrics' mass: liquidFractions). */
  cellFraction(s: GridStore, c: number): number {
    return s.type[c] === FLUID ? 1 : 0;
  }

  volume(sim: GridSimulation): number {
    const h = sim.d.h, m = this.perAxis;
    return (this.markers.totalWeight() * h * h * h) / (m * m * m);
  }

  expectedVolume(sim: GridSimulation): number {
    const h = sim.d.h, m = this.perAxis;
    return (this.expectedCount * h * h * h) / (m * m * m);
  }

  /** ±h/2 by cell type: the surface is taken on the faces of the liquid cells. */
  cellDistance(sim: GridSimulation, c: number): number {
    return sim.store.type[c] === FLUID ? -0.5 * sim.d.h : 0.5 * sim.d.h;
  }

  signedDistance(sim: GridSimulation, x: number, y: number, z: number): number {
    return this.inLiquid(sim, x, y, z) ? -0.5 * sim.d.h : 0.5 * sim.d.h;
  }

  inLiquid(sim: GridSimulation, x: number, y: number, z: number): boolean {
    const c = cellAt(sim, x, y, z);
    return c >= 0 && sim.store.type[c] === FLUID;
  }

  wetFraction(sim: GridSimulation, p: ArrayLike<number>): number {
    return this.inLiquid(sim, p[0], p[1], p[2]) ? 1 : 0;
  }

  /**
   * φ at each cell centre: the distance to the nearest marker less its radius (half a cell and half
   * a marker spacing; Cline et al. §10 mesh a surface round the markers), in the liquid and air
   * cells and in the cells of objects (solid, not the box's walls). An object's cells are read from
   * the markers too, not left at +band: a coat on a curved body thinner than a cell lies in cells
   * that straddle the body's surface, whose centres are up to a cell from its markers, and the mesh
   * reads φ trilinearly between those centres and the body's; with the body's centres at +band the
   * coat on honey-drop-grid's ball meshed as a net (28–44 % of the rays from the ball open at 1.5 s
   * where the markers' blobs left 3–5 % open), with them read from the markers 2–8 %
   * (bench/grid-coat-holes.ts; docs/decisions.md, "The coat on honey-drop-grid's ball"). The mesher
   * then cuts the drawn φ by the body's exact distance (surface/solid-clip.ts): the coat's inner side
   * lies on the body's surface.
   */
  surfaceJob(sim: GridSimulation, color: [number, number, number]): SurfaceJob {
    const s: GridStore = sim.store, d = sim.d, h = d.h, m = this.markers;
    return surfaceBox(sim, color, (phi, index) => {
      const radius = 0.5 * h + 0.5 * (h / this.perAxis);
      const grid = new HashGrid(h);
      grid.build(m.pos, m.count);
      const near = new Int32Array(27);
      for (let c = 0; c < s.count; c++) {
        if (s.type[c] === SOLID && s.wall[c] !== 0) continue;
        const x = d.origin[0] + h * (s.ci[c] + 0.5), y = d.origin[1] + h * (s.cj[c] + 0.5), z = d.origin[2] + h * (s.ck[c] + 0.5);
        let best = sim.band;
        const nc = grid.cellsNear(x, y, z, near, 1);
        for (let q = 0; q < nc; q++) {
          const cell = near[q];
          for (let t = grid.start[cell]; t < grid.start[cell] + grid.count[cell]; t++) {
            const p = grid.order[t];
            const dist = Math.hypot(m.pos[3 * p] - x, m.pos[3 * p + 1] - y, m.pos[3 * p + 2] - z) - radius;
            if (dist < best) best = dist;
          }
        }
        phi[index(c)] = best;
      }
    });
  }

  save(w: CheckpointWriter): void {
    w.scalar('markers.expected', this.expectedCount);
    // The weights only once a marker has been split: a run that never split one writes what it did before.
    if (this.markers.anySplit()) w.array('markers.weight', this.markers.weight.slice(0, this.markers.count));
  }

  restore(_sim: GridSimulation, r: CheckpointReader): void {
    const m = this.markers;
    if (r.has('markers.weight')) {
      const w = r.finiteArray('markers.weight', Float64Array, m.count);
      for (let q = 0; q < w.length; q++) if (!(w[q] > 0)) throw new CheckpointError(`checkpoint marker weight ${q} is ${w[q]}, not positive`);
      m.weight.set(w);
    }
    // Checkpoints written before the count was kept: the markers present are what is expected.
    this.expectedCount = r.has('markers.expected') ? r.scalar('markers.expected') : m.totalWeight();
  }
}

registerTracker({ name: 'markers', create: (scene) => new MarkerTracker(scene) });

/** Markers in one layer over a spout's face: lattice points (a + ½, c + ½) d inside it. */
function spoutLayerSize(src: Spout['source'], spacing: number, m: number): number {
  let n = 0;
  for (let a = -m; a <= m; a++) {
    for (let c = -m; c <= m; c++) {
      const pa = (a + 0.5) * spacing, pc = (c + 0.5) * spacing;
      if (src.shape === 'disk' ? Math.hypot(pa, pc) <= src.radius : Math.abs(pa) <= src.size[0] / 2 && Math.abs(pc) <= src.size[1] / 2) n++;
    }
  }
  return n;
}
