/**
 * What a frame of a scene will cost, told before it runs (`viscid info`, and the start of
 * `viscid run`): the iteration counts each engine's frame takes, where a cap binds (and what the
 * liquid loses by it), and a rough time a frame. The caps themselves are the engines':
 * MAX_VISCOSITY_SWEEPS (src/particle/calibration.ts), MAX_SUBDIVISION (src/particle/step.ts) and
 * MAX_GRID_STEPS_PER_FRAME (src/scene/checks.ts).
 */
import { estimateScene, type Scene } from '../index.ts';
import { calibratedExchangeRate, MAX_VISCOSITY_SWEEPS, viscositySweeps } from '../particle/calibration.ts';
import { kinematicViscosity } from '../scene/material.ts';
import { MAX_SUBDIVISION } from '../particle/step.ts';
import { solvesTwice } from '../particle/pressure.ts';
import { GelState, gelPieces } from '../particle/gel.ts';
import { temperatureLaw } from '../particle/temperature.ts';
import { elasticDtLimit } from '../grid/viscoelastic.ts';
import { MAX_GRID_STEPS_PER_FRAME } from '../scene/checks.ts';
import { compileShape } from '../scene/shapes.ts';
import { streamResolutionWarnings } from '../scene/stream-resolution.ts';
import { calmPool, gridSpeed } from './grid-speed.ts';
import { fallPieces } from './fall-pieces.ts';
import { pressurePhases, type PressureLoad } from './pressure-phases.ts';
import { pourPhase } from './pour-cost.ts';
import { pourResolutionWarnings } from '../scene/pour-resolution.ts';
import { fmtDuration, fmtInt } from './format.ts';
import { thinShare } from './thin-cost.ts';

export { capWarnings } from './cap-warnings.ts';
export { calmPool, gridSpeed } from './grid-speed.ts';
export { fallPieces } from './fall-pieces.ts';
export { pressurePhases } from './pressure-phases.ts';
export { pourPhase } from './pour-cost.ts';

/**
 * Nanoseconds one liquid particle costs a piece of a sub-timestep (a sub-timestep is one piece
 * unless the gel's elastic step cuts it: gel.ts gelPieces), on one thread of the reference
 * machine, per stage, fitted to the stage split of CPU time on the shipped scenes
 * (bench/frame-cpu.ts --stages; last fitted in BENCHMARKS.md "Issue 27 audit", the pressure
 * stage's three in "info's cost over every shipped scene's whole run") and held to whole runs
 * (bench/run-cpu.ts, tests/cli/cost-model.test.ts):
 *   - substep: emit, objects, neighbours (the sort and its channels), adhesion, the surface test;
 *   - move: one move's translation, friction and collisions;
 *   - pressureSolve, pressurePass: a solve of the "pbf" pressure (its set-up: the density measure,
 *     the rows, the source and the finish; two a sub-timestep with particle.pressureAfterViscosity)
 *     and one pass of it (it takes its particle.pressureIterations a solve, the second solve
 *     AGAIN_SHARE of them, DEEP_PASSES times as many in deep water: pressure-phases.ts);
 *   - filterStep: one step of the pressure stage's bi-Laplacian filter, for liquids thin enough
 *     to be filtered (pressure-phases.ts pressureLoad);
 *   - density, densityPass: density correction's fixed part and one pass (wallPass more with
 *     closed domain walls);
 *   - exchange, sweep: the exchange viscosity's fixed part and one sweep;
 *   - implicit, implicitIteration: the implicit viscosity's set-up and one conjugate-gradient
 *     iteration (it takes about IMPLICIT_ITERATIONS, warm-started);
 *   - heat: the temperature stage (heat pairs and one conduction step; temperature.ts);
 *   - mixingWidth: the colour field's diffusion per material a particle carries (colour-field.ts);
 *   - gel: the gel's springs (gel.ts), per piece;
 *   - thinPull: the thin pull (particle.thinPull, thin-pull.ts) per particle it works on (thinShare).
 * A prediction within about 1.5×, not a measurement.
 */
export const PARTICLE_NS = {
  substep: 1500, move: 100, pressureSolve: 500, pressurePass: 400, density: 900, densityPass: 600, wallPass: 300, exchange: 700, sweep: 100,
  implicit: 1700, implicitIteration: 60, heat: 1000, mixingWidth: 100, gel: 3800, filterStep: 500, thinPull: 10_000,
} as const;

