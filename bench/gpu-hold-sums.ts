/**
 * The static walls' hold's sums on a large body (src/gpu/hold-wgsl.ts), in the three ways hold.ts
 * offers (HoldSums): a workgroup's slots of one body summed in workgroup memory first ('group'), a
 * thread's run of HOLD_RUN slots summed in registers first ('run'), every slot's terms added straight
 * to the body's 38 words ('direct'), on one simulation's slots. A block of a 1 Pa·s liquid resting
 * on a no-slip floor (`--size` m a side, 0.8 of it high, particles of `--radius`), sorted and its
 * bodies found (a viscosity solve of 1 ns), sliding at 1 cm/s along x; into `dx`, as a move's
 * collide leaves it, each slot's friction change (a fixed pseudo-random few mm/s, pushing on along
 * x, so that the hold takes some back) and, for the bottom layer, the floor's flag; then the moves'
 * face-friction hold (hold.ts friction: clear, flags, sums, projection, taking back). First once in
 * each way from the same velocities, read back and compared bit for bit (integer sums: the grouping
 * cannot change them); then `--reps` holds a submission, `--rounds` rounds (the first untimed), each
 * way first in turn, timed by wall time to onSubmittedWorkDone and by the process's CPU time
 * (SwiftShader runs the kernels on the process's threads). On SwiftShader a ratio on the CPU, not a
 * GPU's: a GPU serializes the atomics on one address, SwiftShader's threads contend on a cache line.
 *
 *   npx tsx bench/gpu-hold-sums.ts [--radius 0.001] [--size 0.1] [--reps 20] [--rounds 6]
 */
import { loadavg } from 'node:os';
import { parseScene } from '../src/scene/parse.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { GpuWallHold, type HoldSums } from '../src/gpu/hold.ts';
import type { GpuNeighbours } from '../src/gpu/neighbours.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const radius = Number(opt('radius', '0.001')), size = Number(opt('size', '0.1')), reps = Number(opt('reps', '20')), rounds = Number(opt('rounds', '6'));
const scene = parseScene({
  gravity: [0, -9.81, 0],
  domain: { min: [-size, 0, -size], max: [size, size, size], boundary: 'noslip', faces: { ymax: 'open' } },
  materials: { m: { kind: 'liquid', density: 1000, viscosity: { value: 1, unit: 'Pa.s' } } },
  bodies: [{ material: 'm', shape: { type: 'box', center: [0, 0.4 * size, 0], size: [size, 0.8 * size, size] } }],
  particle: { radius },
});

const { device, adapter } = await requestNodeGpu();
console.log(`adapter: ${adapter}; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
/** The simulation's buffers the hold reads (private in simulation.ts: a bench's look inside). */
type Inside = { params: GPUBuffer; grid: GpuNeighbours; wall: GPUBuffer; dx: GPUBuffer };
// The block sliding at 1 cm/s along x (the friction below pushes it on, so the hold takes that back).
const seed0 = new ParticleSimulation(scene);
for (let i = 0; i < seed0.ctx.liquid.count; i++) seed0.ctx.liquid.vel[3 * i] = 0.01;
const sim = new GpuParticleSimulation(device, scene, seed0), n = sim.count;
const s = sim as unknown as Inside;
await sim.implicitViscosity(1e-9);
// The same slots for both holds (the sort's order within a cell is not fixed from run to run): the
// second hold's own bodies, found on the same sorted slots (the roots are the bodies' smallest slots).
const modes: HoldSums[] = ['group', 'run', 'direct'];
const holds = modes.map((m) => GpuWallHold.of(device, scene, sim.capacity, m)!);
{
  const enc = device.createCommandEncoder();
  for (const h of holds) h.bodiesAlone(enc, s.params, s.grid, s.wall, s.dx, n);
  device.queue.submit([enc.finish()]);
}
// The sorted slots' positions; the friction change and the floor's flag.
const p = await sim.read();
const dx = new Float32Array(4 * n);
let seed = 12345, layer = 0;
const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
for (let a = 0; a < n; a++) {
  for (let k = 0; k < 3; k++) dx[4 * a + k] = k === 1 ? 0 : 0.001 + 0.004 * rand();
  const bottom = p.pos[3 * a + 1] < 2 * radius;
  dx[4 * a + 3] = bottom ? 2 : 0;
  if (bottom) layer++;
}
device.queue.writeBuffer(s.dx, 0, dx);
const encodeHolds = (k: number, count: number): void => {
  const enc = device.createCommandEncoder(), pass = enc.beginComputePass();
  for (let i = 0; i < count; i++) holds[k].friction(pass, s.params, s.grid, s.wall, s.dx, n);
  pass.end();
  device.queue.submit([enc.finish()]);
};
// Once each from the same state (the velocities kept and put back between): the same bits.
const saved = device.createBuffer({ size: s.grid.vel.size, usage: 0x0004 | 0x0008 /* COPY_SRC | COPY_DST */ });
const copy = (from: GPUBuffer, to: GPUBuffer) => {
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(from, 0, to, 0, from.size);
  device.queue.submit([enc.finish()]);
};
copy(s.grid.vel, saved);
const after: Float32Array[] = [];
for (let k = 0; k < holds.length; k++) {
  copy(saved, s.grid.vel);
  encodeHolds(k, 1);
  after.push((await sim.read()).vel);
}
let moved = 0;
for (let i = 0; i < 3 * n; i++) if (after[0][i] !== p.vel[i]) moved++;
const differ = after.map((v) => { let d = 0; for (let i = 0; i < 3 * n; i++) if (v[i] !== after[2][i]) d++; return d; });
console.log(`${n} particles in one body, ${layer} on the floor: one hold (${moved} velocities changed); velocities that differ from the direct sums': ${modes.map((m, k) => `${m} ${differ[k]}`).join(', ')} of ${3 * n}`);
const ms = modes.map(() => 0), cpu = modes.map(() => 0), ratios: number[][] = modes.map(() => []);
for (let r = 0; r < rounds; r++) {
  const t = modes.map(() => 0), c = modes.map(() => 0);
  // Each mode first in turn.
  const order = modes.map((_m, k) => (k + r) % modes.length);
  for (const k of order) {
    const t0 = performance.now(), c0 = process.cpuUsage();
    encodeHolds(k, reps);
    await device.queue.onSubmittedWorkDone();
    t[k] = performance.now() - t0;
    const dc = process.cpuUsage(c0);
    c[k] = (dc.user + dc.system) / 1000;
  }
  // The first round compiles and warms: untimed.
  if (r === 0) continue;
  for (let k = 0; k < modes.length; k++) { ms[k] += t[k]; cpu[k] += c[k]; ratios[k].push(c[k] / c[2]); }
}
const per = (v: number) => (v / ((rounds - 1) * reps)).toFixed(2);
for (let k = 0; k < modes.length; k++) {
  const q = ratios[k].sort((x, y) => x - y);
  console.log(`a hold, ${modes[k]}: ${per(ms[k])} ms (wall; ${(ms[k] / ms[2]).toFixed(3)} of direct), CPU time ${per(cpu[k])} ms (${(cpu[k] / cpu[2]).toFixed(3)} of direct; median of the rounds' ratios ${q[q.length >> 1].toFixed(3)})`);
}
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const h of holds) h.destroy();
saved.destroy();
sim.destroy();
releaseNodeGpu();
