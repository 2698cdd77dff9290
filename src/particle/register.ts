/** Registers the particle engine (Steele et al. 2004) as 'particle'. */
import { registerEngine } from '../engines.ts';
import { particleIgnores } from './ignored.ts';
import { ParticleSimulation } from './simulation.ts';

registerEngine({
  name: 'particle',
  create: (scene, options) => new ParticleSimulation(scene, options),
  restore: (scene, checkpoint, options) => new ParticleSimulation(scene, options, checkpoint),
  ignores: particleIgnores,
});
