/**
 * viscid's meshes in a real Blender: a simulated surface, with per-vertex colours that vary over
 * it, written as OBJ, binary PLY and GLB by viscid's encoders and imported by Blender's own
 * importers, headless (`blender -b`, tests/interop/blender_import.py). Each must arrive as one
 * object with the vertex and triangle counts viscid wrote, the same bounds (back in viscid's
 * y-up frame), and vertex by vertex the normals and colours viscid wrote.
 * Needs /usr/bin/blender (Debian: apt-get install blender python3-numpy); without it the suite
 * is skipped and says so (tests/skips.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulation, parseScene, toGLB, toOBJ, toPLY, type Mesh } from '../../src/index.ts';
import { encodeGlbSequenceStart, glbFrameChunks } from '../../src/io/gltf-sequence.ts';
import { BLENDER, skipReason, skipTitle } from '../skips.ts';

const SCRIPT = fileURLToPath(new URL('./blender_import.py', import.meta.url));
const missing = skipReason('blender');
const tmp = mkdtempSync(join(tmpdir(), 'viscid-blender-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Imported {
  format: string;
  error?: string;
  objects: number;
  vertices: number;
  faces: number;
  triangles: number;
  bounds: { min: number[]; max: number[] };
  matched: number;
  axes: string;
  normalError: number;
  colorAttributes: [string, string, string][];
  colorError?: number;
}

/** A drop's surface after each of `frames` frames, coloured by height (red low, blue high). */
function surfaces(frames: number): Mesh[] {
  const scene = parseScene({
    name: 'interop',
    materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 2, unit: 'Pa.s' } } },
    bodies: [{ material: 'syrup', shape: { type: 'sphere', center: [0.01, 0.05, -0.02], radius: 0.02 } }],
    particle: { radius: 0.002, substeps: 1, moves: 1 },
  });
  const sim = createSimulation(scene, 'particle');
  const meshes: Mesh[] = [];
  for (let f = 0; f < frames; f++) {
    sim.stepFrame();
    const mesh = sim.surfaceMesh();
    const n = mesh.positions.length / 3;
    const colors = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) {
      const t = Math.min(1, Math.max(0, (mesh.positions[3 * i + 1] - 0.03) / 0.04));
      colors.set([1 - t, 0.25, t], 3 * i);
    }
    meshes.push({ ...mesh, colors });
  }
  sim.dispose();
  return meshes;
}

const sequence = surfaces(3);
const mesh = sequence[0];
const n = mesh.positions.length / 3;
const triangles = mesh.indices.length / 3;
let results: Imported[] = [];
let imported: { objects: { name: string; vertices: number; faces: number }[]; shown: { object: string; keyFrame: number | null; visible: string[] | null }[]; error?: string };
/** Whether this Blender's PLY importer reads normals (3.6 and later; 3.4's computes its own). */
let plyNormals = true;

function boundsOf(p: Float32Array) {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i++) {
    min[i % 3] = Math.min(min[i % 3], p[i]);
    max[i % 3] = Math.max(max[i % 3], p[i]);
  }
  return { min, max };
}

describe.skipIf(missing)(skipTitle('blender', 'meshes imported by Blender'), () => {
  beforeAll(async () => {
    const files = [
      { format: 'obj', path: join(tmp, 'mesh.obj'), bytes: toOBJ(mesh) },
      { format: 'ply', path: join(tmp, 'mesh.ply'), bytes: toPLY(mesh) },
      { format: 'glb', path: join(tmp, 'mesh.glb'), bytes: await toGLB(mesh) },
    ];
    for (const f of files) writeFileSync(f.path, f.bytes);
    // The animated sequence (viscid animate's file), frames at 1/30 s.
    const options = { name: 'drop', normals: true, colors: true };
    const frames = sequence.map((m, k) => ({ vertices: m.positions.length / 3, triangles: m.indices.length / 3, time: (k + 1) / 30 }));
    const bounds = sequence.map((m) => boundsOf(m.positions));
    writeFileSync(join(tmp, 'sequence.glb'), Buffer.concat([encodeGlbSequenceStart(frames, options, bounds), ...sequence.flatMap((m) => glbFrameChunks(m, options))]));
    const job = join(tmp, 'job.json'), result = join(tmp, 'result.json');
    writeFileSync(
      job,
      JSON.stringify({
        expected: { positions: Array.from(mesh.positions), normals: Array.from(mesh.normals), colors: Array.from(mesh.colors!) },
        files: files.map(({ format, path }) => ({ format, path })),
        sequence: join(tmp, 'sequence.glb'),
      }),
    );
    await new Promise<void>((resolve, reject) =>
      execFile(BLENDER, ['-b', '--factory-startup', '--python-exit-code', '1', '--python', SCRIPT, '--', job, result], { timeout: 600_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`blender failed: ${err.message}\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`)) : resolve(),
      ),
    );
    const report = JSON.parse(readFileSync(result, 'utf8')) as { results: Imported[]; plyNormals: boolean; sequence: typeof imported };
    results = report.results;
    imported = report.sequence;
    plyNormals = report.plyNormals;
  });

  for (const format of ['obj', 'ply', 'glb']) {
    it(`${format}: one object with viscid's vertices, triangles, bounds, normals and colours`, () => {
      const r = results.find((x) => x.format === format)!;
      expect(r.error).toBeUndefined();
      expect(r.objects).toBe(1);
      expect(r.vertices).toBe(n);
      expect(r.faces).toBe(triangles);
      expect(r.triangles).toBe(triangles);
      expect(r.matched).toBe(n); // every vertex where viscid put it (to 10 µm)
      // OBJ and glTF arrive turned into Blender's z-up; Blender 3.4's PLY importer keeps y-up.
      expect(r.axes).toBe(format === 'ply' ? 'as written' : 'y-up converted to z-up');
      const want = boundsOf(mesh.positions);
      for (let k = 0; k < 3; k++) {
        expect(r.bounds.min[k]).toBeCloseTo(want.min[k], 5);
        expect(r.bounds.max[k]).toBeCloseTo(want.max[k], 5);
      }
      if (format !== 'ply' || plyNormals) expect(r.normalError).toBeLessThan(0.01);
      expect(r.colorAttributes.length).toBeGreaterThan(0);
      // As linear RGB: OBJ carries sRGB to 4 decimals, PLY 8-bit sRGB, and Blender keeps GLB's
      // float colours as an 8-bit sRGB attribute (half a step is at most 0.0045 of linear, near 1).
      expect(r.colorError).toBeLessThan(0.005);
    });
  }

  it('an animated GLB sequence (viscid animate): one object a frame, each shown on its own frame only', () => {
    expect(imported.error).toBeUndefined();
    expect(imported.objects.map((o) => [o.vertices, o.faces])).toEqual(sequence.map((m) => [m.positions.length / 3, m.indices.length / 3]));
    const keys = imported.shown.map((s) => s.keyFrame);
    for (const [k, s] of imported.shown.entries()) {
      expect(s.keyFrame, s.object).not.toBeNull();
      if (k > 0) expect(s.keyFrame!).toBeGreaterThan(keys[k - 1]!);
      expect(s.visible).toEqual([s.object]);
    }
  });
});