/** Conjugate-gradient iterations the implicit viscosity takes a sub-timestep (paint-drops: 11, warm-started). */
export const IMPLICIT_ITERATIONS = 10;

/**
 * Nanoseconds of the grid engine, one thread: a step's fixed part, and a stored cell's share of a
 * step (advection, pressure, the tracker: `cellStep`, `particleLevelSet` more for the particle
 * level set's escaped particles and correction; smoke's cells: `smokeCellStep`), plus a
 * viscous liquid's solve, `viscosity` × (ν Δt / h²)^¼ for "variational" (three components coupled)
 * and `implicitViscosity` × the same for "implicit" / "variable" (Carlson's per-component solve;
 * its conjugate-gradient iterations grow about as the fourth root of ν Δt / h²), and a
 * viscoelastic liquid's strain update (`viscoelastic`); fitted to bench/frame-cpu.ts --stages on
 * the shipped scenes (BENCHMARKS.md), the liquid's terms (not smoke's) since scaled together to
 * the CPU times of "Issue 27 audit". Smoke stores its whole box (grid/smoke.ts) and steps at its
 * plume's buoyant rise (gridSpeed): `smokeCellStep` refitted to smoke-plume at 4 steps of the box's
 * 12 000 cells (BENCHMARKS.md, "Every scene as a viewer sees it, second half"). `cellStep` holds
 * the pressure solve at the 100–200 iterations it takes where the liquid moves (`pressure`: its
 * share, 14 % of honey-drop-grid's and cup-pour's frames, 375–940 ns); a pool at rest (calmPool)
 * solves in one and is spared it.
 */
export const GRID_NS = { step: 14_400, cellStep: 2000, particleLevelSet: 720, smokeCellStep: 1000, viscosity: 1800, implicitViscosity: 580, viscoelastic: 720, pressure: 500 } as const;

/**
 * Cells the grid stores for `liquidCells` of liquid: the liquid, grid.bufferCells layers around a
 * compact body of it (over the share of its surface no solid lies against: openShare), and around
 * each spout's stream down to the floor (a thin stream is mostly buffer: honey-coil's 3 mm rope on
 * 2 mm cells stores 10 cells for each liquid one).
 */
export function gridCells(scene: Scene, liquidCells: number): number {
  const h = scene.grid.cellSize, layers = scene.grid.bufferCells;
  let cells = liquidCells + 2 * layers * 4.84 * liquidCells ** (2 / 3) * openShare(scene);
  const floor = estimateScene(scene).gridBounds.min[1];
  for (const s of scene.sources) {
    const r = s.shape === 'disk' ? s.radius : Math.hypot(s.size[0], s.size[1]) / 2;
    cells += (Math.PI * (r + 2 * layers * h) ** 2 * Math.max(0, s.center[1] - streamEnd(scene, s.center, floor))) / h ** 3;
  }
  // A coat a spout lays grows with the liquid it has poured (bench/frame-cpu.ts predicts a
  // spout-fed scene at the liquid it holds part-way).
  const total = estimateScene(scene).liquidVolume / h ** 3;
  return cells + drapedFilmCells(scene, total > 0 ? Math.min(1, liquidCells / total) : 1);
}

/**
 * Cells a film one cell thick stores where a liquid body falls onto a solid body under it and drapes
 * over it, or a spout pours onto a driven solid that carries it all round (honey-drop-grid: the
 * drop coats the 5 cm ball and hangs from it to the floor; 4 401 liquid cells for 2 000 cells of
 * honey, 14 781 stored, at 0.45 s). Marker tracking and the particle
 * level set keep such a film however thin it runs (trackers/marker-sheets.ts, pls-cells.ts
 * keepSheets), so it costs what its area does, not what its volume does: a surface of area A
 * passes through about 1.5 A / h² cells (Σ|n_a| over the axes, averaged over directions), each
 * stored with grid.bufferCells layers over it and the solid's cell under it. The plain level set
 * thins such a film away and is not counted.
 */
