/** Every encoder's output read back (OBJ by the scene loader, PLY by a reader below, GLB by gltf-transform, VTK as text) and compared. */
import { WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { type FluidPoints, type Mesh, parseOBJ, pointsToPLY, toGLB, toOBJ, toPLY, toVTK } from '../../src/index.ts';
import { linearToSrgb, srgbToLinear } from '../../src/math/color.ts';
import { HONEY_BASE_COLOR } from '../../src/io/gltf.ts';
import { f32 } from '../../src/io/obj.ts';

/** A cube of side 0.3 centred off the origin, 8 shared vertices, outward triangles in first-use vertex order. */
function cubeMesh(withColors = true): Mesh {
  const corners = [
    [0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
    [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1],
  ];
  const quads = [[0, 3, 2, 1], [4, 5, 6, 7], [0, 1, 5, 4], [1, 2, 6, 5], [2, 3, 7, 6], [3, 0, 4, 7]];
  const positions = new Float32Array(corners.flatMap(([x, y, z]) => [0.1 + 0.3 * x, -0.2 + 0.3 * y, 1 / 3 + 0.3 * z]));
  const normals = new Float32Array(corners.flatMap(([x, y, z]) => {
    const v = [x - 0.5, y - 0.5, z - 0.5], l = Math.hypot(...v);
    return v.map((c) => c / l);
  }));
  const colors = new Float32Array(corners.flatMap((_, i) => [i / 7, 0.5 * (1 - i / 7), 0.25]));
  const indices = new Uint32Array(quads.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]));
  return { positions, normals, indices, ...(withColors ? { colors } : {}) };
}

function points(n: number, densities: boolean): FluidPoints {
  const positions = new Float32Array(3 * n), velocities = new Float32Array(3 * n), materials = new Uint16Array(n), dens = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      positions[3 * i + k] = Math.sin(i * 1.7 + k) * 0.1;
      velocities[3 * i + k] = Math.cos(i * 0.3 + k) * 2;
    }
    materials[i] = i % 3;
    dens[i] = 0.95 + 0.001 * i;
  }
  return { count: n, positions, velocities, materials, ...(densities ? { densities: dens } : {}) };
}

