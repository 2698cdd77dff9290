/**
 * The preview's software rasterizer (src/preview): coverage against projected areas, depth order,
 * vertex colours, near-plane clipping, framing, and the PNG/APNG files read back.
 */
import { describe, expect, it } from 'vitest';
import type { Mesh } from '../../src/types/geometry.ts';
import { cameraAxes, frameBox, project, type PreviewCamera, type Vec3 } from '../../src/preview/camera.ts';
import { createLayer, drawMesh, LIQUID_SHADING, SOLID_SHADING, vertexNormals } from '../../src/preview/raster.ts';
import { ApngWriter, encodePNG, type RgbImage } from '../../src/preview/png.ts';
import { viewBox } from '../../src/preview/bounds.ts';
import { drawText, textWidth } from '../../src/preview/font.ts';
import { TileRenderer } from '../../src/preview/tile.ts';
import { decodePng } from './png-reader.ts';

/** A camera at `eye` looking along −`view`, `focal` pixels at depth 1. */
function cameraAt(eye: Vec3, view: Vec3, width: number, height: number, focal: number): PreviewCamera {
  return { eye, ...cameraAxes(view), width, height, focal, near: 0.01 };
}

function cube(size = 1, center: Vec3 = [0, 0, 0]): Mesh {
  const h = size / 2, p: number[] = [];
  for (let c = 0; c < 8; c++) p.push(center[0] + (c & 1 ? h : -h), center[1] + (c & 2 ? h : -h), center[2] + (c & 4 ? h : -h));
  // Two triangles a face (corners by bit: 1 x, 2 y, 4 z).
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const idx = faces.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
  return { positions: Float32Array.from(p), normals: new Float32Array(0), indices: Uint32Array.from(idx) };
}

function triangle(points: number[], color?: Vec3): Mesh {
  return {
    positions: Float32Array.from(points),
    normals: Float32Array.from([0, 0, 1, 0, 0, 1, 0, 0, 1]),
    indices: Uint32Array.from([0, 1, 2]),
    ...(color ? { colors: Float32Array.from([...color, ...color, ...color]) } : {}),
  };
}

const covered = (depth: Float32Array) => depth.reduce((n, z) => n + (z > 0 ? 1 : 0), 0);

