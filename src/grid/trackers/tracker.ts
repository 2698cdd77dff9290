/**
 * Surface trackers: how the grid engine knows where its liquid is (Cline et al. §3 and §4 step 4,
 * marker particles; §10, level sets; §10.7, the particle level set; Foster & Metaxas 1996 §4.3,
 * a height field). The scene's `grid.tracking` names one; `registerTracker` adds a method under
 * its name (as `registerEngine` does for engines) and `createTracker` builds a simulation's own.
 *
 * A tracker answers every question the rest of the engine asks about the liquid's extent (which
 * cells hold liquid, how much of a cell, whether a point is wet, the surface to mesh) and brings
 * the stages that keep its representation up to date, which `buildPipeline` places in the step.
 */
import type { CheckpointReader, CheckpointWriter } from '../../io/checkpoint.ts';
import type { Scene } from '../../scene/scene.ts';
import type { CompiledShape } from '../../scene/shapes.ts';
import type { SurfaceJob } from '../../surface/index.ts';
import type { Markers } from '../markers.ts';
import type { Stage } from '../pipeline.ts';
import type { Spout } from '../sources.ts';
import type { GridSimulation, PendingLiquid } from '../step.ts';
import type { GridStore } from '../store.ts';

export interface SurfaceTracker {
  readonly name: string;
  /** Layers of cells the tracker needs beyond the buffer zone (a level set's band). */
  readonly extraLayers: number;
  /** Whether φ is a distance the velocity extrapolation can follow along its normals (extrapolate.ts). */
  readonly extrapolateAlongNormals: boolean;
  /** The points `fluidPoints()` shows: the markers themselves, or display points inside the liquid. */
  readonly markers: Markers;
  /** Stages right after the grid update (step 2): redistancing, particle corrections. */
  readonly afterGrid: Stage[];
  /** Stages after the surface moved (step 4). */
  readonly afterMove: Stage[];

  /** Writes the keys of the cells holding liquid into `sim.liquidKeys`; returns how many. */
  liquidCells(sim: GridSimulation): number;
  /** After the grid rebuild: the pending liquid regions and the cell types the tracker decides. */
  afterRebuild(sim: GridSimulation, s: GridStore, pending: readonly PendingLiquid[]): void;
  /** A region of liquid added (initial bodies, blob sources). */
  addLiquid(sim: GridSimulation, shape: CompiledShape, material: number): void;
  /** After the initial liquid is in the grid (not on a restore). */
  initialize(sim: GridSimulation): void;
  /** Step 4: moves the surface through u for Δt. */
  move(sim: GridSimulation, dt: number): void;
  /** Emits what a spout put out during the step ending at sim.time + dt (Cline §5). */
  emitSpout(sim: GridSimulation, sp: Spout, dt: number): void;
  /** Removes the liquid inside a sink region (Cline §5). */
  sink(sim: GridSimulation, shape: CompiledShape): void;
  /** At the end of a frame (display points). */
  endFrame(sim: GridSimulation): void;

  /**
   * The fraction of every cell that holds liquid, into out[c] (markers: their volume in it, which
   * may pass 1 where they crowd); without it, cellFraction cell by cell. The implicit viscosity's
   * no-slip of a film thinner than a cell reads it (viscosity.ts wallDistance).
   */
  liquidFractions?(sim: GridSimulation, out: Float64Array): void;
  /** Fraction of liquid cell c that holds liquid (the metrics' mass weight). */
  cellFraction(s: GridStore, c: number, h: number): number;
  /** Liquid volume, m³. */
  volume(sim: GridSimulation): number;
  /** The volume the liquid should have: what was put in (bodies, blob sources, spouts) less what sinks took, m³. */
  expectedVolume(sim: GridSimulation): number;
  /** Signed distance (or its estimate) at the centre of cell c, m; negative in the liquid. */
  cellDistance(sim: GridSimulation, c: number): number;
  /** Signed distance (or its estimate) at a point, m; negative in the liquid. */
  signedDistance(sim: GridSimulation, x: number, y: number, z: number): number;
  /** Whether a point lies in the liquid. */
  inLiquid(sim: GridSimulation, x: number, y: number, z: number): boolean;
  /** Submerged fraction of a node of thickness `thickness` at p (buoyant bodies). */
  wetFraction(sim: GridSimulation, p: ArrayLike<number>, thickness: number): number;
  /** The surface to mesh: φ on a dense box of the grid's cells, or a mesh. */
  surfaceJob(sim: GridSimulation, color: [number, number, number]): SurfaceJob;

  save(w: CheckpointWriter): void;
  restore(sim: GridSimulation, r: CheckpointReader): void;
}

export interface TrackerFactory {
  name: string;
  /** `inner`: the tracker that decides the cells, for trackers that add an output to another. */
  create(scene: Scene, inner?: SurfaceTracker): SurfaceTracker;
}

const trackers = new Map<string, TrackerFactory>();

export function registerTracker(factory: TrackerFactory): void {
  trackers.set(factory.name, factory);
}

/** A new tracker of the named method for a simulation of `scene`. */
export function createTracker(name: string, scene: Scene, inner?: SurfaceTracker): SurfaceTracker {
  const factory = trackers.get(name);
  if (!factory) throw new Error(`surface tracker '${name}' is not registered (registered: ${[...trackers.keys()].join(', ') || 'none'})`);
  return factory.create(scene, inner);
}

export function trackerNames(): string[] {
  return [...trackers.keys()];
}
