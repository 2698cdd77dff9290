/**
 * Measuring the particle engine's viscosity: which kinematic viscosity ν does a momentum-exchange
 * rate v (Steele §3.2) actually produce? The mapping ν -> v itself lives in
 * src/particle/calibration.ts; this module measures it, and run as a script it repeats the
 * measurements behind bench/viscosity-calibration-points.ts and fits the model to them:
 *   npx tsx bench/viscosity-calibration.ts
 *
 * Measurement: a free block of liquid in zero gravity, `layers` particle layers thick (H = 2r ·
 * layers), starts with the shear velocity u_x = U cos(π (y − y0) / H). With stress-free top and
 * bottom this is the slowest Neumann mode of the momentum diffusion u_t = ν u_yy, so its amplitude
 * decays as exp(−ν π² t / H²). Fitting the decay rate λ of the projection of the particles' u_x
 * onto the mode gives ν = λ H² / π².
 *
 * Model fitted to the measurements: the exchange moves a fraction a = 1 − exp(−v δt) of each
 * difference per sub-timestep δt, so the effective exchange rate per second is a / δt and
 *     ν(v) = ν0 + C r² (1 − exp(−v δt)) / δt,
 * with C dimensionless (for a given kernel support) and ν0 the numerical viscosity of the rest of
 * the step. It saturates at ν_max = ν0 + C r² / δt: a larger ν cannot be reached with that radius
 * and sub-timestep.
 */
import { pathToFileURL } from 'node:url';
import { createSimulation, parseScene, type EngineName, type SceneInput } from '../src/index.ts';
import { fitLine } from '../src/compare/validate.ts';
import { PARTICLE_VISCOSITY_MODEL } from './viscosity-calibration-points.ts';

export interface ShearDecayOptions {
  exchangeRate: number;
  /** Particle radius r, m (default 0.002). */
  radius?: number;
  /** Particle layers across the block (default 10). */
  layers?: number;
  /** Particles along x and z (default 8). */
  lateral?: number;
  fps?: number;
  substeps?: number;
  moves?: number;
  kernelSupport?: number;
  /**
   * Initial shear amplitude U, m/s (default 0.002). Small on purpose: once the shear has stretched
   * the block enough for density correction to act, the particle engine's density correction
   * damps the flow far more strongly than the exchange does (see the calibration report).
   */
  amplitude?: number;
  /** Largest number of frames; the run stops earlier once the amplitude is below `stopAt` of its start. */
  maxFrames?: number;
  stopAt?: number;
  engine?: EngineName;
}

export interface ShearDecayPoint {
  exchangeRate: number;
  radius: number;
  kernelSupport: number;
  /** Sub-timestep δt = 1 / (fps · substeps), s. */
  dt: number;
  /** Measured kinematic viscosity, m²/s. */
  nu: number;
  /** Fitted decay rate λ, 1/s, and the R² of the log-linear fit. */
  decayRate: number;
  r2: number;
  frames: number;
}

/** Amplitude of u_x on the mode cos(π (y − y0)/H), by least squares over the points. */
export function modeAmplitude(positions: Float32Array, velocities: Float32Array, count: number, y0: number, H: number): number {
  let num = 0, den = 0;
  for (let i = 0; i < count; i++) {
    const phi = Math.cos((Math.PI * (positions[3 * i + 1] - y0)) / H);
    num += velocities[3 * i] * phi;
    den += phi * phi;
  }
  return den > 0 ? num / den : NaN;
}

/** The scene of a shear-decay measurement: one box per particle layer, each with its velocity. */
export function shearDecayScene(o: Required<Omit<ShearDecayOptions, 'engine' | 'maxFrames' | 'stopAt'>>, frames: number): SceneInput {
  const r = o.radius, s = 2 * r;
  const width = o.lateral * s;
  const bodies: NonNullable<SceneInput['bodies']> = [];
  for (let j = 0; j < o.layers; j++) {
    // Layer j is centred on lattice row y = s·j, so the 2r lattice of the particle engine puts
    // exactly one row of particles in it (lattice points on a box face are outside).
    const u = o.amplitude * Math.cos((Math.PI * (j + 0.5)) / o.layers);
    bodies.push({
      material: 'liquid',
      shape: { type: 'box', center: [0, s * j, 0], size: [width, s, width] },
      velocity: [u, 0, 0],
    });
  }
  return {
    name: 'calibration-shear-decay', fps: o.fps, duration: frames / o.fps, gravity: [0, 0, 0],
    materials: {
      liquid: {
        kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' },
        particle: { exchangeRate: o.exchangeRate, kernelSupport: o.kernelSupport },
      },
    },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies,
    particle: { radius: r, substeps: o.substeps, moves: o.moves, viscositySolver: 'exchange' },
  };
}

/** Measures the kinematic viscosity a given exchange rate produces (see the file comment). */
export function measureShearDecay(options: ShearDecayOptions): ShearDecayPoint {
  const o = {
    exchangeRate: options.exchangeRate,
    radius: options.radius ?? 0.002,
    layers: options.layers ?? 10,
    lateral: options.lateral ?? 8,
    fps: options.fps ?? 30,
    substeps: options.substeps ?? 4,
    moves: options.moves ?? 6,
    kernelSupport: options.kernelSupport ?? 5,
    amplitude: options.amplitude ?? 0.002,
  };
  const maxFrames = options.maxFrames ?? 12;
  const stopAt = options.stopAt ?? 0.4;
  const sim = createSimulation(parseScene(shearDecayScene(o, maxFrames)), options.engine ?? 'particle', {});
  try {
    const s = 2 * o.radius;
    const y0 = -0.5 * s, H = o.layers * s;
    const amp = () => {
      const p = sim.fluidPoints();
      return modeAmplitude(p.positions, p.velocities, p.count, y0, H);
    };
    const t: number[] = [0], a: number[] = [amp()];
    for (let f = 0; f < maxFrames; f++) {
      sim.stepFrame();
      t.push(sim.time);
      a.push(amp());
      if (!(a[a.length - 1] > stopAt * a[0])) break;
    }
    const lt: number[] = [], la: number[] = [];
    for (let i = 0; i < t.length; i++) if (a[i] > 0.05 * a[0]) { lt.push(t[i]); la.push(Math.log(a[i])); }
    const fit = fitLine(lt, la);
    const decayRate = -fit.b;
    return {
      exchangeRate: o.exchangeRate, radius: o.radius, kernelSupport: o.kernelSupport,
      dt: 1 / (o.fps * o.substeps), nu: (decayRate * H * H) / (Math.PI * Math.PI), decayRate, r2: fit.r2, frames: t.length - 1,
    };
  } finally {
    sim.dispose();
  }
}

