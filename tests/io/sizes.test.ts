/**
 * The disk estimates `viscid info` and `viscid run` state (src/io/sizes.ts, src/cli/disk.ts), and
 * the PLY reader (src/io/ply-read.ts) that reads the encoder's output back.
 */
import { describe, expect, it } from 'vitest';
import { createSimulation, parseScene, toGLB, toOBJ, toPLY } from '../../src/index.ts';
import { estimateDisk } from '../../src/cli/disk.ts';
import { fromPLY, PlyError } from '../../src/io/ply-read.ts';
import { meshFileBytes } from '../../src/io/sizes.ts';

const scene = parseScene({
  name: 'drop',
  materials: { syrup: { kind: 'liquid', density: 1300, viscosity: { value: 2, unit: 'Pa.s' }, color: '#c08020' } },
  bodies: [{ material: 'syrup', shape: { type: 'sphere', center: [0, 0, 0], radius: 0.02 } }],
  particle: { radius: 0.002, substeps: 1, moves: 1 },
  gravity: [0, 0, 0],
});
const sim = createSimulation(scene, 'particle');
sim.stepFrame();
const mesh = sim.surfaceMesh();
sim.dispose();
const triangles = mesh.indices.length / 3;

describe('disk estimates', () => {
  it('give binary PLY and GLB sizes to within 2 %, and OBJ to within 15 %', async () => {
    expect(triangles).toBeGreaterThan(500);
    for (const colors of [true, false]) {
      const m = colors ? mesh : { positions: mesh.positions, normals: mesh.normals, indices: mesh.indices };
      expect(meshFileBytes('ply', triangles, colors) / toPLY(m).length).toBeCloseTo(1, 1);
      expect(Math.abs(meshFileBytes('ply', triangles, colors) / toPLY(m).length - 1)).toBeLessThan(0.02);
      expect(Math.abs(meshFileBytes('glb', triangles, colors) / (await toGLB(m)).length - 1)).toBeLessThan(0.02);
      expect(Math.abs(meshFileBytes('obj', triangles, colors) / Buffer.byteLength(toOBJ(m)) - 1)).toBeLessThan(0.15);
    }
  });

  it("estimate a liquid's first frame from its area (within 30 %) and bound the spread frames above it", () => {
    const e = estimateDisk(scene, { engines: ['particle'], frames: 10, mesh: 'ply', points: 'none' });
    const actual = toPLY(mesh).length;
    expect(Math.abs(e.frameBytes.first / actual - 1)).toBeLessThan(0.3);
    expect(e.frameBytes.most).toBeGreaterThan(e.frameBytes.first);
    expect(e.totalBytes).toBeCloseTo(10 * e.frameBytes.most, 6);
    // Formats and engines add up; no files, no bytes.
    const both = estimateDisk(scene, { engines: ['particle', 'grid'], frames: 10, mesh: 'ply', points: 'ply' });
    expect(both.frameBytes.first).toBeGreaterThan(e.frameBytes.first);
    expect(estimateDisk(scene, { engines: ['particle'], frames: 10, mesh: 'none', points: 'none' }).totalBytes).toBe(0);
    expect(estimateDisk(scene, { engines: ['particle'], frames: 10, mesh: 'obj', points: 'none' }).frameBytes.first).toBeGreaterThan(3 * e.frameBytes.first);
  });
});

describe('fromPLY', () => {
  it('reads toPLY back: positions and normals exactly, colours to 8-bit sRGB', () => {
    const back = fromPLY(toPLY(mesh));
    expect(back.positions).toEqual(mesh.positions);
    expect(back.normals).toEqual(mesh.normals);
    expect(back.indices).toEqual(mesh.indices);
    expect(back.colors).toBeDefined();
    for (let i = 0; i < mesh.colors!.length; i += 97) expect(Math.abs(back.colors![i] - mesh.colors![i])).toBeLessThan(0.01);
    const plain = fromPLY(toPLY({ positions: mesh.positions, normals: new Float32Array(0), indices: mesh.indices }));
    expect(plain.colors).toBeUndefined();
    expect(plain.normals.length).toBe(0);
  });

  it('refuses what it cannot read, saying why', () => {
    expect(() => fromPLY(new TextEncoder().encode('hello'))).toThrow(PlyError);
    expect(() => fromPLY(new TextEncoder().encode('ply\nformat ascii 1.0\nend_header\n'))).toThrow(/only binary_little_endian/);
    const bytes = toPLY(mesh);
    expect(() => fromPLY(bytes.subarray(0, bytes.length - 7))).toThrow(/file ends inside face/);
  });
});
