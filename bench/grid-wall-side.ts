/**
 * The grid's drawn liquid against a cylinder body (cup-pour's cup, honey-on-spinner's rod), with and
 * without the solids' clip (surface/solid-clip.ts): at the given frames, the vertices that face
 * sideways in the body's frame (|n · axis| < 0.3), between `--along` (m along the axis from the
 * cylinder's centre) and within `--radius` (m from the axis): their radial distance (mean ± SD, min–max)
 * and their normals' angle off the radial line (RMS), plus each mesh's triangles, volume, closedness
 * and meshing CPU, the two jobs meshed alternately in one process.
 *
 *   npx tsx bench/grid-wall-side.ts scenes/cup-pour.json [--body cup] [--frames 5,15,30]
 *     [--along -0.044,0.04] [--radius 0.02,0.04] [--reps 2]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { checkMesh } from '../src/surface/check-mesh.ts';
import { meshSurfaceJob, type SurfaceJob } from '../src/surface/job.ts';
import type { Mesh } from '../src/types/geometry.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-wall-side.ts SCENE [--body cup] [--frames 5,15,30] [--along A,B] [--radius R0,R1]');
const frames = opt('frames', '5,15,30').split(',').map(Number), reps = Number(opt('reps', '2'));
const [a0, a1] = opt('along', '-0.044,0.04').split(',').map(Number), [r0, r1] = opt('radius', '0.02,0.04').split(',').map(Number);
const sim = new GridSimulation(loadScene(path).scene);
const bodyIndex = sim.solids.list.findIndex((b) => b.name === opt('body', 'cup'));
if (bodyIndex < 0) throw new Error(`no solid named ${opt('body', 'cup')}`);
const body = sim.solids.list[bodyIndex], shape = body.source;
if (shape.type !== 'cylinder') throw new Error('a cylinder body');
const axis = shape.axis.map((v) => v / Math.hypot(...shape.axis)), c = shape.center;
sim.initialize();
const cpu = (f: () => void) => { const t = process.cpuUsage(); f(); const u = process.cpuUsage(t); return (u.user + u.system) / 1000; };

/** Side-facing vertices near the body, in its rest frame. */
function side(mesh: Mesh, R: Float64Array, t: Float64Array): string {
  const rs: number[] = [];
  let ang2 = 0;
  const nv = mesh.positions.length / 3;
  for (let v = 0; v < nv; v++) {
    const x = mesh.positions[3 * v] - t[0], y = mesh.positions[3 * v + 1] - t[1], z = mesh.positions[3 * v + 2] - t[2];
    const p = [R[0] * x + R[3] * y + R[6] * z - c[0], R[1] * x + R[4] * y + R[7] * z - c[1], R[2] * x + R[5] * y + R[8] * z - c[2]];
    const m = [mesh.normals[3 * v], mesh.normals[3 * v + 1], mesh.normals[3 * v + 2]];
    const n = [R[0] * m[0] + R[3] * m[1] + R[6] * m[2], R[1] * m[0] + R[4] * m[1] + R[7] * m[2], R[2] * m[0] + R[5] * m[1] + R[8] * m[2]];
    const along = p[0] * axis[0] + p[1] * axis[1] + p[2] * axis[2];
    if (along < a0 || along > a1) continue;
    const q = [p[0] - along * axis[0], p[1] - along * axis[1], p[2] - along * axis[2]], r = Math.hypot(q[0], q[1], q[2]);
    if (r < r0 || r > r1) continue;
    if (Math.abs(n[0] * axis[0] + n[1] * axis[1] + n[2] * axis[2]) >= 0.3) continue;
    const cos = Math.abs(n[0] * q[0] + n[1] * q[1] + n[2] * q[2]) / r;
    ang2 += Math.acos(Math.min(1, cos)) ** 2;
    rs.push(r);
  }
  if (rs.length === 0) return 'no side vertices';
  const mean = rs.reduce((s, r) => s + r, 0) / rs.length, sd = Math.sqrt(rs.reduce((s, r) => s + (r - mean) ** 2, 0) / rs.length);
  const mm = (v: number) => (1000 * v).toFixed(2);
  return `${rs.length} side vertices at r ${mm(mean)} ± ${mm(sd)} mm (${mm(Math.min(...rs))}–${mm(Math.max(...rs))}), normals ${((Math.sqrt(ang2 / rs.length) * 180) / Math.PI).toFixed(1)}° RMS off radial`;
}

console.log(`${path}, grid engine, ${sim.d.h * 1000} mm cells, output.resolution ${sim.scene.output.resolution}, body ${body.name}`);
for (let f = 1; f <= Math.max(...frames); f++) {
  sim.stepFrame();
  if (!frames.includes(f)) continue;
  const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
  if (job.kind !== 'levelset') throw new Error('a level-set job');
  const plain: SurfaceJob = { ...job, input: { ...job.input, solids: undefined } };
  // The body's pose at the frame's time, as the job carries it.
  const posed = job.input.solids?.find((s) => s.shape === shape);
  if (!posed) throw new Error('the job carries no pose for the body');
  const ms = [0, 0];
  let plainMesh: Mesh | null = null, clipMesh: Mesh | null = null;
  for (let r = 0; r < reps; r++) { ms[0] += cpu(() => { plainMesh = meshSurfaceJob(plain); }); ms[1] += cpu(() => { clipMesh = meshSurfaceJob(job); }); }
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s)`);
  for (const [name, mesh, t] of [['unclipped', plainMesh!, ms[0]], ['clipped  ', clipMesh!, ms[1]]] as const) {
    const rep = checkMesh(mesh);
    console.log(`  ${name}: ${side(mesh, posed.R, posed.t)}; ${rep.triangles} triangles, volume ${(1e6 * rep.volume).toFixed(2)} cm³, closed ${rep.closed}; meshing ${(t / reps).toFixed(0)} ms CPU`);
  }
}
