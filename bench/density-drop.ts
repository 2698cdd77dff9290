/**
 * Honey drop (scenes/honey-drop.json), density correction's effect on it: per frame the passes per
 * sub-timestep, the largest speed, how many particles move faster than 0.5 m/s (spray) and how
 * many are below y = −0.02 m (draped) or past the ball's reach (R > 7.5 cm and y < 5 cm).
 *   [SHIFT=metres] npx tsx bench/density-drop.ts [FRAMES]
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
const input = JSON.parse(readFileSync('scenes/honey-drop.json', 'utf8'));
// SHIFT (m): moves the honey sideways, another realisation of the same impact.
for (const b of input.bodies) if (b.material === 'honey') b.shape.center[0] += Number(process.env.SHIFT ?? 0);
const s = createSimulation(parseScene(input), 'particle') as ParticleSimulation;
const frames = Number(process.argv[2] ?? 20);
let spraySum = 0, passes = 0, sub = 0;
const rows: string[] = [];
for (let f = 0; f < frames; f++) {
  const st = s.stepFrame();
  passes += st.counters.densityPasses ?? 0;
  sub += st.counters.substeps;
  const L = s.ctx.liquid;
  let vmax = 0, spray = 0, below = 0, far = 0;
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
    const v = Math.hypot(L.vel[3 * i], L.vel[3 * i + 1], L.vel[3 * i + 2]);
    vmax = Math.max(vmax, v);
    if (v > 0.5) spray++;
    if (y < -0.02) below++;
    if (Math.hypot(x, y, z) > 0.075 && y < 0.05) far++;
  }
  if (f >= 5) spraySum += spray;
  rows.push(`${f}:${vmax.toFixed(2)}/${spray}/${below}/${far}`);
}
console.log(`passes ${(passes / sub).toFixed(2)} spray(frames 5+) ${spraySum}`);
console.log('frame:vmax/spray/below/far ' + rows.join(' '));
