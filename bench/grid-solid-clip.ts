/**
 * The grid's drawn liquid with and without the solids' clip (surface/solid-clip.ts), the two surface
 * jobs meshed alternately in one process at the given frames: each mesh's triangles, shells, volume,
 * closedness and meshing CPU, and against the body named by --body:
 * - a cylinder (cup-pour's cup, honey-on-spinner's rod): the vertices that face sideways in the
 *   body's frame (|n · axis| < 0.3), between `--along` (m along the axis from the cylinder's centre)
 *   and within `--radius` (m from the axis): their radial distance (mean ± SD, min–max) and their
 *   normals' angle off the radial line (RMS);
 * - a sphere (honey-drop-grid's ball): the share of rays (a Fibonacci sphere of 1500) from its
 *   surface out to `--shell` (m) beyond it that meet no drawn liquid (the mesher's lattice read
 *   trilinearly every quarter spacing), over the whole ball and its upper half.
 *
 *   npx tsx bench/grid-solid-clip.ts scenes/cup-pour.json [--body cup] [--frames 5,15,30]
 *     [--along -0.044,0.04] [--radius 0.02,0.04] [--shell 0.01] [--reps 2]
 */
import { loadScene } from '../src/cli/load-scene.ts';
import { GridSimulation } from '../src/grid/step.ts';
import { checkMesh } from '../src/surface/check-mesh.ts';
import { meshSurfaceJob, type SurfaceJob } from '../src/surface/job.ts';
import { levelSetLattice } from '../src/surface/level-set.ts';
import type { Lattice } from '../src/surface/polygonizer.ts';
import type { Mesh } from '../src/types/geometry.ts';
import { cylinderSide } from '../tests/grid/wall-side.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const path = args[0];
if (!path || path.startsWith('--')) throw new Error('usage: npx tsx bench/grid-solid-clip.ts SCENE [--body NAME] [--frames 5,15,30] [--along A,B] [--radius R0,R1] [--shell M]');
const frames = opt('frames', '5,15,30').split(',').map(Number), reps = Number(opt('reps', '2'));
const [a0, a1] = opt('along', '-0.044,0.04').split(',').map(Number), [r0, r1] = opt('radius', '0.02,0.04').split(',').map(Number);
const sim = new GridSimulation(loadScene(path).scene);
const body = args.includes('--body') ? sim.solids.list.find((b) => b.name === opt('body', '')) : undefined;
if (args.includes('--body') && !body) throw new Error(`no solid named ${opt('body', '')}`);
const shape = body?.source;
const axis = shape?.type === 'cylinder' ? shape.axis.map((v) => v / Math.hypot(...shape.axis)) : [0, 1, 0];
const c = shape && 'center' in shape ? shape.center : [0, 0, 0];
const shell = Number(opt('shell', '0.01')), nDirs = 1500, golden = Math.PI * (3 - Math.sqrt(5));
sim.initialize();
const cpu = (f: () => void) => { const t = process.cpuUsage(); f(); const u = process.cpuUsage(t); return (u.user + u.system) / 1000; };

function side(mesh: Mesh, R: Float64Array, t: Float64Array): string {
  const st = cylinderSide(mesh, { center: c, axis, R, t }, [a0, a1], [r0, r1]);
  if (st.count === 0) return 'no side vertices';
  const mm = (v: number) => (1000 * v).toFixed(2);
  return `${st.count} side vertices at r ${mm(st.mean)} ± ${mm(st.sd)} mm (${mm(st.min)}–${mm(st.max)}), normals ${st.rmsDeg.toFixed(1)}° RMS off radial`;
}

