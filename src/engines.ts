/**
 * The engine registry: `createSimulation(scene, name)` looks the name up here. Each engine module
 * registers itself when `src/index.ts` imports it.
 */
import type { EngineName, Simulation, SimulationOptions } from './api.ts';
import { serializeScene, type Scene, type TriMesh } from './scene/scene.ts';
import { parseScene, sceneMeshFiles } from './scene/parse.ts';
import { sceneHash, sceneTextHash } from './scene/hash.ts';
import { CheckpointError, CheckpointWriter, type CheckpointReader } from './io/checkpoint.ts';

/** A feature of a scene that an engine does not honour, named by its JSON path. */
export interface IgnoredFeature {
  /** JSON path such as `bodies[2].motion` or `materials.honey.grid.temperature`. */
  path: string;
  /** What the engine does instead. */
  message: string;
}

export interface Engine {
  name: EngineName;
  create(scene: Scene, options: SimulationOptions): Simulation;
  /** The scene's features this engine ignores, so that tools can say so before a run (none when absent). */
  ignores?(scene: Scene): IgnoredFeature[];
  /** Rebuilds a simulation from the engine's own section of a checkpoint. */
  restore(scene: Scene, checkpoint: CheckpointReader, options: SimulationOptions): Simulation;
}

const engines = new Map<string, Engine>();

export function registerEngine(engine: Engine): void {
  engines.set(engine.name, engine);
}

export function engineNames(): string[] {
  return [...engines.keys()];
}

/**
 * What engine `name` ignores of `scene`: every feature of the scene format either runs in an
 * engine or is listed here, so that `info`, `run`, `compare` and the app can say so.
 */
export function ignoredFeatures(scene: Scene, name: string): IgnoredFeature[] {
  return getEngine(name).ignores?.(scene) ?? [];
}

export function getEngine(name: string): Engine {
  const engine = engines.get(name);
  if (!engine) {
    const known = engineNames();
    throw new Error(
      `engine '${name}' is not registered; registered engines: ${known.length ? known.map((k) => `'${k}'`).join(', ') : 'none'}`,
    );
  }
  return engine;
}

/** A checkpoint writer that already holds the scene and its meshes; the engine adds its state. */
export function startCheckpoint(engine: EngineName, scene: Scene): CheckpointWriter {
  const w = new CheckpointWriter(engine, serializeScene(scene, 0), sceneHash(scene));
  for (const [file, mesh] of Object.entries(scene.assets.meshes)) {
    w.array(`mesh:${file}:positions`, mesh.positions).array(`mesh:${file}:indices`, mesh.indices);
  }
  return w;
}

/**
 * The scene stored in a checkpoint, with its meshes, refused unless its text and meshes, as they were
 * written, hash to the checkpoint's own label (a checkpoint is input: a label and a scene that
 * disagree mean it was damaged or put together by hand) and, with `expectedHash`, it is the scene the
 * caller runs: that hash is the label (as written) or this viscid's hash of the stored scene read
 * under today's schema. The text is checked as written, not re-serialised, because an earlier viscid
 * wrote it without the settings added since (scene/hash.ts); the scene returned is read under today's
 * schema, those settings at their defaults.
 */
export function sceneFromCheckpoint(reader: CheckpointReader, expectedHash?: string): Scene {
  let scene: Scene;
  try {
    scene = parseCheckpointScene(reader);
  } catch (e) {
    throw new CheckpointError(`checkpoint's scene is not a valid scene: ${(e as Error).message}`);
  }
  const written = sceneTextHash(reader.sceneJson, scene.assets.meshes);
  if (written !== reader.sceneHash) throw new CheckpointError(`checkpoint's scene (sha256 ${written.slice(0, 12)}…) is not the one its label names (${reader.sceneHash.slice(0, 12)}…)`);
  if (expectedHash !== undefined && expectedHash !== written && expectedHash !== sceneHash(scene)) {
    throw new CheckpointError(`checkpoint holds another scene (sha256 ${sceneHash(scene).slice(0, 12)}…) than the one to run (${expectedHash.slice(0, 12)}…)`);
  }
  return scene;
}

function parseCheckpointScene(reader: CheckpointReader): Scene {
  const loadedMeshes: Record<string, TriMesh> = {};
  for (const file of sceneMeshFiles(JSON.parse(reader.sceneJson))) {
    loadedMeshes[file] = {
      positions: reader.array(`mesh:${file}:positions`, Float64Array),
      indices: reader.array(`mesh:${file}:indices`, Uint32Array),
    };
  }
  return parseScene(reader.sceneJson, { loadedMeshes });
}

/**
 * Bytes of the typed arrays and bare buffers reachable from `root` (each ArrayBuffer or
 * SharedArrayBuffer counted once, at its full capacity), walking own properties, arrays and Maps;
 * `skip` objects (the scene, its assets) are not entered. Engines report it as Metrics.memoryBytes: what a simulation holds,
 * measured the same way whatever else the process has allocated.
 */
export function heldBytes(root: object, skip: readonly object[] = []): number {
  const seen = new Set<object>(skip);
  const buffers = new Set<ArrayBufferLike>();
  const stack: unknown[] = [root];
  let bytes = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (!buffers.has(v.buffer)) {
        buffers.add(v.buffer);
        bytes += v.buffer.byteLength;
      }
    } else if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer)) {
      if (!buffers.has(v)) {
        buffers.add(v);
        bytes += v.byteLength;
      }
    } else if (Array.isArray(v)) {
      for (const e of v) if (typeof e === 'object' && e !== null) stack.push(e);
    } else if (v instanceof Map) {
      for (const e of v.values()) stack.push(e);
    } else {
      for (const k of Object.keys(v)) {
        const e = (v as Record<string, unknown>)[k];
        if (typeof e === 'object' && e !== null) stack.push(e);
      }
    }
  }
  return bytes;
}