export function drapedFilmCells(scene: Scene, poured = 1): number {
  if (scene.grid.tracking === 'levelset') return 0;
  const h = scene.grid.cellSize, down = scene.gravity[1] <= 0 ? 1 : -1;
  let area = 0;
  try {
    const solids = scene.bodies.filter((b) => scene.materials[b.material].kind === 'solid' && b.shape.type !== 'plane').map((b) => compileShape(b.shape, scene.assets.meshes));
    for (const b of scene.bodies) {
      if (scene.materials[b.material].kind !== 'liquid') continue;
      const liquid = compileShape(b.shape, scene.assets.meshes).bounds;
      const bottom = down > 0 ? liquid.min[1] : -liquid.max[1];
      for (const sh of solids) {
        const top = down > 0 ? sh.bounds.max[1] : -sh.bounds.min[1];
        // Under it: wholly below the liquid's bottom, and overlapping its footprint.
        const under = top < bottom && [0, 2].every((a) => sh.bounds.min[a] < liquid.max[a] && sh.bounds.max[a] > liquid.min[a]);
        if (under) area += sh.area;
      }
    }
    // A spout's stream that lands on a driven solid (spinning, moving) is carried round it and
    // coats all of it the same way (honey-on-spinner's rod: 11 500 cells stored from 2 s for 1 414
    // cells of honey, 5 563 predicted without the coat); on a static solid it lies where it lands.
    // `poured`: the share of the scene's liquid in so far (1 for info's figure).
    for (const s of scene.sources) {
      if (scene.materials[s.material]?.kind !== 'liquid') continue;
      for (const b of scene.bodies) {
        if (scene.materials[b.material].kind !== 'solid' || b.shape.type === 'plane' || b.motion.type === 'static' || b.motion.type === 'free') continue;
        const box = compileShape(b.shape, scene.assets.meshes);
        const top = down > 0 ? box.bounds.max[1] : -box.bounds.min[1];
        if (top < down * s.center[1] && [0, 2].every((a) => box.bounds.min[a] <= s.center[a] && box.bounds.max[a] >= s.center[a])) area += poured * box.area;
      }
    }
  } catch {
    return 0; // an unreadable shape is refused elsewhere
  }
  return ((1.5 * area) / (h * h)) * (2 + scene.grid.bufferCells);
}

/**
 * The share of the liquid bodies' surface that no solid body lies against: the grid's buffer
 * layers stop at a solid (grid/update-grid.ts), so liquid held in a container keeps buffer cells
 * over its free surface only (cup-pour's honey in its cup: 0.37; 3 141 cells stored measured for
 * 1 675 liquid ones, 2 689 so, 4 406 from the whole shell). Sampled on the cells within a cell of
 * each liquid body, in the rest pose; 1 without liquid bodies. The box's walls are not counted: a
 * column against them (dam-break) runs out over the floor and its stored cells are the whole
 * shell's.
 */
export function openShare(scene: Scene): number {
  const h = scene.grid.cellSize, solids: ReturnType<typeof compileShape>[] = [];
  let band = 0, open = 0;
  try {
    for (const b of scene.bodies) if (scene.materials[b.material].kind === 'solid' && b.shape.type !== 'plane') solids.push(compileShape(b.shape, scene.assets.meshes));
    if (solids.length === 0) return 1;
    for (const b of scene.bodies) {
      if (scene.materials[b.material].kind !== 'liquid') continue;
      const shape = compileShape(b.shape, scene.assets.meshes), lo = shape.bounds.min, hi = shape.bounds.max;
      const near = solids.filter((sh) => [0, 1, 2].every((a) => sh.bounds.min[a] <= hi[a] + h && sh.bounds.max[a] >= lo[a] - h));
      if (near.length === 0) {
        // Nothing against it: all of its band, about area / h² cells, is open.
        band += shape.area / (h * h);
        open += shape.area / (h * h);
        continue;
      }
      // At most about 48³ samples a body, each standing for (step / h)³ cells.
      const step = Math.max(h, Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 48), w = (step / h) ** 3;
      for (let x = lo[0] - h; x <= hi[0] + h; x += step)
        for (let y = lo[1] - h; y <= hi[1] + h; y += step)
          for (let z = lo[2] - h; z <= hi[2] + h; z += step) {
            const d = shape.sdf(x, y, z);
            if (!(d > 0 && d <= h)) continue;
            band += w;
            if (!near.some((sh) => sh.sdf(x, y, z) < 0.5 * h)) open += w;
          }
    }
  } catch {
    return 1; // an unreadable shape is refused elsewhere
  }
  return band > 0 ? open / band : 1;
}

