/**
 * Per-frame metrics of any Simulation, the same for both engines, so that a particle run and a grid
 * run of one scene can be put side by side (compare report, validation suite, the app's plots).
 *
 * Volume, kinetic energy and density error come from the engine's own `metrics()` (only the engine
 * knows a point's volume and mass); front position and spreading radius are measured here from the
 * fluid points, with the same definition for particles and for grid markers.
 */
import type { Bounds, FluidPoints, Metrics, Simulation, StepStats } from '../api.ts';
import type { Vec3 } from '../scene/schema.ts';
import type { Scene } from '../scene/scene.ts';

export type Axis = 0 | 1 | 2;

export interface FrameRecord {
  frame: number;
  /** Simulated time, s. */
  time: number;
  pointCount: number;
  /** Liquid volume, m³ (engine metric). */
  volume: number;
  /** volume / (initial volume + volume emitted by sources so far); NaN while both are 0. */
  volumeRatio: number;
  centerOfMass: Vec3;
  /** J. */
  kineticEnergy: number;
  /** m/s. */
  maxSpeed: number;
  bounds: Bounds;
  /** Leading edge along the front axis, m (NaN without points). */
  front: number;
  /** Radius of the liquid's footprint on the floor, m (NaN when nothing touches it). */
  spreadRadius: number;
  densityError: number;
  /** Wall time of this frame's step, ms (0 for the initial state). */
  wallMs: number;
  /** Per-stage wall time of this frame, ms. */
  stages: Record<string, number>;
  counters: Record<string, number>;
}

export interface MeasureOptions {
  /** Axis along which the front is measured (default: x). */
  frontAxis?: Axis;
  /** +1: the front is the largest coordinate; −1: the smallest. */
  frontSign?: 1 | -1;
  /**
   * Fraction of points allowed ahead of the reported front (0: the extreme point). A small value
   * (0.01) keeps a few spray droplets from counting as the front.
   */
  frontQuantile?: number;
  /** Height of the floor along the up axis, m (default: the domain floor, else the lowest point). */
  floor?: number;
  /** Points within this distance of the floor count as its footprint, m (default: 3 % of the bounds' height, at least 1e-6). */
  floorLayer?: number;
  /** Fraction of footprint points allowed outside the reported spreading radius (default 0.01). */
  radiusQuantile?: number;
  /** Up axis (default: opposite to the largest gravity component; y when there is no gravity). */
  upAxis?: Axis;
}

/** The axis gravity points along most strongly (the "up" axis), y when gravity is zero. */
export function upAxisOf(gravity: ArrayLike<number>): Axis {
  const ax = Math.abs(gravity[0]), ay = Math.abs(gravity[1]), az = Math.abs(gravity[2]);
  if (ax === 0 && ay === 0 && az === 0) return 1;
  if (ax >= ay && ax >= az) return 0;
  return ay >= az ? 1 : 2;
}

/** The value such that a fraction `q` of `values` lies above it (q = 0: the maximum). Sorts a copy. */
export function upperQuantile(values: Float64Array, q: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  if (!(q > 0)) {
    let m = -Infinity;
    for (let i = 0; i < n; i++) if (values[i] > m) m = values[i];
    return m;
  }
  const sorted = Float64Array.from(values).sort();
  const k = Math.min(n - 1, Math.max(0, Math.ceil((1 - Math.min(q, 1)) * n) - 1));
  return sorted[k];
}

/** Leading edge of the liquid along `axis` in direction `sign`, ignoring a fraction `quantile` of points ahead. */
export function frontPosition(points: FluidPoints, axis: Axis = 0, sign: 1 | -1 = 1, quantile = 0): number {
  const n = points.count;
  const along = new Float64Array(n);
  for (let i = 0; i < n; i++) along[i] = sign * points.positions[3 * i + axis];
  return sign * upperQuantile(along, quantile);
}

/** Lowest coordinate of any point along `axis` (NaN without points). */
export function lowestPoint(points: FluidPoints, axis: Axis): number {
  let m = Infinity;
  for (let i = 0; i < points.count; i++) m = Math.min(m, points.positions[3 * i + axis]);
  return points.count ? m : NaN;
}

export interface Footprint {
  /** Radius of the footprint about its centre, m (NaN when no point is within the layer). */
  radius: number;
  /** Centre of the footprint in the two horizontal axes (the axes other than up, in order). */
  center: [number, number];
  /** Points in the floor layer. */
  count: number;
}

/**
 * The liquid's footprint on a floor: points within `layer` above `floor` (along `up`), their
 * horizontal centroid, and the radius that all but a fraction `quantile` of them lie within.
 * For a viscous blob spreading on a plate this is the nose radius r_N of Huppert (1982).
 */
