/**
 * Runs one scene in several engines and records the same metrics for each: the core of
 * `viscid compare` and of the app's comparison view.
 */
import type { EngineName, Simulation, SimulationOptions } from '../api.ts';
import type { Scene } from '../scene/scene.ts';
import { engineNames, getEngine } from '../engines.ts';
import { recordRun, type FrameRecord, type MeasureOptions, type RunRecord } from './metrics.ts';
import { buildReport, type ComparisonReport } from './report.ts';

export interface CompareOptions extends MeasureOptions {
  /** Engines to run (default: every registered engine, particle first). */
  engines?: EngineName[];
  /** Frames per engine (default: the scene's duration × fps). */
  frames?: number;
  simulation?: SimulationOptions;
  /** Builds the simulation of an engine (default: the registered engine's `create`). */
  create?: (engine: EngineName, scene: Scene) => Simulation;
  /** Called after each recorded frame (progress bars). */
  onFrame?: (engine: EngineName, record: FrameRecord, sim: Simulation) => void;
}

export function defaultFrames(scene: Scene): number {
  return Math.max(1, Math.round(scene.duration * scene.fps));
}

/** Engines a comparison uses when none are named: those registered, particle before grid. */
export function defaultEngines(): EngineName[] {
  const known = engineNames();
  return (['particle', 'grid'] as const).filter((e) => known.includes(e));
}

/** Records `frames` frames of `scene` in each engine, one after the other. */
export function compareEngines(scene: Scene, options: CompareOptions = {}): RunRecord[] {
  const engines = options.engines ?? defaultEngines();
  if (options.create === undefined) for (const e of engines) getEngine(e); // unknown names fail before any run
  if (engines.length === 0) throw new Error('no engine is registered to compare');
  const frames = options.frames ?? defaultFrames(scene);
  const runs: RunRecord[] = [];
  for (const engine of engines) {
    let sim: Simulation;
    try {
      sim = options.create ? options.create(engine, scene) : getEngine(engine).create(scene, options.simulation ?? {});
    } catch (e) {
      // An engine that cannot run the scene at all is reported, not fatal to the comparison.
      runs.push({ engine, scene: scene.name, frames: [], initialVolume: NaN, error: `could not start: ${(e as Error)?.message ?? String(e)}` });
      continue;
    }
    try {
      runs.push(
        recordRun(sim, frames, {
          ...options,
          onFrame: options.onFrame ? (record, s) => options.onFrame!(engine, record, s) : undefined,
        }),
      );
    } finally {
      sim.dispose();
    }
  }
  return runs;
}

/** `compareEngines` plus the report built from its runs. */
export function compareScene(scene: Scene, options: CompareOptions = {}): { runs: RunRecord[]; report: ComparisonReport } {
  const runs = compareEngines(scene, options);
  return { runs, report: comparisonReport(scene, runs, options.frontAxis ?? 0) };
}

/** The report of a comparison's runs (those of compareEngines, and any recorded beside them). */
export function comparisonReport(scene: Scene, runs: RunRecord[], frontAxis: number): ComparisonReport {
  const axisName = 'xyz'[frontAxis];
  return buildReport({
    title: `viscid compare: ${scene.name}`,
    description: scene.description,
    runs,
    frontAxisName: axisName,
    csvName: 'metrics.csv',
    notes: [
      `${runs[0]?.frames.length ? runs[0].frames.length - 1 : 0} frames at ${scene.fps} fps; particle radius ${scene.particle.radius} m, grid cell ${scene.grid.cellSize} m.`,
    ],
  });
}
