/**
 * scenes/jelly-block.json on the particle engine: does the settled block stand, or creep over its
 * floor? Its centre of mass each second (x / z, mm), the sideways speed over each second from 1 s
 * (mm/s), the drift from 1 s to the end, the height of the centre over the rest height (3 cm), the
 * bounding box's width in x and z (cm) each second, its turn and spin about the vertical, and on the CPU the holds a frame (the solve's
 * walls: wallHolds; the face friction: frictionHolds) over the last second, and the spin and the centre's speed in x / z at
 * every frame from 1 s (RMS and largest: a body against a wall wobbles at about 3 Hz, which the samples a second apart alias).
 *
 *   npx tsx bench/jelly-drift.ts [radius m] [seconds] [--gpu] [--push x|xz] [p.name=value …]
 *
 * p.name=value: a particle.* setting (p.substeps=8).
 * --push: the block pushed against the x-min wall, or into the corner of the x-min and z-min walls (gravity leaning 0.2 g to them).
 * Default: 0.002 (as shipped), 5 s, the CPU engine on one thread. --gpu: the WebGPU backend
 * (src/gpu; SwiftShader where there is no GPU: src/cli/webgpu.ts), its particles read back each second.
 */
import { readFileSync } from 'node:fs';
import { createSimulation, parseScene } from '../src/index.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2), gpu = args.includes('--gpu');
const plain = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--push' && !a.includes('='));
const radius = Number(plain[0] ?? 0.002), seconds = Number(plain[1] ?? 5);
const json = JSON.parse(readFileSync(new URL('../scenes/jelly-block.json', import.meta.url), 'utf8'));
json.particle = { ...json.particle, radius };
json.duration = seconds;
// p.name=value: any particle.* setting (p.substeps=8 p.pressureAfterViscosity=false), as bench/pool-rest.ts takes them.
for (const a of args.filter((x) => x.startsWith('p.') && x.includes('='))) {
  const [k, v] = a.slice(2).split('=');
  json.particle[k] = v === 'true' ? true : v === 'false' ? false : Number.isNaN(Number(v)) ? v : Number(v);
}
// --push x | xz: the block pushed against the x-min wall (x), or into the corner of the x-min and z-min walls (xz):
// it starts 1 cm off them and gravity leans 0.2 g towards them, so that it lands and stays against the floor and
// one or two walls (thrown at them instead, it bounced off the wall as it squashed and settled 4 cm from it).
const push = args.includes('--push') ? args[args.indexOf('--push') + 1] : '';
if (push) {
  const body = json.bodies[0], lo = json.domain.min, half = body.shape.size[0] / 2;
  body.shape.center = [lo[0] + half + 0.01, body.shape.center[1], push === 'xz' ? lo[2] + half + 0.01 : body.shape.center[2]];
  json.gravity = [-0.2 * 9.81, -9.81, push === 'xz' ? -0.2 * 9.81 : 0];
}
const scene = parseScene(json);
const fps = scene.fps;

/**
 * Centre of mass and bounds of equal-mass points (one liquid); the block's turn about the vertical
 * (degrees: the square's four-fold angle, ¼ atan2 of Σ ρ² sin 4φ, Σ ρ² cos 4φ about the centre) and
 * its spin about the vertical, L_y / I_y (degrees a second).
 */
function measure(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number): { c: number[]; min: number[]; max: number[]; turn: number; spin: number } {
  const c = [0, 0, 0], min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const x = pos[3 * i + k];
      c[k] += x / n;
      min[k] = Math.min(min[k], x);
      max[k] = Math.max(max[k], x);
    }
  }
  let s4 = 0, c4 = 0, L = 0, I = 0;
  for (let i = 0; i < n; i++) {
    const dx = pos[3 * i] - c[0], dz = pos[3 * i + 2] - c[2], r2 = dx * dx + dz * dz, phi = Math.atan2(dz, dx);
    s4 += r2 * Math.sin(4 * phi); c4 += r2 * Math.cos(4 * phi);
    L += dz * vel[3 * i] - dx * vel[3 * i + 2];
    I += r2;
  }
  return { c, min, max, turn: (Math.atan2(s4, c4) / 4) * (180 / Math.PI), spin: (L / I) * (180 / Math.PI) };
}

