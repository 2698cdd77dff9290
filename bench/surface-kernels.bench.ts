/**
 * The particle surface's two kernels (output.surfaceKernel) on an engine's frame: the honey drop
 * (the meshing cost of a frame, CPU time, the two kernels interleaved in one process) and
 * honey-on-spinner at frame 30 (the stream between the spout and the rod: vertices there and the
 * mesh's shells). Particle states are stepped once and meshed by both kernels.
 *
 *   npx tsx bench/surface-kernels.bench.ts [--drop-frames 8] [--spinner-frames 30] [--rounds 5]   (0 frames: skip)
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { checkMesh, createSimulation, parseScene, particleSurface, toPLY, type ParticleSurfaceInput, type SurfaceJob } from '../src/index.ts';
import type { OutputLike } from '../src/surface/particle-surface.ts';
import { defaults, edgeMeasures, readParticleDump } from '../tests/surface/helpers.ts';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const root = resolve(import.meta.dirname, '..');

function frameOf(scene: string, frames: number): { input: ParticleSurfaceInput; output: OutputLike } {
  const sim = createSimulation(parseScene(JSON.parse(readFileSync(resolve(root, 'scenes', scene), 'utf8'))), 'particle');
  for (let f = 0; f < frames; f++) sim.stepFrame();
  const job = sim.surfaceJob!() as Extract<SurfaceJob, { kind: 'particles' }>;
  return { input: job.input, output: job.output };
}

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const kernels = ['isotropic', 'anisotropic'] as const;

// Honey drop: the engine's state at 2 s (tests/surface/data/honey-drop-60.bin, a film over the
// ball) and, stepped here, at --drop-frames (the splash): the meshing cost, kernels interleaved.
const rounds = arg('--rounds', 5);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const dump = readParticleDump(readFileSync(resolve(root, 'tests/surface/data/honey-drop-60.bin')));
const states: [string, ParticleSurfaceInput, OutputLike][] = [['honey drop at 2 s (frame 60, stored)', dump, { ...defaults, colors: false }]];
if (arg('--drop-frames', 8) > 0) {
  const drop = frameOf('honey-drop.json', arg('--drop-frames', 8));
  states.push([`honey drop at frame ${arg('--drop-frames', 8)} (stepped here)`, drop.input, drop.output]);
}
for (const [label, input, output] of states) {
  const times: Record<string, number[]> = { isotropic: [], anisotropic: [] };
  const seen: Record<string, string> = {};
  for (let k = 0; k < rounds; k++) {
    for (const kernel of k % 2 ? [...kernels].reverse() : kernels) {
      const t = cpu();
      const mesh = particleSurface(input, { ...output, surfaceKernel: kernel });
      times[kernel].push(cpu() - t);
      if (k === 0) {
        const rep = checkMesh(mesh), e = edgeMeasures(mesh);
        seen[kernel] = `${mesh.indices.length / 3} triangles, ${rep.shells} shells, closed ${rep.closed}, volume ${(rep.volume / (input.count * 8 * input.radius ** 3)).toFixed(3)}, normals across edges ${e.shading.toFixed(2)}°, dihedral ${e.dihedral.toFixed(2)}°`;
      }
    }
  }
  console.log(`${label}, ${input.count} particles, load ${loadavg()[0].toFixed(1)}: CPU ms (median of ${rounds})`);
  for (const kernel of kernels) console.log(`  ${kernel.padEnd(12)} ${median(times[kernel]).toFixed(0)} ms  [${times[kernel].map((t) => t.toFixed(0)).join(', ')}]; ${seen[kernel]}`);
  console.log(`  ratio anisotropic / isotropic ${(median(times.anisotropic) / median(times.isotropic)).toFixed(2)}`);
}

if (arg('--spinner-frames', 30) > 0) {
  // Honey-on-spinner at frame 30: the stream between the spout (y 0.2) and the pile on the rod (below y 0.15).
  const spinner = frameOf('honey-on-spinner.json', arg('--spinner-frames', 30));
  const inStream = (x: number, y: number, z: number) => y > 0.15 && y < 0.2 && Math.hypot(x - 0.005, z) < 0.02;
  let particles = 0;
  for (let p = 0; p < spinner.input.count; p++) if (inStream(spinner.input.positions[3 * p], spinner.input.positions[3 * p + 1], spinner.input.positions[3 * p + 2])) particles++;
  console.log(`honey-on-spinner frame ${arg('--spinner-frames', 30)}: ${spinner.input.count} particles, ${particles} between the spout and the rod (0.15 < y < 0.2)`);
  mkdirSync(resolve(root, 'out/kernels'), { recursive: true });
  for (const kernel of kernels) {
    const mesh = particleSurface(spinner.input, { ...spinner.output, surfaceKernel: kernel });
    let v = 0;
    const P = mesh.positions;
    for (let i = 0; i < P.length / 3; i++) if (inStream(P[3 * i], P[3 * i + 1], P[3 * i + 2])) v++;
    const rep = checkMesh(mesh);
    console.log(`  ${kernel.padEnd(12)} ${v} vertices there; mesh: ${P.length / 3} vertices, ${rep.shells} shells`);
    writeFileSync(resolve(root, `out/kernels/spinner-${kernel}.ply`), toPLY(mesh));
  }
}
