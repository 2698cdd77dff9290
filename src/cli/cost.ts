/**
 * What a frame of a scene will cost, told before it runs (`viscid info`, and the start of
 * `viscid run`): the iteration counts each engine's frame takes, where a cap binds (and what the
 * liquid loses by it), and a rough time a frame. The caps themselves are the engines':
 * MAX_VISCOSITY_SWEEPS (src/particle/calibration.ts), MAX_SUBDIVISION (src/particle/step.ts) and
 * MAX_GRID_STEPS_PER_FRAME (src/scene/checks.ts).
 */
import { estimateScene, type Scene } from '../index.ts';
import { calibratedExchangeRate, kinematicViscosity, MAX_VISCOSITY_SWEEPS, viscositySweeps } from '../particle/calibration.ts';
import { MAX_SUBDIVISION } from '../particle/step.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../scene/checks.ts';
import { fmtDuration, fmtInt } from './format.ts';

/**
 * Nanoseconds one liquid particle costs on one thread of the reference machine (BENCHMARKS.md; the
 * honey drop's stage split, 4 substeps × 8 moves, 6 viscosity sweeps and about 7 density passes a
 * sub-timestep, 9 328 particles, about 200 ms a frame): a sub-timestep's neighbours, adhesion and
 * surface test; one move (accelerate, translate, friction, collisions); one viscosity sweep; one
 * density pass. A prediction within about a factor of two, not a measurement.
 */
export const PARTICLE_NS = { substep: 1500, move: 130, sweep: 200, densityPass: 320 } as const;

/** Density passes a sub-timestep takes in a typical scene (at most particle.densityIterations). */
const TYPICAL_DENSITY_PASSES = 4;

/** A frame over this many seconds is worth a warning before the run starts. */
export const SLOW_FRAME_SECONDS = 10;

export interface ViscosityCost {
  material: string;
  /** Kinematic viscosity asked for, m²/s. */
  viscosity: number;
  /** Sweeps a sub-timestep the exchange needs, and those it gets (at most MAX_VISCOSITY_SWEEPS). */
  sweepsNeeded: number;
  sweeps: number;
}

export interface FrameCost {
  particle: {
    substeps: number;
    moves: number;
    viscosity: ViscosityCost[];
    /** Rough wall time a frame on one thread, s, at the largest liquid particle count. */
    seconds: number;
  };
  grid: {
    /** Steps a frame: at least (grid.maxDt), at most (grid.minDt, or the cap). */
    minSteps: number;
    maxSteps: number;
  };
  /** Sentences for the user: caps that bind, frames that take long. */
  warnings: string[];
}

