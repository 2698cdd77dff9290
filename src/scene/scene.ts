/**
 * `Scene`: a validated scene (every default filled in) plus what it loaded (mesh files). The loaded
 * assets are a non-enumerable property, so `JSON.stringify(scene)` is the scene file again.
 */
import type { SceneData } from './schema.ts';

/** A triangle soup as loaded from an OBJ file: xyz per vertex, three indices per triangle. */
export interface TriMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

export interface SceneAssets {
  /** OBJ meshes keyed by the `file` string used in the scene. */
  meshes: Record<string, TriMesh>;
}

export type Scene = SceneData & {
  readonly assets: SceneAssets;
  /** Material names in declaration order; `FluidPoints.materials` indexes this list. */
  readonly materialNames: readonly string[];
};

const parsed = new WeakSet<object>();

export function attachAssets(data: SceneData, assets: SceneAssets): Scene {
  const scene = data as Scene;
  Object.defineProperty(scene, 'assets', { value: assets, enumerable: false });
  Object.defineProperty(scene, 'materialNames', { value: Object.keys(data.materials), enumerable: false });
  parsed.add(scene);
  return scene;
}

/** Whether `scene` was made by parseScene (validated, defaults filled in, meshes loaded). */
export function isParsedScene(scene: unknown): scene is Scene {
  return typeof scene === 'object' && scene !== null && parsed.has(scene);
}

/**
 * A simulation's own copy of a parsed scene: changing the caller's Scene after createSimulation
 * changes nothing in the running simulation (the meshes, typed arrays, are shared). Not frozen:
 * the engines' own tests tune a simulation's settings (`sim.scene.particle…`) between stages.
 */
export function privateSceneCopy(scene: Scene): Scene {
  return attachAssets(structuredClone({ ...scene }) as SceneData, scene.assets);
}

/** The scene as JSON text: parsing it again gives an equal scene. */
export function serializeScene(scene: SceneData, space = 2): string {
  return JSON.stringify(scene, null, space);
}
