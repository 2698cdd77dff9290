/** Lid-driven cavity, Re = 100 (grid), against Ghia, Ghia & Shin (1982). */
import { linePlot } from '../svg-plot.ts';
import { GHIA_1982_RE100 } from '../reference/ghia-1982.ts';
import { check, liquidScene, rms, simulate, stepTo, type ValidationCase } from './case.ts';

export const cavity: ValidationCase = {
  name: 'cavity',
  title: 'Lid-driven cavity, Re = 100',
  engines: ['grid'],
  source: GHIA_1982_RE100.source,
  meaning: 'Advection and pressure together: recirculating flow matches a standard benchmark.',
  run(engine, size) {
    const n = size === 'full' ? 32 : 16;
    const L = 0.1, U = 0.1, nu = (U * L) / 100;
    const h = L / n, W = 2 * h;
    const seconds = size === 'full' ? 15 : 8;
    const fps = 2, frames = seconds * fps;
    const sim = simulate(engine, {
      name: 'validate-cavity', fps, duration: seconds, gravity: [0, 0, 0],
      domain: {
        min: [0, 0, 0], max: [L, L, W], boundary: 'noslip',
        faces: { ymax: { type: 'moving', velocity: [U, 0, 0] }, zmin: 'slip', zmax: 'slip' },
      },
      ...liquidScene(nu),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, L / 2, W / 2], size: [L, L, W] } }],
      grid: { cellSize: h, maxDt: 0.05 },
    });
    try {
      stepTo(sim, frames);
      const ref = GHIA_1982_RE100;
      const du: number[] = [], dv: number[] = [];
      const uSim = ref.uCentreline.y.map((y) => sim.velocityAt([L / 2, y * L, W / 2])[0] / U);
      const vSim = ref.vCentreline.x.map((x) => sim.velocityAt([x * L, L / 2, W / 2])[1] / U);
      ref.uCentreline.u.forEach((u, i) => { if (i > 0 && i < ref.uCentreline.u.length - 1) du.push(uSim[i] - u); });
      ref.vCentreline.v.forEach((v, i) => { if (i > 0 && i < ref.vCentreline.v.length - 1) dv.push(vSim[i] - v); });
      const tol = size === 'full' ? 0.05 : 0.1;
      return {
        checks: [check('RMS error of u/U on x = L/2', rms(du), tol), check('RMS error of v/U on y = L/2', rms(dv), tol)],
        detail: `${n}×${n} cells, t = ${sim.time.toFixed(1)} s (${((sim.time * U) / L).toFixed(0)} L/U); u/U at the centre ${uSim[8].toFixed(3)} (Ghia ${ref.uCentreline.u[8]})`,
        plot: linePlot({
          title: `Lid-driven cavity Re = 100, u on x = L/2 (${engine})`, xLabel: 'y / L', yLabel: 'u / U',
          series: [
            { name: engine, x: ref.uCentreline.y, y: uSim, style: 'both' },
            { name: 'Ghia et al. 1982', x: ref.uCentreline.y, y: ref.uCentreline.u, style: 'points', color: '#1a202c' },
          ],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};
