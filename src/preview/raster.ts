/**
 * A plain software rasterizer for previews: triangles scan-converted with edge functions at pixel
 * centres (Pineda 1988), a z-buffer of inverse depth (linear in screen space, so exact across a
 * triangle), and Gouraud shading: each vertex lit once — a hemisphere ambient, a Lambert key light
 * from the upper left and a headlight, and a Blinn–Phong highlight — and the colour interpolated.
 * Previews draw meshes of some 100 000 triangles into a few hundred pixels, where triangles are a
 * pixel or two across and per-pixel lighting would look the same at several times the cost.
 *
 * Surfaces are two-sided: a triangle seen from the side its normals point away from is lit with the
 * normals turned round (an open surface, or a grid surface cut by the domain, shows its inside).
 * Triangles that reach behind the camera's near plane are clipped against it.
 */
import type { Mesh } from '../types/geometry.ts';
import type { PreviewCamera, Vec3 } from './camera.ts';

/**
 * One layer of drawing: inverse depth (0 where nothing is drawn), linear RGB, and which side of
 * the surface is seen (1 where it is the side its normals point away from: an inside) per pixel.
 */
export interface Layer {
  width: number;
  height: number;
  invDepth: Float32Array;
  color: Float32Array;
  inside: Uint8Array;
}

export function createLayer(width: number, height: number): Layer {
  return { width, height, invDepth: new Float32Array(width * height), color: new Float32Array(3 * width * height), inside: new Uint8Array(width * height) };
}

export function clearLayer(layer: Layer): void {
  layer.invDepth.fill(0);
  layer.color.fill(0);
  layer.inside.fill(0);
}

/** How a mesh is lit. Intensities multiply the base colour; the highlight is white. */
export interface Shading {
  /** Linear RGB where the mesh has no vertex colours. */
  color: Vec3;
  ambient: number;
  key: number;
  headlight: number;
  specular: number;
  shininess: number;
}

/** Honey, linear RGB of #d99a1e (the colour io/gltf.ts gives an uncoloured surface). */
export const HONEY: Vec3 = [0.693, 0.323, 0.013];

export const LIQUID_SHADING: Shading = { color: HONEY, ambient: 0.3, key: 0.75, headlight: 0.25, specular: 0.3, shininess: 30 };
export const SOLID_SHADING: Shading = { color: [0.45, 0.47, 0.5], ambient: 0.32, key: 0.65, headlight: 0.2, specular: 0.08, shininess: 12 };

// Per-vertex scratch, grown as needed: camera-space x, y and depth; screen x, y and inverse depth;
// lit colours for the front and the back side.
let camX = new Float32Array(0), camY = new Float32Array(0), camZ = new Float32Array(0);
let screen = new Float32Array(0);
let front = new Float32Array(0), back = new Float32Array(0);
// A triangle clipped by the near plane: at most four corners (screen x, y, 1/z; colour).
const clipScreen = new Float32Array(12), clipColor = new Float32Array(12);
const clipCam = new Float32Array(12), clipIn = new Float32Array(12);

function ensureScratch(n: number): void {
  if (camX.length >= n) return;
  const size = Math.max(n, 2 * camX.length);
  camX = new Float32Array(size);
  camY = new Float32Array(size);
  camZ = new Float32Array(size);
  screen = new Float32Array(3 * size);
  front = new Float32Array(3 * size);
  back = new Float32Array(3 * size);
}

/** Vertex normals of a mesh that has none: area-weighted face normals summed at each vertex. */
export function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const out = new Float32Array(positions.length);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = 3 * indices[t], b = 3 * indices[t + 1], c = 3 * indices[t + 2];
    const ux = positions[b] - positions[a], uy = positions[b + 1] - positions[a + 1], uz = positions[b + 2] - positions[a + 2];
    const vx = positions[c] - positions[a], vy = positions[c + 1] - positions[a + 1], vz = positions[c + 2] - positions[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const v of [a, b, c]) {
      out[v] += nx;
      out[v + 1] += ny;
      out[v + 2] += nz;
    }
  }
  for (let i = 0; i < out.length; i += 3) {
    const l = Math.hypot(out[i], out[i + 1], out[i + 2]) || 1;
    out[i] /= l;
    out[i + 1] /= l;
    out[i + 2] /= l;
  }
  return out;
}

