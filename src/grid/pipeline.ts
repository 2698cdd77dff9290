/**
 * The grid engine's time step as a list of stages, built once per simulation from what its scene
 * asks for. For a liquid it reads as Cline et al. 2005, Figure 3, with the extensions of §5–§10
 * in their places:
 *
 *   §5 sources · 2 grid · tracker (§10.5 redistance, §10.7 particle correction) · §8 strain ·
 *   3a advection · §7.2 temperature · 3b forces · §8 elastic force · §9.3 vorticity ·
 *   3d/e pressure before viscosity · 3c viscosity · §6 objects · 3d/e pressure · free bodies ·
 *   3f extrapolation · 3g solids · 4 tracking (+ §5 sinks) · tracker (particles, height field) · spray
 *
 * Smoke (§9, Figure 13) swaps the liquid's grid, forces and tracking for its own.
 */
import type { Scene } from '../scene/scene.ts';
import { buoyantBodies, elasticForce, smokeStages, sprayStage, viscoelasticStrain, vorticityConfinement, type GridExtensions } from './extensions.ts';
import { advection, extrapolation, forces, movingObjects, pressure, projectBeforeViscosity, solidVelocities, sources, tracking, updateGrid, viscosity } from './stages.ts';
import type { GridSimulation } from './step.ts';
import { temperatureStage, type TemperatureSolver } from './temperature.ts';
import type { SurfaceTracker } from './trackers/tracker.ts';

export interface Stage {
  /** The name its time and counters are reported under (StepStats.stages). */
  name: string;
  /** Checked every step, for a stage whose need depends on Δt (viscosity). */
  when?: (sim: GridSimulation) => boolean;
  run(sim: GridSimulation, dt: number): void;
}

/** The per-simulation objects the stages act on. */
export interface PipelineParts {
  tracker: SurfaceTracker;
  ext: GridExtensions;
  temperature: TemperatureSolver | null;
  movingSolids: boolean;
}

export function buildPipeline(scene: Scene, parts: PipelineParts): Stage[] {
  const { tracker, ext, temperature } = parts;
  const velocity = (externalForces: Stage[]): (Stage | null | false)[] => [
    advection,
    temperature && temperatureStage(temperature),
    ...externalForces,
    ext.vorticity && vorticityConfinement(ext.vorticity),
    projectBeforeViscosity,
    viscosity,
    parts.movingSolids && movingObjects,
    pressure,
    ext.bodies && buoyantBodies(ext.bodies),
    extrapolation,
    solidVelocities,
  ];
  const hasSources = scene.sources.length > 0 || scene.bodies.some((b) => scene.materials[b.material].kind === 'liquid' && b.start > 0);
  if (ext.smoke) {
    const smoke = smokeStages(ext.smoke);
    return present([smoke.grid, ...velocity([smoke.forces]), smoke.advect]);
  }
  return present([
    hasSources && sources,
    updateGrid,
    ...tracker.afterGrid,
    ext.viscoelastic && viscoelasticStrain(ext.viscoelastic),
    ...velocity([forces, ...(ext.viscoelastic ? [elasticForce(ext.viscoelastic)] : [])]),
    tracking(tracker),
    ...tracker.afterMove,
    ext.spray && sprayStage(ext.spray),
  ]);
}

function present(stages: (Stage | null | false)[]): Stage[] {
  return stages.filter((s): s is Stage => !!s);
}
