/**
 * The frame writer of `viscid run` (src/cli/frame-writer.ts): on its own thread and on the calling
 * thread it writes the same bytes; a file that cannot be written rejects that frame with the reason.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FrameWriter } from '../../src/cli/frame-writer.ts';
import type { FrameFiles } from '../../src/cli/frame-files.ts';
import { encodeMesh } from '../../src/cli/export.ts';
import { createSimulation, parseScene } from '../../src/index.ts';
import { distIsFresh } from '../../scripts/build.js';

/**
 * A writer whose thread (when it has one) runs dist/'s entry where dist/ is up to date with src/, as
 * tests/parallel/helpers.ts starts team threads: from the sources each thread registers tsx and
 * transforms the encoders and the surface again (docs/decisions.md, "The test suite, twelfth pass").
 */
const ENTRY = distIsFresh() ? new URL('../../dist/cli/frame-writer-entry.js', import.meta.url) : undefined;
const writer = (inline = false) => new FrameWriter(inline, ENTRY);

const tmp = mkdtempSync(join(tmpdir(), 'viscid-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function job(dir: string): FrameFiles {
  const mesh = {
    positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
    normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0]),
    indices: new Uint32Array([0, 1, 2, 0, 1, 3]),
    colors: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5]),
  };
  const points = {
    count: 2,
    positions: new Float32Array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
    velocities: new Float32Array([1, 2, 3, 4, 5, 6]),
    materials: new Uint16Array([0, 1]),
  };
  return {
    dir,
    labels: { name: 'writer test', output: { colors: true }, materialNames: ['honey', 'syrup'] },
    mesh: { format: 'obj', file: 'particle/mesh-0001.obj', mesh },
    solids: { format: 'glb', file: 'particle/solids-0001.glb', mesh },
    points: { format: 'vtk', file: 'particle/points-0001.vtk', points },
  };
}

describe('frame writer', () => {
  it('writes the same files on its own thread as on the calling thread', async () => {
    const threaded = writer(false), inline = writer(true);
    try {
      const a = await threaded.submit(job(join(tmp, 'threaded')));
      const b = await inline.submit(job(join(tmp, 'inline')));
      expect(a.files).toEqual(['particle/mesh-0001.obj', 'particle/solids-0001.glb', 'particle/points-0001.vtk']);
      expect(b.files).toEqual(a.files);
      for (const f of a.files) {
        const x = readFileSync(join(tmp, 'threaded', f)), y = readFileSync(join(tmp, 'inline', f));
        expect(x.length, f).toBeGreaterThan(50);
        expect(x.equals(y), f).toBe(true);
      }
    } finally {
      threaded.close();
    }
  });

  it("meshes a particle engine's surface job on its thread into the file surfaceMesh() gives", async () => {
    const scene = parseScene(JSON.parse(readFileSync(new URL('./fixtures/tiny.json', import.meta.url), 'utf8')));
    const sim = createSimulation(scene, 'particle');
    sim.stepFrame();
    const surface = sim.surfaceJob?.();
    expect(surface?.kind).toBe('particles');
    const w = writer(false);
    try {
      const dir = join(tmp, 'surface-job');
      const r = await w.submit({ dir, labels: scene, mesh: { format: 'obj', file: 'mesh.obj', job: surface } });
      expect(r.surfaceMs).toBeGreaterThan(0);
      const want = await encodeMesh('obj', sim.surfaceMesh(), scene);
      expect(want.length).toBeGreaterThan(1000);
      expect(readFileSync(join(dir, 'mesh.obj'), 'utf8')).toBe(want);
    } finally {
      w.close();
      sim.dispose();
    }
  });

  it('writes on the calling thread the frames its thread had when it died, and every frame after', async () => {
    const w = writer(false);
    try {
      const first = w.submit(job(join(tmp, 'died-1')));
      // The thread dies with the frame in hand.
      await (w as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      const a = await first;
      expect(w.lost).toMatch(/exited with code/);
      const b = await w.submit(job(join(tmp, 'died-2')));
      for (const [dir, r] of [['died-1', a], ['died-2', b]] as const) {
        expect(r.files).toHaveLength(3);
        for (const f of r.files) expect(existsSync(join(tmp, dir, f)), `${dir}/${f}`).toBe(true);
      }
    } finally {
      w.close();
    }
  });

  it('rejects a frame whose file cannot be written, naming it, and leaves no temporary file', async () => {
    for (const inline of [false, true]) {
      const dir = join(tmp, inline ? 'blocked-inline' : 'blocked');
      mkdirSync(join(dir, 'particle', 'mesh-0001.obj'), { recursive: true });
      const w = writer(inline);
      try {
        await expect(w.submit(job(dir))).rejects.toThrow(/mesh-0001\.obj/);
        expect(existsSync(join(dir, 'particle', 'points-0001.vtk'))).toBe(false);
        expect(readdirSync(join(dir, 'particle')).filter((f) => f.includes('.tmp-'))).toEqual([]);
      } finally {
        w.close();
      }
    }
  });
});
