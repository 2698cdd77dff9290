/**
 * A Wendland kernel (particle.pressureKernel) on a thread team: a 10 × 5 × 4.8 cm water pool stepped on one thread
 * and on two (every stage handed to the team from 256 liquid particles, as particle-checksums.ts's `2-small`),
 * its liquid's positions and velocities compared bit for bit each frame; and the cubic spline's run beside it, which
 * must differ (the setting reaches the engine). Run after `npm run build` (the threads load dist/).
 *
 *   npx tsx bench/solve-kernel-threads.ts [frames=10] [kernel=wendland-c2] [support radii=5]
 */
import { createSimulation, parseScene } from '../src/index.ts';
import { spawnNodeThread } from '../src/cli/threads.ts';
import { teamWork } from '../src/particle/work.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const frames = Number(process.argv[2] ?? 10), kernel = process.argv[3] ?? 'wendland-c2', support = Number(process.argv[4] ?? 5);
const scene = (k: string, h: number) => parseScene({
  name: 'pool', fps: 30, duration: 2,
  domain: { min: [0, 0, 0], max: [0.1, 0.1, 0.048], boundary: 'noslip', faces: { zmin: 'slip', zmax: 'slip' } },
  materials: { w: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } } },
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.05, 0.025, 0.024], size: [0.1, 0.05, 0.048] } }],
  particle: { radius: 0.004, pressureKernel: k, densityKernel: h },
});
teamWork.minParticles = 256;
const one = createSimulation(scene(kernel, support), 'particle', { workers: 1 }) as ParticleSimulation;
const two = createSimulation(scene(kernel, support), 'particle', { workers: 2, spawnThread: spawnNodeThread }) as ParticleSimulation;
const cubic = createSimulation(scene('cubic', 4), 'particle', { workers: 1 }) as ParticleSimulation;
await two.ready?.();
const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
let differs = -1, cubicSame = true;
for (let f = 1; f <= frames; f++) {
  one.stepFrame(); two.stepFrame(); cubic.stepFrame();
  const p1 = one.fluidPoints(), p2 = two.fluidPoints(), pc = cubic.fluidPoints();
  if (differs < 0 && !(same(p1.positions, p2.positions) && same(p1.velocities, p2.velocities))) differs = f;
  if (!same(p1.positions, pc.positions)) cubicSame = false;
}
console.log(`${kernel} at ${support} r, ${one.fluidPoints().count} particles, ${frames} frames: one thread against two ${differs < 0 ? 'the same bits every frame' : `differ from frame ${differs}`}; against the cubic spline at 4 r ${cubicSame ? 'THE SAME (the setting did not reach the engine)' : 'different'}`);
two.dispose?.();
process.exit(differs < 0 && !cubicSame ? 0 : 1);
