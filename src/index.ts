/**
 * viscid's public API (DESIGN.md). Isomorphic: runs in Node, in a Web Worker and in tests.
 *
 *   const scene = parseScene(json);
 *   const sim = createSimulation(scene, 'particle');
 *   sim.stepFrame();
 *   const obj = toOBJ(sim.surfaceMesh());
 */
import type { EngineName, Simulation, SimulationOptions } from './api.ts';
import { isParsedScene, privateSceneCopy, type Scene } from './scene/scene.ts';
import { getEngine, sceneFromCheckpoint } from './engines.ts';
import { CheckpointReader } from './io/checkpoint.ts';
export { CheckpointError } from './io/checkpoint.ts';
import './particle/register.ts';
import './grid/register.ts';

export type {
  Bounds,
  EngineName,
  FluidPoints,
  Mesh,
  Metrics,
  Simulation,
  SimulationOptions,
  SolidView,
  StepStats,
} from './api.ts';
export { SimulationError } from './api.ts';
export type { Scene, SceneAssets, TriMesh } from './scene/scene.ts';
export type * from './scene/schema.ts';
export { sceneSchema } from './scene/schema.ts';
export { serializeScene } from './scene/scene.ts';
export { parseScene, SceneError, sceneMeshFiles, formatIssues, type SceneIssue, type ParseOptions } from './scene/parse.ts';
export { estimateScene, type SceneEstimate } from './scene/estimate.ts';
export { parseOBJ, ObjError } from './scene/obj.ts';
export { sceneJsonSchema } from './scene/json-schema.ts';
export { sceneReferenceMarkdown } from './scene/reference.ts';
export { toOBJ, type ObjOptions } from './io/obj.ts';
export { toPLY, pointsToPLY } from './io/ply.ts';
export { toGLB, type GlbOptions } from './io/gltf.ts';
export { toVTK } from './io/vtk.ts';
export { engineNames, ignoredFeatures, registerEngine, type Engine, type IgnoredFeature } from './engines.ts';
export { checkMesh, meshSurfaceJob, particleSurface, levelSetSurface, type MeshReport, type ParticleSurfaceInput, type LevelSetInput, type SurfaceJob } from './surface/index.ts';
export { recordRun, frameRecord, summarizeRun, frontPosition, footprint, type FrameRecord, type RunRecord, type RunSummary, type MeasureOptions } from './compare/metrics.ts';
export { compareEngines, compareScene, type CompareOptions } from './compare/compare.ts';
export { buildReport, runsToCsv, type ComparisonReport } from './compare/report.ts';
export { runValidation, VALIDATION_CASES, type CaseResult, type ValidationCase } from './compare/validate.ts';

/**
 * Creates a simulation of `scene` (made by parseScene) with the named engine ('particle' or
 * 'grid'). The simulation keeps a frozen copy of the scene: changing `scene` afterwards does not
 * change it.
 */
export function createSimulation(scene: Scene, engine: EngineName = 'particle', options: SimulationOptions = {}): Simulation {
  if (!isParsedScene(scene)) {
    throw new TypeError(
      `createSimulation needs a Scene made by parseScene(json), got ${scene === null ? 'null' : Array.isArray(scene) ? 'an array' : typeof scene === 'object' ? 'an object that parseScene did not make (a copy or hand-made JSON)' : typeof scene}: call createSimulation(parseScene(json), …), which validates it and fills in the defaults`,
    );
  }
  return getEngine(engine).create(privateSceneCopy(scene), options);
}

/**
 * Continues a run from `sim.save()` bytes, bit for bit. The bytes are input: their checksum, the
 * scene they hold against its hash label (and `expectSceneHash`, the hash of the scene the caller
 * means to run, if given) and every restored value are checked; a CheckpointError says what is wrong.
 */
export function restoreSimulation(bytes: Uint8Array, options: SimulationOptions & { expectSceneHash?: string } = {}): Simulation {
  const reader = new CheckpointReader(bytes);
  const engine = getEngine(reader.engine);
  const { expectSceneHash, ...rest } = options;
  return engine.restore(sceneFromCheckpoint(reader, expectSceneHash), reader, rest);
}