/** Draws `mesh` into `layer` as `cam` sees it; returns the triangles that reached the image. */
export function drawMesh(layer: Layer, mesh: Mesh, cam: PreviewCamera, shading: Shading): number {
  const n = mesh.positions.length / 3;
  if (n === 0 || mesh.indices.length < 3) return 0;
  if (cam.width !== layer.width || cam.height !== layer.height) throw new RangeError(`camera is ${cam.width}×${cam.height}, the layer ${layer.width}×${layer.height}`);
  ensureScratch(n);
  const P = mesh.positions;
  const N = mesh.normals.length >= 3 * n ? mesh.normals : vertexNormals(P, mesh.indices);
  const C = mesh.colors !== undefined && mesh.colors.length >= 3 * n ? mesh.colors : undefined;
  const [ex, ey, ez] = cam.eye, [rx, ry, rz] = cam.right, [ux, uy, uz] = cam.up, [bx, by, bz] = cam.back;
  // The key light comes from the upper left, a little in front: fixed to the camera, so every view is lit alike.
  let lx = -0.5 * rx + 0.8 * ux + 0.45 * bx, ly = -0.5 * ry + 0.8 * uy + 0.45 * by, lz = -0.5 * rz + 0.8 * uz + 0.45 * bz;
  const ll = Math.hypot(lx, ly, lz);
  lx /= ll; ly /= ll; lz /= ll;
  const halfW = cam.width / 2, halfH = cam.height / 2, f = cam.focal;
  const { ambient, key, headlight, specular, shininess } = shading;
  const [baseR, baseG, baseB] = shading.color;
  for (let i = 0; i < n; i++) {
    const k = 3 * i;
    const dx = P[k] - ex, dy = P[k + 1] - ey, dz = P[k + 2] - ez;
    const cx = dx * rx + dy * ry + dz * rz, cy = dx * ux + dy * uy + dz * uz, depth = -(dx * bx + dy * by + dz * bz);
    camX[i] = cx;
    camY[i] = cy;
    camZ[i] = depth;
    const inv = depth > 0 ? 1 / depth : 0;
    screen[k] = halfW + f * cx * inv;
    screen[k + 1] = halfH - f * cy * inv;
    screen[k + 2] = inv;
    // Light both sides: v points from the vertex to the eye.
    const dl = Math.hypot(dx, dy, dz) || 1;
    const vx = -dx / dl, vy = -dy / dl, vz = -dz / dl;
    let hx = lx + vx, hy = ly + vy, hz = lz + vz;
    const hl = Math.hypot(hx, hy, hz) || 1;
    hx /= hl; hy /= hl; hz /= hl;
    const r = C ? C[k] : baseR, g = C ? C[k + 1] : baseG, b = C ? C[k + 2] : baseB;
    for (let side = 0; side < 2; side++) {
      const s = side === 0 ? 1 : -1;
      const nx = s * N[k], ny = s * N[k + 1], nz = s * N[k + 2];
      const nl = nx * lx + ny * ly + nz * lz, nv = nx * vx + ny * vy + nz * vz, nh = nx * hx + ny * hy + nz * hz;
      // Hemisphere ambient: brighter facing up (sky) than down (ground).
      const light = ambient * (0.7 + 0.3 * ny) + key * (nl > 0 ? nl : 0) + headlight * (nv > 0 ? nv : 0);
      const spec = nh > 0 && nl > 0 ? specular * Math.pow(nh, shininess) : 0;
      const out = side === 0 ? front : back;
      out[k] = r * light + spec;
      out[k + 1] = g * light + spec;
      out[k + 2] = b * light + spec;
    }
  }
  const I = mesh.indices, near = cam.near;
  let drawn = 0;
  for (let t = 0; t + 2 < I.length; t += 3) {
    const a = I[t], b = I[t + 1], c = I[t + 2];
    if (a >= n || b >= n || c >= n) throw new RangeError(`triangle ${t / 3} names vertex ${Math.max(a, b, c)} of ${n}`);
    // The side seen: the geometric normal against the eye, and against the vertex normals' side.
    const ka = 3 * a, kb = 3 * b, kc = 3 * c;
    const e1x = P[kb] - P[ka], e1y = P[kb + 1] - P[ka + 1], e1z = P[kb + 2] - P[ka + 2];
    const e2x = P[kc] - P[ka], e2y = P[kc + 1] - P[ka + 1], e2z = P[kc + 2] - P[ka + 2];
    const gx = e1y * e2z - e1z * e2y, gy = e1z * e2x - e1x * e2z, gz = e1x * e2y - e1y * e2x;
    const facing = gx * (ex - P[ka]) + gy * (ey - P[ka + 1]) + gz * (ez - P[ka + 2]);
    const normalSide = gx * (N[ka] + N[kb] + N[kc]) + gy * (N[ka + 1] + N[kb + 1] + N[kc + 1]) + gz * (N[ka + 2] + N[kb + 2] + N[kc + 2]);
    const inside = (normalSide >= 0) === (facing >= 0) ? 0 : 1;
    const colors = inside ? back : front;
    const za = camZ[a], zb = camZ[b], zc = camZ[c];
    if (za >= near && zb >= near && zc >= near) {
      if (fillTriangle(layer, screen, colors, ka, kb, kc, inside)) drawn++;
    } else if (za >= near || zb >= near || zc >= near) {
      drawn += drawClipped(layer, cam, colors, a, b, c, inside);
    }
  }
  return drawn;
}

