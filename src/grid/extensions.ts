/**
 * Splices the grid-engine extensions into the standard step (step.ts) by name (stages.ts):
 *
 *   sources · grid · [smoke-grid] · redistance · [pls-correct] · [viscoelastic-strain] · advection ·
 *   temperature · forces · [smoke-forces] · [elastic-force] · [vorticity] · pressure-pre · viscosity ·
 *   objects · pressure · [buoyant-bodies] · extrapolation · solids · tracking · [pls-advect] ·
 *   [smoke-advect] · [height-field] · [spray]
 *
 * Each extension keeps its state per simulation in a WeakMap (no change to GridSimulation) and is
 * enabled only by its scene settings, so scenes that use none run the plain solver unchanged.
 * Smoke replaces the liquid stages that make no sense for a gas (grid from the liquid, gravity,
 * marker sources, surface tracking): their `enabled` is wrapped below.
 */
import type { FluidPoints, Mesh } from '../api.ts';
import type { CheckpointReader, CheckpointWriter } from '../io/checkpoint.ts';
import { quatToMatrix } from '../scene/motion.ts';
import './step.ts';
import type { GridSimulation } from './step.ts';
import { gridStages, insertStage } from './stages.ts';
import { Viscoelastic } from './viscoelastic.ts';
import { Smoke } from './smoke.ts';
import { VorticityConfinement } from './vorticity.ts';
import { ParticleLevelSet } from './particle-levelset.ts';
import { BuoyantBodies } from './buoyancy.ts';
import { HeightField } from './heightfield.ts';
import { Spray } from './spray.ts';

export interface GridExtensions {
  viscoelastic: Viscoelastic | null;
  smoke: Smoke | null;
  vorticity: VorticityConfinement | null;
  pls: ParticleLevelSet | null;
  bodies: BuoyantBodies | null;
  heightField: HeightField | null;
  spray: Spray | null;
}

const states = new WeakMap<GridSimulation, GridExtensions>();

/** The extension state of a simulation, created from its scene on first use. */
export function extensionsOf(sim: GridSimulation): GridExtensions {
  let e = states.get(sim);
  if (e) return e;
  const g = sim.scene.grid, liquid = sim.liquid;
  const ve = liquid?.viscoelastic;
  const bodies = BuoyantBodies.create(sim);
  e = {
    viscoelastic: ve && !g.smoke ? new Viscoelastic(ve, liquid!.density) : null,
    smoke: g.smoke ? new Smoke(g.smoke, sim) : null,
    vorticity: g.vorticityConfinement > 0 ? new VorticityConfinement() : null,
    pls: g.tracking === 'particle-levelset' && !g.smoke ? new ParticleLevelSet(sim.scene.seed) : null,
    bodies,
    heightField: g.heightField && !g.smoke ? new HeightField() : null,
    spray: g.spray && !g.smoke ? new Spray(g.spray, sim.scene.seed) : null,
  };
  states.set(sim, e);
  return e;
}

const isSmoke = (sim: GridSimulation) => sim.scene.grid.smoke !== undefined;

for (const name of ['sources', 'grid', 'redistance', 'forces', 'tracking']) {
  const stage = gridStages.find((s) => s.name === name);
  if (!stage) continue;
  const prev = stage.enabled;
  stage.enabled = (sim) => !isSmoke(sim) && (prev ? prev(sim) : true);
}

