/**
 * A start fitted to its walls on the WebGPU backend (issue 29; the CPU's src/particle/start-packing.ts,
 * issue 26 "Rest at any size"): a 5 × 5 cm water pool at 4 mm is 6.25 cells across, so its start
 * spans the walls with 6 columns spread 1.042× and 6 rows drawn together (0.92 · 2r apart), the
 * floor row 0.92 r from the floor. The CPU's walls keep the liquid that far from the floor
 * (StepContext.wallClearance) and take the filter's Courant number over the rows' spacing
 * (StepContext.restSpacing); the GPU's read both from its parameters block (params.ts
 * writeConstants: wgsl.ts wallClamp, pressure-filter-wgsl.ts filterCount). With the clamp at r and
 * the filter over 2r (main ef6ec0b) the GPU read 0.0117 0.0078 0.0078 √(g h) at frames 1–3
 * against the CPU's 0.0106 0.0082 0.0050, and lifted the floor row to r; with both it reads
 * the CPU's to four digits (bench/gpu-pool-rest.ts 5 5, frames 1–10). Since branch pack3 a water pool
 * on that lattice is settled before frame 0 (src/particle/start-settle.ts) in the CPU simulation the GPU
 * seeds from, so both start from the settled packing (frames 1–3: 0.0035 0.0036 0.0032 on both); the
 * clearances and the spacing are the fitted lattice's as before.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ParticleSimulation } from '../../src/particle/simulation.ts';
import { parseScene } from '../../src/scene/parse.ts';
import { poolScene } from '../particle/physics-cases.ts';
import { CLAMP_PARAMS, PARAM_BYTES } from '../../src/gpu/wgsl.ts';
import { writeConstants } from '../../src/gpu/params.ts';
import { cohesionShare } from '../../src/particle/adhesion-tables.ts';
import { GPU_SKIP, gpuFrames, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const R = 0.004, width = 0.05, depth = 0.05;

const input = poolScene({ r: R, depth, width, nu: 1e-6, adhesion: 'default', duration: 1 });

/**
 * The pool on the CPU engine, settled once for the file (start-settle.ts: about a second of CPU): the
 * parameters block is read from it before it steps, and the GPU's frames are compared with its own.
 */
let cpuPool: ParticleSimulation | undefined;
const cpuPoolOnce = (): ParticleSimulation => (cpuPool ??= new ParticleSimulation(parseScene(input)));
afterAll(() => cpuPool?.dispose());

/** RMS speed / √(g h) of n particles' velocities (xyz each). */
function rms(vel: ArrayLike<number>, n: number): number {
  let sq = 0;
  for (let i = 0; i < 3 * n; i++) sq += vel[i] * vel[i];
  return Math.sqrt(sq / n) / Math.sqrt(9.81 * depth);
}

/** The lowest particle's height, m. */
function lowest(pos: ArrayLike<number>, n: number): number {
  let y = Infinity;
  for (let i = 0; i < n; i++) y = Math.min(y, pos[3 * i + 1]);
  return y;
}

describe('the WebGPU parameters block carries the start\'s clearances', () => {
  it('each face\'s clearance and the closest rest spacing as the CPU engine has them (the floor 0.92 r, the spacing 0.92 · 2r)', () => {
    const cpu = cpuPoolOnce(), ctx = cpu.ctx;
    expect(ctx.frame).toBe(0);
    const data = new ArrayBuffer(PARAM_BYTES), f = new Float32Array(data);
    writeConstants(data, cpu.scene, { r: R, h: ctx.densityH, hv: R, cell: ctx.reach, count: 1, table: 1, capacity: 1, clearance: ctx.wallClearance, restSpacing: ctx.restSpacing, cohesion: cohesionShare(cpu.scene.particle, R, ctx.densityH) });
    // The fitted start (start-packing.ts): the rows drawn together, so the floor is nearer than r.
    expect(ctx.wallClearance[2]).toBeLessThan(0.95 * R);
    expect(ctx.restSpacing).toBeLessThan(0.95 * 2 * R);
    for (let k = 0; k < 3; k++) {
      expect(f[CLAMP_PARAMS + k]).toBeCloseTo(ctx.wallClearance[2 * k], 9);
      expect(f[CLAMP_PARAMS + 4 + k]).toBeCloseTo(ctx.wallClearance[2 * k + 1], 9);
    }
    expect(f[CLAMP_PARAMS + 3]).toBeCloseTo(ctx.restSpacing, 9);
    // Cohesion's share (adhesion-tables.ts cohesionShare, "band" the default): its scale in the last
    // word, 2 / a flat face's deficit (0.150 at h = 4r), its offset 1 in the domain's lower corner's fourth (f[23]).
    expect(f[CLAMP_PARAMS + 7]).toBeCloseTo(2 / 0.1497, 2);
    expect(f[23]).toBe(1);
  });
});

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'WebGPU: a water pool off the particle lattice'), () => {
  it('5 × 5 cm water (rows 0.92 · 2r): the floor row stays at the start\'s clearance, and frames 1–3 read the CPU engine\'s RMS within 5 % + 0.0002', async () => {
    const frames = 3, gpu: number[] = [], cpu: number[] = [];
    let gpuLow = 0;
    await gpuFrames(input, frames, async (_stats, read) => {
      const { pos, vel, n } = await read();
      gpu.push(rms(vel, n));
      gpuLow = lowest(pos, n);
    });
    const sim = cpuPoolOnce(), L = sim.ctx.liquid, floor = sim.ctx.wallClearance[2];
    expect(sim.ctx.frame).toBe(0);
    for (let f = 0; f < frames; f++) {
      sim.stepFrame();
      cpu.push(rms(L.vel, L.count));
    }
    const cpuLow = lowest(L.pos, L.count);
    console.log(`5 × 5 cm off the lattice, RMS / √(g h) frames 1–${frames}: GPU ${gpu.map((x) => x.toFixed(4)).join(' ')}; CPU ${cpu.map((x) => x.toFixed(4)).join(' ')}; lowest particle GPU ${(gpuLow * 1000).toFixed(4)} mm, CPU ${(cpuLow * 1000).toFixed(4)} mm, clearance ${(floor * 1000).toFixed(4)} mm`);
    // The clamp at r lifts the floor row 0.32 mm onto r: the GPU's lowest particle stays under it, within 0.1 mm of the CPU's.
    expect(cpuLow).toBeLessThan(R - 2e-4);
    expect(gpuLow).toBeLessThan(R - 2e-4);
    expect(gpuLow).toBeGreaterThan(floor - 1e-6);
    expect(Math.abs(gpuLow - cpuLow)).toBeLessThan(1e-4);
    for (let f = 0; f < frames; f++) expect(Math.abs(gpu[f] - cpu[f])).toBeLessThan(0.05 * cpu[f] + 0.0002);
  });
});
