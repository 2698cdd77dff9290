/**
 * Measures one benchmark scene: wall time per frame (after a warm-up), the engine's per-stage
 * split, point-substeps per second, and memory per point (liquid and object points): the typed
 * arrays the engine holds (Metrics.memoryBytes), or where it reports none the growth of the JS heap
 * plus ArrayBuffer memory while the simulation is created and warmed up.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSimulation, type EngineName, type Scene, type SimulationOptions } from '../index.ts';
import type { PaperFigures } from './bench-scenes.ts';

export interface BenchResult {
  engine: EngineName;
  scene: string;
  name: string;
  frames: number;
  warmup: number;
  msPerFrame: { mean: number; median: number; min: number; max: number };
  /** Mean ms per timed frame, per stage, in the engine's order. */
  stages: Record<string, number>;
  /** Fluid points (liquid particles or grid markers) at the end. */
  points: number;
  /** Object (solid) particles, when the engine reports `counters.objectParticles`. */
  objectPoints: number;
  /** Mean of the engine's StepStats.counters over the timed frames. */
  counters: Record<string, number>;
  substepsPerFrame: number;
  /** (points + object points) × substeps per frame ÷ seconds per frame, like the paper's counts. */
  pointSubstepsPerSecond: number;
  memory: { bytes: number; bytesPerPoint: number };
  /** Threads the engine ran on (StepStats counters.threads; 1 without a team). */
  threads: number;
  paper?: PaperFigures;
}

let gcFunction: (() => void) | null | undefined;
/** A full garbage collection when V8 lets us have one, so heap deltas mean something. */
function collectGarbage(): void {
  if (gcFunction === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFunction = runInNewContext('gc') as () => void;
    } catch {
      gcFunction = null;
    }
  }
  gcFunction?.();
}

function usedBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export interface BenchOptions extends SimulationOptions {
  frames: number;
  warmup: number;
  /** Called after every frame, warm-up included. */
  onFrame?: (frame: number, total: number, ms: number) => void;
}

export function benchScene(scene: Scene, sceneFile: string, engine: EngineName, options: BenchOptions, paper?: PaperFigures): BenchResult {
  collectGarbage();
  const before = usedBytes();
  const sim = createSimulation(scene, engine, {
    ...(options.workers ? { workers: options.workers } : {}),
    ...(options.spawnThread ? { spawnThread: options.spawnThread } : {}),
  });
  try {
    const total = options.warmup + options.frames;
    for (let i = 0; i < options.warmup; i++) {
      const stats = sim.stepFrame();
      options.onFrame?.(i + 1, total, stats.wallMs);
    }
    // No collection here: a full collection of the warmed-up heap leaves the collector busy
    // through the timed frames (paint drops, frames 23-25: 63 -> 69 ms/frame, CPU 63 -> 89 on two
    // cores). The heap is measured after them, and only for engines that do not count their bytes.
    let held = sim.metrics().memoryBytes ?? 0;
    const times: number[] = [];
    const stages: Record<string, number> = {};
    const counters: Record<string, number> = {};
    for (let i = 0; i < options.frames; i++) {
      const t0 = performance.now();
      const stats = sim.stepFrame();
      const ms = performance.now() - t0;
      times.push(ms);
      for (const [k, v] of Object.entries(stats.stages)) stages[k] = (stages[k] ?? 0) + v / options.frames;
      for (const [k, v] of Object.entries(stats.counters)) counters[k] = (counters[k] ?? 0) + v / options.frames;
      options.onFrame?.(options.warmup + i + 1, total, ms);
      held = Math.max(held, sim.metrics().memoryBytes ?? 0);
    }
    // The engine's own count of its typed arrays (Metrics.memoryBytes, the most over the timed
    // frames) where it reports one; the process's heap growth otherwise (noisy: garbage of earlier
    // runs, lazily freed buffers).
    let bytes = held;
    if (bytes <= 0) {
      collectGarbage();
      bytes = usedBytes() - before;
    }
    const points = sim.fluidPoints().count;
    const objectPoints = Math.round(counters.objectParticles ?? 0);
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    const substepsPerFrame = counters.substeps ?? counters.steps ?? (engine === 'particle' ? scene.particle.substeps : 1);
    return {
      engine,
      scene: sceneFile,
      name: scene.name,
      frames: options.frames,
      warmup: options.warmup,
      msPerFrame: { mean, median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] },
      stages,
      points,
      counters,
      substepsPerFrame,
      objectPoints,
      pointSubstepsPerSecond: mean > 0 ? ((points + objectPoints) * substepsPerFrame) / (mean / 1000) : 0,
      memory: { bytes, bytesPerPoint: points + objectPoints > 0 ? bytes / (points + objectPoints) : 0 },
      threads: Math.round(counters.threads ?? 1),
      ...(paper ? { paper } : {}),
    };
  } finally {
    sim.dispose();
  }
}