insertStage({ name: 'smoke-grid', enabled: isSmoke, run: (sim) => extensionsOf(sim).smoke!.updateGrid(sim) }, { after: 'grid' });
insertStage({
  name: 'pls-correct',
  enabled: (sim) => extensionsOf(sim).pls !== null,
  run(sim) {
    const pls = extensionsOf(sim).pls!;
    pls.afterRedistance(sim);
    sim.count('plsParticles', pls.count);
    sim.count('plsEscaped', pls.escaped);
  },
}, { after: 'redistance' });
insertStage({
  name: 'viscoelastic-strain',
  enabled: (sim) => extensionsOf(sim).viscoelastic !== null,
  run(sim, dt) {
    const ve = extensionsOf(sim).viscoelastic!;
    ve.updateStrain(sim, dt);
    sim.count('yieldedCells', ve.yielded);
  },
}, { before: 'advection' });
insertStage({ name: 'smoke-forces', enabled: isSmoke, run: (sim, dt) => extensionsOf(sim).smoke!.forces(sim, dt) }, { after: 'forces' });
insertStage({
  name: 'elastic-force',
  enabled: (sim) => extensionsOf(sim).viscoelastic !== null,
  run(sim, dt) {
    extensionsOf(sim).viscoelastic!.applyForce(sim.store, dt, sim.d.h);
    sim.checkVelocity();
  },
}, { after: 'smoke-forces' });
insertStage({
  name: 'vorticity',
  enabled: (sim) => extensionsOf(sim).vorticity !== null,
  run: (sim, dt) => extensionsOf(sim).vorticity!.apply(sim.store, sim.d.h, sim.scene.grid.vorticityConfinement, dt),
}, { after: 'elastic-force' });
insertStage({
  name: 'buoyant-bodies',
  enabled: (sim) => extensionsOf(sim).bodies !== null,
  run: (sim, dt) => extensionsOf(sim).bodies!.step(sim, dt),
}, { after: 'pressure' });
insertStage({
  name: 'pls-advect',
  enabled: (sim) => extensionsOf(sim).pls !== null,
  run: (sim, dt) => extensionsOf(sim).pls!.afterAdvection(sim, dt),
}, { after: 'tracking' });
insertStage({ name: 'smoke-advect', enabled: isSmoke, run: (sim, dt) => extensionsOf(sim).smoke!.advect(sim, dt) }, { after: 'pls-advect' });
insertStage({
  name: 'height-field',
  enabled: (sim) => extensionsOf(sim).heightField !== null,
  run: (sim, dt) => extensionsOf(sim).heightField!.advance(sim, dt),
}, { after: 'smoke-advect' });
insertStage({
  name: 'spray',
  enabled: (sim) => extensionsOf(sim).spray !== null,
  run(sim, dt) {
    const spray = extensionsOf(sim).spray!;
    spray.step(sim, dt);
    sim.count('sprayParticles', spray.count);
  },
}, { after: 'height-field' });

/**
 * What the public Simulation shows of the extensions: for smoke, the cells holding smoke (their
 * `densities` are the smoke density) instead of markers; spray particles appended to the markers.
 */
export function extensionFluidPoints(sim: GridSimulation, base: FluidPoints): FluidPoints {
  const e = extensionsOf(sim);
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

/** The height-field mesh when the scene asks for it, else null (the level-set mesh is used). */
export function extensionSurface(sim: GridSimulation, color: [number, number, number]): Mesh | null {
  const hf = extensionsOf(sim).heightField;
  if (!hf || hf.H.length === 0) return null;
  return hf.mesh(sim, color);
}

/** Writes the extension state into a checkpoint (simulation.ts `save`), so restores are exact. */
export function saveExtensions(sim: GridSimulation, w: CheckpointWriter): void {
  const e = extensionsOf(sim), s = sim.store;
  e.viscoelastic?.save(w, s);
  e.smoke?.save(w, s);
  e.pls?.save(w);
  e.spray?.save(w);
  if (e.heightField && e.heightField.H.length > 0) w.array('ext.heightField', e.heightField.H.slice());
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
  const e = extensionsOf(sim), s = sim.store;
  if (e.viscoelastic && r.has('ext.strain0')) e.viscoelastic.restore(r, s);
  if (e.smoke && r.has('ext.smokeDensity')) e.smoke.restore(r, s);
  if (e.pls && r.has('ext.plsPos')) e.pls.restore(r);
  if (e.spray && r.has('ext.sprayPos')) e.spray.restore(r);
  if (e.heightField && r.has('ext.heightField')) e.heightField.restore(sim, r.array('ext.heightField', Float64Array));
  if (e.bodies && r.has('ext.freeBodies')) {
    const state = r.array('ext.freeBodies', Float64Array);
    e.bodies.bodies.forEach((b, i) => {
      b.x.set(state.subarray(13 * i, 13 * i + 3)); b.v.set(state.subarray(13 * i + 3, 13 * i + 6));
      b.w.set(state.subarray(13 * i + 6, 13 * i + 9)); b.q.set(state.subarray(13 * i + 9, 13 * i + 13));
      quatToMatrix(b.q, b.R);
    });
  }
}