let step: () => Promise<Record<string, number>>, look: () => Promise<ReturnType<typeof measure>>, done: () => void, label: string;
if (gpu) {
  const { device, adapter } = await requestNodeGpu();
  const sim = new GpuParticleSimulation(device, scene);
  label = `WebGPU (${adapter})`;
  step = async () => (await sim.stepFrame()).counters;
  look = async () => {
    const p = await sim.read();
    return measure(p.pos, p.vel, sim.count);
  };
  done = () => {
    sim.destroy();
    releaseNodeGpu();
  };
} else {
  const sim = createSimulation(scene, 'particle');
  label = 'CPU, one thread';
  step = async () => sim.stepFrame().counters;
  look = async () => {
    const p = sim.fluidPoints();
    return measure(p.positions, p.velocities, p.count);
  };
  done = () => sim.dispose();
}

const rows: string[] = [];
let at1: number[] | null = null, last: number[] | null = null, prev: number[] | null = null;
// Every frame from 1 s (CPU only: the GPU reads back once a second): the spin (°/s) and the centre's speed in x / z (mm/s).
const spins: number[] = [], sways: number[] = [];
const holds: Record<string, number> = {};
const t0 = performance.now();
for (let f = 1; f <= seconds * fps; f++) {
  const counters = await step();
  if (f > (seconds - 1) * fps) for (const k of ['wallHolds', 'frictionHolds']) holds[k] = (holds[k] ?? 0) + (counters[k] ?? 0) / fps;
  if (!gpu && f >= fps) {
    const m = await look();
    spins.push(m.spin);
    if (prev) sways.push(1000 * fps * Math.hypot(m.c[0] - prev[0], m.c[2] - prev[2]));
    prev = m.c;
  }
  if (f % fps !== 0) continue;
  const { c, min, max, turn, spin } = await look();
  if (f === fps) at1 = c;
  const speed = last && f > fps ? (1000 * Math.hypot(c[0] - last[0], c[2] - last[2])).toFixed(3) : '';
  rows.push(`${f / fps} s | ${(1000 * c[0]).toFixed(2)} / ${(1000 * c[2]).toFixed(2)} | ${speed} | ${(c[1] / 0.03).toFixed(3)} | ${(100 * (max[0] - min[0])).toFixed(2)} × ${(100 * (max[2] - min[2])).toFixed(2)} | ${turn.toFixed(2)} | ${spin.toFixed(3)}`);
  last = c;
}
console.log(`jelly-block${push ? ` pushed to ${push}` : ''}, particle, r ${radius * 1000} mm, ${label}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
console.log('time | centre x / z (mm) | speed over the second (mm/s) | height / rest | box x × z (cm) | turn about y (°) | spin (°/s)');
for (const r of rows) console.log(r);
if (at1 && last) console.log(`drift from 1 s to ${seconds} s: ${(1000 * Math.hypot(last[0] - at1[0], last[2] - at1[2])).toFixed(3)} mm; holds a frame over the last second: ${JSON.stringify(holds)}`);
const rms = (a: number[]): number => Math.sqrt(a.reduce((sum, x) => sum + x * x, 0) / a.length), largest = (a: number[]): number => Math.max(...a.map(Math.abs));
if (spins.length > 1) console.log(`every frame from 1 s: spin RMS ${rms(spins).toFixed(3)}, largest ${largest(spins).toFixed(3)} °/s; the centre's speed in x / z RMS ${rms(sways).toFixed(3)}, largest ${largest(sways).toFixed(3)} mm/s`);
done();