/** Where a spout's stream from `c` ends: the top of the highest solid under it (honey-on-spinner's spinner), else the floor. */
function streamEnd(scene: Scene, c: readonly number[], floor: number): number {
  let end = floor;
  for (const b of scene.bodies) {
    if (scene.materials[b.material].kind === 'liquid' || b.shape.type === 'plane') continue;
    try {
      const box = compileShape(b.shape, scene.assets.meshes).bounds;
      if (c[0] >= box.min[0] && c[0] <= box.max[0] && c[2] >= box.min[2] && c[2] <= box.max[2] && box.max[1] < c[1]) end = Math.max(end, box.max[1]);
    } catch {
      // an unreadable shape is refused elsewhere
    }
  }
  return end;
}


/** The grid's step limit from a viscoelastic liquid's elastic waves, 0.5 h / √(μ_E / ρ) (grid/viscoelastic.ts), s; Infinity without one. */
function elasticStep(scene: Scene): number {
  let dt = Infinity;
  for (const m of Object.values(scene.materials)) {
    if (m.kind !== 'liquid' || !m.viscoelastic) continue;
    dt = Math.min(dt, elasticDtLimit(m.viscoelastic, m.density, scene.grid.cellSize));
  }
  return dt;
}

/** ns a stored cell costs a grid step (GRID_NS) at steps of dt seconds. */
function gridCellStepNs(scene: Scene, dt: number): number {
  if (scene.grid.smoke) return GRID_NS.smokeCellStep;
  const h = scene.grid.cellSize;
  const base = GRID_NS.cellStep + (scene.grid.tracking === 'particle-levelset' ? GRID_NS.particleLevelSet : 0) - (calmPool(scene) ? GRID_NS.pressure : 0);
  let ns = base, viscous = 0;
  for (const m of Object.values(scene.materials)) {
    if (m.kind !== 'liquid') continue;
    if (m.viscoelastic && m.viscoelastic.elasticModulus > 0) ns = base + GRID_NS.viscoelastic;
    const model = m.grid.viscosityModel, x = (kinematicViscosity(m) * dt) / (h * h);
    if (!(x > 0) || model === 'explicit') continue;
    viscous = Math.max(viscous, (model === 'variational' ? GRID_NS.viscosity : GRID_NS.implicitViscosity) * x ** 0.25);
  }
  return ns + viscous;
}

/**
 * Density passes a sub-timestep of 1/120 s a body of liquid takes in a typical scene (at most
 * particle.densityIterations): 1.6–10 on the shipped scenes, 5 a middle.
 */
const TYPICAL_DENSITY_PASSES = 5;
const GEL_DENSITY_PASSES = 2;
/**
 * Density passes a sub-timestep of liquid a spout lays down: a stream a few particles across, and
 * the coat or rope it builds, is mostly surface, and the first pass finds its mean compression under
 * particle.densityTolerance (honey-on-spinner 1.0 a sub-timestep with all 1 413 particles in,
 * honey-coil 0.3 with 5 654; a body of liquid that falls and spreads takes 4–8.5: paint-drops'
 * drops, honey-drop, cup-pour). Weighed against the bodies' TYPICAL_DENSITY_PASSES by volume.
 */
const STREAM_DENSITY_PASSES = 1;

/** The share of a scene's liquid volume its spouts put in (estimate.ts counts it as they emit to the end of the run). */
export function spoutShare(scene: Scene): number {
  const total = estimateScene(scene).liquidVolume;
  if (!(total > 0)) return 0;
  let poured = 0;
  for (const s of scene.sources) {
    if (scene.materials[s.material]?.kind !== 'liquid') continue;
    const area = s.shape === 'disk' ? Math.PI * s.radius * s.radius : s.size[0] * s.size[1];
    poured += area * s.speed * Math.max(0, Math.min(s.end ?? scene.duration, scene.duration) - s.start);
  }
  return Math.min(1, poured / total);
}


/** A frame over this many seconds is worth a warning before the run starts. */
export const SLOW_FRAME_SECONDS = 10;

export interface ViscosityCost {
  material: string;
  /** Kinematic viscosity asked for, m²/s. */
  viscosity: number;
  /** Sweeps a sub-timestep the exchange needs, and those it gets (at most MAX_VISCOSITY_SWEEPS). */
  sweepsNeeded: number;
  sweeps: number;
}

