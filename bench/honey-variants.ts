/**
 * The honey drop (scenes/honey-drop.json) with its scene levers changed, to see what they cost and
 * where the honey ends up: per ten frames, density passes a sub-timestep, ms a frame, and how many
 * particles are on the ball (within 1.5 cm of its surface), hanging below it, or on the floor.
 *   [HH=type,strength[,support]] [HB=type,strength[,support]] [KS=radii] [DK=radii] [VISC=Pa.s]
 *     npx tsx bench/honey-variants.ts [FRAMES]
 * HH: honey–honey adhesion, HB: honey–ball adhesion (adhesion-matrix.ts types), KS: the honey's
 * viscosity kernel support, DK: particle.densityKernel, VISC: the honey's viscosity.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const input = JSON.parse(readFileSync('scenes/honey-drop.json', 'utf8'));
const adhesion = (i: number, spec?: string) => {
  if (!spec) return;
  const [type, strength, support] = spec.split(',');
  input.adhesion[i] = { between: input.adhesion[i].between, type, strength: Number(strength), ...(support ? { support: Number(support) } : {}) };
};
adhesion(0, process.env.HH);
adhesion(1, process.env.HB);
if (process.env.DK) input.particle.densityKernel = Number(process.env.DK);
if (process.env.KS) input.materials.honey.particle = { ...(input.materials.honey.particle ?? {}), kernelSupport: Number(process.env.KS) };
if (process.env.VISC) input.materials.honey.viscosity.value = Number(process.env.VISC);

const sim = createSimulation(parseScene(input), 'particle') as ParticleSimulation;
const frames = Number(process.argv[2] ?? 30);
let passes = 0, substeps = 0, ms = 0;
const rows: string[] = [];
for (let f = 1; f <= frames; f++) {
  const st = sim.stepFrame();
  passes += st.counters.densityPasses ?? 0;
  substeps += st.counters.substeps;
  ms += st.wallMs;
  if (f % 10 !== 0) continue;
  const L = sim.ctx.liquid;
  let on = 0, below = 0, floor = 0;
  for (let i = 0; i < L.count; i++) {
    const x = L.pos[3 * i], y = L.pos[3 * i + 1], z = L.pos[3 * i + 2];
    if (y < -0.105) floor++;
    else if (Math.hypot(x, y, z) < 0.065) on++;
    else if (y < 0) below++;
  }
  rows.push(`frames ${f - 9}–${f}: ${(passes / substeps).toFixed(2)} passes, ${(ms / 10).toFixed(0)} ms/frame; on the ball ${on}, below it ${below}, on the floor ${floor} (of ${L.count})`);
  passes = substeps = ms = 0;
}
const set = ['HH', 'HB', 'KS', 'DK', 'VISC'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
console.log(`honey drop${set.length ? ` (${set.join(' ')})` : ''}\n  ${rows.join('\n  ')}`);
