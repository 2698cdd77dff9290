/**
 * Tracks the free bodies of a scene in the particle engine: per frame, each body's centre of mass,
 * speed and tilt, and the liquid's momentum. `npx tsx bench/free-body-track.ts scenes/floating-box.json
 * [--frames 60] [--radius 0.006]`.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseScene } from '../src/index.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';

const args = process.argv.slice(2);
const file = args[0] ?? 'scenes/floating-box.json';
const opt = (name: string, d: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const json = JSON.parse(readFileSync(file, 'utf8'));
const radius = opt('radius', 0);
if (radius > 0) json.particle = { ...(json.particle ?? {}), radius };
void dirname;
const scene = parseScene(json);
const sim = new ParticleSimulation(scene);
const fb = sim.ctx.freeBodies;
if (!fb) throw new Error('no free body in the scene');
console.log(`liquid ${sim.ctx.liquid.count} particles, object ${sim.ctx.objects.count}; bodies: ${fb.places.join(', ')} mass ${Array.from(fb.mass, (m) => m.toFixed(4)).join(', ')} kg`);
const frames = opt('frames', 60);
const t0 = performance.now();
for (let f = 0; f < frames; f++) {
  sim.stepFrame();
  const m = sim.metrics();
  const parts = [];
  for (let k = 0; k < fb.count; k++) {
    const x = fb.position(k), v = fb.velocity(k), q = fb.orientation(k);
    const tilt = (2 * Math.acos(Math.min(1, Math.abs(q[3]))) * 180) / Math.PI;
    const up = 1 - 2 * (q[0] * q[0] + q[2] * q[2]);
    parts.push(`x ${Array.from(x, (c) => (100 * c).toFixed(2)).join(' ')} cm  v ${Array.from(v, (c) => (100 * c).toFixed(1)).join(' ')} cm/s  turned ${tilt.toFixed(1)}° (up·y ${up.toFixed(3)})`);
  }
  console.log(`${(sim.time).toFixed(3)} s  ${parts.join(' | ')}  liquid top ${(100 * m.bounds.max[1]).toFixed(2)} cm`);
}
console.log(`${((performance.now() - t0) / frames).toFixed(0)} ms a frame`);
