/**
 * `info` and `run`'s estimates cover the solid objects (src/cli/solids-cost.ts): their meshes'
 * memory, the time moving ones add to a particle-engine frame, and the bytes `--solids` writes a
 * frame, which the disk line counts (it said "no frame files" while solids were written).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { estimateDisk } from '../../src/cli/disk.ts';
import { estimateSolids } from '../../src/cli/solids-cost.ts';
import { parseScene } from '../../src/index.ts';
import { cliInProcess, FIXTURES } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-solids-est-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function spinners(n: number): string {
  const t = JSON.parse(readFileSync(join(FIXTURES, 'tiny.json'), 'utf8'));
  for (let i = 0; i < n; i++) {
    const c = [-0.5 + (i % 20) * 0.05, 0.3 + Math.floor(i / 20) * 0.05, 0.5];
    t.bodies.push({ material: 'floor', shape: { type: 'sphere', center: c, radius: 0.01 }, motion: { type: 'spin', axis: [0, 1, 0], center: c, rate: 6 } });
  }
  return JSON.stringify(t);
}

describe('estimates of solids', () => {
  it('grow with the number of moving solids: time, memory and --solids bytes', () => {
    const few = estimateSolids(parseScene(spinners(10)));
    const many = estimateSolids(parseScene(spinners(1000)));
    expect([few.bodies, few.moving, many.bodies, many.moving]).toEqual([11, 10, 1001, 1000]);
    expect(many.triangles / few.triangles).toBeGreaterThan(50);
    expect(many.meshBytes).toBeGreaterThan(1e6);
    expect(many.particleSeconds).toBeCloseTo((1000 * 2 * 51_000) / 1e9, 9);
    const scene = parseScene(spinners(1000));
    const none = estimateDisk(scene, { engines: ['particle'], frames: 1, mesh: 'none', points: 'none' });
    const glb = estimateDisk(scene, { engines: ['particle'], frames: 1, mesh: 'none', points: 'none', solids: 'glb' });
    expect(none.frameBytes.most).toBe(0);
    expect(glb.frameBytes.most).toBeGreaterThan(5e6);
  });

  it('info states them, and run counts --solids in its disk line within a factor of three of what it writes', async () => {
    const file = join(tmp, 'spinners.json');
    writeFileSync(file, spinners(40));
    const info = await cliInProcess(['info', file]);
    expect(info.stdout).toMatch(/solids: 41 \(40 moving\), [\d,]+ triangles, ~[\d.]+ [KM]iB of meshes; moving solids add ~\d+ ms to a particle-engine frame; --solids glb writes ~[\d.]+ [KM]iB a frame/);
    const dir = join(tmp, 'run');
    const r = await cliInProcess(['run', file, '--frames', '1', '--mesh', 'none', '--solids', 'glb', '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    const m = /disk: ~([\d.]+) (KiB|MiB) a frame \(glb solids\)/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const predicted = Number(m![1]) * (m![2] === 'MiB' ? 2 ** 20 : 2 ** 10);
    const written = statSync(join(dir, 'particle', 'solids-0001.glb')).size;
    expect(predicted / written).toBeGreaterThan(1 / 3);
    expect(predicted / written).toBeLessThan(3);
  });
});
