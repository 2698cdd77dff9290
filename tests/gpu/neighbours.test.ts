/**
 * The GPU counting sort (src/gpu/neighbours.ts) against the CPU: the sort is a permutation that
 * carries each particle's position and velocity, every bucket's run holds exactly the particles
 * hashing to it, in the order they were uploaded in (the sort is stable, whatever order the
 * threads' atomic ranks came in), and the 27 buckets around a particle hold every neighbour a
 * brute-force search finds within the cell edge.
 */
import { describe, expect, it } from 'vitest';
import { GpuNeighbours } from '../../src/gpu/neighbours.ts';
import { readBuffer } from '../../src/gpu/device.ts';
import { checked, GPU_SKIP, gpuDevice, releaseGpuAfterAll } from './device.ts';
import { skipTitle } from '../skips.ts';

releaseGpuAfterAll();

const f = Math.fround;

function bucket(x: number, y: number, z: number, inv: number, table: number): number {
  const c = [x, y, z].map((v) => Math.floor(f(f(v) * inv)));
  const h = ((541 * c[0] + 79 * c[1] + 31 * c[2]) | 0) % table;
  return h < 0 ? h + table : h;
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'GPU neighbour search (counting sort over hashed cells)'), () => {
  it('sorts into buckets and finds every neighbour within the cell edge', async () => {
    const device = await gpuDevice();
    const n = 3000, cell = 0.016;
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    // A cloud around the origin (negative cells too) with a dense clump.
    const pos = new Float64Array(3 * n), vel = new Float64Array(3 * n);
    for (let i = 0; i < 3 * n; i++) {
      pos[i] = i < 1500 ? (rand() - 0.5) * 0.2 : (rand() - 0.5) * 0.03 + 0.01;
      vel[i] = i;
    }
    const g = new GpuNeighbours(device, n, cell);
    const { sp, sv, id, start } = await checked(device, async () => {
      g.upload(pos, vel);
      const enc = device.createCommandEncoder();
      g.build(enc);
      device.queue.submit([enc.finish()]);
      return {
        sp: new Float32Array(await readBuffer(device, g.pos, 16 * n)),
        sv: new Float32Array(await readBuffer(device, g.vel, 16 * n)),
        id: new Uint32Array(await readBuffer(device, g.id, 4 * n)),
        start: new Uint32Array(await readBuffer(device, g.start, 4 * (g.table + 1))),
      };
    });
    g.destroy();
    const seen = new Uint8Array(n);
    let carried = 0;
    for (let s = 0; s < n; s++) {
      seen[id[s]]++;
      for (let k = 0; k < 3; k++) if (sp[4 * s + k] === f(pos[3 * id[s] + k]) && sv[4 * s + k] === f(vel[3 * id[s] + k])) carried++;
    }
    expect(seen.every((c) => c === 1)).toBe(true);
    expect(carried).toBe(3 * n);
    expect(start[g.table]).toBe(n);
    const inv = f(1 / cell);
    let runs = 0, misplaced = 0, shared = 0, unordered = 0;
    for (let b = 0; b < g.table; b++) {
      for (let s = start[b]; s < start[b + 1]; s++) if (bucket(sp[4 * s], sp[4 * s + 1], sp[4 * s + 2], inv, g.table) !== b) misplaced++;
      // Stable: a run's particles in the order of their upload (their ids).
      for (let s = start[b] + 1; s < start[b + 1]; s++) if (id[s] < id[s - 1]) unordered++;
      if (start[b + 1] > start[b]) runs++;
      if (start[b + 1] > start[b] + 1) shared++;
    }
    expect(misplaced).toBe(0);
    expect(runs).toBeGreaterThan(100);
    expect(shared).toBeGreaterThan(50);
    expect(unordered).toBe(0);
    // Every pair within the cell edge is found in the 27 buckets around the particle (each bucket once).
    let pairs = 0, missed = 0;
    for (let a = 0; a < n; a += 7) {
      const xa = sp[4 * a], ya = sp[4 * a + 1], za = sp[4 * a + 2];
      const found = new Set<number>();
      const buckets = new Set<number>();
      const c = [xa, ya, za].map((v) => Math.floor(f(f(v) * inv)));
      for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) for (let dk = -1; dk <= 1; dk++) {
        const h = ((541 * (c[0] + di) + 79 * (c[1] + dj) + 31 * (c[2] + dk)) | 0) % g.table;
        buckets.add(h < 0 ? h + g.table : h);
      }
      for (const b of buckets) for (let s = start[b]; s < start[b + 1]; s++) found.add(s);
      for (let b = 0; b < n; b++) {
        if (b === a) continue;
        const d = Math.hypot(sp[4 * b] - xa, sp[4 * b + 1] - ya, sp[4 * b + 2] - za);
        if (d < cell) {
          pairs++;
          if (!found.has(b)) missed++;
        }
      }
    }
    expect(missed).toBe(0);
    expect(pairs).toBeGreaterThan(1000);
  });
});
