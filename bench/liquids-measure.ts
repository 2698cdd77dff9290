/**
 * Per-liquid measures of particle-engine checkpoints (the CPU engine's, or the WebGPU backend's host
 * copy's): each liquid's count, centroid (mm) and mean fraction of other liquids in its particles
 * (colour-field.ts), side by side, to compare two runs of one scene continued from one checkpoint:
 *   npx tsx bench/liquids-measure.ts RUN_A/particle/checkpoint.vscd RUN_B/particle/checkpoint.vscd
 */
import { readFileSync } from 'node:fs';
import { restoreSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

for (const file of process.argv.slice(2)) {
  const sim = restoreSimulation(new Uint8Array(readFileSync(file))) as unknown as ParticleSimulation;
  const ctx = sim.ctx, L = ctx.liquid, n = L.count, names = ctx.scene.materialNames, mix = ctx.mixing;
  const rows: string[] = [];
  names.forEach((name, m) => {
    if (!ctx.isLiquid[m]) return;
    let c = 0, x = 0, y = 0, z = 0, other = 0, most = 0;
    for (let i = 0; i < n; i++) {
      if (L.material[i] !== m) continue;
      c++; x += L.pos[3 * i]; y += L.pos[3 * i + 1]; z += L.pos[3 * i + 2];
      if (mix) { const o = 1 - mix.fractions.array[mix.width * i + m]; other += o; most = Math.max(most, o); }
    }
    if (c === 0) return;
    rows.push(`  ${name}: ${c} particles, centroid (${(1e3 * x / c).toFixed(2)}, ${(1e3 * y / c).toFixed(2)}, ${(1e3 * z / c).toFixed(2)}) mm, mean other-liquid fraction ${(other / c).toFixed(4)}, most ${most.toFixed(3)}`);
  });
  console.log(`${file}: frame ${ctx.frame}, ${n} liquid particles`);
  console.log(rows.join('\n'));
  sim.dispose();
}
