/**
 * A grid pile's foot from above as text: one character per millimetre, the height of the surface
 * mesh above the floor there (' ' none, '.' under 1 mm, '1' 1–2 mm, … '#' 9 mm or more), for a
 * window of x and z, for several frames of a finished run (`viscid run SCENE -e grid -o DIR --mesh ply`).
 * Shows what the spikes of honey-coil's pile are: tabs one cell wide and half a cell high ahead of the rim.
 *
 *   npx tsx bench/grid-foot-map.ts DIR 46,50,54 X0 X1 Z0 Z1 FLOOR_Y
 */
import { readFileSync } from 'node:fs';
import { fromPLY } from '../src/io/ply-read.ts';
const [dir, framesS, x0s, x1s, z0s, z1s, floorS] = process.argv.slice(2);
if (!floorS) throw new Error('usage: npx tsx bench/grid-foot-map.ts DIR FRAMES X0 X1 Z0 Z1 FLOOR_Y');
const x0 = Number(x0s), x1 = Number(x1s), z0 = Number(z0s), z1 = Number(z1s), floor = Number(floorS);
const px = 0.001, nx = Math.round((x1 - x0) / px), nz = Math.round((z1 - z0) / px);
for (const f of framesS.split(',').map(Number)) {
  const m = fromPLY(new Uint8Array(readFileSync(`${dir}/grid/mesh-${String(f).padStart(4, '0')}.ply`)));
  const top = new Float64Array(nx * nz).fill(-1);
  const p = m.positions, idx = m.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t], b = 3 * idx[t + 1], c = 3 * idx[t + 2];
    const ax = (p[a] - x0) / px, az = (p[a + 2] - z0) / px, bx = (p[b] - x0) / px, bz = (p[b + 2] - z0) / px, cx = (p[c] - x0) / px, cz = (p[c + 2] - z0) / px;
    const area = (bx - ax) * (cz - az) - (cx - ax) * (bz - az);
    if (Math.abs(area) < 1e-12) continue;
    const ymax = Math.max(p[a + 1], p[b + 1], p[c + 1]);
    for (let k = Math.max(0, Math.floor(Math.min(az, bz, cz))); k <= Math.min(nz - 1, Math.ceil(Math.max(az, bz, cz))); k++)
      for (let i = Math.max(0, Math.floor(Math.min(ax, bx, cx))); i <= Math.min(nx - 1, Math.ceil(Math.max(ax, bx, cx))); i++) {
        const qx = i + 0.5, qz = k + 0.5;
        const w0 = ((bx - qx) * (cz - qz) - (cx - qx) * (bz - qz)) / area, w1 = ((cx - qx) * (az - qz) - (ax - qx) * (cz - qz)) / area;
        if (w0 >= -1e-9 && w1 >= -1e-9 && 1 - w0 - w1 >= -1e-9) top[k * nx + i] = Math.max(top[k * nx + i], ymax - floor);
      }
  }
  console.log(`frame ${f} (one char per mm; height above the floor: . <1 mm, 1 <2, 2 <3 …, # ≥ 9 mm)`);
  for (let k = 0; k < nz; k++) {
    let s = '';
    for (let i = 0; i < nx; i++) { const y = top[k * nx + i]; s += y < 0 ? ' ' : y < 0.001 ? '.' : y >= 0.009 ? '#' : String(Math.floor(y / 0.001)); }
    console.log(s);
  }
}
