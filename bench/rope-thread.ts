/**
 * Is a parted pour parted in the particles or only in the drawn surface? Reads a run's point files
 * (`viscid run SCENE -e particle --points ply --mesh ply -o DIR`) and prints, per frame, for the
 * pour's window (ROPE_WINDOWS):
 *   - the particles there and their components linked within 4 r (the density kernel's support),
 *     5 r (the viscosity's), and the smallest link (radii) that joins them all into one: the widest
 *     gap along the thread, read as the largest edge of their minimum spanning forest's path;
 *   - along the stream (slices 2r high from the window's top down): the particles a slice, its mean
 *     downward speed and the stretch rate −∂v_y/∂y between slices (1/s), the thinnest slice;
 *   - the mesh's pieces in the window (tests/scene/mesh-pieces.ts), when the run wrote meshes.
 *   npx tsx bench/rope-thread.ts <run dir> <scene> [--frames 40,60,80] [--r 0.002]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromPLY } from '../src/io/ply-read.ts';
import { ROPE_WINDOWS, ropeComponents, type RopeWindow } from '../tests/particle/rope-components.ts';
import { meshPieces } from '../tests/scene/mesh-pieces.ts';

const argv = process.argv.slice(2);
const [dir, scene] = argv;
const flag = (n: string): string | undefined => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
const win: RopeWindow = flag('--window') ? JSON.parse(flag('--window')!) : ROPE_WINDOWS[scene];
const r = Number(flag('--r') ?? 0.002);
const sub = join(dir, 'particle');
const wanted = flag('--frames') ? new Set(flag('--frames')!.split(',').map(Number)) : null;

/** Positions and velocities of a points PLY as viscid writes it (float x y z vx vy vz, then any scalars). */
function readPoints(bytes: Uint8Array): { n: number; pos: Float64Array; vel: Float64Array } {
  const text = new TextDecoder().decode(bytes.subarray(0, 2048));
  const end = text.indexOf('end_header\n') + 11;
  const n = Number(/element vertex (\d+)/.exec(text)![1]);
  const props = [...text.slice(0, end).matchAll(/property (\w+) (\w+)/g)].map((m) => m[1]);
  const size: Record<string, number> = { float: 4, ushort: 2, uchar: 1, double: 8, int: 4, uint: 4 };
  const stride = props.reduce((s, t) => s + size[t], 0);
  const view = new DataView(bytes.buffer, bytes.byteOffset + end);
  const pos = new Float64Array(3 * n), vel = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      pos[3 * i + k] = view.getFloat32(i * stride + 4 * k, true);
      vel[3 * i + k] = view.getFloat32(i * stride + 12 + 4 * k, true);
    }
  }
  return { n, pos, vel };
}

const frames = readdirSync(sub).filter((f) => /^points-\d+\.ply$/.test(f)).map((f) => Number(/\d+/.exec(f)![0])).sort((a, b) => a - b);
for (const f of frames) {
  if (wanted && !wanted.has(f)) continue;
  const { n, pos, vel } = readPoints(new Uint8Array(readFileSync(join(sub, `points-${String(f).padStart(4, '0')}.ply`))));
  const c4 = ropeComponents(pos, n, win, 4 * r), c5 = ropeComponents(pos, n, win, 5 * r);
  if (c4.particles === 0) continue;
  // The smallest link joining the window's particles: bisect over the link (components within it).
  let lo = 1, hi = 20;
  if (ropeComponents(pos, n, win, hi * r).components > 1) lo = hi;
  else {
    for (let it = 0; it < 12; it++) {
      const mid = (lo + hi) / 2;
      if (ropeComponents(pos, n, win, mid * r).components > 1) lo = mid;
      else hi = mid;
    }
  }
  // Along the stream: slices 2r high from the window's top, the free thread only (x beyond the cup's rim side is the scene's business: the window).
  const ns = Math.ceil((win.max[1] - win.min[1]) / (2 * r));
  const cnt = new Float64Array(ns), vy = new Float64Array(ns);
  // The stream's width across (z, the rim's arc) and its speed, over its free middle (4–9 cm up).
  let zn = 0, z1 = 0, z2 = 0, zlo = Infinity, zhi = -Infinity, sp = 0;
  for (let i = 0; i < n; i++) {
    const x = pos[3 * i], y = pos[3 * i + 1], z = pos[3 * i + 2];
    if (x < win.min[0] || x > win.max[0] || y < win.min[1] || y > win.max[1] || z < win.min[2] || z > win.max[2]) continue;
    const s = Math.min(ns - 1, Math.floor((win.max[1] - y) / (2 * r)));
    cnt[s]++;
    vy[s] += vel[3 * i + 1];
    if (y > 0.04 && y < 0.09) {
      zn++; z1 += z; z2 += z * z; zlo = Math.min(zlo, z); zhi = Math.max(zhi, z); sp += -vel[3 * i + 1];
    }
  }
  let thin = Infinity, thinAt = -1, maxStretch = 0;
  const line: string[] = [];
  for (let s = 0; s < ns; s++) {
    if (cnt[s] > 0) vy[s] /= cnt[s];
    if (cnt[s] < thin) { thin = cnt[s]; thinAt = s; }
    if (s > 0 && cnt[s] > 0 && cnt[s - 1] > 0) maxStretch = Math.max(maxStretch, -(vy[s] - vy[s - 1]) / (2 * r));
    line.push(`${cnt[s]}`);
  }
  const zsd = zn > 1 ? Math.sqrt(Math.max(0, z2 / zn - (z1 / zn) ** 2)) : 0;
  // The flux through 4–9 cm: Σ v_y V / 5 cm, and the spacing of a single file carrying it at the mean speed.
  const flux = (sp * 8 * r ** 3) / 0.05, meanV = zn ? sp / zn : 0;
  const across = zn ? `4–9 cm: ${zn} particles, z ${(1000 * zlo).toFixed(0)}…${(1000 * zhi).toFixed(0)} mm (sd ${(1000 * zsd).toFixed(1)}), ${meanV.toFixed(2)} m/s, flux ${(1e6 * flux).toFixed(0)} mL/s; ` : '';
  const meshFile = join(sub, `mesh-${String(f).padStart(4, '0')}.ply`);
  const mp = existsSync(meshFile) ? meshPieces(fromPLY(new Uint8Array(readFileSync(meshFile))), win, (2 * r) ** 3) : NaN;
  console.log(
    `frame ${f}: ${c4.particles} in window; components 4r ${c4.components}, 5r ${c5.components}; joined at ${lo >= 20 ? '>20' : hi.toFixed(2)} r; ` +
      `mesh pieces ${mp}; ${across}thinnest slice ${thin} at ${(1000 * (win.max[1] - (thinAt + 0.5) * 2 * r)).toFixed(0)} mm; stretch ≤ ${maxStretch.toFixed(0)}/s; slices ${line.join(' ')}`,
  );
}
