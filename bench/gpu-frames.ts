/**
 * GPU frame time and particles a second of the particle engine's WebGPU backend (src/gpu/), on
 * the scenes it runs, with the adapter named. Each scene runs `--warmup` frames, then `--frames`
 * timed frames; a frame's time is wall time from its first dispatch to its last result (the
 * backend reads the largest speed back once a sub-timestep, as the CPU engine's subdivision needs
 * it, so the time includes those round trips). "particles a second" is particles × frames a
 * second. Scenes with features the backend does not run are refused with their paths, and the
 * honey drop is also timed as a proxy that the backend can run: its honey alone (with its
 * cohesion; no ball, no sink) falling onto the floor of a closed box, labelled as such.
 *
 *   npx tsx bench/gpu-frames.ts [scenes/a.json …] [--frames 3] [--warmup 1] [--radius R] [--exchange]
 * (--radius overrides particle.radius, to size a scene to the device: SwiftShader runs a few
 * thousand particles at seconds a frame. --exchange writes `particle.viscositySolver: "exchange"`
 * and `pressureAfterViscosity: false`, the method the backend ran before the implicit viscosity was
 * ported, to time the two methods against each other; labelled so.)
 * On a machine without a GPU, Dawn runs on SwiftShader's Vulkan (src/cli/webgpu.ts): a functional
 * check only, its times say nothing of a GPU's.
 */
import { readFileSync } from 'node:fs';
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { GpuParticleSimulation, UnportedSceneError } from '../src/gpu/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const frames = Number(opt('frames', '3')), warmup = Number(opt('warmup', '1'));
const radius = args.includes('--radius') ? Number(opt('radius', '0')) : undefined;
const exchange = args.includes('--exchange');
const files = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1]?.startsWith('--') && args[i - 1] !== '--exchange'));
const scenes = files.length ? files : ['scenes/dam-break.json', 'scenes/honey-drop.json'];

/** The honey drop's honey alone in a closed box whose floor is the scene's floor (a proxy: see the header). */
function honeyProxy(input: SceneInput): SceneInput {
  const bodies = (input.bodies ?? []).filter((b) => input.materials[b.material].kind === 'liquid');
  const adhesion = (input.adhesion ?? []).filter((a) => a.between.every((m) => input.materials[m].kind === 'liquid'));
  return {
    ...input, name: `${input.name} (proxy: honey only, with its cohesion; no ball, closed box)`, bodies, sinks: [], adhesion,
    domain: { min: [-0.1115, -0.12, -0.1115], max: [0.1115, 0.3, 0.1115], boundary: 'noslip' },
  };
}

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}${/swiftshader/i.test(adapter) ? ' (SwiftShader: a CPU running the GPU code; a functional check, not a GPU speed)' : ''}`);
console.log(`load: ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);

async function bench(label: string, input: SceneInput): Promise<void> {
  if (radius !== undefined) input = { ...input, particle: { ...input.particle, radius } };
  if (exchange) input = { ...input, particle: { ...input.particle, viscositySolver: 'exchange', pressureAfterViscosity: false } };
  let sim: GpuParticleSimulation;
  try {
    sim = new GpuParticleSimulation(device, parseScene(input));
  } catch (e) {
    if (!(e instanceof UnportedSceneError)) throw e;
    console.log(`${label}: refused:\n${e.features.map((f) => `    ${f.path}: ${f.message}`).join('\n')}`);
    return;
  }
  for (let f = 0; f < warmup; f++) await sim.stepFrame();
  let ms = 0, substeps = 0, passes = 0, solves = 0, iterations = 0;
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    const st = await sim.stepFrame();
    await device.queue.onSubmittedWorkDone();
    ms += performance.now() - t0;
    substeps += st.counters.substeps;
    passes += st.counters.densityPassesLastSubstep;
    solves += st.counters.viscositySolves ?? 0;
    iterations += st.counters.viscosityIterations ?? 0;
  }
  const perFrame = ms / frames;
  console.log(
    `${label}: ${sim.count} particles, r ${input.particle?.radius ?? 'default'} m, ${(perFrame).toFixed(1)} ms a frame (${(1000 / perFrame).toFixed(2)} frames/s, ` +
    `${(substeps / frames).toFixed(1)} sub-timesteps a frame, ${(passes / frames).toFixed(1)} density passes in a frame's last` +
    `${solves > 0 ? `, ${(iterations / solves).toFixed(1)} implicit-viscosity iterations a solve` : ''}), ${((sim.count * 1000) / perFrame).toExponential(3)} particles a second`,
  );
  sim.destroy();
}

for (const file of scenes) {
  const input = JSON.parse(readFileSync(file, 'utf8')) as SceneInput;
  delete (input as { $schema?: string }).$schema;
  await bench(exchange ? `${file} (exchange, one pressure solve)` : file, input);
  if (/honey-drop\.json$/.test(file)) await bench(`${file} proxy`, honeyProxy(input));
}
releaseNodeGpu();