export function footprint(points: FluidPoints, floor: number, layer: number, up: Axis = 1, quantile = 0.01): Footprint {
  const a = up === 0 ? 1 : 0;
  const b = up === 2 ? 1 : 2;
  const p = points.positions;
  let count = 0, ca = 0, cb = 0;
  for (let i = 0; i < points.count; i++) {
    if (p[3 * i + up] - floor <= layer) {
      count++;
      ca += p[3 * i + a];
      cb += p[3 * i + b];
    }
  }
  if (count === 0) return { radius: NaN, center: [NaN, NaN], count };
  ca /= count;
  cb /= count;
  const dist = new Float64Array(count);
  let k = 0;
  for (let i = 0; i < points.count; i++) {
    if (p[3 * i + up] - floor <= layer) dist[k++] = Math.hypot(p[3 * i + a] - ca, p[3 * i + b] - cb);
  }
  return { radius: upperQuantile(dist, quantile), center: [ca, cb], count };
}

/** Centroid, bounds and largest speed of the points themselves (the engine's `metrics()` weighs by mass). */
export function pointStats(points: FluidPoints): { centroid: Vec3; bounds: Bounds; maxSpeed: number } {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const c: Vec3 = [0, 0, 0];
  let maxSpeed2 = 0;
  const p = points.positions, v = points.velocities;
  for (let i = 0; i < points.count; i++) {
    for (let k = 0; k < 3; k++) {
      const x = p[3 * i + k];
      c[k] += x;
      if (x < min[k]) min[k] = x;
      if (x > max[k]) max[k] = x;
    }
    const s2 = v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2];
    if (s2 > maxSpeed2) maxSpeed2 = s2;
  }
  const n = points.count;
  return {
    centroid: n ? [c[0] / n, c[1] / n, c[2] / n] : [NaN, NaN, NaN],
    bounds: { min, max },
    maxSpeed: Math.sqrt(maxSpeed2),
  };
}

/**
 * Liquid volume the scene's sources have emitted by time t, m³ (area × speed × emitting time; what
 * sinks remove is not counted). Blob sources (liquid bodies with a later start) count from their start.
 */
export function emittedVolume(scene: Pick<Scene, 'sources' | 'duration'>, t: number): number {
  let v = 0;
  for (const s of scene.sources) {
    const end = Math.min(s.end ?? scene.duration, t);
    if (end <= s.start) continue;
    const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
    v += area * s.speed * (end - s.start);
  }
  return v;
}

/** Measure options with the defaults filled in for one simulation's scene. */
export function resolveMeasureOptions(sim: Pick<Simulation, 'scene'>, options: MeasureOptions = {}): Required<Omit<MeasureOptions, 'floor' | 'floorLayer'>> & Pick<MeasureOptions, 'floor' | 'floorLayer'> {
  const up = options.upAxis ?? upAxisOf(sim.scene.gravity);
  const domainFloor = sim.scene.domain ? sim.scene.domain.min[up] : undefined;
  return {
    frontAxis: options.frontAxis ?? (up === 0 ? 1 : 0),
    frontSign: options.frontSign ?? 1,
    frontQuantile: options.frontQuantile ?? 0,
    radiusQuantile: options.radiusQuantile ?? 0.01,
    upAxis: up,
    floor: options.floor ?? domainFloor,
    floorLayer: options.floorLayer,
  };
}

/** One frame's record from an engine's metrics, its fluid points, the frame's step stats and the volume there should be. */
export function frameRecord(
  metrics: Metrics,
  points: FluidPoints,
  stats: Pick<StepStats, 'frame' | 'time' | 'wallMs' | 'stages' | 'counters'>,
  expectedVolume: number,
  options: ReturnType<typeof resolveMeasureOptions>,
): FrameRecord {
  const up = options.upAxis;
  const floor = options.floor ?? lowestPoint(points, up);
  const height = metrics.bounds.max[up] - metrics.bounds.min[up];
  const layer = options.floorLayer ?? Math.max(1e-6, 0.03 * (Number.isFinite(height) ? height : 0));
  return {
    frame: stats.frame,
    time: stats.time,
    pointCount: points.count,
    volume: metrics.fluidVolume,
    volumeRatio: expectedVolume > 0 ? metrics.fluidVolume / expectedVolume : NaN,
    centerOfMass: [...metrics.centerOfMass] as Vec3,
    kineticEnergy: metrics.kineticEnergy,
    maxSpeed: metrics.maxSpeed,
    bounds: { min: [...metrics.bounds.min] as Vec3, max: [...metrics.bounds.max] as Vec3 },
    front: points.count ? frontPosition(points, options.frontAxis, options.frontSign, options.frontQuantile) : NaN,
    spreadRadius: Number.isFinite(floor) ? footprint(points, floor, layer, up, options.radiusQuantile).radius : NaN,
    densityError: metrics.densityError ?? NaN,
    wallMs: stats.wallMs,
    stages: { ...stats.stages },
    counters: { ...stats.counters },
  };
}

