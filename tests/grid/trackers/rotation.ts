/**
 * Shapes carried by a prescribed velocity through a tracker's own stages (grid update, the
 * tracker's stages after it, step 4 and the stages after that), no Navier–Stokes: the standard
 * tests of interface capturing.
 *
 *  - Zalesak's slotted disk (Zalesak 1979; Enright et al. 2002 §6.1): a disk of radius 0.15 with a
 *    slot 0.05 wide and 0.25 deep, centred at (0.5, 0.75) in the unit square, turned once about
 *    (0.5, 0.5) in a grid one cell thick (slip walls in z), 100² cells in the published test.
 *  - A sphere of radius 0.15 at (0.35, 0.35, 0.35) in the unit cube in LeVeque's deformation field
 *    (Enright et al. 2002 §6.3), period T: stretched into a thin sheet by T/2, back by T.
 */
import { parseScene } from '../../../src/index.ts';
import { GridSimulation } from '../../../src/grid/step.ts';
import { SOLID } from '../../../src/grid/store.ts';

export interface TrackingRun {
  /** Liquid volume (area × thickness in 2-D) at the start and the end, m³. */
  v0: number;
  v1: number;
  /** Volume of the cells whose sign differs between start and end (shape error), m³. */
  mismatch: number;
  steps: number;
  ms: number;
}

type Velocity = (x: number, y: number, z: number, t: number, a: number) => number;

/** Signed distance to Zalesak's disk (negative inside), z ignored. */
export function zalesak(x: number, y: number): number {
  const cx = 0.5, cy = 0.75, R = 0.15, w = 0.025, top = 0.85;
  const disk = Math.hypot(x - cx, y - cy) - R;
  // The slot: |x − cx| < w, y < top (from the bottom of the disk up to 0.85).
  const slot = Math.max(Math.abs(x - cx) - w, y - top);
  return Math.max(disk, -slot);
}

export function sphere(x: number, y: number, z: number): number {
  return Math.hypot(x - 0.35, y - 0.35, z - 0.35) - 0.15;
}

/** A simulation of `tracking` on an n-cell unit square (flat: one cell thick) or cube, φ set from `sdf`. */
export function trackingSim(tracking: string, n: number, flat: boolean, sdf: (x: number, y: number, z: number) => number, extra: Record<string, unknown> = {}): GridSimulation {
  const h = 1 / n;
  // A box around the shape seeds the cells, then φ is set from the shape's distance.
  const box = flat ? { center: [0.5, 0.75, h / 2], size: [0.34, 0.34, h] } : { center: [0.35, 0.35, 0.35], size: [0.34, 0.34, 0.34] };
  const sim = new GridSimulation(parseScene({
    fps: 1,
    gravity: [0, 0, 0],
    domain: { min: [0, 0, 0], max: [1, 1, flat ? h : 1], boundary: 'slip' },
    materials: { liquid: { kind: 'liquid', density: 1000, viscosity: { value: 0, unit: 'm2/s' } } },
    bodies: [{ material: 'liquid', shape: { type: 'box', ...box } }],
    grid: { cellSize: h, tracking, ...extra },
  }));
  sim.initialize();
  setPhi(sim, sdf);
  sim.updateGrid();
  setPhi(sim, sdf);
  sim.tracker.initialize(sim);
  return sim;
}

function setPhi(sim: GridSimulation, sdf: (x: number, y: number, z: number) => number): void {
  const s = sim.store, d = sim.d, h = d.h;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    s.phi[c] = Math.max(-sim.band, Math.min(sim.band, sdf(d.origin[0] + h * (s.ci[c] + 0.5), d.origin[1] + h * (s.cj[c] + 0.5), d.origin[2] + h * (s.ck[c] + 0.5))));
  }
  // A cell emptied or filled here must get its type and faces from φ.
  for (let c = 0; c < s.count; c++) if (s.type[c] !== SOLID) s.type[c] = s.phi[c] < 0 ? 1 : 0;
}

/** Runs the tracker's part of the step for `duration` seconds of the velocity field at CFL `cfl`. */
export function carry(sim: GridSimulation, velocity: Velocity, duration: number, vmax: number, cfl: number): TrackingRun {
  const s0 = signs(sim);
  const v0 = sim.tracker.volume(sim);
  const steps = Math.ceil(duration / ((cfl * sim.d.h) / vmax));
  const dt = duration / steps;
  const stage = (name: string) => sim.pipeline.find((st) => st.name === name);
  const grid = stage('grid')!, move = stage('tracking')!;
  const t0 = performance.now();
  for (let n = 0; n < steps; n++) {
    sim.dt = dt;
    grid.run(sim, dt);
    prescribe(sim, velocity, sim.time + 0.5 * dt);
    sim.keepStartVelocity();
    for (const st of sim.tracker.afterGrid) st.run(sim, dt);
    move.run(sim, dt);
    for (const st of sim.tracker.afterMove) st.run(sim, dt);
    sim.time += dt;
    sim.steps++;
  }
  grid.run(sim, dt);
  for (const st of sim.tracker.afterGrid) st.run(sim, dt);
  const ms = performance.now() - t0;
  const v1 = sim.tracker.volume(sim);
  const s1 = signs(sim);
  let mismatch = 0;
  for (const [key, inside] of s1) if ((s0.get(key) ?? false) !== inside) mismatch++;
  for (const [key, inside] of s0) if (!s1.has(key) && inside) mismatch++;
  return { v0, v1, mismatch: mismatch * sim.d.h ** 3, steps, ms };
}

/** Face velocities from the field at time t (time-centred for the step). */
function prescribe(sim: GridSimulation, velocity: Velocity, t: number): void {
  const s = sim.store, o = sim.d.origin, h = sim.d.h;
  for (let c = 0; c < s.count; c++) {
    if (s.type[c] === SOLID) continue;
    for (let a = 0; a < 3; a++) {
      const x = o[0] + h * (s.ci[c] + (a === 0 ? 0 : 0.5)), y = o[1] + h * (s.cj[c] + (a === 1 ? 0 : 0.5)), z = o[2] + h * (s.ck[c] + (a === 2 ? 0 : 0.5));
      s.u[a][c] = velocity(x, y, z, t, a);
    }
  }
}

function signs(sim: GridSimulation): Map<string, boolean> {
  const s = sim.store, out = new Map<string, boolean>();
  for (let c = 0; c < s.count; c++) if (s.type[c] !== SOLID) out.set(`${s.ci[c]},${s.cj[c]},${s.ck[c]}`, s.phi[c] < 0);
  return out;
}

/** Rigid rotation about (0.5, 0.5) once per `period` s. */
export function rotation(period: number): Velocity {
  const w = (2 * Math.PI) / period;
  return (x, y, _z, _t, a) => (a === 0 ? -w * (y - 0.5) : a === 1 ? w * (x - 0.5) : 0);
}

/** LeVeque's 3-D deformation field, reversed at T/2 (Enright et al. 2002, equations 39–41). */
export function deformation(T: number): Velocity {
  return (x, y, z, t, a) => {
    const k = Math.cos((Math.PI * t) / T);
    const sx = Math.sin(Math.PI * x), sy = Math.sin(Math.PI * y), sz = Math.sin(Math.PI * z);
    if (a === 0) return 2 * sx * sx * Math.sin(2 * Math.PI * y) * Math.sin(2 * Math.PI * z) * k;
    if (a === 1) return -Math.sin(2 * Math.PI * x) * sy * sy * Math.sin(2 * Math.PI * z) * k;
    return -Math.sin(2 * Math.PI * x) * Math.sin(2 * Math.PI * y) * sz * sz * k;
  };
}
