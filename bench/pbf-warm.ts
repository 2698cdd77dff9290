/**
 * PBF's passes and the stored pressure frame by frame (docs/decisions.md "The dam break's PBF at its
 * cap: its pressure fed to the warm start"):
 *   npx tsx bench/pbf-warm.ts [scene] [frames] [particle JSON, e.g. '{"radius":0.009}']
 * Per frame: sub-timesteps, pressure and PBF passes (the frame's sums), the CPU ms of the frame;
 * the stored pressure p/δt² (LiquidParticles.lambda, m²/s²: g h at a pool's floor) over the liquid
 * that holds one and is not next to a body, its median, 99th and 99.9th percentiles and largest;
 * the liquid's front (largest x), top, centre-of-mass height, fastest particle and kinetic energy.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const file = process.argv[2] ?? 'scenes/dam-break.json', frames = Number(process.argv[3] ?? 5);
const json = JSON.parse(readFileSync(file, 'utf8'));
json.particle = { ...json.particle, ...(JSON.parse(process.argv[4] ?? '{}') as object) };
const sim = createSimulation(parseScene(json), 'particle') as unknown as ParticleSimulation;
let lam: number[] = [];
const at = (f: number): number => lam[Math.min(lam.length - 1, Math.floor(f * lam.length))] ?? 0;
for (let f = 1; f <= frames; f++) {
  const t0 = process.cpuUsage();
  const st = sim.stepFrame();
  const c = process.cpuUsage(t0), k = st.counters;
  const L = sim.ctx.liquid, n = L.count;
  lam = [];
  for (let i = 0; i < n; i++) if (L.lambda[i] > 0 && !L.nearObject[i]) lam.push(L.lambda[i]);
  lam.sort((x, y) => x - y);
  const m = sim.metrics();
  console.log(
    `frame ${f}: sub ${k.substeps} pressure ${k.pressurePasses ?? 0} PBF ${k.densityPasses ?? 0} (${((k.densityPasses ?? 0) / (k.substeps ?? 1)).toFixed(2)} a sub-timestep), ` +
      `cpu ${((c.user + c.system) / 1000).toFixed(0)} ms | p/δt² median ${at(0.5).toFixed(2)} p99 ${at(0.99).toFixed(2)} p99.9 ${at(0.999).toFixed(2)} max ${at(1).toFixed(2)} | ` +
      `front ${m.bounds.max[0].toFixed(4)} top ${m.bounds.max[1].toFixed(4)} com y ${m.centerOfMass[1].toFixed(5)} vmax ${m.maxSpeed.toFixed(3)} ke ${m.kineticEnergy.toExponential(4)}`,
  );
}
sim.dispose();