/** A triangle partly behind the near plane: cut there (Sutherland–Hodgman, one plane) and drawn as a fan. */
function drawClipped(layer: Layer, cam: PreviewCamera, colors: Float32Array, a: number, b: number, c: number, inside: number): number {
  const near = cam.near;
  for (const [slot, v] of [[0, a], [1, b], [2, c]]) {
    clipIn[4 * slot] = camX[v];
    clipIn[4 * slot + 1] = camY[v];
    clipIn[4 * slot + 2] = camZ[v];
    clipIn[4 * slot + 3] = v;
  }
  let m = 0;
  for (let s = 0; s < 3; s++) {
    const p = 4 * s, q = 4 * ((s + 1) % 3);
    const zp = clipIn[p + 2], zq = clipIn[q + 2];
    const vp = clipIn[p + 3], vq = clipIn[q + 3];
    if (zp >= near) {
      clipCam[3 * m] = clipIn[p];
      clipCam[3 * m + 1] = clipIn[p + 1];
      clipCam[3 * m + 2] = zp;
      for (let k = 0; k < 3; k++) clipColor[3 * m + k] = colors[3 * vp + k];
      m++;
    }
    if (zp >= near !== zq >= near) {
      const u = (near - zp) / (zq - zp);
      clipCam[3 * m] = clipIn[p] + u * (clipIn[q] - clipIn[p]);
      clipCam[3 * m + 1] = clipIn[p + 1] + u * (clipIn[q + 1] - clipIn[p + 1]);
      clipCam[3 * m + 2] = near;
      for (let k = 0; k < 3; k++) clipColor[3 * m + k] = colors[3 * vp + k] + u * (colors[3 * vq + k] - colors[3 * vp + k]);
      m++;
    }
  }
  for (let i = 0; i < m; i++) {
    const inv = 1 / clipCam[3 * i + 2];
    clipScreen[3 * i] = cam.width / 2 + cam.focal * clipCam[3 * i] * inv;
    clipScreen[3 * i + 1] = cam.height / 2 - cam.focal * clipCam[3 * i + 1] * inv;
    clipScreen[3 * i + 2] = inv;
  }
  let drawn = 0;
  for (let i = 1; i + 1 < m; i++) if (fillTriangle(layer, clipScreen, clipColor, 0, 3 * i, 3 * (i + 1), inside)) drawn = 1;
  return drawn;
}

