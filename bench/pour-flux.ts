/**
 * The flux a tipping container pours, measured against src/scene/pour-resolution.ts's draining
 * film: steps a scene in the particle engine and prints, every frame, the liquid inside the
 * container's cavity (particles whose centres lie in it, in its own frame at that time, times the
 * liquid's volume a particle at the start) and the flux −dV/dt over the frame, beside the model's
 * film at the rim, the liquid it holds, its flux and the rope it lands as:
 *   npx tsx bench/pour-flux.ts [scene] [frames] [--particle '{"radius":0.0015}']
 * (defaults: cup-pour, 66 frames; the container is the model's first).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseScene, createSimulation } from '../src/index.ts';
import { compileMotion, createPose, inversePose } from '../src/scene/motion.ts';
import { pourResolutions } from '../src/scene/pour-resolution.ts';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const pos = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
const name = pos[0] ?? 'cup-pour';
const frames = Number(pos[1] ?? 66);
const json = JSON.parse(readFileSync(`scenes/${name}.json`, 'utf8')) as { particle?: Record<string, unknown> };
json.particle = { ...json.particle, ...(JSON.parse(flag('--particle') ?? '{}') as Record<string, unknown>) };
const scene = parseScene(json);
const [model] = pourResolutions(scene);
if (!model) throw new Error(`no tipping container in '${name}'`);
const body = scene.bodies[model.body];
const sh = body.shape;
if (sh.type !== 'cylinder') throw new Error('the container is not a cylinder');
const nl = Math.hypot(...sh.axis), n0 = sh.axis.map((c) => c / nl);
const hh = sh.height / 2, a = sh.radius - sh.wall;
const motion = compileMotion(body.motion), pose = createPose(), q = new Float64Array(3);
const sim = createSimulation(scene, 'particle');
const inCup = (pos: ArrayLike<number>, count: number): number => {
  let k = 0;
  for (let i = 0; i < count; i++) {
    inversePose(pose, [pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]], q);
    const d0 = q[0] - sh.center[0], d1 = q[1] - sh.center[1], d2 = q[2] - sh.center[2];
    const along = d0 * n0[0] + d1 * n0[1] + d2 * n0[2];
    const radial = Math.hypot(d0 - along * n0[0], d1 - along * n0[1], d2 - along * n0[2]);
    if (along > -hh + sh.wall && along < hh && radial < a) k++;
  }
  return k;
};
const p0 = sim.fluidPoints();
motion.poseAt(0, pose);
const perParticle = liquidVolume() / p0.count;
function liquidVolume(): number {
  const l = scene.bodies.find((b) => b.material === model.material)!;
  return l.shape.type === 'cylinder' ? Math.PI * l.shape.radius ** 2 * l.shape.height : NaN;
}
console.log(`${name}: r ${scene.particle.radius * 1000} mm, ${p0.count} particles of ${(perParticle * 1e9).toFixed(1)} µL, load ${loadavg()[0].toFixed(1)}`);
console.log('frame | held (mL) | flux (mL/s) | model: film at rim (mm), held (mL), flux (mL/s), rope across (particles)');
let prev = NaN;
for (let f = 1; f <= frames; f++) {
  sim.stepFrame();
  const t = f / scene.fps;
  motion.poseAt(t, pose);
  const p = sim.fluidPoints();
  const held = inCup(p.positions, p.count) * perParticle;
  const flux = Number.isNaN(prev) ? NaN : (prev - held) * scene.fps;
  prev = held;
  const m = model.samples.find((s) => Math.abs(s.time - t) < 1e-6);
  const mtxt = m ? `${(m.film * 1000).toFixed(1)}, ${(m.held * 1e6).toFixed(0)}, ${(m.flux * 1e6).toFixed(0)}, ${m.across.toFixed(2)}` : '—';
  console.log(`${f} | ${(held * 1e6).toFixed(0)} | ${Number.isNaN(flux) ? '—' : (flux * 1e6).toFixed(0)} | ${mtxt}`);
}
