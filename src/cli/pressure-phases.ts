/**
 * What the particle engine's pressure stage takes a sub-timestep over a run of water-like liquid,
 * for `viscid info`'s cost (cost.ts predictFrameCost): the pieces the filter's pressure split cuts
 * a sub-timestep into, the bi-Laplacian filter's steps and the pressure passes, at the depth the
 * liquid starts at and at the depth it comes to rest at.
 *
 * Where a liquid is thin enough to be filtered (pressure-filter.ts filterStrengths: water, not
 * honey) the engine reads the largest stored pressure p/ρ0 of that liquid, g H at the floor of
 * water H deep, three ways (pressure.ts): a sub-timestep δt is split into ⌈δt √(g H) /
 * (FILTER_PIECE_COURANT · 2r)⌉ pieces (pressurePieces), the filter takes filterSteps of the Courant
 * number δt √(g H) / 2r of a piece, and the solves may take DEEP_PASSES times their passes where
 * the stop rule's tolerance at that pressure, stopTolerance, is under PRESSURE_TOLERANCE
 * (depthTolerance). A pool that fills its box's floor stays at its depth for the whole run
 * (floating-box, 12 cm: 12 passes a sub-timestep throughout, no split); a column that runs out
 * over a closed box's floor holds its height's pressure only while it collapses and sloshes, then
 * rests at the depth its volume makes on the floor (gpu-dam-break: a 4 cm column, 2 pieces and
 * 10.7–12 passes at frames 2–14, then 0.9 cm, 1 piece and 3 passes; bench/run-cpu.ts).
 */
import type { Scene } from '../index.ts';
import { kinematicViscosity } from '../scene/material.ts';
import { AGAIN_SHARE, DEEP_PASSES, PRESSURE_TOLERANCE, solvesTwice, stopTolerance } from '../particle/pressure.ts';
import { FILTER_PIECE_COURANT, FILTER_REACH, filterSteps } from '../particle/pressure-filter.ts';
import { compileShape } from '../scene/shapes.ts';

/** The pressure stage's work a sub-timestep at one depth of the filtered liquid. */
export interface PressureLoad {
  /** Pieces the filter's pressure split cuts a sub-timestep into (1 unsplit). */
  pieces: number;
  /** Pressure passes a piece (both solves). */
  passes: number;
  /** Bi-Laplacian filter steps a piece. */
  filterSteps: number;
}

export interface PressurePhases {
  /** At the liquid's starting height, for `startShare` of the run. */
  start: PressureLoad;
  /** At its resting depth, for the rest of the run. */
  rest: PressureLoad;
  startShare: number;
  /** The filtered liquid's depth at the start and at rest, m (0 where none is filtered). */
  startDepth: number;
  restDepth: number;
}

/**
 * Crossings of the box, at the front's speed 2 √(g H) (Ritter's dam-break solution), a column
 * takes to come down to its resting depth: the collapse, the run-up on the far wall and the
 * sloshes that follow. Fitted to gpu-dam-break (a 4 cm column in a 12 cm box: its split and deep
 * passes from frame 2 to frame 14, 0.43 s; 5 crossings of 0.096 s).
 */
export const COLLAPSE_CROSSINGS = 5;

/** Pressure passes a sub-timestep with no deep rule: the first solve's and the second's share (pressure.ts). */
export function basePasses(scene: Scene): number {
  const P = scene.particle;
  return P.pressureIterations + (solvesTwice(P) ? Math.ceil(P.pressureIterations * AGAIN_SHARE) : 0);
}

/** Whether a liquid of the scene is filtered (pressure.ts filteredPressure: two solves, the implicit viscosity, ν δt < FILTER_REACH (2r)²). */
function filtered(scene: Scene, dt: number): boolean {
  const P = scene.particle;
  if (P.densitySolver !== 'pbf' || P.pressureIterations === 0 || !solvesTwice(P) || P.viscositySolver !== 'implicit') return false;
  const d2 = 4 * P.radius * P.radius;
  return scene.materialNames.some((name) => {
    const m = scene.materials[name];
    return m.kind === 'liquid' && kinematicViscosity(m) * dt < FILTER_REACH * d2;
  });
}