export interface FrameCost {
  particle: {
    substeps: number;
    moves: number;
    viscosity: ViscosityCost[];
    /** Pieces a sub-timestep is split into on average over the run by the liquid's fall (fallPieces). */
    split: number;
    /** Water's pressure stage (pressure-phases.ts): the most passes and pieces a sub-timestep takes, and the share of the run it takes them for. */
    pressure: { passes: number; pieces: number; share: number };
    /** Rough wall time a frame on one thread, s, at the largest liquid particle count. */
    seconds: number;
  };
  grid: {
    /** Steps a frame: at least (grid.maxDt), at most (grid.minDt, or the cap). */
    minSteps: number;
    maxSteps: number;
    /** Steps a frame the CFL condition asks for at the speed the liquid is likely to reach (gridSpeed). */
    steps: number;
    /** Liquid cells at the largest liquid volume, and the cells stored with them (buffer layers, spouts' streams). */
    liquidCells: number;
    cells: number;
    /** Rough CPU time a frame, s (the mean over the run where a container pours). */
    seconds: number;
    /** Where a tipping container pours its liquid out (pour-cost.ts): the share of the run it pours for, and its steps a frame and cells then (steps and cells above are the run's means). */
    pour?: { share: number; steps: number; cells: number };
  };
  /** Sentences for the user: caps that bind, frames that take long. */
  warnings: string[];
}

/** Counts to predict at instead of the scene's estimate (bench/frame-cpu.ts: at a measured state). */
export interface CostAt {
  liquidParticles?: number;
  liquidCells?: number;
}

