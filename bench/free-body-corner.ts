/**
 * A free rigid box (pine, 500 kg/m³, 8 cm, no angular damping) with the closed walls of
 * jelly-block's domain and no liquid near it: does it rest? Its centre (mm) and angular velocity
 * (°/s) each second, then over every frame from 1 s: the RMS and the largest |ω|, the largest |ω_y|
 * (the turn about the vertical), the contact sweeps a sub-timestep (free-body-contacts.ts), and the
 * drift of its centre in x / z from 1 s to the end.
 *
 *   npx tsx bench/free-body-corner.ts [xz|x|floor|throw] [seconds] [radius m]
 *
 * xz: started 1 cm off the x-min and z-min walls with gravity leaning 0.2 g towards them (the
 * corner); x: the x-min wall alone; floor: on the floor, plain gravity; throw: plain gravity, on the
 * floor 6 cm off the x-min wall and thrown at it at 0.3 m/s (0.05 m/s along it). Default: xz, 3 s, 4 mm.
 * (A 2 cm drop of water sits in the far corner: the particle engine wants a liquid.)
 */
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const [mode = 'xz', secondsArg = '3', radiusArg = '0.004'] = process.argv.slice(2);
const seconds = Number(secondsArg), radius = Number(radiusArg);
if (!['xz', 'x', 'floor', 'throw'].includes(mode)) throw new Error(`mode ${mode}: xz, x, floor or throw`);
const lean = mode === 'x' || mode === 'xz', lo = -0.15, h = 0.04;
const cx = mode === 'floor' ? 0 : mode === 'throw' ? lo + h + 0.06 : lo + h + 0.01, cz = mode === 'xz' ? lo + h + 0.01 : 0;
const scene = parseScene({
  name: `free-body-${mode}`, fps: 30, duration: seconds,
  domain: { min: [lo, 0, lo], max: [0.15, 0.3, 0.15], boundary: 'noslip', faces: { ymax: 'open' } },
  gravity: [lean ? -0.2 * 9.81 : 0, -9.81, mode === 'xz' ? -0.2 * 9.81 : 0],
  materials: { water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } }, pine: { kind: 'solid', density: 500 } },
  bodies: [
    { name: 'drop', material: 'water', shape: { type: 'box', center: [0.12, 0.02, 0.12], size: [0.02, 0.02, 0.02] } },
    { name: 'box', material: 'pine', shape: { type: 'box', center: [cx, mode === 'throw' ? h + 0.002 : 0.1, cz], size: [2 * h, 2 * h, 2 * h] }, motion: { type: 'free', angularDamping: 0 } },
  ],
  particle: { radius },
});
const sim = createSimulation(scene, 'particle') as ParticleSimulation;
const fb = sim.ctx.freeBodies!;
if (mode === 'throw') fb.velocity(0).set([-0.3, 0, 0.05]);
const deg = 180 / Math.PI, w: number[] = [], wy: number[] = [];
let at1: number[] = [], x: number[] = [], sweeps = 0, substeps = 0;
const t0 = performance.now();
console.log(`free box, ${mode}, particle r ${radius * 1000} mm, CPU`);
console.log('time | centre x y z (mm) | ω x y z (°/s)');
for (let f = 1; f <= seconds * scene.fps; f++) {
  const c = sim.stepFrame().counters;
  sweeps += c.freeBodyContactSweeps ?? 0;
  substeps += c.substeps ?? 0;
  x = [...fb.position(0)];
  const om = fb.angularVelocity(0);
  if (f >= scene.fps) {
    w.push(Math.hypot(om[0], om[1], om[2]) * deg);
    wy.push(Math.abs(om[1]) * deg);
  }
  if (f === scene.fps) at1 = x;
  if (f % scene.fps === 0) console.log(`${f / scene.fps} s | ${x.map((a) => (1000 * a).toFixed(2)).join(' ')} | ${[...om].map((a) => (a * deg).toFixed(3)).join(' ')}`);
}
const rms = Math.sqrt(w.reduce((s, a) => s + a * a, 0) / w.length);
console.log(`from 1 s, every frame: |ω| RMS ${rms.toFixed(3)}, largest ${Math.max(...w).toFixed(3)} °/s; |ω_y| largest ${Math.max(...wy).toFixed(3)} °/s; contact sweeps a sub-timestep ${(sweeps / substeps).toFixed(1)}; drift in x / z from 1 s to ${seconds} s ${(1000 * Math.hypot(x[0] - at1[0], x[2] - at1[2])).toFixed(3)} mm; ${((performance.now() - t0) / 1000).toFixed(0)} s`);
sim.dispose();
