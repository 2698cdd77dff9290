/**
 * The honey drop's spray (issue 26, "Rest at any size"): liquid particles more than 15 cm from the
 * ball's centre at each frame, the fastest particle, and the solves' passes a sub-timestep.
 *
 *   npx tsx bench/honey-spray.ts [frames=40] [key=value …]
 *
 * key=value: any particle.* setting as p.name=value (p.viscositySolver=exchange), every=N (print
 * every Nth frame; frames 8–40 are counted whatever is printed).
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const args = process.argv.slice(2);
const pos = args.filter((a) => !a.includes('='));
const kv = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=') as [string, string]));
const frames = Number(pos[0] ?? 40), every = Number(kv.every ?? 4);
const json = JSON.parse(readFileSync(new URL('../scenes/honey-drop.json', import.meta.url), 'utf8'));
for (const [k, v] of Object.entries(kv)) if (k.startsWith('p.')) json.particle[k.slice(2)] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
const s = createSimulation(parseScene(json), 'particle') as ParticleSimulation;
const L = s.ctx.liquid;
console.log(`honey drop, ${L.count} particles; particle ${JSON.stringify(json.particle)}`);
let sprayMax = 0;
const cpu0 = process.cpuUsage();
for (let f = 1; f <= frames; f++) {
  const c = s.stepFrame().counters;
  let far = 0, vmax = 0;
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
    if (x * x + y * y + z * z > 0.15 * 0.15) far++;
    vmax = Math.max(vmax, Math.hypot(L.vel[3 * i], L.vel[3 * i + 1], L.vel[3 * i + 2]));
  }
  if (f >= 8) sprayMax = Math.max(sprayMax, far);
  if (f % every === 0 || f === frames) {
    const sub = c.substeps ?? 1;
    console.log(`frame ${f}: beyond 15 cm ${far}, fastest ${vmax.toFixed(2)} m/s, particles ${L.count} | pressure ${((c.pressurePasses ?? 0) / sub).toFixed(2)} density ${((c.densityPasses ?? 0) / sub).toFixed(2)} CG ${(c.viscosityIterationsPerSolve ?? 0).toFixed(2)} a solve, sub ${sub}`);
  }
}
const cpu = process.cpuUsage(cpu0);
console.log(`frames 8–${frames}: most beyond 15 cm ${sprayMax}; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
