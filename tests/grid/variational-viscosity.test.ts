/**
 * The variational viscosity (Batty & Bridson 2008; src/grid/viscosity-variational.ts):
 *  - plane Poiseuille flow as the other models give it (the walls' no-slip folded to the face between
 *    liquid and wall cells), in a channel long enough that its free ends do not reach the middle:
 *    with the full stress a free end is a real free surface, not the uniform continuation the
 *    per-component Laplacian assumes;
 *  - a rigidly rotating ball keeps turning (rigid motion is in the null space of the strain rate and
 *    the free surface is traction free), where Cline §7's implicit Laplacian spins it down;
 *  - the assembled system is symmetric;
 *  - with a temperature law it takes ν per cell: the honey-melt columns slump at their own rates.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene } from '../../src/index.ts';
import type { GridEngineSimulation } from '../../src/grid/simulation.ts';
import { FACE_FIXED, FLUID } from '../../src/grid/store.ts';
import type { GridSimulation } from '../../src/grid/step.ts';
import { WIDE_SLOTS } from '../../src/grid/wide-pcg.ts';
import { faceValue, gridSim, runStages } from './helpers.ts';

describe('variational viscosity: plane Poiseuille flow', () => {
  const H = 0.16, h = 0.01, nu = 0.01, g = 1, NX = 48;
  const ny = Math.round(H / h);
  const channel = () => gridSim({
    fps: 30,
    gravity: [g, 0, 0],
    domain: { min: [0, 0, 0], max: [NX * h, H, h], boundary: 'noslip', faces: { xmin: 'open', xmax: 'open', zmin: 'slip', zmax: 'slip' } },
    materials: { oil: { kind: 'liquid', density: 1000, viscosity: { value: nu, unit: 'm2/s' }, grid: { viscosityModel: 'variational' } } },
    bodies: [{ material: 'oil', shape: { type: 'box', center: [(NX / 2) * h, H / 2, h / 2], size: [NX * h, H, h] } }],
    grid: { cellSize: h, tracking: 'markers', tolerance: 1e-10, maxIterations: 2000 },
  });
  const steady = (y: number) => (g * y * (H - y)) / (2 * nu);

  it('reaches the analytic steady profile within 3 % mid-channel', () => {
    const sim = channel();
    const dt = 0.05, T = (2 * H * H) / nu;
    for (let t = 0; t < T; t += dt) runStages(sim, ['forces', 'viscosity'], dt);
    let worst = 0;
    for (let j = 0; j < ny; j++) worst = Math.max(worst, Math.abs(faceValue(sim, 0, NX / 2, j, 0) - steady((j + 0.5) * h)));
    expect(worst / steady(H / 2)).toBeLessThan(0.03);
  });
});

/** A ball of radius R (m) turning rigidly at ω about z, in a closed box without gravity. */
function spinningBall(model: 'implicit' | 'variational', omega: number): GridSimulation {
  const R = 0.03, h = 0.0075;
  const sim = gridSim({
    fps: 30,
    gravity: [0, 0, 0],
    domain: { min: [-0.06, -0.06, -0.06], max: [0.06, 0.06, 0.06], boundary: 'noslip' },
    materials: { syrup: { kind: 'liquid', density: 1000, viscosity: { value: 0.05, unit: 'm2/s' }, grid: { viscosityModel: model } } },
    bodies: [{ material: 'syrup', shape: { type: 'sphere', center: [0, 0, 0], radius: R } }],
    grid: { cellSize: h, tracking: 'levelset' },
  });
  const s = sim.store, o = sim.d.origin;
  for (let c = 0; c < s.count; c++) {
    if (s.face[3 * c] !== FACE_FIXED) s.u[0][c] = -omega * (o[1] + h * (s.cj[c] + 0.5));
    if (s.face[3 * c + 1] !== FACE_FIXED) s.u[1][c] = omega * (o[0] + h * (s.ci[c] + 0.5));
    if (s.face[3 * c + 2] !== FACE_FIXED) s.u[2][c] = 0;
  }
  return sim;
}

