/**
 * soap-pour's rope in the particle engine at any particle size, as the shipped test counts it
 * (tests/scene/shipped.test.ts "soap-pour (particle)"): the drawn surface's pieces in the window
 * between spout and pile (tests/scene/mesh-pieces.ts) at frames 3, 6, … `frames`, the particles'
 * connected components there (linked within the springs' reach, tests/particle/rope-components.ts), and the gel's
 * counters over the run (implicit solves, their CG iterations, the sub-timesteps' pieces: a
 * sub-timestep cut in two by particle.maxMove counts twice) and the
 * process's CPU:
 *   npx tsx bench/soap-rope.ts [frames=60] [--set particle.radius=0.002 …]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createSimulation, parseScene } from '../src/index.ts';
import { setScenePath, splitSetArgs } from './scene-set.ts';
import { meshPieces } from '../tests/scene/mesh-pieces.ts';
import { ropeComponents } from '../tests/particle/rope-components.ts';

const { sets, plain } = splitSetArgs(process.argv.slice(2));
const frames = Number(plain[0] ?? 60);
const json = JSON.parse(readFileSync('scenes/soap-pour.json', 'utf8'));
for (const s of sets) setScenePath(json, s);
const scene = parseScene(json);
const r = scene.particle.radius;
const sim = createSimulation(scene, 'particle');
const above = { min: [-0.04, 0.09, -0.04] as [number, number, number], max: [0.04, 0.185, 0.04] as [number, number, number] };
const pieces: number[] = [], parts: number[] = [];
const sums: Record<string, number> = {};
let stepCpu = 0;
for (let f = 1; f <= frames; f++) {
  const c0 = process.cpuUsage();
  const st = sim.stepFrame();
  const c1 = process.cpuUsage(c0);
  stepCpu += (c1.user + c1.system) / 1e6;
  for (const k of ['gelSolves', 'gelIterations', 'substeps', 'subdivisions']) sums[k] = (sums[k] ?? 0) + (st.counters[k] ?? 0);
  if (f % 3 === 0) {
    pieces.push(meshPieces(sim.surfaceMesh(), above, (2 * r) ** 3));
    const p = sim.fluidPoints();
    parts.push(ropeComponents(p.positions, p.count, above, 4 * r).components);
  }
}
const it = sums.gelSolves ? (sums.gelIterations / sums.gelSolves).toFixed(1) : '0';
console.log(`soap-pour r ${r * 1000} mm ${sets.join(' ')} (load ${loadavg()[0].toFixed(1)}): pieces at frames 3, 6, … ${frames}: ${pieces.join(' ')}; ` +
  `one piece in ${pieces.filter((n) => n === 1).length}/${pieces.length}; the particles' components (linked within the springs' reach 4 r): ${parts.join(' ')}; sub-timestep pieces ${sums.substeps} (${sums.subdivisions} of them from cutting), gel solves ${sums.gelSolves}, CG iterations ${sums.gelIterations} (${it} a solve); step CPU ${stepCpu.toFixed(1)} s`);
