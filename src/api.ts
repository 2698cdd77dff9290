/**
 * The types every engine implements and every consumer (app, CLI, compare, tests) relies on.
 * Names follow DESIGN.md's public API; `src/index.ts` re-exports them.
 */
import type { Scene } from './scene/scene.ts';
import type { Vec3 } from './scene/schema.ts';
import type { SpawnThread } from './parallel/team.ts';
import type { SurfaceJob } from './surface/job.ts';
import type { FluidPoints, Mesh } from './types/geometry.ts';

export type { FluidPoints, Mesh } from './types/geometry.ts';

export type EngineName = 'particle' | 'grid';

/** Returned by `stepFrame`: wall time in milliseconds, split by stage in paper order. */
export interface StepStats {
  frame: number;
  time: number;
  wallMs: number;
  /** Stage name -> milliseconds spent in it during this frame. */
  stages: Record<string, number>;
  /** Engine-specific counters: substeps taken, density passes, solver iterations… */
  counters: Record<string, number>;
}

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

export interface Metrics {
  /** Liquid volume, m³. */
  fluidVolume: number;
  centerOfMass: Vec3;
  /** J. */
  kineticEnergy: number;
  /** kg·m/s. */
  momentum: Vec3;
  /** m/s. */
  maxSpeed: number;
  bounds: Bounds;
  /** Mean relative density error |ρ − ρ0| / ρ0 after correction (particle engine). */
  densityError?: number;
  /** Particles (particle engine) or markers (grid engine). */
  pointCount: number;
  /** Liquid cells (grid engine). */
  cellCount?: number;
  /** Liquid volume put in (bodies, blob sources, spouts) less what sinks removed, m³ (grid engine). */
  volumeExpected?: number;
  /** fluidVolume / volumeExpected − 1: liquid the method gained (> 0) or lost (< 0) (grid engine). */
  volumeChange?: number;
  /** True when no liquid is left (drained or removed): centre of mass and bounds are then zero. */
  liquidGone?: boolean;
  /**
   * Bytes of the typed arrays the simulation holds (particles, cells, neighbour lists, scratch), at
   * their allocated capacity; JS object overhead is not counted.
   */
  memoryBytes?: number;
}

/** A solid object as the renderer draws it: a rest-pose mesh and the current rigid transform. */
export interface SolidView {
  name: string;
  color: [number, number, number];
  mesh: Mesh;
  /** Column-major 4×4 matrix taking rest-pose points to their current place. */
  transform: Float32Array;
}

export interface Simulation {
  readonly engine: EngineName;
  readonly scene: Scene;
  /** Simulated time, s. */
  readonly time: number;
  /** Frames completed. */
  readonly frame: number;
  /** Advance one frame (1/scene.fps). */
  stepFrame(): StepStats;
  fluidPoints(): FluidPoints;
  /** Fluid velocity at a point, m/s (grid: MAC interpolation; particle: kernel average). */
  velocityAt(p: ArrayLike<number>): Vec3;
  surfaceMesh(): Mesh;
  /**
   * What surfaceMesh() meshes, as plain data another thread can mesh with meshSurfaceJob (the same
   * mesh, bit for bit); absent where an engine cannot hand its surface over.
   */
  surfaceJob?(): SurfaceJob;
  metrics(): Metrics;
  /** Solid objects in their current pose. */
  solids(): SolidView[];
  /** A checkpoint; `restoreSimulation(bytes)` continues bit for bit. */
  save(): Uint8Array;
  /** Releases worker threads, if any. */
  dispose(): void;
  /**
   * Resolves when the worker threads, if any, have started. A browser worker must await it before
   * the first `stepFrame` (a nested Web Worker starts only once its creator yields); Node may skip it.
   */
  ready?(): Promise<void>;
}

export interface SimulationOptions {
  /** Worker threads (overrides the scene's `particle.workers`). */
  workers?: number;
  /**
   * Starts one worker thread of a team (src/parallel/team.ts). The core cannot create threads, so
   * the platform passes its own: `spawnNodeThread` (src/cli/threads.ts, Node worker_threads) or
   * `spawnBrowserThread` (src/app/threads.ts, Web Workers). Without it, or without shared memory
   * (a browser page that is not cross-origin isolated), the engine runs on one thread whatever
   * `workers` says; `StepStats.counters.threads` tells how many it uses.
   */
  spawnThread?: SpawnThread;
}

/** Thrown when a run cannot go on: names the stage, the frame and the point or cell at fault. */
export class SimulationError extends Error {
  override name = 'SimulationError';
  constructor(
    message: string,
    readonly stage: string,
    readonly frame: number,
    readonly index?: number,
  ) {
    super(message);
  }
}
