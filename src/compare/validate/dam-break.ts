/** Dam break (both engines) against Martin & Moyce (1952). */
import { frontPosition } from '../metrics.ts';
import { linePlot } from '../svg-plot.ts';
import { MARTIN_MOYCE_1952_N2_2, martinMoyceFront } from '../reference/martin-moyce-1952.ts';
import { G, check, liquidScene, rms, simulate, stepTo, type ValidationCase } from './case.ts';

export const damBreak: ValidationCase = {
  name: 'dam-break',
  title: 'Dam break, surge front',
  engines: ['particle', 'grid'],
  source: MARTIN_MOYCE_1952_N2_2.source,
  meaning: 'A fast, low-viscosity flow: how far and how fast a collapsing column runs out.',
  run(engine, size, tolerances = size) {
    const a = size === 'full' ? 0.06 : 0.032;
    const depth = size === 'full' ? 0.036 : 0.024;
    const tankLength = 7 * a;
    const Tend = size === 'full' ? 5 : 3.5;
    const fps = size === 'full' ? 60 : 60;
    const tScale = Math.sqrt(a / (2 * G)); // t = T · tScale
    const frames = Math.ceil((Tend * tScale) * fps);
    const sim = simulate(engine, {
      name: 'validate-dam-break', fps, duration: frames / fps,
      domain: { min: [0, 0, 0], max: [tankLength, 2.5 * a, depth], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip', ymax: 'open' } },
      ...liquidScene(1e-6),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [a / 2, a, depth / 2], size: [a, 2 * a, depth] } }],
      particle: { radius: size === 'full' ? 0.003 : 0.002 },
      grid: { cellSize: size === 'full' ? 0.004 : 0.004 },
    });
    try {
      const T: number[] = [], Z: number[] = [];
      stepTo(sim, frames, (s) => {
        T.push(s.time / tScale);
        Z.push(frontPosition(s.fluidPoints(), 0, 1, 0.01) / a);
      });
      const errs: number[] = [], Tm: number[] = [], Zm: number[] = [];
      for (let i = 0; i < T.length; i++) {
        const ref = martinMoyceFront(T[i]);
        if (Number.isFinite(ref)) {
          errs.push((Z[i] - ref) / ref);
          Tm.push(T[i]);
          Zm.push(ref);
        }
      }
      return {
        checks: [check('RMS relative error of the front Z', rms(errs), tolerances === 'full' ? 0.15 : 0.25)],
        detail: `a = ${a} m, to T = ${T[T.length - 1].toFixed(2)}: Z = ${Z[Z.length - 1].toFixed(2)} (experiment ${martinMoyceFront(T[T.length - 1]).toFixed(2)}), ${errs.length} samples`,
        plot: linePlot({
          title: `Dam break front (${engine})`, xLabel: 'T = t √(2g/a)', yLabel: 'Z = z / a',
          series: [
            { name: engine, x: T, y: Z },
            { name: 'Martin & Moyce 1952', x: [...MARTIN_MOYCE_1952_N2_2.T], y: [...MARTIN_MOYCE_1952_N2_2.Z], style: 'points', color: '#1a202c' },
          ],
          xRange: [0, Math.max(Tend, T[T.length - 1])],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};
