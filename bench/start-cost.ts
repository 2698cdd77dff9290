/**
 * The cost of a liquid body's start (src/particle/start-packing.ts, via emit.ts Emitters: sampling,
 * the fit to the walls, the clearance) against a frame, in one process (CPU): a pool W × W × D cm
 * at 4 mm particles, water, off the lattice and on it.
 *
 *   npx tsx bench/start-cost.ts [W cm=10] [D cm=12]
 */
import { parseScene } from '../src/index.ts';
import { Emitters } from '../src/particle/emit.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';

const w = Number(process.argv[2] ?? 10) / 100, d = Number(process.argv[3] ?? 12) / 100;
for (const width of [w, Math.round(w / 0.008) * 0.008]) {
  const scene = parseScene({
    name: 'pool', fps: 30, duration: 2,
    domain: { min: [0, 0, 0], max: [width, 2 * d, width], boundary: 'noslip' },
    materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
    bodies: [{ material: 'w', shape: { type: 'box', center: [width / 2, d / 2, width / 2], size: [width, d, width] } }],
    particle: { radius: 0.004 },
  });
  let t0 = process.cpuUsage();
  for (let k = 0; k < 20; k++) new Emitters(scene);
  const e = process.cpuUsage(t0);
  const s = new ParticleSimulation(scene);
  t0 = process.cpuUsage();
  for (let k = 0; k < 3; k++) s.stepFrame();
  const f = process.cpuUsage(t0);
  const em = (e.user + e.system) / 20 / 1000, fr = (f.user + f.system) / 3 / 1000;
  console.log(`${(width * 100).toFixed(1)} × ${d * 100} cm, ${s.ctx.liquid.count} particles: the start ${em.toFixed(2)} ms, a frame ${fr.toFixed(1)} ms (the first three), ${(100 * em / fr).toFixed(2)} %`);
}
