/** Viscous blob spreading on a floor (both engines) against Huppert (1982). */
import type { EngineName } from '../../api.ts';
import type { SceneInput } from '../../scene/schema.ts';
import { footprint, lowestPoint } from '../metrics.ts';
import { linePlot } from '../svg-plot.ts';
import { HUPPERT_1982, huppertViscosity } from '../reference/huppert-1982.ts';
import { G, check, fitLine, simulate, stepTo, type ValidationCase } from './case.ts';

export interface SpreadingMeasurement {
  t: number[];
  r: number[];
  volume: number;
  /** d(r⁸)/dt fitted over the late part of the run, m⁸/s. */
  rate8: number;
  /** The kinematic viscosity that rate implies by Huppert's similarity solution, m²/s. */
  nuEffective: number;
  /** R² of the straight-line fit of r⁸ against t (1: exactly Huppert's law). */
  r2: number;
}

/**
 * Fits Huppert's r⁸ = K (t − t0) to a footprint radius history from time `from` on and turns the
 * rate K into the kinematic viscosity it implies.
 */
export function fitSpreading(t: number[], r: number[], volume: number, from: number, g = G): SpreadingMeasurement {
  const ft: number[] = [], fr8: number[] = [];
  for (let i = 0; i < t.length; i++) if (t[i] >= from && Number.isFinite(r[i])) { ft.push(t[i]); fr8.push(r[i] ** 8); }
  const fit = fitLine(ft, fr8);
  return { t, r, volume, rate8: fit.b, nuEffective: huppertViscosity(g, volume, fit.b), r2: fit.r2 };
}

/** Runs a cylinder of liquid slumping on a no-slip floor and fits Huppert's r⁸ ∝ t to its footprint. */
export function measureSpreading(
  engine: EngineName,
  options: {
    nu: number; radius: number; height: number; seconds: number; fps?: number; particleRadius: number; cellSize: number; exchangeRate?: number; fitFrom?: number; substeps?: number;
    tracking?: 'markers' | 'levelset' | 'particle-levelset';
    /** Further particle-engine settings (benchmarks compare density solvers with them). */
    particle?: SceneInput['particle'];
  },
): SpreadingMeasurement {
  const { nu, radius, height, seconds } = options;
  const fps = options.fps ?? 20;
  const frames = Math.round(seconds * fps);
  const half = radius * 3;
  const sim = simulate(engine, {
    name: 'validate-spreading', fps, duration: seconds,
    domain: { min: [-half, 0, -half], max: [half, height * 2, half], boundary: 'noslip', faces: { ymax: 'open' } },
    materials: {
      liquid: {
        kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' },
        ...(options.exchangeRate !== undefined ? { particle: { exchangeRate: options.exchangeRate } } : {}),
      },
    },
    adhesion: [{ between: ['liquid', 'liquid'], type: 'attract', strength: 0 }],
    bodies: [{ material: 'liquid', shape: { type: 'cylinder', center: [0, height / 2, 0], radius, height } }],
    particle: { radius: options.particleRadius, substeps: options.substeps ?? 8, ...options.particle },
    grid: { cellSize: options.cellSize, ...(options.tracking ? { tracking: options.tracking } : {}) },
  });
  try {
    const volume = sim.metrics().fluidVolume;
    const layer = engine === 'particle' ? 2.5 * options.particleRadius : options.cellSize;
    const t: number[] = [], r: number[] = [];
    stepTo(sim, frames, (s) => {
      const pts = s.fluidPoints();
      t.push(s.time);
      r.push(footprint(pts, Math.min(0, lowestPoint(pts, 1)), layer, 1, 0.02).radius);
    });
    return fitSpreading(t, r, volume, options.fitFrom ?? seconds / 3, -sim.scene.gravity[1]);
  } finally {
    sim.dispose();
  }
}

export const spreading: ValidationCase = {
  name: 'spreading',
  title: 'Viscous blob spreading on a floor',
  engines: ['particle', 'grid'],
  source: HUPPERT_1982.source,
  meaning: 'The viscosity a user states is the viscosity they get: the spreading rate of a slumping blob gives the effective ν.',
  run(engine, size, tolerances = size) {
    // Honey-like ν (4e-3 m²/s ≈ 5.7 Pa·s at 1420 kg/m³): slow enough for lubrication theory
    // (Reynolds number ≪ 1). The particle run uses enough substeps for its exchange to reach this
    // ν at all: the exchange saturates at C r² / δt (bench/viscosity-calibration-points.ts). The
    // tiny blob is 9 particles of 1.5 mm thick, as fine as the full one (2 mm particles, 7 thick:
    // ν_eff/ν − 1 = +0.73 with 40 substeps, +0.37 with 48; BENCHMARKS.md).
    const nu = 4e-3;
    const base = size === 'full'
      ? { nu, radius: 0.03, height: 0.02, seconds: 0.8, particleRadius: 0.0015, cellSize: 0.003, substeps: 48, fitFrom: 0.32 }
      : { nu, radius: 0.02, height: 0.014, seconds: 0.5, particleRadius: 0.0015, cellSize: 0.004, substeps: 48, fps: 20, fitFrom: 0.2 };
    // The grid runs with its default surface tracking (checked) and again with marker particles
    // (shown beside it, not checked: a cell holding any marker is liquid to the solver, so a layer
    // a few cells thick flows as if up to a cell deeper and spreads about twice as fast).
    const variants: { label: string; m: SpreadingMeasurement }[] = engine === 'grid'
      ? [
          { label: 'default tracking', m: measureSpreading(engine, base) },
          { label: 'markers', m: measureSpreading(engine, { ...base, tracking: 'markers' }) },
        ]
      : [{ label: '', m: measureSpreading(engine, base) }];
    const tol = tolerances === 'full' ? 0.35 : 0.6;
    const K = (m: SpreadingMeasurement) => (HUPPERT_1982.etaAxisymmetric ** 8 * G * m.volume ** 3) / (3 * nu);
    return {
      checks: variants.filter(({ label }) => label !== 'markers').map(({ label, m }) => check(`ν_effective / ν − 1${label ? ` (${label})` : ''}`, m.nuEffective / nu - 1, tol)),
      detail: variants
        .map(({ label, m }) => `${label ? `${label}${label === 'markers' ? ' (not checked)' : ''}: ` : ''}V = ${m.volume.toExponential(3)} m³, r(end) = ${m.r[m.r.length - 1].toFixed(4)} m, d(r⁸)/dt = ${m.rate8.toExponential(3)} (R² ${m.r2.toFixed(3)}) → ν_eff = ${m.nuEffective.toExponential(3)} m²/s vs ν = ${nu}`)
        .join('; '),
      plot: linePlot({
        title: `Spreading radius (${engine})`, xLabel: 't (s)', yLabel: 'r_N (m)',
        series: [
          ...variants.map(({ label, m }) => ({ name: label ? `${engine}, ${label}` : engine, x: m.t, y: m.r })),
          {
            // Huppert's law from the blob's initial radius at t = 0: r⁸ = R⁸ + K t.
            name: `Huppert 1982, ν = ${nu}`, x: variants[0].m.t, color: '#1a202c', dashed: true,
            y: variants[0].m.t.map((t) => (base.radius ** 8 + K(variants[0].m) * t) ** (1 / 8)),
          },
        ],
      }),
    };
  },
};