describe('preview rasterizer', () => {
  it('a unit cube seen face-on covers its projected square exactly', () => {
    // Front face at z = 0.5, depth 4.5 from the eye: 90 px × 1 / 4.5 = a 20-pixel square centred in 200 × 200.
    const cam = cameraAt([0, 0, 5], [0, 0, 1], 200, 200, 90);
    const layer = createLayer(200, 200);
    expect(drawMesh(layer, cube(), cam, SOLID_SHADING)).toBeGreaterThan(0);
    expect(covered(layer.invDepth)).toBe(400);
    // The nearest depth drawn is the front face's.
    expect(Math.max(...layer.invDepth)).toBeCloseTo(1 / 4.5, 5);
  });

  it('a unit cube seen from a three-quarter view covers (|vx| + |vy| + |vz|) × its face area', () => {
    // Far away with a long lens, so the projection is nearly parallel: the silhouette of a unit
    // cube seen along unit v has area |vx| + |vy| + |vz|.
    const v: Vec3 = [0.47, 0.57, 0.67];
    const len = Math.hypot(...v), d = 200, focal = 6000;
    const cam = cameraAt([(v[0] / len) * d, (v[1] / len) * d, (v[2] / len) * d], v, 200, 200, focal);
    const layer = createLayer(200, 200);
    drawMesh(layer, cube(), cam, SOLID_SHADING);
    const expected = ((Math.abs(v[0]) + Math.abs(v[1]) + Math.abs(v[2])) / len) * (focal / d) ** 2;
    expect(covered(layer.invDepth) / expected).toBeGreaterThan(0.97);
    expect(covered(layer.invDepth) / expected).toBeLessThan(1.03);
  });

  it('a near triangle hides a far one whichever is drawn first', () => {
    const cam = cameraAt([0, 0, 5], [0, 0, 1], 100, 100, 100);
    const near = triangle([-1, -1, 1, 1, -1, 1, 0, 1, 1], [1, 0, 0]);
    const far = triangle([-1, -1, -1, 1, -1, -1, 0, 1, -1], [0, 0, 1]);
    for (const order of [[near, far], [far, near]]) {
      const layer = createLayer(100, 100);
      for (const m of order) drawMesh(layer, m, cam, LIQUID_SHADING);
      const i = 50 * 100 + 50; // the middle, inside both
      expect(layer.color[3 * i]).toBeGreaterThan(0.2);
      expect(layer.color[3 * i + 2]).toBeLessThan(0.1 * layer.color[3 * i]);
      expect(layer.invDepth[i]).toBeCloseTo(1 / 4, 5);
    }
  });

  it('vertex colours come through the shading; a mesh without them takes the base colour', () => {
    const cam = cameraAt([0, 0, 5], [0, 0, 1], 100, 100, 100);
    const layer = createLayer(100, 100);
    drawMesh(layer, triangle([-1, -1, 0, 1, -1, 0, 0, 1, 0], [0, 1, 0]), cam, LIQUID_SHADING);
    const i = 3 * (50 * 100 + 50);
    expect(layer.color[i + 1]).toBeGreaterThan(0.3);
    // A highlight adds white; beyond it red and blue stay well under green.
    expect(layer.color[i + 1] - layer.color[i]).toBeGreaterThan(0.2);
    expect(layer.color[i + 1] - layer.color[i + 2]).toBeGreaterThan(0.2);
    const plain = createLayer(100, 100);
    drawMesh(plain, triangle([-1, -1, 0, 1, -1, 0, 0, 1, 0]), cam, { ...LIQUID_SHADING, specular: 0, color: [0, 0, 1] });
    expect(plain.color[i + 2]).toBeGreaterThan(0.3);
    expect(plain.color[i]).toBe(0);
  });

  it('lights a triangle seen from behind as its other side', () => {
    const cam = cameraAt([0, 0, 5], [0, 0, 1], 100, 100, 100);
    const facing = createLayer(100, 100), away = createLayer(100, 100);
    const m = triangle([-1, -1, 0, 1, -1, 0, 0, 1, 0], [1, 1, 1]);
    drawMesh(facing, m, cam, SOLID_SHADING);
    drawMesh(away, { ...m, normals: m.normals.map((x) => -x) }, cam, SOLID_SHADING);
    const i = 3 * (50 * 100 + 50);
    expect(away.color[i]).toBeCloseTo(facing.color[i], 5);
  });

  it('clips a floor that reaches behind the camera at the near plane', () => {
    const cam = cameraAt([0, 1, 0], [0, 0.3, 1], 100, 100, 100);
    const floor: Mesh = {
      positions: Float32Array.from([-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10]),
      normals: Float32Array.from([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]),
      indices: Uint32Array.from([0, 2, 1, 0, 3, 2]),
    };
    const layer = createLayer(100, 100);
    expect(drawMesh(layer, floor, cam, SOLID_SHADING)).toBe(2);
    // The floor fills the lower half of the image and stops at its horizon.
    expect(layer.invDepth[99 * 100 + 50]).toBeGreaterThan(0);
    expect(layer.invDepth[0 * 100 + 50]).toBe(0);
    for (const z of layer.invDepth) expect(Number.isFinite(z) && z >= 0).toBe(true);
  });

  it('frames a box: every corner projects inside the image, and the box fills most of it', () => {
    const box = { min: [-0.1, -0.12, -0.1] as Vec3, max: [0.1, 0.17, 0.1] as Vec3 };
    for (const view of [[0.47, 0.57, 0.67], [0, 1, 0], [1, 0, 0], [-1, -0.2, 0.3]] as Vec3[]) {
      const cam = frameBox(box, view, 400, 300);
      let lo = [Infinity, Infinity], hi = [-Infinity, -Infinity];
      for (let c = 0; c < 8; c++) {
        const p = project(cam, [c & 1 ? box.max[0] : box.min[0], c & 2 ? box.max[1] : box.min[1], c & 4 ? box.max[2] : box.min[2]])!;
        expect(p).not.toBeNull();
        lo = [Math.min(lo[0], p.x), Math.min(lo[1], p.y)];
        hi = [Math.max(hi[0], p.x), Math.max(hi[1], p.y)];
      }
      expect(lo[0]).toBeGreaterThanOrEqual(0);
      expect(lo[1]).toBeGreaterThanOrEqual(0);
      expect(hi[0]).toBeLessThanOrEqual(400);
      expect(hi[1]).toBeLessThanOrEqual(300);
      // Centred, and filling the tighter direction to about 84 %.
      expect(Math.abs((lo[0] + hi[0]) / 2 - 200)).toBeLessThan(4);
      expect(Math.abs((lo[1] + hi[1]) / 2 - 150)).toBeLessThan(4);
      expect(Math.max((hi[0] - lo[0]) / 400, (hi[1] - lo[1]) / 300)).toBeGreaterThan(0.8);
    }
  });

  it('frames the liquid with the solids near it, not a metre-wide floor', () => {
    const liquid = { min: [-0.05, 0, -0.05] as Vec3, max: [0.05, 0.1, 0.05] as Vec3 };
    const box = viewBox(liquid, { min: [-1, -0.01, -1], max: [1, 0, 1] });
    expect(box.min[0]).toBeCloseTo(-0.1, 9); // half the liquid's size beyond it
    expect(box.min[1]).toBeCloseTo(-0.01, 9); // the floor itself
    expect(viewBox({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }, liquid)).toEqual(liquid);
  });

  it('a tile shows the liquid over the backdrop and solids in front of it at a third of their opacity', () => {
    const cam = cameraAt([0, 0, 5], [0, 0, 1], 60, 60, 60);
    const r = new TileRenderer(cam, 2);
    const liquid = cube(1, [0, 0, -1]);
    const { image, liquidTriangles } = r.render({ liquid });
    expect(liquidTriangles).toBeGreaterThan(0);
    const at = (img: RgbImage, x: number, y: number) => Array.from(img.pixels.subarray(3 * (y * 60 + x), 3 * (y * 60 + x) + 3));
    const [lr, lg, lb] = at(image, 30, 30);
    expect(lr).toBeGreaterThan(lb + 60); // honey
    const corner = at(image, 1, 1);
    expect(Math.abs(corner[0] - corner[2])).toBeLessThan(30); // the grey-blue backdrop
    const wall = { ...cube(2, [0, 0, 1]), colors: new Float32Array(24).fill(0.8) };
    const behind = r.render({ liquid, solids: wall }).image;
    const [wr, , wb] = at(behind, 30, 30);
    expect(wr - wb).toBeGreaterThan(20); // the honey still shows through
    expect(wr - wb).toBeLessThan(lr - lb);
    // Behind the wall, the inside of a liquid film (a ball coated with honey, seen through a hole
    // in the film): the wall is drawn opaque.
    const film = { ...liquid, normals: vertexNormals(liquid.positions, liquid.indices).map((x) => -x) };
    const [fr, , fb] = at(r.render({ liquid: film, solids: wall }).image, 30, 30);
    expect(Math.abs(fr - fb)).toBeLessThan(3);
    const solidOnly = r.render({ solids: wall }).image;
    const s = at(solidOnly, 30, 30);
    expect(Math.abs(s[0] - s[2])).toBeLessThan(3); // grey, opaque where nothing is behind
  });
});

