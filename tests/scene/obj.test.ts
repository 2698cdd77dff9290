import { describe, expect, it } from 'vitest';
import { ObjError, parseOBJ, type TriMesh } from '../../src/index.ts';
import { OBJ_MAX_CHARS, OBJ_MAX_TRIANGLES, OBJ_MAX_VERTICES } from '../../src/scene/obj.ts';

/** Unit cube as quads, outward (counter-clockwise seen from outside). */
const CUBE = `# unit cube
o cube
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
vn 0 0 1
vt 0 0
s off
usemtl none
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 2 3 7 6
f 3 4 8 7
f 4 1 5 8
`;

function signedVolume(m: TriMesh): number {
  const p = m.positions, ix = m.indices;
  let v = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    v += p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c]);
  }
  return v / 6;
}

function errorOf(text: string, name = 'm.obj'): ObjError {
  try {
    parseOBJ(text, name);
  } catch (e) {
    expect(e).toBeInstanceOf(ObjError);
    return e as ObjError;
  }
  throw new Error('expected an ObjError');
}

/** Inverts every face's winding (reverses the vertex list of `f` lines). */
const invert = (text: string) => text.replace(/^f (.*)$/gm, (_, list: string) => `f ${list.trim().split(/\s+/).reverse().join(' ')}`);

