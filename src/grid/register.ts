/** Registers the grid engine ('grid') with the engine registry. */
import { registerEngine } from '../engines.ts';
import { gridIgnores } from './ignored.ts';
import { GridEngineSimulation } from './simulation.ts';

registerEngine({
  name: 'grid',
  create: (scene, options) => new GridEngineSimulation(scene, undefined, options),
  restore: (scene, checkpoint, options) => new GridEngineSimulation(scene, checkpoint, options),
  ignores: gridIgnores,
});
