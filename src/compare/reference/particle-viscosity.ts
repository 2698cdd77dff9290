/**
 * Measured: the kinematic viscosity the particle engine's momentum exchange (Steele §3.2) produces
 * for a given exchange rate v, particle radius r, sub-timestep δt and kernel support.
 *
 * Source: our own measurement, `measureCalibrationPoints()` in src/compare/viscosity-calibration.ts
 * (decay of the slowest shear mode of a free 10-layer block in zero gravity, U = 2 mm/s, fitted over
 * up to 12 frames; every fit has R² > 0.99999), run on 2026-11-22 against the particle engine of
 * that day (Gauss–Seidel pair exchange with a = 1 − exp(−v δt), kernel (1 − q²)³).
 *
 * Fitted model: ν = C(ks) · r² · (1 − exp(−v δt)) / δt, no offset (v = 0 measures ν = 0).
 * Within 3 % of every point below. It saturates at ν_max = C r² / δt.
 */
export const PARTICLE_VISCOSITY_SOURCE =
  'measured with measureCalibrationPoints() (src/compare/viscosity-calibration.ts), particle engine of 2026-11-22: shear-mode decay of a 10-layer block';

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
 * Measured: the effective viscosity of the particle engine in a slumping flow — a cylinder of
 * liquid (radius 3 cm, height 2 cm) spreading on a no-slip floor, r = 1.5 mm, 30 fps × 8
 * substeps (δt = 1/240 s), no adhesion — from Huppert's (1982) similarity law r_N⁸ ∝ t fitted over
 * t ∈ [0.32, 0.8] s (`measureSpreading` in src/compare/validate.ts, 2026-11-22).
 * `nuExchange` is what the shear-decay model above gives for the same v, r and δt.
 * Finding: the slump is as slow as a liquid of ν ≈ 3e-3 m²/s even with no exchange at all (the
 * density correction and the floor dissipate far more than the exchange), and the exchange
 * adds 2–4× its shear-decay viscosity on top. Spreading can therefore only calibrate liquids of
 * at least ≈ 3e-3 m²/s at this resolution; the shear-decay model is the calibration of the
 * exchange itself.
 */
export const PARTICLE_SPREADING_POINTS = {
  source: 'measured with measureSpreading() (src/compare/validate.ts), particle engine of 2026-11-22; reference law: Huppert (1982), J. Fluid Mech. 121:43–58',
  radius: 0.0015,
  dt: 1 / 240,
  points: [
    { exchangeRate: 0, nuExchange: 0, nuEffective: 3.02e-3 },
    { exchangeRate: 30, nuExchange: 8.4e-5, nuEffective: 3.31e-3 },
    { exchangeRate: 100, nuExchange: 2.4e-4, nuEffective: 4.04e-3 },
    { exchangeRate: 300, nuExchange: 5.1e-4, nuEffective: 4.5e-3 },
    { exchangeRate: 1e5, nuExchange: 7.1e-4, nuEffective: 4.43e-3 },
  ],
} as const;