/** A minimal binary little-endian PLY reader: header, then fixed-size elements and uchar-count lists. */
function readPLY(bytes: Uint8Array) {
  const headEnd = new TextDecoder().decode(bytes.subarray(0, 2048)).indexOf('end_header\n') + 'end_header\n'.length;
  const head = new TextDecoder().decode(bytes.subarray(0, headEnd)).split('\n');
  expect(head[0]).toBe('ply');
  expect(head[1]).toBe('format binary_little_endian 1.0');
  const elements: { name: string; count: number; props: { type: string; name: string; list?: [string, string] }[] }[] = [];
  for (const line of head) {
    const t = line.split(' ');
    if (t[0] === 'element') elements.push({ name: t[1], count: Number(t[2]), props: [] });
    if (t[0] === 'property') elements.at(-1)!.props.push(t[1] === 'list' ? { type: 'list', name: t[4], list: [t[2], t[3]] } : { type: t[1], name: t[2] });
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = headEnd;
  const read = (type: string): number => {
    const r = { float: () => view.getFloat32(o, true), uchar: () => view.getUint8(o), ushort: () => view.getUint16(o, true), uint: () => view.getUint32(o, true) }[type];
    if (!r) throw new Error(`type ${type}`);
    const v = r();
    o += { float: 4, uchar: 1, ushort: 2, uint: 4 }[type as 'float']!;
    return v;
  };
  const data: Record<string, Record<string, number[]>> = {};
  for (const el of elements) {
    const cols: Record<string, number[]> = {};
    for (const p of el.props) cols[p.name] = [];
    for (let i = 0; i < el.count; i++) {
      for (const p of el.props) {
        if (p.list) {
          const count = read(p.list[0]);
          for (let k = 0; k < count; k++) cols[p.name].push(read(p.list[1]));
        } else cols[p.name].push(read(p.type));
      }
    }
    data[el.name] = cols;
  }
  expect(o).toBe(bytes.length);
  return { elements, data };
}

/** The former toOBJ, a string per line: toOBJ's byte writer must give the same text. */
function referenceOBJ(mesh: Mesh, comment: string): string {
  const n = mesh.positions.length / 3, nt = mesh.indices.length / 3;
  const p = mesh.positions, nn = mesh.normals, col = mesh.colors;
  const c4 = (x: number) => String(Math.round(linearToSrgb(x) * 10000) / 10000);
  const lines = [`# viscid mesh: ${n} vertices, ${nt} triangles; ${comment}`];
  for (let i = 0; i < n; i++) {
    const v = `v ${f32(p[3 * i])} ${f32(p[3 * i + 1])} ${f32(p[3 * i + 2])}`;
    lines.push(col ? `${v} ${c4(col[3 * i])} ${c4(col[3 * i + 1])} ${c4(col[3 * i + 2])}` : v);
  }
  for (let i = 0; i < n; i++) lines.push(`vn ${f32(nn[3 * i])} ${f32(nn[3 * i + 1])} ${f32(nn[3 * i + 2])}`);
  for (let t = 0; t < nt; t++) {
    const a = mesh.indices[3 * t] + 1, b = mesh.indices[3 * t + 1] + 1, c = mesh.indices[3 * t + 2] + 1;
    lines.push(`f ${a}//${a} ${b}//${b} ${c}//${c}`);
  }
  lines.push('');
  return lines.join('\n');
}

describe('toOBJ', () => {
  it('writes the digits f32 gives for any float32, and the indices, as the string-per-line writer did', () => {
    // Random bit patterns (every exponent, subnormals, ±0, NaN, ±Infinity), values near powers of
    // ten and near rounding ties of the ninth digit, and coordinates of the size meshes have.
    let s = 12345;
    const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
    const bits = new Uint32Array(30_000);
    for (let i = 0; i < bits.length; i++) bits[i] = rnd();
    const values = [...new Float32Array(bits.buffer)];
    for (let k = -8; k <= 10; k++) for (const m of [1, 0.99999994, 1.00000012, 5, 9.9999999]) values.push(m * 10 ** k, -m * 10 ** k);
    for (let i = 0; i < 20_000; i++) values.push((rnd() / 2 ** 32 - 0.5) * 0.4, (rnd() % 2_000_000_001) * 1e-9, Math.round(rnd() / 4) / 2 ** 20);
    values.push(0, -0, NaN, Infinity, -Infinity, 1e-45, 3.4e38, 0.5, 1.5e-7, 123456789, 99999999.5);
    while (values.length % 3) values.push(0.25);
    const n = values.length / 3;
    const positions = new Float32Array(values);
    const normals = new Float32Array(positions).reverse();
    const colors = new Float32Array(3 * n).map(() => rnd() / 2 ** 32);
    const indices = new Uint32Array(3 * n).map((_, i) => (i * 7919 + (rnd() % 97)) % n);
    const mesh: Mesh = { positions, normals, indices, colors };
    expect(toOBJ(mesh, { comment: 'digits' })).toBe(referenceOBJ(mesh, 'digits'));
    // Every finite coordinate reads back as the same float32.
    const vlines = toOBJ(mesh).split('\n').filter((l) => l.startsWith('v '));
    let checked = 0;
    vlines.forEach((line, i) => {
      line.split(' ').slice(1, 4).forEach((t, k) => {
        const want = positions[3 * i + k];
        if (!Number.isFinite(want)) return;
        expect(Math.fround(Number(t)) === want, `${t} for ${want}`).toBe(true); // −0 is written 0
        checked++;
      });
    });
    expect(checked).toBeGreaterThan(80_000);
    expect(f32(426242560)).toBe('426242560'); // nine digits, no point: no zero to drop
    expect(f32(1e8)).toBe('100000000');
    expect(f32(0.1)).toBe('0.100000001');
    expect(f32(-2.5e-6)).toBe('-0.00000249999994');
  });

  it('reads back through parseOBJ with identical float32 positions and indices', () => {
    const mesh = cubeMesh();
    const back = parseOBJ(toOBJ(mesh), 'out.obj');
    // The loader renumbers vertices by first use; compare triangles as float32 corner positions.
    const triangles = (p: ArrayLike<number>, ix: ArrayLike<number>) =>
      Array.from({ length: ix.length / 3 }, (_, t) => [0, 1, 2].flatMap((c) => [0, 1, 2].map((k) => Math.fround(p[3 * ix[3 * t + c] + k]))));
    expect(triangles(back.positions, back.indices)).toEqual(triangles(mesh.positions, mesh.indices));
    expect(back.positions.length).toBe(mesh.positions.length);
  });

  // Colours are written with 4 decimals in sRGB: ±5e-5 there, at most 2.5× that (1.25e-4) in linear.
  it('writes normals, sRGB vertex colours (±1.25e-4 linear) and f v//n lines; colours can be left out', () => {
    const mesh = cubeMesh();
    const text = toOBJ(mesh);
    const v = text.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    const vn = text.split('\n').filter((l) => l.startsWith('vn ')).map((l) => l.split(' ').slice(1).map(Number));
    const f = text.split('\n').filter((l) => l.startsWith('f '));
    expect(v).toHaveLength(8);
    expect(vn).toHaveLength(8);
    expect(f[0]).toBe('f 1//1 4//4 3//3');
    for (let i = 0; i < 8; i++) {
      for (let k = 0; k < 3; k++) {
        expect(Math.fround(vn[i][k])).toBe(mesh.normals[3 * i + k]);
        expect(Math.abs(srgbToLinear(v[i][3 + k]) - mesh.colors![3 * i + k])).toBeLessThan(1.25e-4);
      }
    }
    const plain = toOBJ(mesh, { colors: false });
    expect(plain.split('\n').find((l) => l.startsWith('v '))!.split(' ')).toHaveLength(4);
    expect(toOBJ(cubeMesh(false)).split('\n').find((l) => l.startsWith('v '))!.split(' ')).toHaveLength(4);
  });
});

describe('toPLY', () => {
  it('mesh: binary little-endian with float normals and uchar sRGB colours, read back exactly', () => {
    const mesh = cubeMesh();
    const { elements, data } = readPLY(toPLY(mesh));
    expect(elements.map((e) => [e.name, e.count])).toEqual([['vertex', 8], ['face', 12]]);
    expect(elements[0].props.map((p) => p.name)).toEqual(['x', 'y', 'z', 'nx', 'ny', 'nz', 'red', 'green', 'blue']);
    const v = data.vertex;
    for (let i = 0; i < 8; i++) {
      expect([v.x[i], v.y[i], v.z[i]]).toEqual(Array.from(mesh.positions.subarray(3 * i, 3 * i + 3)));
      expect([v.nx[i], v.ny[i], v.nz[i]]).toEqual(Array.from(mesh.normals.subarray(3 * i, 3 * i + 3)));
      expect(v.red[i]).toBe(Math.round(255 * linearToSrgb(mesh.colors![3 * i])));
      expect(Math.abs(srgbToLinear(v.green[i] / 255) - mesh.colors![3 * i + 1])).toBeLessThan(0.01);
    }
    expect(data.face.vertex_indices).toEqual(Array.from(mesh.indices));
  });

  it('mesh without colours has no colour properties', () => {
    const { elements } = readPLY(toPLY(cubeMesh(false)));
    expect(elements[0].props.map((p) => p.name)).toEqual(['x', 'y', 'z', 'nx', 'ny', 'nz']);
  });

  it('point cloud: position, velocity, material and density when known', () => {
    const pts = points(50, true);
    const { elements, data } = readPLY(pointsToPLY(pts));
    expect(elements).toHaveLength(1);
    expect(elements[0].props.map((p) => `${p.type} ${p.name}`)).toEqual(['float x', 'float y', 'float z', 'float vx', 'float vy', 'float vz', 'ushort material', 'float density']);
    const v = data.vertex;
    for (let i = 0; i < 50; i++) {
      expect([v.x[i], v.y[i], v.z[i]]).toEqual(Array.from(pts.positions.subarray(3 * i, 3 * i + 3)));
      expect([v.vx[i], v.vy[i], v.vz[i]]).toEqual(Array.from(pts.velocities.subarray(3 * i, 3 * i + 3)));
      expect(v.material[i]).toBe(pts.materials[i]);
      expect(v.density[i]).toBe(pts.densities![i]);
    }
    expect(readPLY(pointsToPLY(points(3, false))).elements[0].props.map((p) => p.name)).not.toContain('density');
  });
});

describe('toGLB', () => {
  it('reads back through @gltf-transform/core with POSITION, NORMAL, COLOR_0 and indices equal', async () => {
    const mesh = cubeMesh();
    const glb = await toGLB(mesh, { name: 'honey-drop' });
    expect(new TextDecoder().decode(glb.subarray(0, 4))).toBe('glTF');
    const doc = await new WebIO().readBinary(glb);
    const meshes = doc.getRoot().listMeshes();
    expect(meshes).toHaveLength(1);
    expect(meshes[0].getName()).toBe('honey-drop');
    const prim = meshes[0].listPrimitives()[0];
    expect(Array.from(prim.getAttribute('POSITION')!.getArray()!)).toEqual(Array.from(mesh.positions));
    expect(Array.from(prim.getAttribute('NORMAL')!.getArray()!)).toEqual(Array.from(mesh.normals));
    expect(Array.from(prim.getAttribute('COLOR_0')!.getArray()!)).toEqual(Array.from(mesh.colors!));
    expect(Array.from(prim.getIndices()!.getArray()!)).toEqual(Array.from(mesh.indices));
    expect(prim.getIndices()!.getArray()).toBeInstanceOf(Uint32Array);
    expect(prim.getAttribute('POSITION')!.getMin([])).toEqual([0.1, -0.2, 1 / 3].map(Math.fround));
    const mat = prim.getMaterial()!;
    expect(mat.getMetallicFactor()).toBe(0);
    expect(mat.getRoughnessFactor()).toBeLessThan(0.3);
    expect(mat.getBaseColorFactor()).toEqual([1, 1, 1, 1]);
    expect(doc.getRoot().listScenes()[0].listChildren()[0].getMesh()).toBe(meshes[0]);
  });

  it('without vertex colours the material itself is honey-coloured', async () => {
    const doc = await new WebIO().readBinary(await toGLB(cubeMesh(false)));
    const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.getAttribute('COLOR_0')).toBeNull();
    expect(prim.getMaterial()!.getBaseColorFactor().map((c) => Math.fround(c))).toEqual(HONEY_BASE_COLOR.map(Math.fround));
  });
});