describe('preview PNG and APNG', () => {
  it('writes a PNG that reads back pixel for pixel', () => {
    const width = 37, height = 23;
    const pixels = new Uint8Array(3 * width * height);
    for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + (i >> 5)) & 255;
    const png = decodePng(encodePNG({ width, height, pixels }));
    expect(png.width).toBe(width);
    expect(png.height).toBe(height);
    expect(png.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(png.pixels).toEqual(pixels);
  });

  it('writes an APNG with the frames given, the first as IDAT', () => {
    const w = new ApngWriter(8, 4, { num: 100, den: 1000 });
    for (let k = 0; k < 5; k++) w.add({ width: 8, height: 4, pixels: new Uint8Array(96).fill(40 * k) });
    const png = decodePng(w.finish());
    expect(png.animationFrames).toBe(5);
    expect(png.frameControls).toBe(5);
    expect(png.chunks.filter((c) => c === 'fdAT')).toHaveLength(4);
    expect(png.chunks.slice(0, 4)).toEqual(['IHDR', 'acTL', 'fcTL', 'IDAT']);
    expect(png.pixels.every((v) => v === 0)).toBe(true);
    expect(() => w.add({ width: 4, height: 4, pixels: new Uint8Array(48) })).toThrow(/4×4, the animation 8×4/);
  });

  it('draws labels in its bitmap font', () => {
    const img: RgbImage = { width: 80, height: 20, pixels: new Uint8Array(3 * 80 * 20) };
    drawText(img, 2, 2, 'frame 30', 1, [255, 255, 255], false);
    const lit = img.pixels.filter((v, i) => i % 3 === 0 && v === 255).length;
    expect(lit).toBeGreaterThan(40);
    expect(textWidth('frame 30', 2)).toBe(2 * (8 * 6 - 1));
    // Nothing is drawn right of the text's width.
    for (let y = 0; y < 20; y++) for (let x = 2 + textWidth('frame 30', 1) + 1; x < 80; x++) expect(img.pixels[3 * (y * 80 + x)]).toBe(0);
  });
});

