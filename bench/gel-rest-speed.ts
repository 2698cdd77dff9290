/**
 * A gel on the particle engine (one thread), frame by frame: the largest particle speed, the 99th
 * percentile and the median, where the fastest particle is (its height over the lowest particle),
 * the particles' mean velocity (the block's own motion), and the springs longer than the reach h
 * after the frame (gel.ts: a spring of a gel without decay is broken at its next listing once its
 * length reaches h, so these are springs torn within the frame). A block at rest should have every
 * particle near the block's mean velocity; a largest speed far over it is motion the engine puts in.
 *
 *   npx tsx bench/gel-rest-speed.ts SCENE|cube [frames] [radius m]
 *
 * `cube`: tests/particle/gel.test.ts's gel cube (3 cm, 125 particles of 3 mm, elastic modulus
 * 3000 Pa, limit 5, resting on a no-slip floor from frame 0). Default 30 frames, the scene's radius.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const which = process.argv[2] ?? 'cube', frames = Number(process.argv[3] ?? 30), radius = process.argv[4] ? Number(process.argv[4]) : null;
const CUBE: SceneInput = {
  fps: 30,
  gravity: [0, -9.81, 0],
  domain: { min: [-0.1, 0, -0.1], max: [0.1, 0.2, 0.1], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { jelly: { kind: 'liquid', density: 1100, viscosity: { value: 1, unit: 'Pa.s' }, viscoelastic: { elasticModulus: 3000, elasticLimit: 5 } } },
  bodies: [{ material: 'jelly', shape: { type: 'box', center: [0, 0.015, 0], size: [0.03, 0.03, 0.03] } }],
  particle: { radius: 0.003 },
};
const input: SceneInput = which === 'cube' ? structuredClone(CUBE) : JSON.parse(readFileSync(which, 'utf8'));
if (radius !== null) input.particle = { ...input.particle, radius };
const sim = createSimulation(parseScene(input), 'particle', { workers: 1 }) as ParticleSimulation;
const L = sim.ctx.liquid;
let worst = 0, worstAt = 0;
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  const n = L.count, speed = new Float64Array(n);
  let fastest = 0, lowest = Infinity, mx = 0, my = 0, mz = 0;
  for (let i = 0; i < n; i++) {
    const u = L.vel[3 * i], v = L.vel[3 * i + 1], w = L.vel[3 * i + 2];
    speed[i] = Math.hypot(u, v, w);
    if (speed[i] > speed[fastest]) fastest = i;
    lowest = Math.min(lowest, L.pos[3 * i + 1]);
    mx += u; my += v; mz += w;
  }
  const sorted = speed.slice().sort();
  const g = sim.ctx.gel, h = g?.reach ?? Infinity;
  let past = 0;
  for (let q = 0; g && q < g.count; q++) {
    const i = g.a[q], j = g.b[q];
    if (i >= n || j >= n) continue;
    if (Math.hypot(L.pos[3 * j] - L.pos[3 * i], L.pos[3 * j + 1] - L.pos[3 * i + 1], L.pos[3 * j + 2] - L.pos[3 * i + 2]) >= h) past++;
  }
  if (speed[fastest] > worst) { worst = speed[fastest]; worstAt = f; }
  console.log(
    `frame ${f}: largest ${speed[fastest].toFixed(3)} m/s (${((L.pos[3 * fastest + 1] - lowest) * 1000).toFixed(1)} mm over the lowest particle), ` +
      `p99 ${sorted[Math.floor(0.99 * (n - 1))].toFixed(3)}, median ${sorted[Math.floor(0.5 * (n - 1))].toFixed(3)}, mean velocity ${(Math.hypot(mx, my, mz) / n).toFixed(3)} m/s; ` +
      `springs ${g?.count ?? 0}, past h ${past}`,
  );
}
console.log(`largest speed ${worst.toFixed(3)} m/s at frame ${worstAt}`);