/** Angular velocity about z of the liquid cells: Σ (r × u)_z / Σ r². */
function spin(sim: GridSimulation): number {
  const s = sim.store, o = sim.d.origin, h = sim.d.h;
  let L = 0, I = 0;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] !== FLUID) continue;
    const x = o[0] + h * (s.ci[c] + 0.5), y = o[1] + h * (s.cj[c] + 0.5);
    const ux = 0.5 * (s.u[0][c] + s.u[0][s.nb[6 * c + 1]]), uy = 0.5 * (s.u[1][c] + s.u[1][s.nb[6 * c + 3]]);
    L += x * uy - y * ux;
    I += x * x + y * y;
  }
  return L / I;
}

describe('variational viscosity: traction-free free surface', () => {
  it('keeps a viscous ball rotating rigidly, which the implicit Laplacian spins down', () => {
    const omega = 2;
    const kept: Record<string, number> = {};
    for (const model of ['implicit', 'variational'] as const) {
      const sim = spinningBall(model, omega);
      sim.stepFrame();
      sim.stepFrame();
      kept[model] = spin(sim) / omega;
    }
    // ν Δt / h² ≈ 30 a step: the Laplacian's air neighbours brake the surface every step.
    expect(kept.implicit).toBeLessThan(0.5);
    expect(kept.variational).toBeGreaterThan(0.9);
  });

  it('assembles a symmetric system', () => {
    const sim = spinningBall('variational', 2);
    runStages(sim, ['viscosity'], 1 / 60);
    const v = sim.variational as unknown as { sys: { n: number; col: Int32Array; val: Float64Array }; rowFace: Int32Array };
    const { n, col, val } = v.sys;
    expect(n).toBeGreaterThan(100);
    const entry = (i: number, j: number) => {
      for (let e = WIDE_SLOTS * i; e < WIDE_SLOTS * (i + 1); e++) if (col[e] === j) return val[e];
      return 0;
    };
    let worst = 0, cross = 0;
    for (let i = 0; i < n; i++) {
      for (let e = WIDE_SLOTS * i + 1; e < WIDE_SLOTS * (i + 1) && col[e] >= 0; e++) {
        worst = Math.max(worst, Math.abs(val[e] - entry(col[e], i)));
        if (v.rowFace[col[e]] % 3 !== v.rowFace[i] % 3) cross++;
      }
    }
    expect(worst).toBeLessThan(1e-12);
    // The components are coupled (the off-diagonal stresses), unlike the per-component solve.
    expect(cross).toBeGreaterThan(n);
  });
});

describe('variational viscosity with a temperature law', () => {
  it('lets the hot honey slump faster than the cold honey', () => {
    const json = JSON.parse(readFileSync(new URL('../../scenes/honey-melt.json', import.meta.url), 'utf8'));
    json.grid.cellSize = 0.01;
    for (const m of Object.values(json.materials) as { grid?: { viscosityModel: string } }[]) if (m.grid) m.grid.viscosityModel = 'variational';
    const sim = createSimulation(parseScene(json), 'grid') as GridEngineSimulation;
    const widths = (): [number, number] => {
      const m = sim.sim.markers;
      const lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
      for (let q = 0; q < m.count; q++) {
        const k = m.material[q], x = m.pos[3 * q];
        lo[k] = Math.min(lo[k], x);
        hi[k] = Math.max(hi[k], x);
      }
      return [hi[0] - lo[0], hi[1] - lo[1]];
    };
    const [cold0, hot0] = widths();
    for (let f = 0; f < 3; f++) sim.stepFrame();
    expect(sim.sim.variational).not.toBeNull();
    expect(sim.sim.viscosity.logNu).not.toBeNull();
    const [cold, hot] = widths();
    expect(hot - hot0).toBeGreaterThan(2 * (cold - cold0));
  });
});
