/**
 * What meshing the particle level set's sheets through their particles costs and adds (the grid's
 * surface job with and without its sheet points, surface/sheet-field.ts): at the given frames, the
 * mesh's triangles, its enclosed volume against the level set's, and the CPU time of meshing the
 * job both ways, interleaved in one process.
 *
 *   npx tsx bench/grid-sheet-mesh.ts scenes/honey-drop.json [--frames 15,18,21] [--reps 5]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { checkMesh } from '../src/surface/check-mesh.ts';
import { meshSurfaceJob, type SurfaceJob } from '../src/surface/job.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-sheet-mesh.ts SCENE [--frames 15,18,21] [--reps 5]');
const frames = opt('frames', '15,18,21').split(',').map(Number), reps = Number(opt('reps', '5'));
const sim = new GridSimulation(loadScene(path).scene);
sim.initialize();
const cpu = (f: () => void) => { const c = process.cpuUsage(); f(); const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
console.log(`${path}, grid engine, ${sim.d.h * 1000} mm cells, tracking ${sim.scene.grid.tracking}`);
for (let f = 1; f <= Math.max(...frames); f++) {
  sim.stepFrame();
  if (!frames.includes(f)) continue;
  const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
  if (job.kind !== 'levelset') throw new Error('a level-set job');
  const plain: SurfaceJob = { ...job, input: { ...job.input, sheetPoints: undefined } };
  const points = (job.input.sheetPoints?.length ?? 0) / 3;
  const t = [0, 0];
  for (let r = 0; r < reps; r++) { t[0] += cpu(() => meshSurfaceJob(plain)); t[1] += cpu(() => meshSurfaceJob(job)); }
  const a = checkMesh(meshSurfaceJob(plain)), b = checkMesh(meshSurfaceJob(job));
  const v = sim.tracker.volume(sim);
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s): ${points} sheet points; triangles ${a.triangles} -> ${b.triangles}; mesh volume ${(1e6 * a.volume).toFixed(1)} -> ${(1e6 * b.volume).toFixed(1)} cm³ (level set ${(1e6 * v).toFixed(1)} cm³), closed ${a.closed}/${b.closed}; meshing ${(t[0] / reps).toFixed(0)} -> ${(t[1] / reps).toFixed(0)} ms CPU (${(t[1] / t[0]).toFixed(2)}x)`);
}
