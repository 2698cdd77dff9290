/**
 * Per-stage CPU profile of a particle scene:
 *   npx tsx bench/particle-profile.ts [scene] [warmup] [frames] [--radius R] [--cpu-prof OUT.cpuprofile] [--dist]
 * Prints CPU ms/frame (process.cpuUsage) and the engine's per-stage wall split, the counters a
 * frame and a checksum of the state. `--radius` overrides particle.radius (a coarser copy of a
 * scene for quick profiling); `--cpu-prof` writes V8's CPU profile of the timed frames alone (not
 * the warm-up, nor the first frame's cold pressure solve), for Chrome's DevTools or a script that
 * sums self time by function (bench/cpuprofile-stages.ts). `--dist` runs the built engine (dist/,
 * what `viscid run` and `viscid bench` run; `npm run build` first) rather than the sources through
 * tsx, whose compiled code is not the same (docs/decisions.md, branch speed61).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as sources from '../src/index.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
// (--dist takes no value.)
const pos = argv.filter((a, i) => !a.startsWith('--') && !(argv[i - 1]?.startsWith('--') && argv[i - 1] !== '--dist'));
const { parseScene, createSimulation } = argv.includes('--dist')
  ? ((await import(new URL('../dist/index.js', import.meta.url).href)) as typeof sources)
  : sources;
const file = pos[0] ?? 'scenes/honey-drop.json';
const warm = Number(pos[1] ?? 1), frames = Number(pos[2] ?? 3);
const json = JSON.parse(readFileSync(file, 'utf8'));
const radius = flag('--radius'), profileOut = flag('--cpu-prof');
if (radius !== undefined) json.particle = { ...json.particle, radius: Number(radius) };
const scene = parseScene(json);
const sim = createSimulation(scene, 'particle');
for (let f = 0; f < warm; f++) sim.stepFrame();
const session = profileOut ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
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
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileOut!, JSON.stringify(profile));
  session.disconnect();
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
