/** Free fall (both engines): a blob in the air falls as g t² / 2. */
import { linePlot } from '../svg-plot.ts';
import { G, check, liquidScene, simulate, stepTo, type ValidationCase } from './case.ts';

export const freeFall: ValidationCase = {
  name: 'free-fall',
  title: 'Free fall of a blob',
  engines: ['particle', 'grid'],
  source: 'analytic: y_c(t) = y_c(0) − g t² / 2',
  meaning: 'Time integration of gravity: a liquid in the air must not lag or float.',
  run(engine, size, tolerances = size) {
    const R = size === 'full' ? 0.03 : 0.016;
    const frames = size === 'full' ? 12 : 4;
    const fps = 30;
    const y0 = 0.1;
    const sim = simulate(engine, {
      name: 'validate-free-fall', fps, duration: frames / fps,
      domain: { min: [-0.06, -0.8, -0.06], max: [0.06, 0.16, 0.06], boundary: 'open' },
      ...liquidScene(1e-3),
      bodies: [{ material: 'liquid', shape: { type: 'sphere', center: [0, y0, 0], radius: R } }],
      particle: { radius: size === 'full' ? 0.004 : 0.004 }, grid: { cellSize: size === 'full' ? 0.006 : 0.008 },
    });
    try {
      const v0 = sim.metrics().fluidVolume;
      const c0 = sim.metrics().centerOfMass[1];
      const t: number[] = [0], ySim: number[] = [0], yRef: number[] = [0];
      stepTo(sim, frames, (s) => {
        t.push(s.time);
        ySim.push(s.metrics().centerOfMass[1] - c0);
        yRef.push(-0.5 * G * s.time * s.time);
      });
      const drop = -yRef[yRef.length - 1];
      const err = (ySim[ySim.length - 1] - yRef[yRef.length - 1]) / drop;
      return {
        checks: [
          check('relative error of the drop', err, tolerances === 'full' ? 0.02 : 0.03),
          check('volume change', sim.metrics().fluidVolume / v0 - 1, tolerances === 'full' ? 0.03 : 0.05),
        ],
        detail: `after ${sim.time.toFixed(3)} s: dropped ${(-ySim[ySim.length - 1]).toFixed(4)} m, g t²/2 = ${drop.toFixed(4)} m`,
        plot: linePlot({
          title: `Free fall (${engine})`, xLabel: 't (s)', yLabel: 'Δy of centre of mass (m)',
          series: [{ name: engine, x: t, y: ySim }, { name: '−g t²/2', x: t, y: yRef, style: 'points', color: '#1a202c' }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};
