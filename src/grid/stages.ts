/**
 * The stages of the basic simulator (Cline et al. §4, Figure 3) with the sources and sinks of §5
 * and the moving objects of §6, each a named, timed step of `GridSimulation.advance`. Which of
 * them a simulation runs, and in what order, is `buildPipeline`'s (pipeline.ts).
 */
import { SimulationError } from '../api.ts';
import { advectVelocity } from './advect.ts';
import { maccormackOnTeam } from './advect-job.ts';
import { applySolidVelocities } from './boundary.ts';
import { extrapolateVelocity } from './extrapolate.ts';
import type { Stage } from './pipeline.ts';
import { applySpoutVelocity, spoutActive } from './sources.ts';
import type { GridSimulation } from './step.ts';
import { FACE_ACTIVE as FACE_ACTIVE_ } from './store.ts';
import type { SurfaceTracker } from './trackers/tracker.ts';

// Imported bindings are getters under tsx's module transform (see store.ts users).
const FACE_ACTIVE = FACE_ACTIVE_;

/** §5: blob sources whose start has come add their liquid; spouts emit theirs. */
export const sources: Stage = {
  name: 'sources',
  run(sim, dt) {
    for (const blob of sim.blobs) {
      if (blob.done || sim.time + dt < blob.body.start) continue;
      blob.done = true;
      const mat = sim.scene.materials[blob.body.material];
      const temp = mat.kind === 'liquid' ? (mat.grid.temperature?.initial ?? sim.ambientTemperature) : sim.ambientTemperature;
      sim.addLiquid(blob.shape, blob.body.velocity, temp, blob.material);
    }
    const liquids = sim.ext.liquids;
    sim.spouts.forEach((sp, i) => (liquids ? liquids.emitSpout(sim, sp, i, dt) : sim.tracker.emitSpout(sim, sp, dt)));
  },
};

/** Step 2 (Figure 4) with the solid velocities (3g) and a first extrapolation (3f) into new cells. */
export const updateGrid: Stage = {
  name: 'grid',
  run(sim) {
    sim.solids.setTime(sim.time);
    sim.updateGrid();
    applySolidVelocities(sim.store, sim.d);
    extrapolateVelocity(sim.store, sim.layers, sim.tracker.extrapolateAlongNormals);
    applySolidVelocities(sim.store, sim.d);
    separateLeaving(sim);
    sim.keepStartVelocity();
  },
};

/** Step 3a: convection, semi-Lagrangian or MacCormack (advect.ts). */
export const advection: Stage = {
  name: 'advection',
  run(sim, dt) {
    // MacCormack's passes run through the store's job runner: split over the thread team where
    // there is one (advect-job.ts). A store without one (the smoke's) steps here.
    if (sim.scene.grid.advection === 'maccormack' && sim.store.runner !== null) maccormackOnTeam(sim.store, sim.d, dt, sim.advectionScratch);
    else advectVelocity(sim.store, sim.d, dt, sim.scene.grid.advection, sim.advectionScratch);
    applySolidVelocities(sim.store, sim.d);
    sim.checkVelocity();
  },
};

/** Step 3b: gravity on every face that borders liquid, and the spouts' s·n (§5). */
export const forces: Stage = {
  name: 'forces',
  run(sim, dt) {
    const s = sim.store, g = sim.scene.gravity;
    for (let a = 0; a < 3; a++) {
      const dv = dt * g[a];
      if (dv === 0) continue;
      const ua = s.u[a];
      for (let c = 0; c < s.count; c++) if (s.face[3 * c + a] === FACE_ACTIVE) ua[c] += dv;
    }
    for (const sp of sim.spouts) if (spoutActive(sp, sim.time)) applySpoutVelocity(s, sim.d, sp);
  },
};

/**
 * Viscosity acts on a divergence-free field: projecting once before it keeps the no-slip walls
 * from shearing the hydrostatic response to gravity (a tank at rest stays at rest), and the final
 * projection removes what viscosity adds. The first solve starts from the last pressure.
 */
export const projectBeforeViscosity: Stage = {
  name: 'pressure-pre',
  when: (sim) => sim.viscous(),
  run(sim) {
    const g = sim.scene.grid;
    sim.ext.density?.update(sim);
    const r = sim.pressure.project(sim.store, g.tolerance, g.maxIterations, true);
    sim.count('pressureIterations', r.iterations);
    // The solves added for rows released at a solid (pressure.ts, separating walls).
    if (sim.pressure.releaseSolves > 0) sim.count('releaseSolves', sim.pressure.releaseSolves);
    if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`pressure solve failed at step ${sim.steps}`, 'pressure-pre', sim.frame);
  },
};

/**
 * Step 3c in the scene's model: explicit (equation 7), implicit (§7.1), variable (§7.2) or
 * variational (Batty & Bridson 2008, viscosity-variational.ts).
 */
