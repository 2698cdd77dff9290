/**
 * Free rigid bodies on the WebGPU step (src/gpu/free-bodies.ts, free-wgsl.ts) against the CPU
 * particle engine (src/particle/free-bodies.ts), on SwiftShader: a small floating box (the shipped
 * floating-box.json scaled down: a 4 cm pine cube, tilted 10°, dropped onto an 8 × 4 × 8 cm pool
 * of water at particle.radius 5 mm, 256 particles, the defaults otherwise) plunges and is pushed
 * back up, turning flat, as on the CPU: its height and turn frame by frame within stated tolerances.
 */
import { describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import type { SceneInput } from '../../src/scene/schema.ts';
import { GPU_SKIP, releaseGpuAfterAll, gpuFrames } from './device.ts';

releaseGpuAfterAll();

const FRAMES = 4;

const scene: SceneInput = {
  fps: 30,
  duration: 1,
  domain: { min: [-0.04, 0, -0.04], max: [0.04, 0.15, 0.04], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: {
    water: { kind: 'liquid', density: 1000, viscosity: { value: 1e-6, unit: 'm2/s' } },
    pine: { kind: 'solid', density: 500 },
  },
  bodies: [
    { name: 'pool', material: 'water', shape: { type: 'box', center: [0, 0.02, 0], size: [0.08, 0.04, 0.08] } },
    { name: 'box', material: 'pine', shape: { type: 'box', center: [0, 0.065, 0], size: [0.04, 0.04, 0.04], rotation: [0, 0, 10] }, motion: { type: 'free', angularDamping: 1 } },
  ],
  particle: { radius: 0.005 },
};

/** Height of the centre of mass (m), turn (degrees: the angle its y axis turned since the drop; the state's orientation starts at the scene's pose) and vertical velocity of body 0 in a free-body state. */
function pose(state: ArrayLike<number>): { y: number; turn: number; vy: number } {
  const qx = state[3], qz = state[5];
  return { y: state[1], turn: (Math.acos(Math.min(1, 1 - 2 * (qx * qx + qz * qz))) * 180) / Math.PI, vy: state[8] };
}

describe.skipIf(GPU_SKIP)('WebGPU free bodies', () => {
  it('floats a box dropped onto a pool as the CPU engine does: its height and turn frame by frame', async () => {
    const gpu: ReturnType<typeof pose>[] = [];
    await gpuFrames(scene, FRAMES, (_stats, sim) => gpu.push(pose(sim.host.freeBodies!.state)));
    const cpuSim = new ParticleSimulation(parseScene(scene));
    const cpu: ReturnType<typeof pose>[] = [];
    for (let f = 0; f < FRAMES; f++) {
      cpuSim.stepFrame();
      cpu.push(pose(cpuSim.ctx.freeBodies!.state));
    }
    cpuSim.dispose();
    const mm = (v: number) => (v * 1000).toFixed(1);
    for (let f = 0; f < FRAMES; f++) {
      console.log(`floating box, frame ${f + 1}: centre ${mm(gpu[f].y)} / ${mm(cpu[f].y)} mm, vertical velocity ${gpu[f].vy.toFixed(3)} / ${cpu[f].vy.toFixed(3)} m/s, turned ${gpu[f].turn.toFixed(1)}° / ${cpu[f].turn.toFixed(1)}° (GPU / CPU)`);
    }
    // It fell into the pool and was pushed back: the liquid's pressure reached it (uncoupled, it
    // would fall 1/2 g t² = 98 mm in 0.2 s, through the floor).
    expect(Math.min(...gpu.map((p) => p.y))).toBeGreaterThan(0.02);
    for (let f = 0; f < FRAMES; f++) {
      // Height within 2 mm (5 % of the box's size; 0.4 radii): the two engines' liquids differ in
      // single against double precision and in the liquid–liquid contacts the GPU does not run
      // (refuse.ts methodDifferences), which move the pool's surface by a fraction of a radius.
      expect(Math.abs(gpu[f].y - cpu[f].y)).toBeLessThan(0.002);
      // Turned within 3° of the CPU's (it turns about 10°, flat onto a face): the moment comes from
      // the same terms, less the implicit viscosity's, small in water.
      expect(Math.abs(gpu[f].turn - cpu[f].turn)).toBeLessThan(3);
    }
  }, 600_000);
});
