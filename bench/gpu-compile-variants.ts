/**
 * What the WebGPU backend's pipelines cost a process that runs several particle settings on one
 * device, as a vitest worker does over the GPU test files: the three pressure settings (the default
 * implicit viscosity with two solves, which shifts; the exchange with two; one solve) each set up
 * and stepped `frames` frames on one device, in that order and then again, in the process's CPU
 * time (bench/cpu-laps.ts). The second round shows what stepping costs once every pipeline is
 * compiled; the first round less the second is the compiles.
 *   npx tsx bench/gpu-compile-variants.ts [ROOT] [frames]
 * ROOT (default this checkout) is the tree whose src/ is run: alternate two trees' processes to
 * compare them (docs/decisions.md, "The test suite, fifteenth pass").
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cpuLaps } from './cpu-laps.ts';
import type { SceneInput } from '../src/scene/schema.ts';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const frames = Number(process.argv[3] ?? 1);
const from = (p: string) => import(pathToFileURL(`${root}/src/${p}`).href);
const { requestNodeGpu, releaseNodeGpu } = await from('cli/webgpu.ts');
const { GpuParticleSimulation } = await from('gpu/simulation.ts');
const { parseScene } = await from('scene/parse.ts');

/** A 216-particle viscous cube (tests/gpu/resume.test.ts's scene) at the given pressure and viscosity settings. */
const scene = (viscositySolver: 'implicit' | 'exchange', pressureAfterViscosity: boolean): SceneInput => ({
  fps: 30,
  duration: 1,
  domain: { min: [0, 0, 0], max: [0.03, 0.04, 0.03], boundary: 'noslip' },
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } } },
  particle: { radius: 0.002, viscositySolver, pressureAfterViscosity },
  bodies: [{ material: 'w', shape: { type: 'box', center: [0.015, 0.014, 0.015], size: [0.024, 0.024, 0.024] } }],
});
const settings = [['implicit', true], ['exchange', true], ['exchange', false]] as const;

console.log(`root ${root}`);
const lap = cpuLaps();
const { device } = await requestNodeGpu();
lap('device');
for (let round = 1; round <= 2; round++) {
  for (const [solver, twice] of settings) {
    const sim = new GpuParticleSimulation(device, parseScene(scene(solver, twice)));
    for (let f = 0; f < frames; f++) await sim.stepFrame();
    await sim.read();
    sim.destroy();
    lap(`round ${round}: ${solver}, ${twice ? 'two solves' : 'one solve'}, ${frames} frame(s)`);
  }
}
releaseNodeGpu();
