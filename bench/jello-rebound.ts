/**
 * scenes/jello-drop.json on the particle engine (one thread): the centre of mass over the rest height
 * (2.75 cm) after each frame, the lowest (the impact, frames 1–15), the highest after it (the rebound)
 * and the last, as the scene's description reads them; the still-water gate's state at the end
 * (still-water.ts: whether PBF feeds the warm start) and the stages' counters summed over the run.
 *
 *   npx tsx bench/jello-rebound.ts [frames] [radius m]
 *
 * Default: 60 frames (2 s), 0.002 (as shipped).
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { stillWaterOf } from '../src/particle/still-water.ts';

const frames = Number(process.argv[2] ?? 60), radius = Number(process.argv[3] ?? 0.002), rest = 0.0275;
const input = JSON.parse(readFileSync(new URL('../scenes/jello-drop.json', import.meta.url), 'utf8'));
input.particle = { ...input.particle, radius };
const sim = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
const rel: number[] = [], sums: Record<string, number> = {};
for (let f = 0; f < frames; f++) {
  const stats = sim.stepFrame();
  for (const [k, v] of Object.entries(stats.counters ?? {})) if (typeof v === 'number') sums[k] = (sums[k] ?? 0) + v;
  rel.push(sim.metrics().centerOfMass[1] / rest);
}
let low = 0;
for (let i = 1; i < Math.min(15, rel.length); i++) if (rel[i] < rel[low]) low = i;
let high = low;
for (let i = low; i < Math.min(low + 15, rel.length); i++) if (rel[i] > rel[high]) high = i;
console.log(rel.map((x, i) => `${i + 1}:${x.toFixed(3)}`).join(' '));
console.log(`lowest ${rel[low].toFixed(3)} (frame ${low + 1}), highest ${rel[high].toFixed(3)} (frame ${high + 1}), last ${rel[rel.length - 1].toFixed(3)}; still ${stillWaterOf(sim.ctx)}`);
console.log(`PBF passes ${sums.densityPasses ?? 0}, pressure passes ${sums.pressurePasses ?? 0}, viscosity iterations ${sums.viscosityIterations ?? 0}`);
sim.dispose();
