/**
 * Does a draped sheet of particles mesh whole? A coat of `layers` particle layers on a sphere of
 * 33 r (the honey drop's ball at its 1.5 mm particles), its particles `spacing` apart in the sheet
 * (2 r: the rest lattice; more: a sheet drawn thin), jittered ±0.3 r, alone and with a hanging
 * drop of 12 r in the same region. Per case: the mesh's shells and handles (a whole coat is two
 * shells, the outside and the cavity round the ball, and no handle), the open share (rays from the
 * centre that meet no triangle: where the ball shows through), and the enclosed volume over Σ vᵢ.
 * `V` (JSON [[name, SurfaceOptions]]) sets the variants.
 *
 *   npx tsx bench/draped-sheet.bench.ts [--spacings 2,2.5,3] [--layers 1,2]
 */
import { checkMesh, particleSurface } from '../src/index.ts';
import type { SurfaceOptions } from '../src/surface/particle-surface.ts';
import { defaults } from '../tests/surface/helpers.ts';
import { drapedSheet, openShare } from '../tests/surface/sheet.ts';

const argv = process.argv.slice(2);
const opt = (name: string, def: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : def);
const spacings = opt('--spacings', '2,2.5,2.8,3.2').split(',').map(Number);
const layerList = opt('--layers', '1,2').split(',').map(Number);
const drops = opt('--drops', '0,12').split(',').map(Number);
const variants: [string, SurfaceOptions][] = process.env.V ? JSON.parse(process.env.V) : [['anisotropic', {}], ['isotropic', { kernel: 'isotropic' }]];
const r = 0.0015, R = 33 * r;

function genus(mesh: { positions: Float32Array; indices: Uint32Array }, shells: number): number {
  const nv = mesh.positions.length / 3, nt = mesh.indices.length / 3;
  const used = new Uint8Array(nv);
  for (const i of mesh.indices) used[i] = 1;
  let V = 0;
  for (let v = 0; v < nv; v++) V += used[v];
  return shells - (V - (3 * nt) / 2 + nt) / 2;
}

for (const [name, options] of variants) {
  for (const layers of layerList) {
    for (const drop of drops) {
      for (const spacing of spacings) {
        const sheet = drapedSheet(r, R, { layers, spacing, drop });
        const t0 = process.cpuUsage();
        const mesh = particleSurface({ count: sheet.count, positions: sheet.positions, radius: r }, defaults, options);
        const dt = process.cpuUsage(t0);
        const rep = checkMesh(mesh);
        console.log(
          `${name}: ${layers} layer${layers > 1 ? 's' : ''}, spacing ${spacing} r${drop ? `, drop ${drop} r` : ''}: ${rep.shells} shells, ${genus(mesh, rep.shells)} handles, ` +
            `open ${(100 * openShare(mesh, 4000)).toFixed(2)} %, volume ${(rep.volume / (sheet.count * 8 * r ** 3)).toFixed(3)}, ${sheet.count} particles, ${((dt.user + dt.system) / 1000).toFixed(0)} ms`,
        );
      }
    }
  }
}