/** The pressure stage's load at a filtered depth H (m) for sub-timesteps of dt. */
export function pressureLoad(scene: Scene, dt: number, depth: number): PressureLoad {
  const P = scene.particle, g = Math.hypot(...scene.gravity), d = 2 * P.radius;
  const base = basePasses(scene);
  // The filter runs at least FILTER_STEPS a piece on a filtered liquid however thin (filterSteps(0)).
  if (!(depth > 0) || !(g > 0)) return { pieces: 1, passes: base, filterSteps: filterSteps(0) };
  const c = Math.sqrt(g * depth);
  const pieces = Math.max(1, Math.ceil((c * dt) / (FILTER_PIECE_COURANT * d) - 1e-9));
  const dp = dt / pieces;
  const deep = stopTolerance(g, dp, g * depth) < PRESSURE_TOLERANCE;
  return { pieces, passes: base * (deep ? DEEP_PASSES : 1), filterSteps: filterSteps((c * dp) / d) };
}

/**
 * The filtered liquid's starting height (its tallest body's), the depth it rests at, and the run
 * its front crosses: in a box whose side faces are closed, the liquid bodies' volume over the
 * box's floor and the box's longer side; without one, or with an open side, it runs out and thins
 * (0: nothing deep at rest), and without a box the front's run is taken as twice the body's width.
 */
export function filteredDepths(scene: Scene): { start: number; rest: number; run: number } {
  let height = 0, volume = 0, run = 0;
  for (const b of scene.bodies) {
    if (scene.materials[b.material].kind !== 'liquid') continue;
    try {
      const shape = compileShape(b.shape, scene.assets.meshes);
      height = Math.max(height, shape.bounds.max[1] - shape.bounds.min[1]);
      volume += shape.volume;
      run = Math.max(run, shape.bounds.max[0] - shape.bounds.min[0], shape.bounds.max[2] - shape.bounds.min[2]);
    } catch {
      // an unreadable shape is refused elsewhere
    }
  }
  const d = scene.domain;
  if (!d) return { start: height, rest: 0, run: 2 * run };
  const face = (f: 'xmin' | 'xmax' | 'zmin' | 'zmax') => d.faces[f] ?? d.boundary;
  const closed = (['xmin', 'xmax', 'zmin', 'zmax'] as const).every((f) => face(f) !== 'open');
  const wx = d.max[0] - d.min[0], wz = d.max[2] - d.min[2];
  return { start: height, rest: closed && wx > 0 && wz > 0 ? Math.min(height, volume / (wx * wz)) : 0, run: Math.max(wx, wz) };
}

/** The pressure stage's phases over the run (see the header). */
export function pressurePhases(scene: Scene): PressurePhases {
  const P = scene.particle, dt = 1 / (scene.fps * P.substeps);
  const none: PressureLoad = { pieces: 1, passes: P.densitySolver === 'pbf' ? basePasses(scene) : 0, filterSteps: 0 };
  if (!filtered(scene, dt)) return { start: none, rest: none, startShare: 0, startDepth: 0, restDepth: 0 };
  const { start, rest, run } = filteredDepths(scene);
  const g = Math.hypot(...scene.gravity);
  const startLoad = pressureLoad(scene, dt, start), restLoad = pressureLoad(scene, dt, rest);
  // A pool (its start within a cell of its rest) has one phase; a column comes down in COLLAPSE_CROSSINGS of its box.
  const collapse = start > rest + 2 * P.radius && g > 0 ? (COLLAPSE_CROSSINGS * run) / (2 * Math.sqrt(g * start)) : 0;
  const startShare = scene.duration > 0 ? Math.min(1, collapse / scene.duration) : 0;
  return { start: startLoad, rest: restLoad, startShare, startDepth: start, restDepth: rest };
}
