/**
 * Measured: the kinematic viscosity the particle engine's momentum exchange (Steele §3.2) produces
 * for a given exchange rate v, particle radius r, sub-timestep δt and kernel support.
 *
 * Source: our own measurement, `measureCalibrationPoints()` in bench/viscosity-calibration.ts
 * (decay of the slowest shear mode of a free 10-layer block in zero gravity, U = 2 mm/s, fitted over
 * up to 12 frames; every fit has R² > 0.99999), run on 2026-11-22 against the particle engine of
 * that day (Gauss–Seidel pair exchange with a = 1 − exp(−v δt), kernel (1 − q²)³).
 *
 * Fitted model: ν = C(ks) · r² · (1 − exp(−v δt)) / δt, no offset (v = 0 measures ν = 0).
 * Within 3 % of every point below. It saturates at ν_max = C r² / δt.
 */
export const PARTICLE_VISCOSITY_SOURCE =
  'measured with measureCalibrationPoints() (bench/viscosity-calibration.ts), particle engine of 2026-11-22: shear-mode decay of a 10-layer block';

export interface MeasuredViscosityPoint {
  /** Exchange rate v, 1/s. */
  exchangeRate: number;
  /** Particle radius r, m. */
  radius: number;
  /** Sub-timestep δt, s (fps 30 × 4 or 8 substeps). */
  dt: number;
  /** Kernel support, particle radii. */
  kernelSupport: number;
  /** Measured kinematic viscosity, m²/s. */
  nu: number;
}

export const PARTICLE_VISCOSITY_POINTS: readonly MeasuredViscosityPoint[] = [
  { exchangeRate: 0, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 0 },
  { exchangeRate: 3, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 1.5331e-5 },
  { exchangeRate: 10, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 4.975e-5 },
  { exchangeRate: 30, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 1.384e-4 },
  { exchangeRate: 100, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 3.5808e-4 },
  { exchangeRate: 300, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 5.8678e-4 },
  { exchangeRate: 1000, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 6.401e-4 },
  { exchangeRate: 3000, radius: 0.002, dt: 1 / 120, kernelSupport: 5, nu: 6.4026e-4 },
  { exchangeRate: 100, radius: 0.004, dt: 1 / 120, kernelSupport: 5, nu: 1.43239e-3 },
  { exchangeRate: 300, radius: 0.002, dt: 1 / 240, kernelSupport: 5, nu: 9.0766e-4 },
  { exchangeRate: 100, radius: 0.002, dt: 1 / 120, kernelSupport: 4, nu: 2.8248e-4 },
  { exchangeRate: 100, radius: 0.002, dt: 1 / 120, kernelSupport: 6, nu: 4.9888e-4 },
];

/**
 * C by kernel support (fitted to the points above; linear interpolation between). Theory for a
 * continuum of neighbours, ν = v h² / 22 (src/particle/calibration.ts), gives C = ks² / 22:
 * 0.727, 1.136, 1.636 — the lattice's discrete neighbour shells and the Gauss–Seidel order make
 * the measured exchange 12–43 % stronger.
 */
export const PARTICLE_VISCOSITY_MODEL = {
  source: PARTICLE_VISCOSITY_SOURCE,
  kernelSupport: [4, 5, 6],
  C: [1.0405, 1.318, 1.8376],
  nu0: 0,
  /** Largest relative difference between the model and any point above. */
  statedError: 0.03,
} as const;

/**
 * Measured: the particle engine in a slumping flow — a cylinder of liquid (radius 3 cm, height
 * 2 cm) spreading on a no-slip floor, r = 1.5 mm, no adhesion — through Huppert's (1982) law
 * r_N⁸ ∝ t fitted over t ∈ [0.32, 0.8] s (`measureSpreading` in src/compare/validate.ts), with the
 * particle engine of 2026-11-22 00:45 UTC (momentum-conserving density correction).
 * `nuExchange` is what the shear-decay model above gives for the same v, r and δt.
 * Finding: within 0.8 s the slump thins to about 1.5 particle layers and stops following
 * Huppert's law (R² of the r⁸ fit 0.5–0.9), and its rate hardly depends on v (at 48 substeps,
 * v = 1564 and 3975 /s give the same ν_eff). At this resolution spreading cannot calibrate the
 * exchange: the shear-decay model above is the calibration, and a spreading test of the particle
 * engine needs r ≲ 0.5 mm (≈ 50 000 particles for this blob).
 * (An earlier engine, whose density correction removed absolute velocity, slumped as if
 * ν ≈ 3e-3 m²/s even with no exchange; that damping is gone.)
 */
export const PARTICLE_SPREADING_POINTS = {
  source: 'measured with measureSpreading() (src/compare/validate.ts), particle engine of 2026-11-22 00:45 UTC; reference law: Huppert (1982), J. Fluid Mech. 121:43–58',
  radius: 0.0015,
  points: [
    { substeps: 8, dt: 1 / 240, exchangeRate: 0, nuExchange: 0, nuEffective: 2.44e-2, r2: 0.51 },
    { substeps: 8, dt: 1 / 240, exchangeRate: 100, nuExchange: 2.4e-4, nuEffective: 1.26e-2, r2: 0.58 },
    { substeps: 8, dt: 1 / 240, exchangeRate: 1e5, nuExchange: 7.1e-4, nuEffective: 5.19e-3, r2: 0.71 },
    { substeps: 48, dt: 1 / 1440, exchangeRate: 1564, nuExchange: 2.83e-3, nuEffective: 9.0e-4, r2: 0.94 },
    { substeps: 48, dt: 1 / 1440, exchangeRate: 3975, nuExchange: 4.0e-3, nuEffective: 8.24e-4, r2: 0.996 },
  ],
} as const;