/** Rays from the sphere's surface out to `shell` beyond it that meet no negative lattice value: [all, upper half]. */
function openShare(lattice: Lattice | null, radius: number, R: Float64Array, t: Float64Array): [number, number] {
  const centre = [0, 1, 2].map((a) => R[3 * a] * c[0] + R[3 * a + 1] * c[1] + R[3 * a + 2] * c[2] + t[a]);
  const open = [0, 0], count = [0, 0], step = (lattice?.spacing ?? 1) / 4;
  for (let i = 0; i < nDirs; i++) {
    const y = 1 - (2 * (i + 0.5)) / nDirs, r = Math.sqrt(1 - y * y), d = [Math.cos(golden * i) * r, y, Math.sin(golden * i) * r];
    let wet = false;
    for (let s = radius; s <= radius + shell && lattice && !wet; s += step) wet = latticeAt(lattice, centre[0] + s * d[0], centre[1] + s * d[1], centre[2] + s * d[2]) < 0;
    count[0]++; if (!wet) open[0]++;
    if (y > 0) { count[1]++; if (!wet) open[1]++; }
  }
  return [open[0] / count[0], open[1] / count[1]];
}

function latticeAt(l: Lattice, x: number, y: number, z: number): number {
  const u = (x - l.origin[0]) / l.spacing, v = (y - l.origin[1]) / l.spacing, w = (z - l.origin[2]) / l.spacing;
  if (u < 0 || v < 0 || w < 0 || u > l.nx - 1 || v > l.ny - 1 || w > l.nz - 1) return 1;
  const i = Math.min(l.nx - 2, Math.floor(u)), j = Math.min(l.ny - 2, Math.floor(v)), k = Math.min(l.nz - 2, Math.floor(w));
  const fu = u - i, fv = v - j, fw = w - k;
  let f = 0;
  for (let q = 0; q < 8; q++) {
    const wt = (q & 1 ? fu : 1 - fu) * (q & 2 ? fv : 1 - fv) * (q & 4 ? fw : 1 - fw);
    f += wt * l.values[i + (q & 1) + l.nx * (j + (q & 2 ? 1 : 0) + l.ny * (k + (q & 4 ? 1 : 0)))];
  }
  return f;
}

console.log(`${path}, grid engine, ${sim.d.h * 1000} mm cells, output.resolution ${sim.scene.output.resolution}${body ? `, body ${body.name}` : ''}`);
for (let f = 1; f <= Math.max(...frames); f++) {
  sim.stepFrame();
  if (!frames.includes(f)) continue;
  const job = sim.tracker.surfaceJob(sim, [1, 1, 1]);
  if (job.kind !== 'levelset') throw new Error('a level-set job');
  const plain: SurfaceJob = { ...job, input: { ...job.input, solids: undefined } };
  // The body's pose at the frame's time, as the job carries it.
  const posed = shape ? job.input.solids?.find((s) => s.shape === shape) : undefined;
  if (shape && !posed) throw new Error('the job carries no pose for the body');
  const ms = [0, 0];
  let plainMesh: Mesh | null = null, clipMesh: Mesh | null = null;
  for (let r = 0; r < reps; r++) { ms[0] += cpu(() => { plainMesh = meshSurfaceJob(plain); }); ms[1] += cpu(() => { clipMesh = meshSurfaceJob(job); }); }
  console.log(`frame ${f} (t ${sim.time.toFixed(3)} s)`);
  for (const [name, mesh, t, j] of [['unclipped', plainMesh!, ms[0], plain], ['clipped  ', clipMesh!, ms[1], job]] as const) {
    const rep = checkMesh(mesh);
    let against = '';
    if (shape?.type === 'cylinder') against = `${side(mesh, posed!.R, posed!.t)}; `;
    if (shape?.type === 'sphere' && j.kind === 'levelset') {
      const [all, upper] = openShare(levelSetLattice(j.input, j.output), shape.radius, posed!.R, posed!.t);
      against = `rays open ${(100 * all).toFixed(1)} % (upper half ${(100 * upper).toFixed(1)} %); `;
    }
    console.log(`  ${name}: ${against}${rep.triangles} triangles, ${rep.shells} shells, volume ${(1e6 * rep.volume).toFixed(2)} cm³, closed ${rep.closed}; meshing ${(t / reps).toFixed(0)} ms CPU`);
  }
}
