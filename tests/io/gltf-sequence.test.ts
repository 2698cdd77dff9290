/**
 * `viscid animate`: a run's PLY frames as one animated GLB (src/io/gltf-sequence.ts), read back
 * with @gltf-transform: a node and mesh per frame with the frame's vertices and triangles, shown
 * (scale 1) from its own time to the next frame's by a STEP animation, hidden (0) otherwise.
 * Blender's import of such a file is checked in tests/interop.
 */
import { WebIO } from '@gltf-transform/core';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromPLY } from '../../src/io/ply-read.ts';
import { cliInProcess, FIXTURES } from '../cli/helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'viscid-animate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('viscid animate', () => {
  it("assembles a run's PLY frames into one animated GLB", async () => {
    const dir = join(tmp, 'run');
    const run = await cliInProcess(['run', join(FIXTURES, 'tiny.json'), '--frames', '3', '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    const r = await cliInProcess(['animate', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/animation\.glb: 3 frames/);
    const doc = await new WebIO().readBinary(new Uint8Array(readFileSync(join(dir, 'particle', 'animation.glb'))));
    const root = doc.getRoot();
    const nodes = root.listNodes();
    expect(nodes.map((n) => n.getName())).toEqual(['tiny-0001', 'tiny-0002', 'tiny-0003']);
    for (const [k, node] of nodes.entries()) {
      const frame = fromPLY(new Uint8Array(readFileSync(join(dir, 'particle', `mesh-000${k + 1}.ply`))));
      const prim = node.getMesh()!.listPrimitives()[0];
      expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(frame.positions));
      expect(Array.from(prim.getAttribute('NORMAL')!.getArray()!)).toEqual(Array.from(frame.normals));
      expect(Array.from(prim.getIndices()!.getArray()!)).toEqual(Array.from(frame.indices));
      expect(node.getScale()).toEqual(k === 0 ? [1, 1, 1] : [0, 0, 0]);
    }
    const channels = root.listAnimations()[0].listChannels();
    expect(channels).toHaveLength(3);
    for (const [k, ch] of channels.entries()) {
      expect(ch.getTargetNode()).toBe(nodes[k]);
      expect(ch.getTargetPath()).toBe('scale');
      const sampler = ch.getSampler()!;
      expect(sampler.getInterpolation()).toBe('STEP');
      const times = Array.from(sampler.getInput()!.getArray()!);
      const scales = Array.from(sampler.getOutput()!.getArray()!).filter((_, i) => i % 3 === 0);
      // Shown from its own frame's time (k + 1)/30 s until the next frame's.
      const shown = times.filter((_, i) => scales[i] === 1);
      expect(shown).toHaveLength(1);
      expect(shown[0]).toBeCloseTo((k + 1) / 30, 6);
      if (k < 2) expect(times[times.length - 1]).toBeCloseTo((k + 2) / 30, 6);
      if (k > 0) expect(scales[0]).toBe(0);
    }
  });

  it('refuses a run without PLY frames, saying why', async () => {
    const dir = join(tmp, 'obj');
    expect((await cliInProcess(['run', join(FIXTURES, 'tiny.json'), '--frames', '1', '--mesh', 'obj', '--out', dir])).code).toBe(0);
    const r = await cliInProcess(['animate', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/reads binary PLY frames .*this run wrote particle\/mesh-0001\.obj/);
    expect((await cliInProcess(['animate', join(tmp, 'none')])).stderr).toMatch(/cannot read .*manifest\.json/);
  });
});