/** C of the fitted model for a kernel support (linear between the measured supports, ∝ ks² outside). */
export function calibratedC(kernelSupport: number): number {
  const { kernelSupport: ks, C } = PARTICLE_VISCOSITY_MODEL;
  if (kernelSupport <= ks[0]) return C[0] * (kernelSupport / ks[0]) ** 2;
  for (let i = 1; i < ks.length; i++) {
    if (kernelSupport <= ks[i]) return C[i - 1] + ((kernelSupport - ks[i - 1]) / (ks[i] - ks[i - 1])) * (C[i] - C[i - 1]);
  }
  return C[C.length - 1] * (kernelSupport / ks[ks.length - 1]) ** 2;
}

/** ν (m²/s) that exchange rate v produces with radius r, sub-timestep δt and kernel support ks. */
export function viscosityFromExchange(v: number, r: number, dt: number, kernelSupport = 5): number {
  return PARTICLE_VISCOSITY_MODEL.nu0 + (calibratedC(kernelSupport) * r * r * -Math.expm1(-v * dt)) / dt;
}

/** The largest ν the exchange can reach with this radius and sub-timestep (v → ∞). */
export function maxExchangeViscosity(r: number, dt: number, kernelSupport = 5): number {
  return PARTICLE_VISCOSITY_MODEL.nu0 + (calibratedC(kernelSupport) * r * r) / dt;
}

/** The exchange rate v (1/s) giving ν; Infinity when ν ≥ maxExchangeViscosity (the exchange saturates). */
export function exchangeFromViscosity(nu: number, r: number, dt: number, kernelSupport = 5): number {
  const x = ((nu - PARTICLE_VISCOSITY_MODEL.nu0) * dt) / (calibratedC(kernelSupport) * r * r);
  if (x <= 0) return 0;
  if (x >= 1) return Infinity;
  return -Math.log1p(-x) / dt;
}

/**
 * Fits C of ν = C r² (1 − e^{−v δt}) / δt to measured points of one kernel support, minimizing the
 * relative error (points with ν = 0 are skipped), and reports the largest relative deviation.
 */
export function fitExchangeModel(points: readonly Pick<ShearDecayPoint, 'exchangeRate' | 'radius' | 'dt' | 'nu'>[]): { C: number; maxRelativeError: number } {
  const used = points.filter((p) => p.nu > 0 && p.exchangeRate > 0);
  const ratios = used.map((p) => p.nu / ((p.radius * p.radius * -Math.expm1(-p.exchangeRate * p.dt)) / p.dt));
  // Minimizes Σ (C/ρ_i − 1)²: C = Σ(1/ρ) / Σ(1/ρ²).
  const C = ratios.reduce((s, q) => s + 1 / q, 0) / ratios.reduce((s, q) => s + 1 / (q * q), 0);
  const maxRelativeError = Math.max(...ratios.map((q) => Math.abs(C / q - 1)));
  return { C, maxRelativeError };
}

/** The standard set of measurements behind viscosity-calibration-points.ts. */
export const CALIBRATION_PLAN: readonly ShearDecayOptions[] = [
  ...[0, 3, 10, 30, 100, 300, 1000, 3000].map((exchangeRate) => ({ exchangeRate })),
  // Scale checks: another radius, another sub-timestep, another kernel support.
  { exchangeRate: 100, radius: 0.004 },
  { exchangeRate: 300, substeps: 8 },
  { exchangeRate: 100, kernelSupport: 4 },
  { exchangeRate: 100, kernelSupport: 6 },
];

export function measureCalibrationPoints(plan: readonly ShearDecayOptions[] = CALIBRATION_PLAN, onPoint?: (p: ShearDecayPoint) => void): ShearDecayPoint[] {
  return plan.map((o) => {
    const p = measureShearDecay(o);
    onPoint?.(p);
    return p;
  });
}

/** The script: every point of the plan, then the fitted C per kernel support beside the stored one. */
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const points = measureCalibrationPoints(CALIBRATION_PLAN, (p) =>
    console.log(`v = ${p.exchangeRate} /s, r = ${p.radius} m, δt = ${p.dt.toPrecision(4)} s, ks = ${p.kernelSupport}: ν = ${p.nu.toPrecision(5)} m²/s (R² ${p.r2.toFixed(6)}, ${p.frames} frames)`),
  );
  for (const [i, ks] of PARTICLE_VISCOSITY_MODEL.kernelSupport.entries()) {
    const fit = fitExchangeModel(points.filter((p) => p.kernelSupport === ks));
    console.log(`ks = ${ks}: C = ${fit.C.toFixed(4)} (stored ${PARTICLE_VISCOSITY_MODEL.C[i]}), largest deviation ${(100 * fit.maxRelativeError).toFixed(1)} %`);
  }
}