export function predictFrameCost(scene: Scene): FrameCost {
  const P = scene.particle;
  const dtSub = 1 / (scene.fps * P.substeps);
  const viscosity: ViscosityCost[] = [];
  for (const [name, m] of Object.entries(scene.materials)) {
    if (m.kind !== 'liquid') continue;
    const v = calibratedExchangeRate(m, P.radius, dtSub);
    const needed = viscositySweeps(v, dtSub);
    viscosity.push({ material: name, viscosity: kinematicViscosity(m), sweepsNeeded: needed, sweeps: Math.min(needed, MAX_VISCOSITY_SWEEPS) });
  }
  // The sweeps of a sub-timestep are set by the most viscous liquid present (viscosity.ts).
  const sweeps = viscosity.reduce((s, c) => Math.max(s, c.sweeps), 0);
  const passes = Math.min(P.densityIterations, TYPICAL_DENSITY_PASSES);
  const est = estimateScene(scene);
  const secondsAt = (substeps: number, sweepsPerSubstep: number) =>
    (est.liquidParticles * substeps * (PARTICLE_NS.substep + P.moves * PARTICLE_NS.move + sweepsPerSubstep * PARTICLE_NS.sweep + passes * PARTICLE_NS.densityPass)) / 1e9;
  const seconds = secondsAt(P.substeps, sweeps);

  const frame = 1 / scene.fps;
  const minSteps = Math.min(MAX_GRID_STEPS_PER_FRAME, Math.ceil(frame / scene.grid.maxDt - 1e-9));
  const maxSteps = Math.min(MAX_GRID_STEPS_PER_FRAME, Math.ceil(frame / scene.grid.minDt - 1e-9));

  const warnings: string[] = [];
  // A sub-timestep's sweeps are set by the most viscous liquid, and the cap scales every liquid's
  // exchange alike (viscosity.ts).
  const worst = viscosity.reduce<ViscosityCost | null>((w, c) => (w === null || c.sweepsNeeded > w.sweepsNeeded ? c : w), null);
  if (worst && worst.sweepsNeeded > worst.sweeps) {
    const substeps = Math.ceil((P.substeps * worst.sweepsNeeded) / MAX_VISCOSITY_SWEEPS);
    warnings.push(
      `particle engine: ${worst.material} needs ${fmtInt(worst.sweepsNeeded)} viscosity sweeps a sub-timestep, over the cap of ${MAX_VISCOSITY_SWEEPS}: the liquids run about ${fmtFactor(worst.sweepsNeeded / worst.sweeps)} less viscous than asked (particle.substeps ${fmtInt(substeps)} gives them all of it, at about ${fmtFrameTime(secondsAt(substeps, MAX_VISCOSITY_SWEEPS))} a frame)`,
    );
  }
  if (seconds > SLOW_FRAME_SECONDS) {
    const frames = Math.ceil(scene.duration * scene.fps - 1e-9);
    warnings.push(`particle engine: about ${fmtDuration(seconds)} a frame on one thread (${fmtInt(est.liquidParticles)} liquid particles × ${P.substeps} substeps), ${fmtDuration(seconds * frames)} for ${fmtInt(frames)} frames`);
  }
  if (Math.ceil(frame / scene.grid.minDt - 1e-9) > MAX_GRID_STEPS_PER_FRAME) {
    warnings.push(`grid engine: grid.minDt allows ${fmtInt(Math.ceil(frame / scene.grid.minDt - 1e-9))} steps a frame; a frame takes at most ${fmtInt(MAX_GRID_STEPS_PER_FRAME)}, lengthening its last steps where the CFL condition asks for more`);
  }
  return { particle: { substeps: P.substeps, moves: P.moves, viscosity, seconds }, grid: { minSteps, maxSteps }, warnings };
}

/** A time a frame: `40 ms`, `1.3s`, `2m05s`. */
export function fmtFrameTime(seconds: number): string {
  return seconds < 1 ? `${Math.max(1, Math.round(seconds * 1000))} ms` : fmtDuration(seconds);
}

function fmtFactor(x: number): string {
  return x < 10 ? `${x.toFixed(1)}×` : `${fmtInt(x)}×`;
}

/**
 * What a frame's counters say about caps that bound (StepStats.counters): one sentence per cap,
 * for the run's log.
 */
export function capWarnings(engine: string, counters: Record<string, number>): { key: string; text: string }[] {
  const out: { key: string; text: string }[] = [];
  if (counters.viscositySweepCap) {
    out.push({ key: 'viscositySweepCap', text: `${engine}: the viscosity exchange was capped at ${MAX_VISCOSITY_SWEEPS} sweeps a sub-timestep (${fmtInt(counters.viscositySweepCap)} sweeps left out this frame): the liquid runs less viscous than asked; see viscid info` });
  }
  if (counters.subdivisionCap) {
    out.push({ key: 'subdivisionCap', text: `${engine}: ${fmtInt(counters.subdivisionCap)} sub-timesteps needed more than the ${MAX_SUBDIVISION} pieces the cap allows; particles moved further than particle.maxMove a move (more particle.substeps helps)` });
  }
  if (counters.minDtCap) {
    out.push({ key: 'minDtCap', text: `${engine}: ${fmtInt(counters.minDtCap)} grid steps this frame were taken at grid.minDt, longer than the CFL, viscosity or elasticity limit asked (lower grid.minDt if the liquid misbehaves)` });
  }
  if (counters.stepCap) {
    out.push({ key: 'stepCap', text: `${engine}: the frame needed more than ${fmtInt(MAX_GRID_STEPS_PER_FRAME)} grid steps; its last ${fmtInt(counters.stepCap)} steps were lengthened past the CFL limit (raise grid.minDt, or the liquid is moving too fast)` });
  }
  return out;
}
