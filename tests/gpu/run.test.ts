/**
 * `viscid run --backend webgpu`: the particle engine's frames stepped on the GPU write the same
 * files as a CPU run (points, meshes, a checkpoint that resumes on the GPU), the manifest records
 * the backend, and a scene the backend does not run is refused before any folder is made, naming
 * the feature. `viscid compare --backend webgpu` records the GPU's run beside the CPU engine's.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/helpers.ts';
import { GPU_SKIP } from './device.ts';
import { skipTitle } from '../skips.ts';

const dir = mkdtempSync(join(tmpdir(), 'viscid-gpu-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A pool at the default cohesion; `lid`: under a moving lid (moving walls are not ported: refused). */
function pool(lid = false): string {
  const file = join(dir, `pool${lid ? '-lid' : ''}.json`);
  writeFileSync(file, JSON.stringify({
    name: 'gpu-pool',
    description: 'A still pool of water in a box, for the WebGPU backend.',
    fps: 30,
    duration: 1,
    domain: { min: [0, 0, 0], max: [0.024, 0.06, 0.024], boundary: 'slip', ...(lid ? { faces: { ymax: { type: 'moving', velocity: [0.1, 0, 0] } } } : {}) },
    materials: { w: { kind: 'liquid', viscosity: { value: 1e-4, unit: 'm2/s' } } },
    bodies: [{ material: 'w', shape: { type: 'box', center: [0.012, 0.008, 0.012], size: [0.024, 0.016, 0.024] } }],
    particle: { radius: 0.002, viscositySolver: 'exchange', pressureAfterViscosity: false },
  }));
  return file;
}

describe.skipIf(GPU_SKIP)(skipTitle('webgpu', 'viscid run --backend webgpu'), () => {
  it('runs and resumes a pool on the GPU, writing points, meshes and checkpoints', async () => {
    const out = join(dir, 'out');
    const first = await cli(['run', pool(), '--backend', 'webgpu', '--frames', '1', '--points', 'ply', '--out', out]);
    expect(first.stderr).toMatch(/particle: gpu-pool, frames 1–1, .*on WebGPU \(/);
    expect(first.code).toBe(0);
    const again = await cli(['run', pool(), '--resume', out, '--frames', '2']);
    expect(again.stderr).toMatch(/frames 2–2, .*on WebGPU/);
    expect(again.code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.settings.backend).toBe('webgpu');
    expect(manifest.engines.particle.frames.map((f: { frame: number; points: number }) => [f.frame, f.points])).toEqual([[1, 144], [2, 144]]);
    for (const f of ['points-0002.ply', 'mesh-0002.ply', 'checkpoint.vscd']) expect(existsSync(join(out, 'particle', f))).toBe(true);
  });

  it('compare --backend webgpu records the GPU run beside the CPU particle engine', async () => {
    const out = join(dir, 'compare');
    const r = await cli(['compare', pool(), '--backend', 'webgpu', '--frames', '2', '--quiet', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/metric +particle +particle-webgpu/);
    expect(r.stdout).toMatch(/points \(final\) +144 +144/);
    const csv = readFileSync(join(out, 'metrics.csv'), 'utf8');
    expect(csv.split('\n').filter((l) => l.startsWith('particle-webgpu,')).length).toBe(3);
  });

  it('refuses a scene with a feature it does not run, before making the folder', async () => {
    const out = join(dir, 'refused');
    const r = await cli(['run', pool(true), '--backend', 'webgpu', '--frames', '1', '--out', out]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/domain\.faces\.ymax: moving walls — not ported to the WebGPU backend/);
    expect(existsSync(out)).toBe(false);
  });
});
