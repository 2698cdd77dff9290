/**
 * The thin pull on both engines from one checkpoint (docs/decisions.md, "The thin pull on the WebGPU backend"):
 * a run's checkpoint (a CPU run of a shipped scene that sets particle.thinPull, stopped where its liquid is thin)
 * restored four times and stepped `--frames` frames: the CPU engine and the WebGPU backend, each with the scene's
 * pull and with it set to 0. Per frame and run: the share of particles with at most 2 neighbours within 2.5 r (bench/
 * sheet-chains.ts's "chains", over the whole liquid), the share under ρ/ρ0 0.9 where the engine reports it (sparse),
 * the median nearest-neighbour distance (radii) and the rms speed; and each run's process CPU time. On SwiftShader the
 * GPU's times are the CPU's.
 *
 *   npx tsx bench/gpu-thin-resume.ts RUN_DIR/particle/checkpoint.vscd [--frames 2] [--runs cpu-pull,cpu-off,gpu-pull,gpu-off]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { restoreSimulation } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const frames = Number(opt('frames', '2')), runs = opt('runs', 'cpu-pull,cpu-off,gpu-pull,gpu-off').split(',');
const bytes = new Uint8Array(readFileSync(args[0]));

function restored(pull: boolean): ParticleSimulation {
  const sim = restoreSimulation(bytes) as unknown as ParticleSimulation;
  if (!pull) (sim.ctx.scene.particle as { thinPull: number }).thinPull = 0;
  return sim;
}

/** chains %, median nearest neighbour (radii) and rms speed of n particles. */
function stats(pos: ArrayLike<number>, vel: ArrayLike<number>, n: number, r: number): { chains: number; nn: number; rms: number } {
  const link = 2.5 * r, cells = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${Math.floor(x / link)},${Math.floor(y / link)},${Math.floor(z / link)}`;
  for (let i = 0; i < n; i++) {
    const k = key(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
    let c = cells.get(k);
    if (!c) cells.set(k, (c = []));
    c.push(i);
  }
  let chains = 0, v2 = 0;
  const nn = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    const cx = Math.floor(x / link), cy = Math.floor(y / link), cz = Math.floor(z / link);
    let near = 0, best = Infinity;
    for (let a = -1; a <= 1; a++) for (let b = -1; b <= 1; b++) for (let c = -1; c <= 1; c++) {
      for (const j of cells.get(`${cx + a},${cy + b},${cz + c}`) ?? []) {
        if (j === i) continue;
        const d = Math.hypot(pos[3 * j] - x, pos[3 * j + 1] - y, pos[3 * j + 2] - z);
        if (d < link) near++;
        if (d < best) best = d;
      }
    }
    if (near <= 2) chains++;
    nn[i] = Math.min(best, link) / r;
    v2 += vel[3 * i] ** 2 + vel[3 * i + 1] ** 2 + vel[3 * i + 2] ** 2;
  }
  nn.sort();
  return { chains: (100 * chains) / n, nn: nn[Math.floor(n / 2)], rms: Math.sqrt(v2 / n) };
}

const line = (name: string, f: number, s: { chains: number; nn: number; rms: number }, sparse: number, ms: number) =>
  console.log(`${name.padEnd(10)} ${String(f).padStart(5)} ${s.chains.toFixed(2).padStart(8)} ${sparse.toFixed(2).padStart(8)} ${s.nn.toFixed(3).padStart(6)} ${s.rms.toFixed(5).padStart(9)} ${ms.toFixed(0).padStart(9)}`);
console.log(`${args[0]}: ${frames} frames from its frame; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log('run        frame  chains%  sparse%  nn_r  rms_m/s  cpu_ms');
const sparseOf = (d: ArrayLike<number>, n: number) => { let k = 0; for (let i = 0; i < n; i++) if (d[i] < 0.9) k++; return (100 * k) / n; };
if (runs.some((r) => r.startsWith('cpu'))) {
  for (const pull of [true, false]) {
    if (!runs.includes(pull ? 'cpu-pull' : 'cpu-off')) continue;
    const sim = restored(pull), L = sim.ctx.liquid, f0 = sim.ctx.frame;
    for (let f = 1; f <= frames; f++) {
      const c0 = process.cpuUsage();
      sim.stepFrame();
      const c = process.cpuUsage(c0);
      line(`cpu ${pull ? 'pull' : 'off'}`, f0 + f, stats(L.pos, L.vel, L.count, sim.ctx.r), sparseOf(L.density, L.count), (c.user + c.system) / 1000);
    }
  }
}
if (runs.some((r) => r.startsWith('gpu'))) {
  const { device, adapter } = await requestNodeGpu();
  console.log(`adapter: ${adapter}`);
  for (const pull of [true, false]) {
    if (!runs.includes(pull ? 'gpu-pull' : 'gpu-off')) continue;
    const from = restored(pull), gpu = new GpuParticleSimulation(device, from.ctx.scene, from), f0 = from.ctx.frame;
    for (let f = 1; f <= frames; f++) {
      const c0 = process.cpuUsage();
      await gpu.stepFrame();
      await device.queue.onSubmittedWorkDone();
      const c = process.cpuUsage(c0);
      const g = await gpu.read();
      line(`gpu ${pull ? 'pull' : 'off'}`, f0 + f, stats(g.pos, g.vel, gpu.count, from.ctx.r), sparseOf(g.density, gpu.count), (c.user + c.system) / 1000);
    }
    gpu.destroy();
  }
}
process.exit(0);
