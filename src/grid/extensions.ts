/**
 * The grid engine's extensions a scene can ask for (Cline et al. §8 viscoelastic fluids, §9 smoke
 * and vorticity confinement; Foster & Metaxas 1996 §5 buoyant bodies and §4.3 spray), created per
 * simulation from its scene, with the stages `buildPipeline` places for them and their part of
 * the public output and of checkpoints. A scene that asks for none gets none of this.
 */
import type { FluidPoints } from '../api.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import { quatToMatrix } from '../scene/motion.ts';
import { BuoyantBodies } from './buoyancy.ts';
import { LiquidTracers } from './liquid-tracers.ts';
import type { Stage } from './pipeline.ts';
import { Smoke } from './smoke.ts';
import { Spray } from './spray.ts';
import { VariableDensity } from './variable-density.ts';
import type { GridSimulation } from './step.ts';
import { Viscoelastic } from './viscoelastic.ts';
import { VorticityConfinement } from './vorticity.ts';

export interface GridExtensions {
  viscoelastic: Viscoelastic | null;
  smoke: Smoke | null;
  vorticity: VorticityConfinement | null;
  bodies: BuoyantBodies | null;
  spray: Spray | null;
  /** Which liquid is where, where a scene puts in several (their colours, and their viscosities where these differ). */
  liquids: LiquidTracers | null;
  /** ρ per cell and face from those tracers, where the liquids differ in density (variable-density.ts). */
  density: VariableDensity | null;
}

/** The extensions `sim.scene` asks for (smoke excludes the liquid-only ones). */
export function createExtensions(sim: GridSimulation): GridExtensions {
  const g = sim.scene.grid, liquid = sim.liquid;
  const ve = liquid?.viscoelastic;
  const viscoelastic = ve && !g.smoke ? new Viscoelastic(ve, liquid!.density) : null;
  if (viscoelastic) viscoelastic.surface = g.elasticSurface ?? 'cells';
  const liquids = LiquidTracers.create(sim.scene, sim.nu);
  return {
    viscoelastic,
    smoke: g.smoke ? new Smoke(g.smoke, sim) : null,
    vorticity: g.vorticityConfinement > 0 ? new VorticityConfinement() : null,
    bodies: BuoyantBodies.create(sim),
    spray: g.spray && !g.smoke ? new Spray(g.spray, sim.scene.seed) : null,
    liquids,
    density: VariableDensity.create(sim.scene, liquids, sim.liquidIndex),
  };
}

/** §8, Figure 12 before convection: strain rate, yield, decay, advection of the strain. */
export function viscoelasticStrain(ve: Viscoelastic): Stage {
  return {
    name: 'viscoelastic-strain',
    run(sim, dt) {
      ve.updateStrain(sim, dt);
      sim.count('yieldedCells', ve.yielded);
    },
  };
}

/** §8, equation 23: the elastic force μ_E ∇·E. */
export function elasticForce(ve: Viscoelastic): Stage {
  return {
    name: 'elastic-force',
    run(sim, dt) {
      ve.applyElasticForce(sim, dt);
      sim.checkVelocity();
    },
  };
}

/** §9.3, equation 29. */
export function vorticityConfinement(vc: VorticityConfinement): Stage {
  return { name: 'vorticity', run: (sim, dt) => vc.apply(sim.store, sim.d.h, sim.scene.grid.vorticityConfinement, dt) };
}

/** Foster & Metaxas §5: forces from the pressure just solved move the free bodies. */
export function buoyantBodies(bodies: BuoyantBodies): Stage {
  return { name: 'buoyant-bodies', run: (sim, dt) => bodies.step(sim, dt) };
}

/** Foster & Metaxas §4.3: spray thrown off the fast-rising surface. */
export function sprayStage(spray: Spray): Stage {
  return {
    name: 'spray',
    run(sim, dt) {
      spray.step(sim, dt);
      sim.count('sprayParticles', spray.count);
    },
  };
}

/** §9, Figure 13: the smoke's grid (the whole box), forces (sources, buoyancy, wind) and transport. */
export function smokeStages(smoke: Smoke): { grid: Stage; forces: Stage; advect: Stage } {
  return {
    grid: { name: 'smoke-grid', run: (sim) => smoke.updateGrid(sim) },
    forces: { name: 'smoke-forces', run: (sim, dt) => smoke.forces(sim, dt) },
    advect: { name: 'smoke-advect', run: (sim, dt) => smoke.advect(sim, dt) },
  };
}

/**
 * What the public Simulation shows of the extensions: for smoke, the cells holding smoke (their
 * `densities` are the smoke density) instead of markers; spray particles appended to the markers.
 */
export function extensionFluidPoints(sim: GridSimulation, base: FluidPoints): FluidPoints {
  const e = sim.ext;
  if (e.smoke) return e.smoke.points(sim);
  const spray = e.spray;
  if (!spray || spray.count === 0) return base;
  const n = base.count + spray.count;
  const positions = new Float32Array(3 * n), velocities = new Float32Array(3 * n), materials = new Uint16Array(n);
  positions.set(base.positions); velocities.set(base.velocities); materials.set(base.materials);
  for (let q = 0; q < 3 * spray.count; q++) {
    positions[3 * base.count + q] = spray.pos[q];
    velocities[3 * base.count + q] = spray.vel[q];
  }
  materials.fill(sim.liquidIndex, base.count);
  return { count: n, positions, velocities, materials };
}

/** Writes the extension state into a checkpoint, so restores are exact. */
export function saveExtensions(sim: GridSimulation, w: CheckpointWriter): void {
  const e = sim.ext, s = sim.store;
  e.viscoelastic?.save(w, s);
  e.smoke?.save(w, s);
  e.spray?.save(w);
  e.liquids?.save(w);
  if (e.bodies) {
    const state = new Float64Array(13 * e.bodies.bodies.length);
    e.bodies.bodies.forEach((b, i) => {
      state.set(b.x, 13 * i); state.set(b.v, 13 * i + 3); state.set(b.w, 13 * i + 6); state.set(b.q, 13 * i + 9);
    });
    w.array('ext.freeBodies', state);
  }
}

/** Reads what `saveExtensions` wrote, after the grid itself has been restored. */
export function restoreExtensions(sim: GridSimulation, r: CheckpointReader): void {
  const e = sim.ext, s = sim.store;
  if (e.viscoelastic && r.has('ext.strain0')) e.viscoelastic.restore(r, s);
  if (e.smoke && r.has('ext.smokeDensity')) e.smoke.restore(r, s);
  if (e.spray && r.has('ext.sprayPos')) e.spray.restore(r);
  if (e.liquids && r.has('ext.tracerPos')) e.liquids.restore(r);
  if (e.bodies && r.has('ext.freeBodies')) {
    const state = r.array('ext.freeBodies', Float64Array);
    e.bodies.bodies.forEach((b, i) => {
      b.x.set(state.subarray(13 * i, 13 * i + 3)); b.v.set(state.subarray(13 * i + 3, 13 * i + 6));
      b.w.set(state.subarray(13 * i + 6, 13 * i + 9)); b.q.set(state.subarray(13 * i + 9, 13 * i + 13));
      quatToMatrix(b.q, b.R);
    });
  }
}
