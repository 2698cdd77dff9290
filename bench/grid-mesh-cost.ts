/**
 * The CPU time of a grid run's surface mesh, the tracker's surface job and its meshing, against the
 * level set's job read from the cell centres alone (LevelSetTracker's, what the particle level set
 * meshed before pls-surface.ts), interleaved in one process on the same state after `frames`
 * frames; also the CPU time of one frame's step there, and the meshes' sizes.
 *
 *   npx tsx bench/grid-mesh-cost.ts scenes/honey-drop.json [--frames 18] [--reps 5]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { LevelSetTracker } from '../src/grid/trackers/levelset.ts';
import { meshSurfaceJob, type SurfaceJob } from '../src/index.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-mesh-cost.ts SCENE [--frames N] [--reps K]');
const frames = Number(opt('frames', '18')), reps = Number(opt('reps', '5'));
const sim = new GridSimulation(loadScene(path).scene);
if (!(sim.tracker instanceof LevelSetTracker)) throw new Error(`${path} is tracked by ${sim.tracker.name}, not a level set`);
sim.initialize();
for (let f = 1; f < frames; f++) sim.stepFrame();
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
let t = cpu();
sim.stepFrame();
const step = cpu() - t;
const variants: [string, () => SurfaceJob][] = [
  ['cell centres', () => LevelSetTracker.prototype.surfaceJob.call(sim.tracker, sim, [1, 1, 1])],
  ['tracker', () => sim.tracker.surfaceJob(sim, [1, 1, 1])],
];
const ms = [0, 0], tris = [0, 0];
for (let r = 0; r < reps; r++) {
  for (let v = 0; v < 2; v++) {
    t = cpu();
    const mesh = meshSurfaceJob(variants[v][1]());
    ms[v] += cpu() - t;
    tris[v] = mesh.indices.length / 3;
  }
}
console.log(`${path}, grid (${sim.tracker.name}), frame ${frames}: step ${step.toFixed(0)} ms CPU`);
for (let v = 0; v < 2; v++) console.log(`  ${variants[v][0]}: job + mesh ${(ms[v] / reps).toFixed(0)} ms CPU, ${tris[v]} triangles`);
console.log(`  B/A ${(ms[1] / ms[0]).toFixed(2)}`);
