/** Plane Poiseuille, steady and start-up (grid): a channel full of liquid driven by a body force. */
import type { Simulation } from '../../api.ts';
import type { SceneInput } from '../../scene/schema.ts';
import { linePlot } from '../svg-plot.ts';
import { POISEUILLE_SOURCE, poiseuilleStartup, poiseuilleSteady } from '../reference/poiseuille.ts';
import { check, liquidScene, simulate, stepTo, type CaseSize, type ValidationCase } from './case.ts';

function poiseuilleScene(size: CaseSize, frames: number, fps: number, maxDt = 1 / 60): { scene: SceneInput; H: number; nu: number; g: number; L: number; W: number } {
  const h = size === 'full' ? 0.01 : 0.01;
  const H = size === 'full' ? 0.08 : 0.06;
  const L = 16 * h, W = 2 * h;
  const nu = 0.01, g = 0.5;
  return {
    H, nu, g, L, W,
    scene: {
      name: 'validate-poiseuille', fps, duration: frames / fps, gravity: [g, 0, 0],
      domain: {
        min: [0, 0, 0], max: [L, H, W], boundary: 'noslip',
        faces: { xmin: 'open', xmax: 'open', zmin: 'slip', zmax: 'slip' },
      },
      ...liquidScene(nu),
      bodies: [{ material: 'liquid', shape: { type: 'box', center: [L / 2, H / 2, W / 2], size: [L, H, W] } }],
      grid: { cellSize: h, maxDt },
    },
  };
}

function channelProfile(sim: Simulation, L: number, H: number, W: number, samples: number): { y: number[]; u: number[] } {
  const y: number[] = [], u: number[] = [];
  for (let j = 0; j < samples; j++) {
    const yj = ((j + 0.5) / samples) * H;
    y.push(yj);
    u.push(sim.velocityAt([L / 2, yj, W / 2])[0]);
  }
  return { y, u };
}

export const poiseuille: ValidationCase = {
  name: 'poiseuille',
  title: 'Plane Poiseuille flow, steady',
  engines: ['grid'],
  source: POISEUILLE_SOURCE,
  meaning: 'Viscous shear is resolved correctly: a grid liquid reaches the right speed in a channel.',
  run(engine, size) {
    const fps = 30, frames = size === 'full' ? 24 : 12;
    const { scene, H, nu, g, L, W } = poiseuilleScene(size, frames, fps);
    const sim = simulate(engine, scene);
    try {
      stepTo(sim, frames);
      const { y, u } = channelProfile(sim, L, H, W, 8);
      const uMax = poiseuilleSteady(g, nu, H, H / 2);
      const ref = y.map((yj) => poiseuilleStartup(g, nu, H, yj, sim.time));
      const err = Math.max(...u.map((v, j) => Math.abs(v - ref[j]))) / uMax;
      return {
        checks: [check('max |u − u_exact| / u_max', err, size === 'full' ? 0.03 : 0.05)],
        detail: `t = ${sim.time.toFixed(2)} s (${(sim.time / (H * H / (Math.PI ** 2 * nu))).toFixed(1)} diffusion times); centre u = ${u[Math.floor(u.length / 2)].toFixed(4)} m/s, exact ${uMax.toFixed(4)} m/s`,
        plot: linePlot({
          title: `Plane Poiseuille (${engine})`, xLabel: 'y (m)', yLabel: 'u (m/s)',
          series: [{ name: engine, x: y, y: u, style: 'both' }, { name: 'analytic', x: y, y: ref, color: '#1a202c', dashed: true }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};

export const poiseuilleStart: ValidationCase = {
  name: 'poiseuille-startup',
  title: 'Plane Poiseuille flow, start-up transient',
  engines: ['grid'],
  source: POISEUILLE_SOURCE,
  meaning: 'Viscous time scales are right: a grid liquid speeds up at the rate of the series solution.',
  run(engine, size) {
    const fps = 60, frames = size === 'full' ? 6 : 3;
    // Steps of a sixteenth of the diffusion time H²/(π²ν): the case tests the physics of the
    // transient, not the (first-order) time-step error of backward Euler.
    const { scene, H, nu, g, L, W } = poiseuilleScene(size, frames, fps, 0.004);
    const sim = simulate(engine, scene);
    try {
      const uMax = poiseuilleSteady(g, nu, H, H / 2);
      const errs: number[] = [];
      const tc: number[] = [], uc: number[] = [], rc: number[] = [];
      stepTo(sim, frames, (s) => {
        const { y, u } = channelProfile(s, L, H, W, 8);
        for (let j = 0; j < y.length; j++) errs.push(Math.abs(u[j] - poiseuilleStartup(g, nu, H, y[j], s.time)) / uMax);
        tc.push(s.time);
        uc.push(s.velocityAt([L / 2, H / 2, W / 2])[0]);
        rc.push(poiseuilleStartup(g, nu, H, H / 2, s.time));
      });
      const err = Math.max(...errs);
      return {
        checks: [check('max |u − u_series| / u_max over the transient', err, size === 'full' ? 0.03 : 0.05)],
        detail: `${frames} frames to t = ${sim.time.toFixed(3)} s; centre u = ${uc[uc.length - 1].toFixed(4)} m/s, series ${rc[rc.length - 1].toFixed(4)} m/s`,
        plot: linePlot({
          title: `Start-up Poiseuille, centreline (${engine})`, xLabel: 't (s)', yLabel: 'u (m/s)',
          series: [{ name: engine, x: tc, y: uc, style: 'both' }, { name: 'series solution', x: tc, y: rc, color: '#1a202c', dashed: true }],
        }),
      };
    } finally {
      sim.dispose();
    }
  },
};