export interface RunRecord {
  engine: string;
  scene: string;
  /** Frame 0 is the initial state; frame k follows the k-th `stepFrame`. */
  frames: FrameRecord[];
  initialVolume: number;
  /** Set when the run stopped early; the frames before it are kept. */
  error?: string;
}

/**
 * Steps `sim` for `frames` frames, recording the initial state and every frame. An engine error
 * ends the record early with `error` set instead of losing what was measured.
 */
export function recordRun(
  sim: Simulation,
  frames: number,
  options: MeasureOptions & { onFrame?: (record: FrameRecord, sim: Simulation) => void } = {},
): RunRecord {
  const { run, push } = startRecord(sim, options);
  for (let f = 0; f < frames; f++) {
    let stats: StepStats;
    try {
      stats = sim.stepFrame();
    } catch (e) {
      run.error = (e as Error)?.message ?? String(e);
      break;
    }
    push(stats, sim.metrics());
  }
  return run;
}

/**
 * `recordRun` where a frame is stepped by `step` (asynchronous: the particle engine on WebGPU,
 * whose frames land in `sim`, a host copy that answers the queries; src/gpu/mirror.ts), labelled `engine`.
 */
export async function recordRunAsync(
  sim: Simulation,
  frames: number,
  step: () => Promise<StepStats>,
  engine: string,
  options: MeasureOptions & { onFrame?: (record: FrameRecord, sim: Simulation) => void } = {},
): Promise<RunRecord> {
  const { run, push } = startRecord(sim, options);
  run.engine = engine;
  for (let f = 0; f < frames; f++) {
    let stats: StepStats;
    try {
      stats = await step();
    } catch (e) {
      run.error = (e as Error)?.message ?? String(e);
      break;
    }
    push(stats, sim.metrics());
  }
  return run;
}

/** A run's record with its frame 0, and how each later frame is added. */
function startRecord(
  sim: Simulation,
  options: MeasureOptions & { onFrame?: (record: FrameRecord, sim: Simulation) => void },
): { run: RunRecord; push: (stats: Pick<StepStats, 'frame' | 'time' | 'wallMs' | 'stages' | 'counters'>, metrics: Metrics) => void } {
  const resolved = resolveMeasureOptions(sim, options);
  const m0 = sim.metrics();
  const initialVolume = m0.fluidVolume;
  const run: RunRecord = { engine: sim.engine, scene: sim.scene.name, frames: [], initialVolume };
  const push = (stats: Pick<StepStats, 'frame' | 'time' | 'wallMs' | 'stages' | 'counters'>, metrics: Metrics) => {
    const expected = initialVolume + emittedVolume(sim.scene, stats.time);
    const record = frameRecord(metrics, sim.fluidPoints(), stats, expected, resolved);
    run.frames.push(record);
    options.onFrame?.(record, sim);
  };
  push({ frame: sim.frame, time: sim.time, wallMs: 0, stages: {}, counters: {} }, m0);
  return { run, push };
}

export interface RunSummary {
  engine: string;
  frames: number;
  points: number;
  /** Final volume / expected volume (initial + emitted). */
  finalVolumeRatio: number;
  /** Largest |volume / expected − 1| over the run. */
  maxVolumeDrift: number;
  finalFront: number;
  finalSpreadRadius: number;
  finalKineticEnergy: number;
  peakSpeed: number;
  /** Mean wall time per stepped frame, ms. */
  meanWallMs: number;
  /** Mean wall time per stage per stepped frame, ms. */
  meanStages: Record<string, number>;
  error?: string;
}

export function summarizeRun(run: RunRecord): RunSummary {
  const stepped = run.frames.slice(1);
  const last = run.frames[run.frames.length - 1];
  let drift = 0, peak = 0, wall = 0;
  const stages: Record<string, number> = {};
  for (const f of run.frames) {
    if (Number.isFinite(f.volumeRatio)) drift = Math.max(drift, Math.abs(f.volumeRatio - 1));
    peak = Math.max(peak, f.maxSpeed);
  }
  for (const f of stepped) {
    wall += f.wallMs;
    for (const [k, v] of Object.entries(f.stages)) stages[k] = (stages[k] ?? 0) + v;
  }
  const n = Math.max(1, stepped.length);
  for (const k of Object.keys(stages)) stages[k] /= n;
  return {
    engine: run.engine,
    frames: stepped.length,
    points: last?.pointCount ?? 0,
    finalVolumeRatio: last?.volumeRatio ?? NaN,
    maxVolumeDrift: drift,
    finalFront: last?.front ?? NaN,
    finalSpreadRadius: last?.spreadRadius ?? NaN,
    finalKineticEnergy: last?.kineticEnergy ?? NaN,
    peakSpeed: peak,
    meanWallMs: stepped.length ? wall / n : NaN,
    meanStages: stages,
    ...(run.error !== undefined ? { error: run.error } : {}),
  };
}
