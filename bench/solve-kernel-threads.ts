/**
 * A Wendland kernel (particle.pressureKernel) on a thread team: a 10 × 5 × 4.8 cm water pool stepped on one thread
 * and on two (every stage handed to the team from 256 liquid particles, as particle-checksums.ts's `2-small`), and
 * the largest distance between the two runs' particles each frame (one and two threads sum in another order, so
 * they part by round-off: compare with `cubic 4`; a team left on the cubic spline parts by millimetres); and the
 * cubic spline's run beside it, which must differ (the setting reaches the engine). After `npm run build` (the
 * threads load dist/).
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
const apart = (a: Float32Array, b: Float32Array) => {
  let most = 0;
  for (let i = 0; i < a.length; i += 3) most = Math.max(most, Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]));
  return most;
};
const parts: string[] = [];
let cubicSame = true;
for (let f = 1; f <= frames; f++) {
  one.stepFrame(); two.stepFrame(); cubic.stepFrame();
  const p1 = one.fluidPoints(), p2 = two.fluidPoints(), pc = cubic.fluidPoints();
  parts.push((apart(p1.positions, p2.positions) * 1e3).toExponential(1));
  if (!same(p1.positions, pc.positions)) cubicSame = false;
}
console.log(`${kernel} at ${support} r, ${one.fluidPoints().count} particles: one thread against two, the largest distance (mm) at frames 1–${frames}: ${parts.join(' ')}; against the cubic spline at 4 r ${cubicSame ? 'the same' : 'different'}`);
two.dispose?.();
process.exit(0);