export const viscosity: Stage = {
  name: 'viscosity',
  when: (sim) => sim.viscous(),
  run(sim, dt) {
    const g = sim.scene.grid, density = sim.ext.density;
    if (sim.variational) {
      // The solve reads the air faces beside the surface: they must continue the liquid's velocity
      // as the forces left it, or a rigidly falling blob is braked by air one step behind in gravity.
      extrapolateVelocity(sim.store, sim.layers, sim.tracker.extrapolateAlongNormals);
      applySolidVelocities(sim.store, sim.d);
      const s = sim.store, phi = sim.variationalPhi();
      const own = sim.liquidLogNu() ?? (sim.temperatureLaw ? sim.viscosity.logNu : null);
      // Liquids of different densities: μ / ρ₀ = ρ ν / ρ₀ per cell and ρ_f / ρ₀ per face (variable-density.ts).
      const logNu = density ? density.viscousLogNu(sim, own, sim.nu) : own;
      sim.variational.mass = density ? density.faceMass(sim) : null;
      const r = sim.variational.solve(s, sim.d, phi, sim.nu, logNu, dt, g.tolerance, g.maxIterations);
      sim.count('viscosityIterations', r.iterations);
      if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`viscosity solve failed at step ${sim.steps}`, 'viscosity', sim.frame);
    } else {
      // The temperature's log ν (variable model) is kept for the next step; the liquids' is lent for this solve.
      const own = sim.viscosityModel === 'variable' ? sim.viscosity.logNu : null;
      sim.viscosity.logNu = sim.liquidLogNu() ?? own;
      if (density) sim.viscosity.logNu = density.viscousLogNu(sim, sim.viscosity.logNu, sim.nu);
      sim.viscosity.mass = density ? density.faceMass(sim) : null;
      if (sim.viscosityModel === 'explicit') sim.viscosity.explicit(sim.store, sim.d, sim.nu, dt);
      else {
        sim.viscosity.fraction = sim.viscosity.objectWall === 'film' && sim.solids.list.length > 0 ? sim.liquidFractions() : null;
        const r = sim.viscosity.implicit(sim.store, sim.d, sim.nu, dt, g.tolerance, g.maxIterations);
        sim.count('viscosityIterations', sim.viscosity.iterations);
        if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`viscosity solve failed at step ${sim.steps}`, 'viscosity', sim.frame);
      }
      sim.viscosity.logNu = own;
    }
    applySolidVelocities(sim.store, sim.d);
    sim.checkVelocity();
  },
};

/** §6, equation 16: liquid beside a moving object is pushed along its normal. */
export const movingObjects: Stage = {
  name: 'objects',
  run(sim) {
    sim.count('pushedCells', sim.solids.pushNormals(sim.store));
    separateLeaving(sim, true);
  },
};

/** Steps 3d and 3e: the pressure that makes u divergence free, applied. */
export const pressure: Stage = {
  name: 'pressure',
  run(sim) {
    const g = sim.scene.grid;
    sim.ext.density?.update(sim);
    const r = sim.pressure.project(sim.store, g.tolerance, g.maxIterations, !sim.viscous());
    sim.count('pressureIterations', r.iterations);
    if (sim.pressure.releaseSolves > 0) sim.count('releaseSolves', sim.pressure.releaseSolves);
    if (!r.converged) sim.count('pressureUnconverged', 1);
    if (!Number.isFinite(r.relativeResidual)) throw new SimulationError(`pressure solve failed at step ${sim.steps}`, 'pressure', sim.frame);
    sim.checkVelocity();
  },
};

/** Step 3f (Figure 7). */
export const extrapolation: Stage = { name: 'extrapolation', run: (sim) => extrapolateVelocity(sim.store, sim.layers, sim.tracker.extrapolateAlongNormals) };

/** Step 3g. */
export const solidVelocities: Stage = {
  name: 'solids',
  run(sim) {
    applySolidVelocities(sim.store, sim.d);
    separateLeaving(sim);
  },
};

/**
 * Where the liquid separates from objects, a face an object leaves the liquid through holds the
 * liquid's velocity, not the object's (solids.ts separateLeaving): for the projection, and in the
 * step's start and end velocities the surface is moved by.
 */
function separateLeaving(sim: GridSimulation, count = false): void {
  if (!(sim.trailingFill > 0)) return;
  const faces = sim.solids.separateLeaving(sim.store);
  if (count) sim.count('separatedFaces', faces);
}

/**
 * Step 4: the tracker moves the surface through the step's mean velocity (GridSimulation.
 * midStepVelocity) for Δt; then the sinks take their liquid (§5).
 */
export function tracking(tracker: SurfaceTracker): Stage {
  return {
    name: 'tracking',
    run(sim, dt) {
      const s = sim.store, end = s.u;
      s.u = sim.midStepVelocity();
      try {
        tracker.move(sim, dt);
        sim.ext.liquids?.move(sim, dt);
      } finally {
        s.u = end;
      }
      applySinks(sim, tracker, dt);
    },
  };
}

function applySinks(sim: GridSimulation, tracker: SurfaceTracker, dt: number): void {
  const t = sim.time + dt;
  for (const sink of sim.sinks) {
    if (t < sink.start || sim.time > sink.end) continue;
    tracker.sink(sim, sink.shape);
  }
}
