/**
 * Plane Poiseuille flow driven by a body force g along x between no-slip walls at y = 0 and y = H
 * (x faces open, z faces slip, the channel full of liquid). Steady state u(y) = g y (H − y) / (2ν);
 * the start-up from rest is u_ss − Σ_{n odd} 4 g H² / (ν n³ π³) sin(nπy/H) exp(−n² π² ν t / H²).
 * Stages run: forces + viscosity (the liquid does not move; advection of a flow uniform in x is the
 * identity and the flow is divergence free).
 */
import { describe, expect, it } from 'vitest';
import { faceValue, gridSim, runStages } from './helpers.ts';

const H = 0.16, h = 0.01, nu = 0.01, g = 1;
const ny = Math.round(H / h);

function channel(model: 'explicit' | 'implicit') {
  return gridSim({
    fps: 30,
    gravity: [g, 0, 0],
    domain: { min: [0, 0, 0], max: [4 * h, H, h], boundary: 'noslip', faces: { xmin: 'open', xmax: 'open', zmin: 'slip', zmax: 'slip' } },
    materials: { oil: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' }, grid: { viscosityModel: model } } },
    bodies: [{ material: 'oil', shape: { type: 'box', center: [2 * h, H / 2, h / 2], size: [4 * h, H, h] } }],
    grid: { cellSize: h, tracking: 'markers', tolerance: 1e-10, maxIterations: 2000 },
  });
}

const steady = (y: number) => (g * y * (H - y)) / (2 * nu);
const umax = steady(H / 2);

function transient(y: number, t: number): number {
  let u = steady(y);
  for (let n = 1; n < 200; n += 2) {
    u -= ((4 * g * H * H) / (nu * n ** 3 * Math.PI ** 3)) * Math.sin((n * Math.PI * y) / H) * Math.exp((-n * n * Math.PI * Math.PI * nu * t) / (H * H));
  }
  return u;
}

function profileError(sim: ReturnType<typeof channel>, exact: (y: number) => number): number {
  let worst = 0;
  for (let j = 0; j < ny; j++) {
    const y = (j + 0.5) * h;
    worst = Math.max(worst, Math.abs(faceValue(sim, 0, 2, j, 0) - exact(y)));
  }
  return worst / umax;
}

describe('plane Poiseuille flow', () => {
  for (const model of ['explicit', 'implicit'] as const) {
    it(`${model} viscosity reaches the analytic steady profile within 2 %`, () => {
      const sim = channel(model);
      const dt = model === 'explicit' ? (0.9 * h * h) / (6 * nu) : 0.05;
      const T = (2 * H * H) / nu; // e^{-π² 2} ≈ 3e-9 of the slowest mode remains
      for (let t = 0; t < T; t += dt) runStages(sim, ['forces', 'viscosity'], dt);
      expect(profileError(sim, steady)).toBeLessThan(0.02);
    });

    it(`${model} viscosity follows the start-up series solution`, () => {
      const sim = channel(model);
      const dt = model === 'explicit' ? (0.9 * h * h) / (6 * nu) : 2e-3;
      const t1 = (0.05 * H * H) / nu;
      const n = Math.round(t1 / dt);
      for (let s = 0; s < n; s++) runStages(sim, ['forces', 'viscosity'], dt);
      // First order in time (forward/backward Euler) plus O(h²) in space: 2 % of u_max.
      expect(profileError(sim, (y) => transient(y, n * dt))).toBeLessThan(0.02);
      // And the flow is well away from steady, so the check has teeth.
      expect(profileError(sim, steady)).toBeGreaterThan(0.2);
    });
  }
});

describe('implicit viscosity at honey viscosities', () => {
  it('stays stable with steps far beyond the explicit limit', () => {
    const sim = gridSim({
      fps: 30,
      domain: { min: [0, 0, 0], max: [0.2, 0.12, 0.02], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip' } },
      materials: { honey: { kind: 'liquid', density: 1420, viscosity: { value: 10, unit: 'Pa.s' }, grid: { viscosityModel: 'implicit' } } },
      bodies: [{ material: 'honey', shape: { type: 'box', center: [0.04, 0.05, 0.01], size: [0.08, 0.1, 0.02] } }],
      grid: { cellSize: 0.01, tracking: 'markers', cfl: 5, maxDt: 1 / 30 },
    });
    const nu = 10 / 1420;
    let worstRatio = 0;
    for (let f = 0; f < 10; f++) {
      const stats = sim.stepFrame();
      worstRatio = Math.max(worstRatio, (nu * (1 / 30 / stats.counters.steps)) / (0.01 * 0.01));
    }
    // ν Δt / h² well above the explicit limit of 1/6, yet bounded speeds (free fall from 0.1 m: 1.4 m/s).
    expect(worstRatio).toBeGreaterThan(1);
    let vmax = 0;
    const s = sim.store;
    for (let a = 0; a < 3; a++) for (let c = 0; c < s.count; c++) if (s.face[3 * c + a] === 1) vmax = Math.max(vmax, Math.abs(s.u[a][c]));
    expect(vmax).toBeLessThan(1.4);
  });
});
