/**
 * The spinning paddle of tests/gpu/moving.test.ts "the defaults" (144 particles in a slip box, a
 * paddle at 12 rad/s) on the WebGPU backend and the CPU particle engine, over runs whose frame-0
 * positions are jittered uniformly over `jitter` metres (run 0 unjittered; the GPU seeded from the
 * same jittered CPU state): the angular momentum about the axis, mm²/s a particle, each frame, and
 * each engine's mean ± sd over the runs. The GPU keeps positions in f32 (about 1e-9 m at 1 cm):
 * a jitter of 1 nm leaves it unchanged, 100 nm spreads both. The GPU runs only the first `gpuRuns`
 * (all by default): its runs part by under 1 % where the CPU's part by 5 % (docs/decisions.md, "The
 * spinning paddle agrees"), and SwiftShader takes seconds a frame. Last, each engine's mean over
 * frames 2 .. frames of its runs' mean.
 *
 *   npx tsx bench/gpu-paddle-ensemble.ts [runs=4] [frames=3] [jitter=1e-7] [gpuRuns=runs]
 */
import { parseScene } from '../src/scene/parse.ts';
import type { SceneInput } from '../src/scene/schema.ts';
import { GpuParticleSimulation } from '../src/gpu/simulation.ts';
import { ParticleSimulation } from '../src/particle/simulation.ts';
import { releaseNodeGpu, requestNodeGpu } from '../src/cli/webgpu.ts';

const r = 0.002, c = 0.012;
const input = {
  fps: 30, duration: 1,
  materials: { w: { kind: 'liquid', viscosity: { value: 1e-3, unit: 'm2/s' } }, solid: { kind: 'solid', friction: 0.6 } },
  adhesion: [{ between: ['w', 'w'], type: 'attract', strength: 0 }],
  particle: { radius: r },
  domain: { min: [0, 0, 0], max: [0.024, 0.04, 0.024], boundary: 'slip' },
  bodies: [
    { name: 'paddle', material: 'solid', shape: { type: 'box', center: [c, 0.007, c], size: [0.016, 0.01, 0.003] }, motion: { type: 'spin', axis: [0, 1, 0], center: [c, 0, c], rate: 12 } },
    { material: 'w', shape: { type: 'box', center: [c, 0.008, c], size: [0.024, 0.016, 0.024] } },
  ],
} as SceneInput;
const spin = (pos: ArrayLike<number>, vel: ArrayLike<number>, n: number) => {
  let L = 0;
  for (let i = 0; i < n; i++) { const x = pos[3 * i] - c, z = pos[3 * i + 2] - c; L += z * vel[3 * i] - x * vel[3 * i + 2]; }
  return (L / n) * 1e6;
};
const { device } = await requestNodeGpu();
const runs = Number(process.argv[2] ?? 4), frames = Number(process.argv[3] ?? 3), jit = Number(process.argv[4] ?? 1e-7), gpuRuns = Number(process.argv[5] ?? runs);
const s = parseScene(input);
const G: number[][] = [], C: number[][] = [];
for (let k = 0; k < runs; k++) {
  let seed = 12345 + k;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const make = () => { const sim = new ParticleSimulation(s); const L = sim.ctx.liquid; if (k > 0) for (let o = 0; o < 3 * L.count; o++) L.pos[o] += (rnd() - 0.5) * jit; return sim; };
  const cpu = make();
  seed = 12345 + k;
  const gpu = k < gpuRuns ? new GpuParticleSimulation(device, s, make()) : null;
  const g: number[] = [], cc: number[] = [];
  for (let f = 0; f < frames; f++) {
    cpu.stepFrame();
    const L = cpu.ctx.liquid;
    cc.push(spin(L.pos, L.vel, L.count));
    if (gpu) { await gpu.stepFrame(); const r1 = await gpu.read(); g.push(spin(r1.pos, r1.vel, gpu.count)); }
  }
  if (gpu) G.push(g);
  C.push(cc);
  console.log(`run ${k}: GPU ${g.map((x) => x.toFixed(1)).join(' ') || '-'} | CPU ${cc.map((x) => x.toFixed(1)).join(' ')}`);
  gpu?.destroy(); cpu.dispose();
}
const mean = (a: number[]) => a.reduce((x, y) => x + y) / a.length;
const st = (a: number[]) => { if (a.length === 0) return '-'; const m = mean(a); return `${m.toFixed(1)} ± ${Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / Math.max(1, a.length - 1)).toFixed(1)}`; };
for (let f = 0; f < frames; f++) console.log(`frame ${f + 1}: GPU ${st(G.map((g) => g[f]))}, CPU ${st(C.map((g) => g[f]))}`);
if (frames > 1) {
  const late = (R: number[][]) => (R.length ? mean(R.map((r) => mean(r.slice(1)))).toFixed(1) : '-');
  console.log(`frames 2-${frames}, mean of the runs' means: GPU ${late(G)}, CPU ${late(C)}`);
}
releaseNodeGpu();