/**
 * Scan-converts one triangle whose corners are at offsets a, b, c of `S` (screen x, y, 1/z) and of
 * `C` (linear RGB), seen from its `inside` (1) or not (0). A pixel is covered when its centre lies inside or on an edge; it is written
 * when nearer than what is there. Returns whether the triangle lies at least partly in the image.
 */
function fillTriangle(layer: Layer, S: Float32Array, C: Float32Array, a: number, b: number, c: number, inside: number): boolean {
  let x0 = S[a], y0 = S[a + 1];
  let x1 = S[b], y1 = S[b + 1];
  let x2 = S[c], y2 = S[c + 1];
  let area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
  if (!(area > 1e-12 || area < -1e-12)) return false;
  if (area < 0) {
    // Reorder to positive area: swap b and c.
    const t = b; b = c; c = t;
    x1 = S[b]; y1 = S[b + 1]; x2 = S[c]; y2 = S[c + 1];
    area = -area;
  }
  const W = layer.width, H = layer.height;
  const minX = Math.max(0, Math.ceil(Math.min(x0, x1, x2) - 0.5));
  const maxX = Math.min(W - 1, Math.floor(Math.max(x0, x1, x2) - 0.5));
  const minY = Math.max(0, Math.ceil(Math.min(y0, y1, y2) - 0.5));
  const maxY = Math.min(H - 1, Math.floor(Math.max(y0, y1, y2) - 0.5));
  if (minX > maxX || minY > maxY) return minX <= W - 1 && maxX >= 0 && minY <= H - 1 && maxY >= 0;
  const inv = 1 / area;
  const z0 = S[a + 2] * inv, z1 = S[b + 2] * inv, z2 = S[c + 2] * inv;
  const r0 = C[a] * inv, g0 = C[a + 1] * inv, b0 = C[a + 2] * inv;
  const r1 = C[b] * inv, g1 = C[b + 1] * inv, b1 = C[b + 2] * inv;
  const r2 = C[c] * inv, g2 = C[c + 1] * inv, b2 = C[c + 2] * inv;
  // Edge functions: w0 is the weight of corner 0 (opposite edge 1→2), and so on; w0 + w1 + w2 = area.
  const a0 = y1 - y2, b0e = x2 - x1;
  const a1 = y2 - y0, b1e = x0 - x2;
  const a2 = y0 - y1, b2e = x1 - x0;
  const px = minX + 0.5, py = minY + 0.5;
  let row0 = (x2 - x1) * (py - y1) - (y2 - y1) * (px - x1);
  let row1 = (x0 - x2) * (py - y2) - (y0 - y2) * (px - x2);
  let row2 = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0);
  const depth = layer.invDepth, color = layer.color, sides = layer.inside;
  for (let y = minY; y <= maxY; y++) {
    let w0 = row0, w1 = row1, w2 = row2;
    let i = y * W + minX;
    for (let x = minX; x <= maxX; x++, i++) {
      if (w0 >= 0 && w1 >= 0 && w2 >= 0) {
        const z = w0 * z0 + w1 * z1 + w2 * z2;
        if (z > depth[i]) {
          depth[i] = z;
          sides[i] = inside;
          const k = 3 * i;
          color[k] = w0 * r0 + w1 * r1 + w2 * r2;
          color[k + 1] = w0 * g0 + w1 * g1 + w2 * g2;
          color[k + 2] = w0 * b0 + w1 * b1 + w2 * b2;
        }
      }
      w0 += a0;
      w1 += a1;
      w2 += a2;
    }
    row0 += b0e;
    row1 += b1e;
    row2 += b2e;
  }
  return true;
}