export function predictFrameCost(scene: Scene, at: CostAt = {}): FrameCost {
  const P = scene.particle;
  const dtSub = 1 / (scene.fps * P.substeps);
  const viscosity: ViscosityCost[] = [];
  for (const [name, m] of Object.entries(scene.materials)) {
    if (m.kind !== 'liquid') continue;
    const v = calibratedExchangeRate(m, P.radius, dtSub);
    const needed = viscositySweeps(v, dtSub);
    viscosity.push({ material: name, viscosity: kinematicViscosity(m), sweepsNeeded: needed, sweeps: Math.min(needed, MAX_VISCOSITY_SWEEPS) });
  }
  // The sweeps of a sub-timestep are set by the most viscous liquid present (viscosity.ts).
  const sweeps = viscosity.reduce((s, c) => Math.max(s, c.sweeps), 0);
  // Shorter sub-timesteps leave the pressure less to correct: about (δt / (1/120 s))² of the passes.
  // A gel's springs hold its spacing: about GEL_DENSITY_PASSES (jello-drop 2.8, jelly-block 1.6).
  const gel = GelState.of(scene);
  // Liquid a spout lays down takes STREAM_DENSITY_PASSES, weighed by its share of the volume.
  const stream = spoutShare(scene);
  const bodyPasses = gel ? GEL_DENSITY_PASSES : TYPICAL_DENSITY_PASSES * Math.min(1, (120 * dtSub) ** 2);
  const passes = Math.min(P.densityIterations, (1 - stream) * bodyPasses + stream * STREAM_DENSITY_PASSES);
  const est = estimateScene(scene);
  const liquidParticles = at.liquidParticles ?? est.liquidParticles;
  const N = PARTICLE_NS;
  // Gels tie each particle to its neighbours with springs (Clavet et al. 2005), at a cost of their
  // own, and cut a sub-timestep into pieces for their elastic waves (gel.ts).
  const pieces = Math.min(MAX_SUBDIVISION, gelPieces(gel, dtSub, P.moves));
  const thermal = scene.materialNames.some((name) => {
    const m = scene.materials[name];
    return m.kind === 'liquid' && temperatureLaw(m) !== null;
  });
  const liquids = scene.materialNames.filter((name) => scene.materials[name].kind === 'liquid').length;
  const mixingWidth = P.mixingDiffusivity > 0 && liquids >= 2 ? scene.materialNames.length : 0;
  // The pressure stage (pressure-phases.ts): its passes (two solves with pressureAfterViscosity, the
  // default; DEEP_PASSES times as many in deep water-like liquid), the filter's steps and the
  // filter's pressure split, at the liquid's starting height for the start of the run and at its
  // resting depth for the rest.
  const phases = pressurePhases(scene);
  // Closed domain walls take part in every pass (density-walls.ts): a pass costs more beside them.
  const walls = scene.domain !== undefined && P.walls;
  const thin = P.thinPull > 0 ? thinShare(scene, openShare(scene), stream) * N.thinPull : 0;
  const fixed = N.substep + P.moves * N.move + N.density + passes * (N.densityPass + (walls ? N.wallPass : 0)) + (thermal ? N.heat : 0) + mixingWidth * N.mixingWidth + (gel ? N.gel : 0) + thin;
  const solves = P.densitySolver === 'pbf' && P.pressureIterations > 0 ? (solvesTwice(P) ? 2 : 1) : 0;
  const pressureNs = (load: PressureLoad) => solves * N.pressureSolve + (P.densitySolver === 'pbf' ? load.passes * N.pressurePass : 0) + load.filterSteps * N.filterStep;
  const viscous = (sweepsPerSubstep: number) =>
    P.viscositySolver === 'implicit' ? N.implicit + IMPLICIT_ITERATIONS * N.implicitIteration : N.exchange + sweepsPerSubstep * N.sweep;
  // A fast fall splits sub-timesteps (fallPieces), on top of a gel's pieces; the engine takes the
  // most pieces any of its rules asks (step.ts), the pressure split's among them.
  const fall = fallPieces(scene), split = pieces * fall;
  const perSubstep = (sweepsPerSubstep: number) => {
    const at = (load: PressureLoad) => Math.max(split, load.pieces) * (fixed + pressureNs(load) + viscous(sweepsPerSubstep));
    return phases.startShare * at(phases.start) + (1 - phases.startShare) * at(phases.rest);
  };
  const secondsAt = (substeps: number, sweepsPerSubstep: number) => (liquidParticles * substeps * perSubstep(sweepsPerSubstep)) / 1e9;
  const heavier = phases.start.passes * phases.start.pieces > phases.rest.passes * phases.rest.pieces && phases.startShare > 0;
  const heaviest = heavier ? { passes: phases.start.passes, pieces: phases.start.pieces, share: phases.startShare } : { passes: phases.rest.passes, pieces: phases.rest.pieces, share: 1 };
  const seconds = secondsAt(P.substeps, sweeps);

  const frame = 1 / scene.fps;
  const minSteps = Math.min(MAX_GRID_STEPS_PER_FRAME, Math.ceil(frame / scene.grid.maxDt - 1e-9));
  const maxSteps = Math.min(MAX_GRID_STEPS_PER_FRAME, Math.ceil(frame / scene.grid.minDt - 1e-9));
  const h = scene.grid.cellSize;
  const dtCfl = (scene.grid.cfl * h) / Math.max(1e-9, gridSpeed(scene));
  const steps = Math.max(minSteps, Math.min(maxSteps, Math.ceil(frame / Math.min(scene.grid.maxDt, dtCfl, elasticStep(scene)) - 1e-9)));
  // Smoke fills the box: every box cell is simulated air (grid/smoke.ts), however much smoke is in.
  const box = est.gridBounds;
  const liquidCells = scene.grid.smoke ? [0, 1, 2].reduce((n, a) => n * Math.round((box.max[a] - box.min[a]) / h), 1) : at.liquidCells ?? est.liquidVolume / h ** 3;
  const heldCells = gridCells(scene, liquidCells);
  const stepsFor = (speed: number) => Math.max(minSteps, Math.min(maxSteps, Math.ceil(frame / Math.min(scene.grid.maxDt, (scene.grid.cfl * h) / Math.max(1e-9, speed), elasticStep(scene)) - 1e-9)));
  const secondsFor = (n: number, c: number) => (n * (GRID_NS.step + c * gridCellStepNs(scene, frame / n))) / 1e9;
  // A tipping container pours its liquid onto the floor for the last `share` of the run
  // (pour-cost.ts): steps at the thread's landing speed, cells by the coat, puddle and thread.
  const pour = scene.grid.smoke || at.liquidCells !== undefined ? null : pourPhase(scene);
  const pourSteps = pour ? stepsFor(pour.speed) : 0, pourShare = pour ? pour.share : 0;
  const gridSeconds = (1 - pourShare) * secondsFor(steps, heldCells) + (pour ? pourShare * secondsFor(pourSteps, pour.cells) : 0);
  const cells = (1 - pourShare) * heldCells + (pour ? pourShare * pour.cells : 0);
  const meanSteps = (1 - pourShare) * steps + pourShare * pourSteps;

  const warnings: string[] = [];
  // A sub-timestep's sweeps are set by the most viscous liquid, and the cap scales every liquid's
  // exchange alike (viscosity.ts); the implicit solve has no such ceiling.
  const worst = viscosity.reduce<ViscosityCost | null>((w, c) => (w === null || c.sweepsNeeded > w.sweepsNeeded ? c : w), null);
  if (P.viscositySolver === 'exchange' && worst && worst.sweepsNeeded > worst.sweeps) {
    const substeps = Math.ceil((P.substeps * worst.sweepsNeeded) / MAX_VISCOSITY_SWEEPS);
    warnings.push(
      `particle engine: ${worst.material} needs ${fmtInt(worst.sweepsNeeded)} viscosity sweeps a sub-timestep, over the cap of ${MAX_VISCOSITY_SWEEPS}: the liquids run about ${fmtFactor(worst.sweepsNeeded / worst.sweeps)} less viscous than asked (particle.substeps ${fmtInt(substeps)} gives them all of it, at about ${fmtFrameTime(secondsAt(substeps, MAX_VISCOSITY_SWEEPS))} a frame)`,
    );
  }
  if (seconds > SLOW_FRAME_SECONDS) {
    const frames = Math.ceil(scene.duration * scene.fps - 1e-9);
    warnings.push(`particle engine: about ${fmtDuration(seconds)} a frame on one thread (${fmtInt(est.liquidParticles)} liquid particles × ${P.substeps} substeps), ${fmtDuration(seconds * frames)} for ${fmtInt(frames)} frames`);
  }
  // Explicit viscosity (Cline §4.2) is stable only for ν Δt / h² ≤ 1/6 (grid/timestep.ts).
  for (const [name, m] of Object.entries(scene.materials)) {
    if (m.kind !== 'liquid' || m.grid.viscosityModel !== 'explicit' || scene.grid.smoke) continue;
    const nu = kinematicViscosity(m);
    if (!(nu > 0)) continue;
    const dtv = (h * h) / (6 * nu), need = Math.ceil(frame / dtv - 1e-9);
    const capped = dtv < scene.grid.minDt || need > MAX_GRID_STEPS_PER_FRAME;
    if (capped || need > EXPLICIT_STEPS_WARN) {
      warnings.push(
        `grid engine: materials.${name} uses explicit viscosity, stable only for steps ≤ ${dtv.toPrecision(2)} s (h²/6ν): ${fmtInt(need)} steps a frame${capped ? `, past what grid.minDt (${scene.grid.minDt} s) or the cap of ${fmtInt(MAX_GRID_STEPS_PER_FRAME)} steps allow, so the steps are longer than that and the liquid will blow up` : ''}; set its grid.viscosityModel to "variational" (or "implicit"), which has no such limit`,
      );
    }
  }
  if (Math.ceil(frame / scene.grid.minDt - 1e-9) > MAX_GRID_STEPS_PER_FRAME) {
    warnings.push(`grid engine: grid.minDt allows ${fmtInt(Math.ceil(frame / scene.grid.minDt - 1e-9))} steps a frame; a frame takes at most ${fmtInt(MAX_GRID_STEPS_PER_FRAME)}, lengthening its last steps where the CFL condition asks for more`);
  }
  warnings.push(...streamResolutionWarnings(scene), ...pourResolutionWarnings(scene));
  return { particle: { substeps: P.substeps, moves: P.moves, viscosity, split: fall, pressure: heaviest, seconds }, grid: { minSteps, maxSteps, steps: pour ? meanSteps : steps, liquidCells, cells, seconds: gridSeconds, ...(pour ? { pour: { share: pour.share, steps: pourSteps, cells: pour.cells } } : {}) }, warnings };
}

/** Explicit grid viscosity needing more steps a frame than this is worth a warning (its cost). */
const EXPLICIT_STEPS_WARN = 200;

/** A time a frame: `40 ms`, `1.3s`, `2m05s`. */
export function fmtFrameTime(seconds: number): string {
  return seconds < 1 ? `${Math.max(1, Math.round(seconds * 1000))} ms` : fmtDuration(seconds);
}

function fmtFactor(x: number): string {
  return x < 10 ? `${x.toFixed(1)}×` : `${fmtInt(x)}×`;
}