describe('toVTK', () => {
  it('legacy POLYDATA with vertices, velocity vectors, material and density scalars, read back', () => {
    const pts = points(20, true);
    const lines = toVTK(pts, 'test title').split('\n');
    expect(lines.slice(0, 5)).toEqual(['# vtk DataFile Version 3.0', 'test title', 'ASCII', 'DATASET POLYDATA', 'POINTS 20 float']);
    const section = (header: string, count: number, skip = 0) => {
      const at = lines.indexOf(header);
      expect(at, header).toBeGreaterThan(0);
      return lines.slice(at + 1 + skip, at + 1 + skip + count).map((l) => l.split(' ').map(Number));
    };
    const pos = section('POINTS 20 float', 20);
    const cells = section('VERTICES 20 40', 20);
    const vel = section('VECTORS velocity float', 20);
    const mat = section('SCALARS material int 1', 20, 1);
    const den = section('SCALARS density float 1', 20, 1);
    expect(lines[lines.indexOf('SCALARS material int 1') + 1]).toBe('LOOKUP_TABLE default');
    expect(lines).toContain('POINT_DATA 20');
    for (let i = 0; i < 20; i++) {
      expect(pos[i].map(Math.fround)).toEqual(Array.from(pts.positions.subarray(3 * i, 3 * i + 3)));
      expect(vel[i].map(Math.fround)).toEqual(Array.from(pts.velocities.subarray(3 * i, 3 * i + 3)));
      expect(cells[i]).toEqual([1, i]);
      expect(mat[i][0]).toBe(pts.materials[i]);
      expect(Math.fround(den[i][0])).toBe(pts.densities![i]);
    }
    expect(toVTK(points(2, false))).not.toContain('density');
  });
});

describe('empty input (an engine may have no liquid left)', () => {
  const empty: Mesh = { positions: new Float32Array(0), normals: new Float32Array(0), indices: new Uint32Array(0) };
  const none = points(0, false);

  it('every encoder writes a valid, readable empty file', async () => {
    expect(toOBJ(empty).split('\n').filter((l) => /^[vf] /.test(l))).toEqual([]);
    expect(readPLY(toPLY(empty)).elements.map((e) => e.count)).toEqual([0, 0]);
    expect(readPLY(pointsToPLY(none)).elements.map((e) => e.count)).toEqual([0]);
    expect(toVTK(none).split('\n')).toContain('POINTS 0 float');
    const doc = await new WebIO().readBinary(await toGLB(empty));
    expect(doc.getRoot().listMeshes()).toHaveLength(0);
    expect(doc.getRoot().listNodes()).toHaveLength(1);
  });
});
