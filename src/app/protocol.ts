/**
 * Messages between the page and the simulation worker. Frames carry fresh typed arrays that are
 * transferred, never copied, so the page only pays for uploading them to the GPU.
 */
import type { EngineName, Metrics, StepStats } from '../api.ts';
import type { SceneIssue } from '../scene/parse.ts';

export type MeshFormat = 'obj' | 'ply' | 'glb';

/**
 * Threads the engine (particle or grid) runs on: a count, or 'auto' (the scene's `particle.workers` or the
 * machine's default, whichever is more; src/app/threads.ts).
 */
export type Threads = number | 'auto';

/**
 * Where the particle engine steps: 'auto' (WebGPU compute where the browser gives an adapter and
 * the backend runs the scene, else the CPU engine), 'webgpu' (the same; asked for by name) or
 * 'cpu' (the CPU engine: bit-exact runs). src/app/gpu-backend.ts.
 */
export type ParticleBackend = 'auto' | 'webgpu' | 'cpu';

/** Where a scene's frames are stepped, with a short line for the overlay: the GPU adapter, or why the CPU engine runs it. */
export interface BackendInfo {
  name: 'cpu' | 'webgpu';
  /** The adapter on WebGPU; on the CPU why WebGPU is not used (empty for the grid engine). */
  note: string;
}

/** What the worker computes per frame besides stepping (meshing is the expensive part). */
export interface FrameOptions {
  mesh: boolean;
  points: boolean;
  /** Velocity debug: segments sampled with `velocityAt` on a coarse lattice. */
  velocity: boolean;
  /** Grid debug: outlines of the cells that hold marker particles (grid engine). */
  cells: boolean;
  /** Grid smoke: the cells holding smoke with their density (when the engine reports densities). */
  smoke?: boolean;
}

/**
 * A client (client.ts) loads its scene into a worker that runs nothing (a spare, or one reset): a
 * load never waits behind a frame that is still computing. A client done with its worker sends
 * 'reset' and hands it back to the page's pool, which reuses it once it has answered 'reset' and
 * terminates it if the answer is late (a frame under way).
 */
export type ToWorker =
  /**
   * With `keepRunning` the page still shows another scene, which goes on if this one is refused:
   * an engine that cannot create the simulation then answers 'sceneError' like a bad scene.
   * Without it (nothing else to show) the worker reports 'loaded' and then the 'error'.
   */
  | { type: 'load'; id: number; sceneText: string; meshes: Record<string, string>; engine: EngineName; threads?: Threads; backend?: ParticleBackend; keepRunning?: boolean }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'step' }
  | { type: 'options'; options: FrameOptions }
  | { type: 'export'; id: number; format: MeshFormat }
  /** Starts recording each new frame's mesh ('recorded' per frame), or stops ('recordStopped' once all are out). */
  | { type: 'record'; id: number; on: boolean; format: MeshFormat }
  /** Ends the scene (its simulation disposed, nothing more posted for it) and answers 'reset': the worker is then as a fresh one. */
  | { type: 'reset' };

export interface MaterialInfo {
  name: string;
  kind: 'liquid' | 'solid';
  /** Linear RGB. */
  color: [number, number, number];
}

export interface SolidInfo {
  name: string;
  color: [number, number, number];
  positions: Float32Array;
  normals: Float32Array;
  indices: Uint32Array;
}

export interface MeshData {
  positions: Float32Array;
  normals: Float32Array;
  colors?: Float32Array;
  indices: Uint32Array;
  /** Winding of outward-facing triangles, measured against the vertex normals. */
  frontFace: 'ccw' | 'cw';
  /** Triangles of the engine's mesh; `indices` may hold fewer (simplified for display). */
  fullTriangles: number;
}

export interface FramePoints {
  /** Points sent (every k-th when there are very many). */
  count: number;
  /** Points the engine has. */
  total: number;
  positions: Float32Array;
  /** Per point: material index, surface flag (0/1, or −1 unknown), speed m/s. */
  aux: Float32Array;
}

export interface FrameSmoke {
  count: number;
  /** Cell centres, xyz. */
  positions: Float32Array;
  /** Smoke density per cell (about 0..1). */
  density: Float32Array;
  /** The grid's cell size, m: the size of each splat. */
  cellSize: number;
}

export interface FrameMessage {
  type: 'frame';
  engine: EngineName;
  frame: number;
  time: number;
  playing: boolean;
  /** The scene's duration is reached: playing stops here (play again starts it over). */
  finished: boolean;
  /** Step wall time split by stage, plus 'surface mesh' when the worker built one. */
  stats: StepStats | null;
  meshMs: number;
  metrics: Metrics | null;
  points: FramePoints | null;
  mesh: MeshData | null;
  /** 16 floats per solid, column-major, in the order of `loaded.solids`. */
  transforms: Float32Array;
  /** xyz xyz per velocity segment. */
  velocityLines: Float32Array | null;
  /** xyz xyz per edge of each liquid cell (grid engine, when asked for). */
  cellLines: Float32Array | null;
  /** Smoke density splats (grid smoke), when asked for. */
  smoke?: FrameSmoke | null;
}

export type FromWorker =
  | {
      type: 'loaded';
      id: number;
      engine: EngineName;
      /** The scene's name (`name`, or the file's). */
      sceneName: string;
      /** The full scene (defaults filled), as JSON text. */
      sceneJson: string;
      /** Frames of the whole scene (duration × fps). */
      frames: number;
      /** The scene has sources (they add liquid) and sinks (they take it away). */
      sources: boolean;
      sinks: boolean;
      /**
       * What the scene adds after t = 0, for the volume account of an engine that keeps none (the
       * particle engine): liquid bodies with a start time (m³, at that time) and spouts (m³/s
       * from start to end).
       */
      inflow: { bodies: { start: number; volume: number }[]; spouts: { start: number; end: number; rate: number }[] };
      /** The grid engine shows smoke (grid.smoke), not a liquid. */
      smoke: boolean;
      materials: MaterialInfo[];
      domain: { min: [number, number, number]; max: [number, number, number] } | null;
      /** Bounds to frame the camera on. */
      view: { min: [number, number, number]; max: [number, number, number] };
      particleRadius: number;
      solids: SolidInfo[];
      /** Engines this worker knows. */
      engines: string[];
      /** Where its frames are stepped (the particle engine on WebGPU or on the CPU). */
      backend: BackendInfo;
      /** The scene's features this engine ignores, with their JSON paths (engines.ts ignoredFeatures). */
      ignored: { path: string; message: string }[];
    }
  | { type: 'sceneError'; id: number; message: string; issues: SceneIssue[] }
  | { type: 'error'; message: string; stage?: string; frame?: number }
  | FrameMessage
  /** The mesh of `frame`, encoded. */
  | { type: 'export'; id: number; format: MeshFormat; frame: number; bytes: Uint8Array | null; error?: string }
  /** One recorded frame's mesh, named as `viscid run` names it (`mesh-0052.obj`). */
  | { type: 'recorded'; file: string; bytes: Uint8Array }
  | { type: 'recordStopped'; id: number }
  /** The answer to 'reset': every message of the scene before came first, none comes after. */
  | { type: 'reset' };
