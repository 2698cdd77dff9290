/**
 * Per-stage CPU profile of a particle scene: `npx tsx bench/particle-profile.ts [scene] [warmup] [frames]`.
 * Prints CPU ms/frame (process.cpuUsage) and the engine's per-stage wall split; pair with
 * `node --cpu-prof --import tsx` to get a .cpuprofile.
 */
import { readFileSync } from 'node:fs';
import { parseScene, createSimulation } from '../src/index.ts';

const file = process.argv[2] ?? 'scenes/honey-drop.json';
const warm = Number(process.argv[3] ?? 1), frames = Number(process.argv[4] ?? 3);
const scene = parseScene(JSON.parse(readFileSync(file, 'utf8')));
const sim = createSimulation(scene, 'particle');
for (let f = 0; f < warm; f++) sim.stepFrame();
const stages: Record<string, number> = {};
let cpu = 0, wall = 0;
const counters: Record<string, number> = {};
for (let f = 0; f < frames; f++) {
  const c0 = process.cpuUsage();
  const s = sim.stepFrame();
  const c1 = process.cpuUsage(c0);
  cpu += (c1.user + c1.system) / 1000;
  wall += s.wallMs;
  for (const [k, v] of Object.entries(s.stages)) stages[k] = (stages[k] ?? 0) + v;
  for (const [k, v] of Object.entries(s.counters)) counters[k] = (counters[k] ?? 0) + v;
}
const out: string[] = [`${file}: cpu ${(cpu / frames).toFixed(1)} ms/frame, wall ${(wall / frames).toFixed(1)}`];
for (const [k, v] of Object.entries(stages)) out.push(`  ${k.padEnd(11)} ${(v / frames).toFixed(1)}`);
out.push('  counters ' + JSON.stringify(Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, +(v / frames).toPrecision(4)]))));
// A checksum of the state, to check bit-identity across optimisations.
const bytes = sim.save();
let h = 0;
for (let i = 0; i < bytes.length; i++) h = (Math.imul(h, 31) + bytes[i]) | 0;
out.push(`  checksum ${h} (${bytes.length} bytes saved)`);
console.log(out.join('\n'));
