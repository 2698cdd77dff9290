/**
 * The lid-driven cavity of Ghia, Ghia & Shin (1982) on the grid engine: a unit square one cell
 * thick (slip in z) full of liquid, no-slip walls, the lid (y = 1) moving at 1 m/s, ν = 1/Re; and
 * the RMS errors of its centreline velocities against the published tables (the interior points:
 * the walls' values are exact).
 */
import type { Simulation } from '../../src/api.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import { GHIA_1982_RE100, GHIA_1982_RE400 } from '../../src/compare/reference/ghia-1982.ts';

export function cavityScene(n: number, re: 100 | 400, advection = 'maccormack') {
  const h = 1 / n;
  return parseScene({
    fps: 1,
    duration: 60,
    gravity: [0, 0, 0],
    domain: { min: [0, 0, 0], max: [1, 1, h], boundary: 'noslip', faces: { ymax: { type: 'moving', velocity: [1, 0, 0] }, zmin: 'slip', zmax: 'slip' } },
    materials: { fluid: { kind: 'liquid', density: 1, viscosity: { value: 1 / re, unit: 'm2/s' } } },
    bodies: [{ material: 'fluid', shape: { type: 'box', center: [0.5, 0.5, h / 2], size: [1, 1, h] } }],
    grid: { cellSize: h, cfl: 1, maxDt: 0.05, tolerance: 1e-8, advection },
  });
}

export function cavityErrors(sim: Simulation, re: 100 | 400): { u: number; v: number } {
  const ref = re === 100 ? GHIA_1982_RE100 : GHIA_1982_RE400;
  const z = 0.5 / Math.round(1 / sim.scene.grid.cellSize);
  const du: number[] = [], dv: number[] = [];
  ref.uCentreline.y.forEach((y, i) => { if (i > 0 && i < ref.uCentreline.y.length - 1) du.push(sim.velocityAt([0.5, y, z])[0] - ref.uCentreline.u[i]); });
  ref.vCentreline.x.forEach((x, i) => { if (i > 0 && i < ref.vCentreline.x.length - 1) dv.push(sim.velocityAt([x, 0.5, z])[1] - ref.vCentreline.v[i]); });
  const rms = (a: number[]) => Math.sqrt(a.reduce((s, v) => s + v * v, 0) / a.length);
  return { u: rms(du), v: rms(dv) };
}

/**
 * Runs the cavity at `re` on `n`² cells until the flow has settled: the first second over which
 * neither u at (½, ¼) nor v at (¼, ½) changed by 5e-4 or more, at most `seconds`. Returns the last
 * change and the centreline errors.
 */
export function settleCavity(re: 100 | 400, seconds: number, n = 64): { change: number; time: number; u: number; v: number } {
  const sim = createSimulation(cavityScene(n, re), 'grid');
  const z = 0.5 / n, probes = () => [sim.velocityAt([0.5, 0.25, z])[0], sim.velocityAt([0.25, 0.5, z])[1]];
  let last = probes(), change = Infinity;
  for (let f = 0; f < seconds && !(change < 5e-4); f++) {
    sim.stepFrame();
    const now = probes();
    change = Math.max(Math.abs(now[0] - last[0]), Math.abs(now[1] - last[1]));
    last = now;
  }
  return { change, time: sim.time, ...cavityErrors(sim, re) };
}