describe('parseOBJ', () => {
  it('reads a quad cube into 12 outward triangles with volume 1 (exact)', () => {
    const m = parseOBJ(CUBE, 'cube.obj');
    expect(m.positions.length).toBe(24);
    expect(m.indices.length).toBe(36);
    expect(signedVolume(m)).toBeCloseTo(1, 12);
  });

  it('orients an inside-out mesh outward', () => {
    const m = parseOBJ(invert(CUBE), 'inverted.obj');
    expect(signedVolume(m)).toBeCloseTo(1, 12);
  });

  it('accepts i/t, i//n, i/t/n and negative indices with the same result', () => {
    const slashes = CUBE.replace(/^f (\d+) (\d+) (\d+) (\d+)$/gm, 'f $1/1 $2//1 $3/1/1 $4');
    // Negative: relative to the 8 vertices defined so far, -8 is vertex 1.
    const negative = CUBE.replace(/^f (.*)$/gm, (_, list: string) => `f ${list.split(' ').map((i) => String(Number(i) - 9)).join(' ')}`);
    const ref = parseOBJ(CUBE, 'a.obj');
    for (const text of [slashes, negative]) {
      const m = parseOBJ(text, 'b.obj');
      expect(Array.from(m.indices)).toEqual(Array.from(ref.indices));
      expect(Array.from(m.positions)).toEqual(Array.from(ref.positions));
    }
  });

  it('handles CRLF, tabs, comments, line continuations and unknown vendor statements', () => {
    const text = CUBE.replace(/\n/g, '\r\n').replace('f 1 4 3 2', 'f 1\t4 \\\r\n 3 2  # a quad').replace('o cube', 'o cube\r\nfoo_ext 1 2');
    expect(signedVolume(parseOBJ(text, 'crlf.obj'))).toBeCloseTo(1, 12);
  });

  it('welds duplicated positions and drops degenerate triangles', () => {
    // Every face gets its own 4 vertices (as STL-style exports do) plus one zero-area triangle.
    const verts = CUBE.split('\n').filter((l) => l.startsWith('v ')).map((l) => l.slice(2));
    const faces = CUBE.split('\n').filter((l) => l.startsWith('f ')).map((l) => l.slice(2).split(' ').map(Number));
    let text = '';
    let n = 0;
    for (const f of faces) {
      for (const i of f) text += `v ${verts[i - 1]}\n`;
      text += `f ${n + 1} ${n + 2} ${n + 3} ${n + 4}\n`;
      n += 4;
    }
    // Collinear (zero area) and repeated-index triangles; (0.5, 0, 0) is then unused and dropped.
    text += `v 0 0 0\nv 1 0 0\nv 0.5 0 0\nf ${n + 1} ${n + 2} ${n + 3}\nf 1 1 2\n`;
    const m = parseOBJ(text, 'split.obj');
    expect(m.positions.length / 3).toBe(8);
    expect(m.indices.length / 3).toBe(12);
    expect(signedVolume(m)).toBeCloseTo(1, 12);
  });

  it('never quotes the text of a file that is not OBJ (a scene may name any file)', () => {
    const e = errorOf('root:x:0:0:root:/root:/bin/bash\nv secret 1 2\n', 'passwd');
    expect(e.message).toBe("passwd:1: not an OBJ statement (expected v, f, vt, vn, o, g, s, usemtl, mtllib, or a comment '#')");
    expect(errorOf('v 1 2 hunter2\n', 'x.obj').message).not.toMatch(/hunter2/);
    expect(errorOf('v 0 0 0\nf 1 1 pass/word\n', 'x.obj').message).not.toMatch(/pass|word/);
  });

  it('names file and line for malformed numbers, non-finite values, bad indices and short faces', () => {
    const cases: [string, RegExp][] = [
      [CUBE.replace('v 0 1 1', 'v 0 1 1x'), /^m\.obj:10: malformed number in vertex \(value 3\)$/],
      [CUBE.replace('v 0 1 1', 'v 0 1 1e999'), /^m\.obj:10: .*not finite/],
      [CUBE.replace('v 0 1 1', 'v 0 nan 1'), /^m\.obj:10: malformed number in vertex \(value 2\)$/],
      [CUBE.replace('v 0 1 1', 'v 0 1'), /^m\.obj:10: a vertex needs x y z/],
      [CUBE.replace('f 4 1 5 8', 'f 4 1 5 9'), /^m\.obj:20: vertex index 9 is out of range: the file defines 8 vertices/],
      [CUBE.replace('f 4 1 5 8', 'f 4 1 5 -9'), /^m\.obj:20: vertex index -9 is out of range/],
      [CUBE.replace('f 4 1 5 8', 'f 4 1 0 8'), /^m\.obj:20: vertex index 0/],
      [CUBE.replace('f 4 1 5 8', 'f 4 1'), /^m\.obj:20: a face needs at least 3 vertices, got 2/],
      [CUBE.replace('f 4 1 5 8', 'f 4 1 5/x 8'), /^m\.obj:20: malformed face vertex 3 /],
      [CUBE.replace('f 4 1 5 8', 'f 4 1 5 8.5'), /^m\.obj:20: malformed face vertex/],
      [CUBE.replace('o cube', '\u0000\u0001garbage'), /^m\.obj:2: not an OBJ statement/],
      [CUBE.replace('o cube', 'curv 0 1 1 2'), /^m\.obj:2: free-form geometry/],
      ['# nothing\n', /^m\.obj: no faces/],
    ];
    for (const [text, pattern] of cases) expect(errorOf(text).message).toMatch(pattern);
  });

  it('refuses an open mesh, naming the count and an example edge', () => {
    const e = errorOf(CUBE.replace('f 4 1 5 8\n', ''), 'open.obj');
    expect(e.message).toMatch(/^open\.obj: mesh is not closed: 4 edges used by only one face \(e\.g\. the edge between vertices \d+ and \d+\)/);
  });

  it('refuses an edge shared by more than two faces', () => {
    // Two cubes sharing the edge 2-3 (vertex numbers of the first cube) but nothing else.
    const second = CUBE.split('\n').filter((l) => l.startsWith('v ')).map((l) => {
      const [x, y, z] = l.slice(2).split(' ').map(Number);
      return `v ${x + 1} ${y} ${z - 1}`;
    });
    const faces2 = CUBE.split('\n').filter((l) => l.startsWith('f ')).map((l) => 'f ' + l.slice(2).split(' ').map((i) => String(Number(i) + 8)).join(' '));
    const e = errorOf(`${CUBE}${second.join('\n')}\n${faces2.join('\n')}\n`, 'pair.obj');
    expect(e.message).toMatch(/not closed: .*1 edge shared by more than two faces \(e\.g\. the edge between vertices 2 and 3\)/);
  });

  it('refuses inconsistent orientation, naming the count and an example edge', () => {
    const e = errorOf(CUBE.replace('f 4 1 5 8', 'f 8 5 1 4'), 'flip.obj');
    expect(e.message).toMatch(/^flip\.obj: mesh is inconsistently oriented: 4 edges are used twice in the same direction \(e\.g\. the edge between vertices \d+ and \d+\)/);
  });

  it('refuses too-large input before doing the work, stating the limit', () => {
    const text = 'v 0 0 0\n' + ' '.repeat(OBJ_MAX_CHARS);
    expect(errorOf(text, 'big.obj').message).toMatch(/too large: .* characters, the limit is 67,108,864/);
    expect(OBJ_MAX_VERTICES).toBe(2_000_000);
  });

  it('refuses a face that would exceed the triangle cap, quickly', () => {
    // One polygon with more corners than the triangle cap allows: refused before triangulating.
    const corners = OBJ_MAX_TRIANGLES + 3;
    const text = `v 0 0 0\nf ${'1 '.repeat(corners)}\n`;
    expect(errorOf(text, 'fan.obj').message).toMatch(/^fan\.obj:2: too many triangles: the limit is 4,000,000/);
  });

  it('is linear on pathological input: long lines, many blank lines, many comments (ends within the test timeout)', () => {
    const text = `${'#'.repeat(2_000_000)}\n${'\n'.repeat(1_000_000)}v ${'1'.repeat(100_000)} 0 0\n`;
    expect(errorOf(text, 'odd.obj').message).toMatch(/^odd\.obj:1000002: vertex value \d is not finite$/);
    expect(errorOf(text.replace(/1{100000}/, '1'), 'odd.obj').message).toMatch(/^odd\.obj: no faces/);
    expect(errorOf('v 1 2 3 ' + '4 '.repeat(100_000), 'wide.obj').message).toMatch(/^wide\.obj:1: a vertex has at most 7 values/);
  });

  it('refuses a closed surface with no volume', () => {
    // Two triangles back to back: closed and consistent, but flat.
    const e = errorOf('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 3 2\n', 'flat.obj');
    expect(e.message).toMatch(/encloses no volume/);
  });
});
