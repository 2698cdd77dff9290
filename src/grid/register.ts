/** Registers the grid engine ('grid') with the engine registry. */
import { registerEngine } from '../engines.ts';
import { gridIgnores } from './ignored.ts';
import { GridEngineSimulation } from './simulation.ts';

registerEngine({
  name: 'grid',
  create: (scene) => new GridEngineSimulation(scene),
  restore: (scene, checkpoint) => new GridEngineSimulation(scene, checkpoint),
  ignores: gridIgnores,
});
