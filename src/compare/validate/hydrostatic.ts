/** Hydrostatic rest (both engines): a tank of liquid at rest stays at rest. */
import { G, check, liquidScene, simulate, stepTo, type ValidationCase } from './case.ts';

export const hydrostatic: ValidationCase = {
  name: 'hydrostatic',
  title: 'Hydrostatic rest',
  engines: ['particle', 'grid'],
  source: 'analytic: u = 0, p = ρ g (d − y); volume and centre of mass unchanged',
  meaning: 'Spurious currents and volume drift of a liquid at rest: what a still pool looks like after a second.',
  run(engine, size, tolerances = size) {
    const L = size === 'full' ? 0.08 : 0.048, d = size === 'full' ? 0.048 : 0.032;
    const frames = size === 'full' ? 30 : 8;
    const sim = simulate(engine, {
      name: 'validate-hydrostatic', fps: 30, duration: frames / 30,
      domain: { min: [0, 0, 0], max: [L, d * 1.5, L], boundary: 'noslip' },
      ...liquidScene(1e-3),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, d / 2, L / 2], size: [L, d, L] } }],
      particle: { radius: size === 'full' ? 0.0025 : 0.002 }, grid: { cellSize: size === 'full' ? 0.004 : 0.008 },
    });
    try {
      const m0 = sim.metrics();
      let peak = 0;
      stepTo(sim, frames, (s) => { peak = Math.max(peak, s.metrics().maxSpeed); });
      const m = sim.metrics();
      const uScale = Math.sqrt(G * d);
      return {
        checks: [
          check('final max speed / √(g d)', m.maxSpeed / uScale, tolerances === 'full' ? 0.05 : 0.1),
          check('volume change', m.fluidVolume / m0.fluidVolume - 1, tolerances === 'full' ? 0.02 : 0.03),
          check('centre-of-mass drift / depth', (m.centerOfMass[1] - m0.centerOfMass[1]) / d, tolerances === 'full' ? 0.05 : 0.1),
        ],
        detail: `${frames} frames; final max speed ${m.maxSpeed.toExponential(2)} m/s (peak ${peak.toExponential(2)}), √(g d) = ${uScale.toFixed(3)} m/s`,
      };
    } finally {
      sim.dispose();
    }
  },
};
