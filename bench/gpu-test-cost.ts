/**
 * Where a WebGPU agreement test's time goes on SwiftShader: the device, the simulation's set-up
 * (pipelines), and each frame, in the process's CPU time and wall time, with the frame's sub-timesteps.
 *   npx tsx bench/gpu-test-cost.ts [frames] [--new-device]
 * The scene is tests/gpu/resume.test.ts's (a 216-particle viscous cube at the defaults), set up twice:
 * on the same device, or with --new-device on a new one (the first released), then stepped on the CPU.
 */
import { cpuLaps } from './cpu-laps.ts';
import { requestNodeGpu, releaseNodeGpu } from '../src/cli/webgpu.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';

const frames = Number(process.argv[2] ?? 3);
const scene: SceneInput = {
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.03, 0.04, 0.03], boundary: 'noslip' },
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
  particle: { radius: 0.002 },
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.015, 0.014, 0.015], size: [0.024, 0.024, 0.024] } }],
};

const lap = cpuLaps();
const newDevice = process.argv.includes('--new-device');
let { device } = await requestNodeGpu();
lap('device');
for (let k = 0; k < 2; k++) {
  if (k > 0 && newDevice) {
    releaseNodeGpu();
    device = (await requestNodeGpu()).device;
    lap('a new device (the first released)');
  }
  const sim = new GpuParticleSimulation(device, parseScene(scene));
  lap(`simulation ${k + 1} set up`);
  for (let f = 0; f < frames; f++) {
    const st = await sim.stepFrame();
    lap(`  GPU frame ${f + 1} (${st.counters.substeps} sub-timesteps, viscosity iterations ${st.counters.viscosityIterations ?? '-'})`);
  }
  sim.destroy();
}
const host = new ParticleSimulation(parseScene(scene));
for (let f = 0; f < frames; f++) { host.stepFrame(); lap(`  CPU frame ${f + 1}`); }
releaseNodeGpu();