describe('preview framing points', () => {
  it("takes each frame's liquid box corners and the solids' vertices moved into reach of the liquid", async () => {
    const { framingPoints } = await import('../../src/preview/bounds.ts');
    const drop = { min: [-0.01, 0.1, -0.01] as Vec3, max: [0.01, 0.12, 0.01] as Vec3 };
    const puddle = { min: [-0.03, 0, -0.03] as Vec3, max: [0.03, 0.005, 0.03] as Vec3 };
    const floor = Float32Array.from([-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1]);
    const p = framingPoints([drop, puddle], [floor]);
    expect(p.length).toBe(3 * (16 + 4));
    // The liquid spans 0.12 m at most, so the floor is cut at 0.06 m beyond it: x from −0.09 to 0.09.
    const xs = Array.from(p).filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBeCloseTo(-0.09, 9);
    expect(Math.max(...xs)).toBeCloseTo(0.09, 9);
    // Nothing at all: the default box's corners.
    expect(framingPoints([], []).length).toBe(24);
  });
});

describe('preview footprint shadow', () => {
  it('darkens a floor under the liquid, softly at the edge, and nowhere else', () => {
    const cam = cameraAt([0, 10, 0.001], [0, 1, 0.0001], 100, 100, 500);
    const floor: Mesh = {
      positions: Float32Array.from([-1, 0, -1, -1, 0, 1, 1, 0, 1, 1, 0, -1]),
      normals: Float32Array.from([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]),
      colors: new Float32Array(12).fill(0.5),
      indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
    };
    const drop = cube(0.4, [0.5, 0.5, 0]); // above the floor, to the right (+x)
    const r = new TileRenderer(cam, 1, { min: [-1, 0, -1], max: [1, 1, 1] });
    const lit = r.render({ solids: floor }).image;
    const shaded = r.render({ liquid: drop, solids: floor }).image;
    const at = (img: RgbImage, x: number, y: number) => img.pixels[3 * (y * 100 + x)];
    // Looking down: x to the right of the image. The drop covers x 0.3–0.7 (pixels 65–85); the floor
    // at x = −0.5 (pixel 25) is unchanged.
    expect(at(shaded, 25, 50)).toBe(at(lit, 25, 50));
    expect(at(shaded, 10, 10)).toBe(at(lit, 10, 10));
    // Beside the drop but inside its footprint's soft edge it is darker, yet lighter than far inside.
    // (The window is ±2 cells of 2/256 m: ±0.8 pixel here.) Under the drop the floor is hidden.
    const edge = at(shaded, 64, 50), beside = at(shaded, 60, 50);
    expect(beside).toBe(at(lit, 60, 50));
    expect(edge).toBeLessThan(at(lit, 64, 50));
    const r2 = new TileRenderer(cam, 1, { min: [-1, 0, -1], max: [1, 1, 1] });
    const flat = cube(0.4, [0.5, 0.5, 0]);
    // The floor straight under the drop, seen with the drop moved out of the camera's way (liquid
    // is drawn, so look at the floor through a second render with the drop far above the camera).
    expect(r2.render({ liquid: { ...flat, positions: flat.positions.map((v, i) => (i % 3 === 1 ? v + 20 : v)) }, solids: floor }).image.pixels[3 * (50 * 100 + 75)]).toBeLessThan(0.8 * at(lit, 75, 50)); // 45 % of the light: 72 % in sRGB
  });
});

