/**
 * Side views of a particle scene as PNG images (x right, y up; particles as discs shaded by depth,
 * object particles grey): the look of a run at a glance, without the app.
 *   npx tsx bench/snapshot.ts scene.json frames every out-prefix ['{"particle":{...}}']
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { createSimulation, parseScene } from '../src/index.ts';
import type { ParticleSimulation } from '../src/particle/simulation.ts';

const [file, framesArg, everyArg, prefix, extraArg] = process.argv.slice(2);
const input = JSON.parse(readFileSync(file, 'utf8'));
const extra = extraArg ? JSON.parse(extraArg) : {};
Object.assign((input.particle ??= {}), extra.particle ?? {});
for (const [k, v] of Object.entries(extra)) if (k !== 'particle') input[k] = v;
const s = createSimulation(parseScene(input), 'particle') as ParticleSimulation;
const L = s.ctx.liquid, O = s.ctx.objects, r = s.ctx.r;
const W = 400, H = 400;

function crc32(buf: Uint8Array): number {
  let c, crc = 0xffffffff;
  for (let n = 0; n < buf.length; n++) {
    c = (crc ^ buf[n]) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function png(rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc(H * (3 * W + 1));
  for (let y = 0; y < H; y++) { raw[y * (3 * W + 1)] = 0; rgb.subarray(3 * W * y, 3 * W * (y + 1)).forEach((v, i) => (raw[y * (3 * W + 1) + 1 + i] = v)); }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4); ihdr[8] = 8; ihdr[9] = 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
// View bounds from the first frame: everything within.
let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
const grow = (p: Float64Array, n: number) => { for (let i = 0; i < n; i++) { x0 = Math.min(x0, p[3 * i]); x1 = Math.max(x1, p[3 * i]); y0 = Math.min(y0, p[3 * i + 1]); y1 = Math.max(y1, p[3 * i + 1]); } };
grow(L.pos, L.count); grow(O.pos, O.count);
const dom = input.domain;
if (dom) { x0 = Math.min(x0, dom.min[0]); x1 = Math.max(x1, dom.max[0]); y0 = Math.min(y0, dom.min[1]); }
const span = Math.max(x1 - x0, y1 - y0) * 1.1, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
const toPx = (x: number, y: number) => [((x - cx) / span + 0.5) * W, (0.5 - (y - cy) / span) * H];
function draw(frame: number): void {
  const img = new Uint8Array(3 * W * H).fill(245), depth = new Float32Array(W * H).fill(-Infinity);
  const rad = Math.max(1, (r / span) * W);
  const splat = (p: Float64Array, n: number, color: (i: number, z: number) => number[]) => {
    for (let i = 0; i < n; i++) {
      const [px, py] = toPx(p[3 * i], p[3 * i + 1]), z = p[3 * i + 2];
      for (let dy = -rad; dy <= rad; dy++) for (let dx = -rad; dx <= rad; dx++) {
        if (dx * dx + dy * dy > rad * rad) continue;
        const X = Math.round(px + dx), Y = Math.round(py + dy);
        if (X < 0 || Y < 0 || X >= W || Y >= H || depth[Y * W + X] > z) continue;
        depth[Y * W + X] = z;
        const c = color(i, z);
        img.set(c, 3 * (Y * W + X));
      }
    }
  };
  splat(O.pos, O.count, () => [150, 150, 155]);
  let zmin = Infinity, zmax = -Infinity;
  for (let i = 0; i < L.count; i++) { zmin = Math.min(zmin, L.pos[3 * i + 2]); zmax = Math.max(zmax, L.pos[3 * i + 2]); }
  splat(L.pos, L.count, (_i, z) => { const t = zmax > zmin ? (z - zmin) / (zmax - zmin) : 1; return [Math.round(120 + 120 * t), Math.round(60 + 100 * t), 20]; });
  writeFileSync(`${prefix}-${String(frame).padStart(3, '0')}.png`, png(img));
}
const frames = Number(framesArg), every = Number(everyArg);
for (let f = 1; f <= frames; f++) {
  s.stepFrame();
  if (f % every === 0) draw(f);
}
